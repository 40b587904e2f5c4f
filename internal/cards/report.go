package cards

import (
	"context"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/store"
)

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// RelationInfo is one relation of a card, seen from that card.
type RelationInfo struct {
	Type      string `json:"type"`
	Direction string `json:"direction"` // outgoing (declared by this card) or incoming
	Card      string `json:"card"`      // the card at the other end
	Status    string `json:"status,omitempty"`
	Summary   string `json:"summary,omitempty"`
	Missing   bool   `json:"missing,omitempty"` // no card file defines it
}

// LinkInfo is one @see link to a card and the entity it belongs to.
type LinkInfo struct {
	Entity Entity            `json:"entity"`
	At     protocol.Location `json:"at"` // where the key is written
}

// CardDetail is a card with everything linked to it.
type CardDetail struct {
	Key         string         `json:"key"`
	Path        string         `json:"path"`
	Summary     string         `json:"summary"`
	Status      string         `json:"status"`
	Tags        []string       `json:"tags"`
	Keywords    []string       `json:"keywords"`
	Constraints []string       `json:"constraints"`
	Body        string         `json:"body"`
	Relations   []RelationInfo `json:"relations"`
	Links       []LinkInfo     `json:"links"`
	// Duplicates are other files that define the same key.
	Duplicates []string `json:"duplicates,omitempty"`
}

// EntityDetail is a code entity with the cards linked to it (directly, or
// through what encloses it: its class, its file).
type EntityDetail struct {
	Entity Entity       `json:"entity"`
	Cards  []LinkedCard `json:"cards"`
}

// LinkedCard is a card linked to a code entity.
type LinkedCard struct {
	Key     string            `json:"key"`
	Status  string            `json:"status,omitempty"`
	Summary string            `json:"summary,omitempty"`
	Missing bool              `json:"missing,omitempty"`
	Via     string            `json:"via"` // the entity the @see belongs to
	At      protocol.Location `json:"at"`
}

// Relations lists a card's relations: outgoing, incoming or both (dir ""),
// optionally of some types only; ordered as declared, outgoing first.
func (v *View) Relations(key, dir string, types []string) ([]RelationInfo, error) {
	if v.m.card(key) == nil && len(v.m.rels[key]) == 0 {
		return nil, v.noCard(key)
	}
	out := []RelationInfo{}
	for _, r := range v.m.rels[key] {
		d := "outgoing"
		if r.Reverse {
			d = "incoming"
		}
		if dir != "" && dir != "both" && dir != d || len(types) > 0 && !slices.Contains(types, r.Type) {
			continue
		}
		ri := RelationInfo{Type: r.Type, Direction: d, Card: r.Dst}
		if c := v.m.card(r.Dst); c != nil {
			ri.Status, ri.Summary = c.Status, c.Summary
		} else {
			ri.Missing = true
		}
		out = append(out, ri)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Direction == "outgoing" && out[j].Direction == "incoming" })
	return out, nil
}

// Links lists the links to a card with the entities they belong to.
func (v *View) Links(ctx context.Context, key string) ([]LinkInfo, error) {
	out := []LinkInfo{}
	for _, l := range v.m.linksOf(key) {
		e, err := v.linkEntity(ctx, l)
		if err != nil {
			return nil, err
		}
		out = append(out, LinkInfo{Entity: *e, At: linkLoc(l)})
	}
	return out, nil
}

func linkLoc(l store.CardLink) protocol.Location {
	return protocol.Location{Path: protocol.RepoPath(l.Path), Line: l.Line, Col: l.Col, EndLine: l.Line, EndCol: l.Col + len(l.Key)}
}

// Card returns a card with its body, relations and links.
func (v *View) Card(ctx context.Context, key string) (*CardDetail, error) {
	c := v.m.card(key)
	if c == nil {
		return nil, v.noCard(key)
	}
	body, err := v.r.CardBody(ctx, c.ID)
	if err != nil {
		return nil, err
	}
	d := &CardDetail{Key: c.Key, Path: c.Path, Summary: c.Summary, Status: c.Status, Tags: nonNil(c.Tags), Keywords: nonNil(c.Keywords),
		Constraints: nonNil(c.Constraints), Body: strings.TrimLeft(body, "\r\n")}
	if d.Relations, err = v.Relations(key, "", nil); err != nil {
		return nil, err
	}
	if d.Links, err = v.Links(ctx, key); err != nil {
		return nil, err
	}
	for _, o := range v.m.byKey[key][1:] {
		d.Duplicates = append(d.Duplicates, o.Path)
	}
	return d, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// EntityCards returns a code entity with the cards linked to it.
func (v *View) EntityCards(ctx context.Context, key string) (*EntityDetail, error) {
	e, err := v.Entity(ctx, key)
	if err != nil {
		return nil, err
	}
	return v.entityDetail(ctx, e)
}

func (v *View) entityDetail(ctx context.Context, e *Entity) (*EntityDetail, error) {
	links, err := v.enclosingLinks(ctx, e)
	if err != nil {
		return nil, err
	}
	d := &EntityDetail{Entity: *e, Cards: []LinkedCard{}}
	for _, l := range links {
		owner, err := v.linkEntity(ctx, l)
		if err != nil {
			return nil, err
		}
		lc := LinkedCard{Key: l.Key, Via: owner.Key, At: linkLoc(l)}
		if c := v.m.card(l.Key); c != nil {
			lc.Status, lc.Summary = c.Status, c.Summary
		} else {
			lc.Missing = true
		}
		d.Cards = append(d.Cards, lc)
	}
	return d, nil
}

// CardsOfSymbol returns the cards linked to a symbol (by id), to what
// encloses it or to its file; nil when the symbol is gone.
func (v *View) CardsOfSymbol(ctx context.Context, id int64) ([]LinkedCard, error) {
	e, err := v.symbolEntity(ctx, id)
	if err != nil || e == nil {
		return nil, err
	}
	d, err := v.entityDetail(ctx, e)
	if err != nil {
		return nil, err
	}
	return d.Cards, nil
}

// CardsOfFiles returns the cards linked anywhere in the given files, by
// key, with the number of links each.
func (v *View) CardsOfFiles(paths []string) map[string]int {
	out := map[string]int{}
	for _, p := range paths {
		for _, i := range v.m.byPath[p] {
			out[v.m.links[i].Key]++
		}
	}
	return out
}

// Summary is a card in a list.
type Summary struct {
	Key      string   `json:"key"`
	Path     string   `json:"path"`
	Status   string   `json:"status"`
	Summary  string   `json:"summary"`
	Tags     []string `json:"tags"`
	Keywords []string `json:"keywords"`
	Links    int      `json:"links"`
}

func (v *View) summary(c *CardInfo) Summary {
	return Summary{Key: c.Key, Path: c.Path, Status: c.Status, Summary: c.Summary, Tags: nonNil(c.Tags), Keywords: nonNil(c.Keywords),
		Links: len(v.m.byLink[c.Key])}
}

// ListFilter selects cards: every condition given must hold.
type ListFilter struct {
	Statuses []string
	Tags     []string // every one of them
	Keywords []string // every one of them
	Prefix   string   // key prefix
	// Unlinked keeps cards no code links to.
	Unlinked bool
}

func (f ListFilter) keeps(v *View, c *CardInfo) bool {
	switch {
	case c.Key == "":
		return false
	case len(f.Statuses) > 0 && !slices.Contains(f.Statuses, c.Status):
		return false
	case f.Prefix != "" && !strings.HasPrefix(c.Key, f.Prefix):
		return false
	case f.Unlinked && len(v.m.byLink[c.Key]) > 0:
		return false
	}
	for _, t := range f.Tags {
		if !slices.Contains(c.Tags, t) {
			return false
		}
	}
	for _, k := range f.Keywords {
		if !slices.Contains(c.Keywords, k) {
			return false
		}
	}
	return true
}

// List returns the cards a filter keeps, by key (one entry per key).
func (v *View) List(f ListFilter) []Summary {
	out := []Summary{}
	for _, c := range v.m.cards {
		if f.keeps(v, c) && (len(out) == 0 || out[len(out)-1].Key != c.Key) {
			out = append(out, v.summary(c))
		}
	}
	return out
}

// Hit is a search result: a card or a code entity.
type SearchHit struct {
	Type     string             `json:"type"` // card or code
	ID       string             `json:"id"`
	Status   string             `json:"status,omitempty"`
	Summary  string             `json:"summary,omitempty"`
	Kind     string             `json:"kind,omitempty"`
	QName    string             `json:"qualified_name,omitempty"`
	Location *protocol.Location `json:"location,omitempty"`
	// Cards are the cards linked to a code hit.
	Cards []string `json:"cards,omitempty"`
}

// terms splits a query into words.
func terms(q string) []string {
	return strings.FieldsFunc(q, func(r rune) bool { return unicode.IsSpace(r) || r == '"' })
}

// SearchCards finds cards whose key, summary or body hold every word of
// the query (trigram full-text search, ranked with the key first), then
// narrows them with a filter.
func (v *View) SearchCards(ctx context.Context, q string, f ListFilter, limit int) ([]SearchHit, error) {
	words := terms(q)
	if len(words) == 0 {
		return nil, errs.E(errs.InvalidArgument, "the query is empty")
	}
	var long, short []string
	for _, w := range words {
		if len([]rune(w)) >= 3 {
			long = append(long, `"`+w+`"`)
		} else {
			short = append(short, w)
		}
	}
	var ids []int64
	if len(long) > 0 {
		var err error
		// Ask for more than the limit: the filter and short words drop some.
		if ids, err = v.r.SearchCards(ctx, strings.Join(long, " "), limit*4+50); err != nil {
			return nil, err
		}
	} else {
		for _, c := range v.m.cards {
			ids = append(ids, c.ID)
		}
	}
	byID := map[int64]*CardInfo{}
	for _, c := range v.m.cards {
		byID[c.ID] = c
	}
	out := []SearchHit{}
	seen := map[string]bool{}
	for _, id := range ids {
		c := byID[id]
		if c == nil || seen[c.Key] || !f.keeps(v, c) {
			continue
		}
		if len(short) > 0 {
			text := c.Key + " " + c.Summary
			ok := true
			for _, w := range short {
				ok = ok && containsFold(text, w)
			}
			if !ok {
				continue
			}
		}
		seen[c.Key] = true
		out = append(out, SearchHit{Type: "card", ID: c.Key, Status: c.Status, Summary: c.Summary})
		if len(out) >= limit {
			break
		}
	}
	return out, nil
}

// SearchCode finds code entities by name (the index's ranked substring
// search over symbol names, with the longest word of the query), each
// with the cards linked to it.
func (v *View) SearchCode(ctx context.Context, q string, limit int) ([]SearchHit, error) {
	words := terms(q)
	if len(words) == 0 {
		return nil, errs.E(errs.InvalidArgument, "the query is empty")
	}
	word := words[0]
	for _, w := range words {
		if len(w) > len(word) {
			word = w
		}
	}
	rows, _, err := v.r.SearchSymbols(ctx, store.SymbolSearch{Sub: word, Limit: limit, ExactBonus: 100})
	if err != nil {
		return nil, err
	}
	out := []SearchHit{}
	for _, row := range rows {
		e, err := v.symbolEntity(ctx, row.ID)
		if err != nil {
			return nil, err
		}
		if e == nil {
			continue
		}
		loc := e.Location
		h := SearchHit{Type: "code", ID: e.Key, Kind: e.Kind, QName: e.QName, Location: &loc}
		d, err := v.entityDetail(ctx, e)
		if err != nil {
			return nil, err
		}
		for _, c := range d.Cards {
			if !slices.Contains(h.Cards, c.Key) {
				h.Cards = append(h.Cards, c.Key)
			}
		}
		out = append(out, h)
	}
	return out, nil
}

// Coverage is how much code a card has, and what its status expects.
type Coverage struct {
	Key    string     `json:"key"`
	Status string     `json:"status"`
	Linked int        `json:"linked"` // links to the card
	Files  int        `json:"files"`  // distinct files linking to it
	Links  []LinkInfo `json:"links"`
	// Verdict: ok, warning (a confirmed card without code) or error (an
	// implemented card without code); none for drafts and deprecated cards.
	Verdict string `json:"verdict"`
	Message string `json:"message,omitempty"`
}

// verdict is what a card's status expects of its links.
func verdict(status string, linked int) (string, string) {
	switch {
	case linked > 0 || status == StatusDraft || status == StatusDeprecated:
		if linked == 0 {
			return "none", ""
		}
		return "ok", ""
	case status == StatusImplemented:
		return "error", "marked implemented, but no code links to it with @see"
	case status == StatusAccepted:
		return "warning", "accepted, but no code links to it yet"
	case status == StatusImplementing:
		return "warning", "being implemented, but no code links to it yet"
	}
	return "none", ""
}

// CardCoverage reports one card's coverage.
func (v *View) CardCoverage(ctx context.Context, key string) (*Coverage, error) {
	c := v.m.card(key)
	if c == nil {
		return nil, v.noCard(key)
	}
	links, err := v.Links(ctx, key)
	if err != nil {
		return nil, err
	}
	files := map[protocol.RepoPath]bool{}
	for _, l := range links {
		files[l.At.Path] = true
	}
	cov := &Coverage{Key: key, Status: c.Status, Linked: len(links), Files: len(files), Links: links}
	cov.Verdict, cov.Message = verdict(c.Status, len(links))
	return cov, nil
}

// StatusCoverage counts the cards of one status with and without code.
type StatusCoverage struct {
	Status   string `json:"status"`
	Cards    int    `json:"cards"`
	Linked   int    `json:"linked"`
	Unlinked int    `json:"unlinked"`
}

// Overview is the coverage of every card.
type Overview struct {
	Cards    int              `json:"cards"`
	Linked   int              `json:"linked"`
	ByStatus []StatusCoverage `json:"by_status"`
	// Problems are the cards whose status expects code that has none.
	Problems []Coverage `json:"problems"`
}

// AllCoverage reports the coverage of every card.
func (v *View) AllCoverage() *Overview {
	o := &Overview{ByStatus: []StatusCoverage{}, Problems: []Coverage{}}
	by := map[string]*StatusCoverage{}
	for _, s := range Statuses {
		by[s] = &StatusCoverage{Status: s}
	}
	for _, s := range v.List(ListFilter{}) {
		sc := by[s.Status]
		if sc == nil {
			continue
		}
		o.Cards++
		sc.Cards++
		if s.Links > 0 {
			o.Linked++
			sc.Linked++
		} else {
			sc.Unlinked++
		}
		if vd, msg := verdict(s.Status, s.Links); vd == "error" || vd == "warning" {
			o.Problems = append(o.Problems, Coverage{Key: s.Key, Status: s.Status, Links: []LinkInfo{}, Verdict: vd, Message: msg})
		}
	}
	for _, s := range Statuses {
		o.ByStatus = append(o.ByStatus, *by[s])
	}
	return o
}

// UnlinkedCode lists the code files (of languages whose comments can hold
// links) that no @see links, by path.
func (v *View) UnlinkedCode(ctx context.Context) ([]string, int, error) {
	files, err := v.r.Files(ctx)
	if err != nil {
		return nil, 0, err
	}
	out := []string{}
	total := 0
	for _, f := range files {
		if !codeFile(f) {
			continue
		}
		total++
		if len(v.m.byPath[f.Path]) == 0 {
			out = append(out, f.Path)
		}
	}
	return out, total, nil
}

// codeFile reports whether a file is code that may link to cards (not a
// data file).
func codeFile(f store.FileRow) bool {
	return SupportsLinks(f.Lang) && f.Lang != "yaml" && f.Lang != "toml"
}

// Counts summarises the cards of a repository for an overview (map_repo).
type Counts struct {
	Cards         int            `json:"cards"`
	ByStatus      map[string]int `json:"by_status"`
	LinkedFiles   int            `json:"linked_files"`   // code files with at least one @see
	UnlinkedFiles int            `json:"unlinked_files"` // code files with none
}

// Count summarises the cards.
func (v *View) Count(ctx context.Context) (*Counts, error) {
	c := &Counts{ByStatus: map[string]int{}}
	for _, s := range v.List(ListFilter{}) {
		c.Cards++
		c.ByStatus[s.Status]++
	}
	unlinked, total, err := v.UnlinkedCode(ctx)
	if err != nil {
		return nil, err
	}
	c.UnlinkedFiles, c.LinkedFiles = len(unlinked), total-len(unlinked)
	return c, nil
}

// Registered lists a registry's names (keywords or tags), with how many
// cards use each.
func (v *View) Registered(kind uint8) []RegistryUse {
	out := []RegistryUse{}
	for _, e := range v.m.registry[kind] {
		out = append(out, RegistryUse{Entry: e})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	for i := range out {
		for _, c := range v.m.cards {
			names := c.Keywords
			if kind == store.LabelTag {
				names = c.Tags
			}
			if slices.Contains(names, out[i].Name) {
				out[i].Cards++
			}
		}
	}
	return out
}

// RegistryUse is a registered name and how many cards name it.
type RegistryUse struct {
	Entry
	Cards int `json:"cards"`
}
