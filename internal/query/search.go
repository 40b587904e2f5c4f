package query

import (
	"context"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lexical"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/scan"
	"github.com/cairnhq/cairn/internal/store"
)

// SearchParams is one search (DESIGN §6a "Search modes").
type SearchParams struct {
	Query      string
	Mode       string // lexical (default), symbol, definitions
	Regex      bool
	Word       bool
	IgnoreCase bool
	Paths      []string // globs
	Langs      []string
	Kinds      []string
	Limit      int
	Offset     int
}

// SearchHit is one result. Lexical hits carry a snippet; symbol hits a symbol.
type SearchHit struct {
	Location  protocol.Location `json:"location"`
	Snippet   string            `json:"snippet,omitempty"`
	Symbol    *SymbolRef        `json:"symbol,omitempty"`
	Signature string            `json:"signature,omitempty"`
	Score     int               `json:"score,omitempty"`
	// Tier and Layer say who vouches for a symbol hit's definition: the
	// semantic layer (precise) or the syntactic one (proven). Lexical hits
	// are text and carry neither.
	Tier  string `json:"tier,omitempty"`
	Layer string `json:"layer,omitempty"`
}

// SearchResult is a page of hits.
type SearchResult struct {
	Mode  string      `json:"mode"`
	Query string      `json:"query"`
	Hits  []SearchHit `json:"results"`
	// Files is the number of files that matched (lexical, case-sensitive
	// literal: exact) or that may match (other lexical searches).
	Files      int  `json:"files"`
	FilesExact bool `json:"files_exact"`
	// Total is the number of matching symbols (symbol modes), capped at TotalCap.
	Total int  `json:"total,omitempty"`
	More  bool `json:"more"`
	// NextOffset continues the listing when More is set.
	NextOffset int `json:"-"`
	// BytesCovered estimates what a text search would have printed.
	BytesCovered int64 `json:"-"`
	// Partial is set when the deadline stopped the search early.
	Partial bool `json:"-"`
}

// snippetMax caps the length of a snippet line.
const snippetMax = 200

// TotalCap caps symbol match counting.
const TotalCap = 10000

// Search runs a symbol, definitions or lexical search.
func (e *Engine) Search(ctx context.Context, p SearchParams) (*SearchResult, error) {
	if strings.TrimSpace(p.Query) == "" {
		return nil, errs.E(errs.InvalidArgument, "empty search query")
	}
	filter, err := NewFileFilter(p.Paths, p.Langs)
	if err != nil {
		return nil, err
	}
	switch p.Mode {
	case "", "lexical":
		p.Mode = "lexical"
		if len(p.Query) > MaxQueryBytes {
			return nil, errs.TooLong("query", p.Query, MaxQueryBytes)
		}
		return e.searchLexical(ctx, p, filter)
	case "symbol":
		if err := checkName("query", p.Query); err != nil {
			return nil, err
		}
		return e.searchSymbols(ctx, p, filter)
	case "definitions":
		if err := checkName("query", p.Query); err != nil {
			return nil, err
		}
		return e.searchDefinitions(ctx, p, filter)
	}
	return nil, errs.E(errs.InvalidArgument, "unknown search mode %q (lexical, symbol, definitions, references)", p.Mode)
}

// FileFilter applies path globs and languages.
type FileFilter struct {
	globs []*lexical.Glob
	langs map[string]bool
}

// NewFileFilter compiles path globs and language names (aliases such as ts
// and py accepted); empty lists keep everything.
func NewFileFilter(paths, langs []string) (*FileFilter, error) {
	f := &FileFilter{}
	for _, p := range paths {
		if err := scan.CheckPatternLength(p); err != nil {
			return nil, err
		}
		g, err := lexical.CompileGlob(p)
		if err != nil {
			return nil, errs.E(errs.InvalidArgument, "bad path glob %q: %v", p, err)
		}
		f.globs = append(f.globs, g)
	}
	if len(langs) > 0 {
		f.langs = map[string]bool{}
		for _, l := range langs {
			l = strings.ToLower(l)
			language := lang.Named(l)
			if language == nil {
				return nil, errs.E(errs.InvalidArgument, "unknown language %q", l)
			}
			f.langs[language.Name] = true
			for _, d := range language.Dialects {
				f.langs[d] = true
			}
		}
	}
	return f, nil
}

// Match reports whether a file passes the filter.
func (f *FileFilter) Match(p, language string) bool {
	if f == nil {
		return true
	}
	if f.langs != nil && !f.langs[language] {
		return false
	}
	if len(f.globs) == 0 {
		return true
	}
	for _, g := range f.globs {
		if g.Match(p) {
			return true
		}
	}
	return false
}

func (f *FileFilter) active() bool { return f.langs != nil || len(f.globs) > 0 }

// CKB §16.2 ranking weights.
var (
	kindWeight = map[uint8]int{
		uint8(lang.KindClass): 25, uint8(lang.KindInterface): 25, uint8(lang.KindStruct): 25, uint8(lang.KindType): 20,
		uint8(lang.KindEnum): 20, uint8(lang.KindFunction): 20, uint8(lang.KindMethod): 15, uint8(lang.KindConstructor): 15,
		uint8(lang.KindField): 10, uint8(lang.KindProperty): 10, uint8(lang.KindEnumMember): 8,
		uint8(lang.KindVariable): 5, uint8(lang.KindConstant): 5, uint8(lang.KindNamespace): 20, uint8(lang.KindModule): 20,
	}
	visWeight = map[uint8]int{uint8(lang.VisPublic): 30, uint8(lang.VisInternal): 20, uint8(lang.VisPrivate): 10, uint8(lang.VisUnknown): 5}
)

const exactBonus = 100

// confidence is the backend-confidence term of the ranking: the same for every
// syntactic symbol, so it does not reorder results, but it keeps scores on the
// documented scale.
const confidence = 20

func parseKinds(kinds []string) ([]uint8, error) {
	var out []uint8
	for _, k := range kinds {
		dk, ok := lang.ParseKind(strings.ToLower(k))
		if !ok {
			return nil, errs.E(errs.InvalidArgument, "unknown kind %q", k)
		}
		out = append(out, uint8(dk))
	}
	return out, nil
}

// searchSymbols finds symbols whose name contains the query; a query that
// finds none and is qualified (Server.Serv, Parser::parse) finds the
// symbols whose name contains its last part, declared in a container
// whose qualified name ends with the rest.
func (e *Engine) searchSymbols(ctx context.Context, p SearchParams, filter *FileFilter) (*SearchResult, error) {
	if in, name, ok := qualifiedQuery(p.Query); ok {
		// Decided by the query alone, so every page reads it the same way.
		n, err := e.Store().CountSymbols(ctx, store.SymbolSearch{Sub: p.Query}, 1)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return e.searchSymbolsIn(ctx, p, filter, name, in)
		}
	}
	return e.searchSymbolsIn(ctx, p, filter, p.Query, "")
}

// qualifiedQuery splits a dotted (or language-spelled) query into its
// container and its last part.
func qualifiedQuery(query string) (in, name string, ok bool) {
	readings := respellings(query)
	dotted := readings[len(readings)-1]
	i := strings.LastIndexAny(dotted, ".#")
	if i <= 0 || i == len(dotted)-1 {
		return "", "", false
	}
	return dotted[:i], dotted[i+1:], true
}

// containedIn reports whether a symbol's container, its qualified name
// without the name, ends with in at a name boundary, ignoring case.
func containedIn(row store.SymbolRow, in string) bool {
	container, ok := strings.CutSuffix(row.QName, row.Name)
	if !ok || container == "" {
		return false
	}
	return hasSuffixAtBoundary(strings.ToLower(container[:len(container)-1]), strings.ToLower(in))
}

func (e *Engine) searchSymbolsIn(ctx context.Context, p SearchParams, filter *FileFilter, sub, in string) (*SearchResult, error) {
	kinds, err := parseKinds(p.Kinds)
	if err != nil {
		return nil, err
	}
	q := store.SymbolSearch{Sub: sub, Kinds: kinds, KindWeight: kindWeight, VisWeight: visWeight, ExactBonus: exactBonus}
	fetch := p.Offset + p.Limit + 1
	if filter.active() || in != "" {
		fetch = (p.Offset + p.Limit + 1) * 8
	}
	q.Limit = fetch
	rows, scores, err := e.Store().SearchSymbols(ctx, q)
	if err != nil {
		return nil, err
	}
	if rows, scores, err = e.ovSearchSymbols(ctx, q, rows, scores); err != nil {
		return nil, err
	}
	res := &SearchResult{Mode: "symbol", Query: p.Query, Hits: []SearchHit{}, FilesExact: true}
	skipped := 0
	for i, row := range rows {
		if in != "" && !containedIn(row, in) {
			continue // decided by the row, before it is loaded
		}
		r, err := e.Load(ctx, row)
		if err != nil {
			return nil, err
		}
		if r == nil || !filter.Match(r.File.Path, r.File.Lang) {
			continue
		}
		if skipped < p.Offset {
			skipped++
			continue
		}
		if len(res.Hits) == p.Limit {
			res.More = true
			break
		}
		ref := r.Ref()
		hit := SearchHit{Location: ref.Location, Symbol: &ref, Score: scores[i] + confidence}
		if r.Def != nil {
			hit.Signature = r.Def.Signature
		}
		res.Hits = append(res.Hits, hit)
	}
	res.NextOffset = p.Offset + len(res.Hits)
	if !filter.active() && in == "" {
		res.Total, _ = e.Store().CountSymbols(ctx, q, TotalCap)
	}
	return res, e.annotateLayers(ctx, res.Hits)
}

func (e *Engine) searchDefinitions(ctx context.Context, p SearchParams, filter *FileFilter) (*SearchResult, error) {
	kinds, err := parseKinds(p.Kinds)
	if err != nil {
		return nil, err
	}
	rows, err := e.spelledCandidates(ctx, p.Query)
	if err != nil {
		return nil, err
	}
	res := &SearchResult{Mode: "definitions", Query: p.Query, Hits: []SearchHit{}, FilesExact: true}
	var hits []SearchHit
	for _, row := range rows {
		if len(kinds) > 0 && !slices.Contains(kinds, row.Kind) {
			continue
		}
		r, err := e.Load(ctx, row)
		if err != nil {
			return nil, err
		}
		if r == nil || !filter.Match(r.File.Path, r.File.Lang) {
			continue
		}
		ref := r.Ref()
		hit := SearchHit{Location: ref.Location, Symbol: &ref}
		if r.Def != nil {
			hit.Signature = r.Def.Signature
		}
		hits = append(hits, hit)
	}
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := hits[i].Location, hits[j].Location
		if ta, tb := IsTestFile(string(a.Path)), IsTestFile(string(b.Path)); ta != tb {
			return !ta
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Line < b.Line
	})
	res.Total = len(hits)
	files := map[protocol.RepoPath]bool{}
	for _, h := range hits {
		files[h.Location.Path] = true
	}
	res.Files = len(files)
	hits, res.More = Page(hits, p.Offset, p.Limit)
	res.Hits = append(res.Hits, hits...)
	res.NextOffset = p.Offset + len(res.Hits)
	return res, e.annotateLayers(ctx, res.Hits)
}

// annotateLayers says, for each symbol hit, which layer vouches for it.
func (e *Engine) annotateLayers(ctx context.Context, hits []SearchHit) error {
	ids := make([]int64, 0, len(hits))
	for _, h := range hits {
		if h.Symbol != nil {
			if id, ok := h.Symbol.ID.Hash(); ok {
				ids = append(ids, id)
			}
		}
	}
	v, err := e.Semantic(ctx)
	if err != nil {
		return err
	}
	precise, err := e.symbolLayer(ctx, v, ids)
	if err != nil {
		return err
	}
	for i := range hits {
		if hits[i].Symbol == nil {
			continue
		}
		hits[i].Tier, hits[i].Layer = index.TierProven.String(), LayerSyntactic
		if id, ok := hits[i].Symbol.ID.Hash(); ok && precise[id] {
			hits[i].Tier, hits[i].Layer = index.TierPrecise.String(), LayerSemantic
		}
	}
	return nil
}

// maxScanBytes bounds how much content one lexical page verifies before it
// stops and reports that more may exist.
const maxScanBytes = 64 << 20

func (e *Engine) searchLexical(ctx context.Context, p SearchParams, filter *FileFilter) (*SearchResult, error) {
	m, err := lexical.Compile(lexical.Query{Text: p.Query, Regex: p.Regex, Word: p.Word, IgnoreCase: p.IgnoreCase})
	if err != nil {
		return nil, err
	}
	lit, exact := m.Prefilter()
	var cands []store.TextHit
	if lit != "" {
		cands, err = e.Store().TrigramCandidates(ctx, lit)
	} else {
		cands, err = e.Store().TextCandidates(ctx, "", false, 1<<30)
	}
	if err != nil {
		return nil, err
	}
	kept := cands[:0]
	for _, c := range cands {
		if filter.Match(c.Path, c.Lang) {
			kept = append(kept, c)
		}
	}
	cands = e.ovTextHits(kept, filter)
	defines := e.rankFiles(ctx, p.Query, p.IgnoreCase, cands)
	res := &SearchResult{Mode: "lexical", Query: p.Query, Hits: []SearchHit{}, Files: len(cands)}
	_ = exact
	skip := p.Offset
	var scanned int64
	for i, c := range cands {
		if ctx.Err() != nil { // the deadline: answer with what was found
			res.Partial, res.More = true, true
			break
		}
		content, err := e.candidateText(ctx, c)
		if err != nil && ctx.Err() != nil {
			res.Partial, res.More = true, true
			break
		}
		if err != nil {
			return nil, err
		}
		scanned += int64(len(content))
		if !m.MayMatch(content) {
			continue
		}
		want := skip + p.Limit - len(res.Hits) + 1
		if defines[c.FileID] {
			want = 0 // all of them: definition sites move to the front
		}
		matches, more := m.Find(content, want)
		if defines[c.FileID] {
			matches = e.definitionsFirst(ctx, c.BlobID, matches)
		}
		for _, mt := range matches {
			if skip > 0 {
				skip--
				continue
			}
			if len(res.Hits) == p.Limit {
				res.More = true
				break
			}
			res.Hits = append(res.Hits, SearchHit{
				Location: protocol.Location{Path: protocol.RepoPath(c.Path), Line: mt.Line, Col: mt.Col, EndLine: mt.EndLine, EndCol: mt.EndCol},
				Snippet:  snippet(lexical.LineText(content, mt.Line), mt.Col),
			})
		}
		if more && len(res.Hits) == p.Limit {
			res.More = true
		}
		if res.More || (len(res.Hits) == p.Limit && i < len(cands)-1) {
			res.More = true
			break
		}
		if scanned > maxScanBytes {
			res.More = i < len(cands)-1
			break
		}
	}
	res.BytesCovered = int64(len(cands)) * 120 // at least one grep line per matching file
	res.NextOffset = p.Offset + len(res.Hits)
	return res, nil
}

// rankFiles orders lexical candidates: files that define a symbol with the
// searched name first, then non-test files, shallower paths, then by path.
func (e *Engine) rankFiles(ctx context.Context, q string, fold bool, cands []store.TextHit) map[int64]bool {
	defines := map[int64]bool{}
	if isIdentLike(q) {
		if ids, err := e.Store().FilesDefining(ctx, q, fold); err == nil {
			defines = ids
		}
	}
	// each candidate's keys once: a comparison must not classify paths
	type ranked struct {
		hit       store.TextHit
		def, test bool
		depth     int
	}
	rs := make([]ranked, len(cands))
	for i, c := range cands {
		rs[i] = ranked{c, defines[c.FileID], IsTestFile(c.Path), strings.Count(c.Path, "/")}
	}
	sort.SliceStable(rs, func(i, j int) bool {
		a, b := &rs[i], &rs[j]
		if a.def != b.def {
			return a.def
		}
		if a.test != b.test {
			return !a.test
		}
		if a.depth != b.depth {
			return a.depth < b.depth
		}
		return a.hit.Path < b.hit.Path
	})
	for i := range rs {
		cands[i] = rs[i].hit
	}
	return defines
}

// definitionsFirst moves matches that start at a definition's name to the front.
func (e *Engine) definitionsFirst(ctx context.Context, blobID int64, ms []lexical.Match) []lexical.Match {
	facts, err := e.Facts(ctx, blobID)
	if err != nil || facts == nil {
		return ms
	}
	at := map[[2]int]bool{}
	for _, d := range facts.Defs {
		at[[2]int{int(d.NameSpan.Start.Line), int(d.NameSpan.Start.Col)}] = true
	}
	sort.SliceStable(ms, func(i, j int) bool {
		return at[[2]int{ms[i].Line, ms[i].Col}] && !at[[2]int{ms[j].Line, ms[j].Col}]
	})
	return ms
}

func isIdentLike(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// snippet trims a line around a match column to snippetMax bytes.
func snippet(line string, col int) string {
	line = strings.TrimRight(line, " \t")
	trimmed := strings.TrimLeft(line, " \t")
	col -= len(line) - len(trimmed)
	line = trimmed
	if len(line) <= snippetMax {
		return line
	}
	start := max(0, col-1-snippetMax/2)
	end := min(len(line), start+snippetMax)
	for start > 0 && !utf8.RuneStart(line[start]) {
		start--
	}
	for end < len(line) && !utf8.RuneStart(line[end]) {
		end++
	}
	out := line[start:end]
	if start > 0 {
		out = "…" + out
	}
	if end < len(line) {
		out += "…"
	}
	return out
}
