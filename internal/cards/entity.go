package cards

import (
	"context"
	"sort"
	"strconv"
	"strings"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/store"
)

// Code entities are named by keys with a colon, which no card key holds:
// module:<path> for a file and symbol:<path>#<lexical path> for one of its
// definitions (~N appended for the Nth same-named sibling). Symbol ids
// (sym_...) name the same definitions.

// View is one request's view of the cards: the card model of the
// request's snapshot and the code index behind it.
type View struct {
	snap *index.Snapshot
	r    *store.Reader
	m    *model
	cfg  config.CardsConfig
	// vd holds what requests on the same version share: file rows,
	// symbols and entities resolved so far, the import map.
	vd *versionData
}

// Open gives a request its view of the cards.
func Open(ctx context.Context, snap *index.Snapshot) (*View, error) {
	m, err := loadModel(ctx, snap)
	if err != nil {
		return nil, err
	}
	cfg := snap.Index().Config().Cards
	if len(cfg.Relations) == 0 {
		cfg.Relations = DefaultRelations
	}
	return &View{snap: snap, r: snap.Store(), m: m, cfg: cfg, vd: dataFor(snap.Version())}, nil
}

// Entity is a code entity: a file (module) or a definition in it.
type Entity struct {
	Key      string            `json:"key"`
	Kind     string            `json:"kind"` // module, or the definition's kind
	Name     string            `json:"name,omitempty"`
	QName    string            `json:"qualified_name,omitempty"`
	SymbolID protocol.SymbolID `json:"symbol_id,omitempty"`
	Location protocol.Location `json:"location"`

	file store.FileRow
	def  int   // -1 for the module
	sym  int64 // 0 when the definition has no symbol row
}

// IsEntityKey reports whether a node name is a code entity rather than a card.
func IsEntityKey(s string) bool { return strings.Contains(s, ":") || strings.HasPrefix(s, "sym_") }

// ModuleKey is the entity key of a file.
func ModuleKey(path string) string { return "module:" + path }

func symbolKey(path string, d lang.Def) string {
	k := "symbol:" + path + "#" + d.Path
	if d.Dup > 0 {
		k += "~" + strconv.Itoa(int(d.Dup)+1)
	}
	return k
}

func (v *View) file(ctx context.Context, p string) (*store.FileRow, error) {
	return v.vd.files.load(p, func() (*store.FileRow, error) {
		row, ok, err := v.r.FileByPath(ctx, p)
		if err != nil || !ok {
			return nil, err
		}
		return &row, nil
	})
}

func (v *View) symbolsOf(ctx context.Context, fileID int64) ([]store.SymbolRow, error) {
	return v.vd.syms.load(fileID, func() ([]store.SymbolRow, error) { return v.r.SymbolsOfFile(ctx, fileID) })
}

// moduleEntity is the entity of a file (nil when the index has no such file).
func (v *View) moduleEntity(ctx context.Context, p string) (*Entity, error) {
	f, err := v.file(ctx, p)
	if err != nil || f == nil {
		return nil, err
	}
	return &Entity{Key: ModuleKey(p), Kind: "module", Name: p, Location: protocol.Location{Path: protocol.RepoPath(p), Line: 1, Col: 1, EndLine: 1, EndCol: 1},
		file: *f, def: -1}, nil
}

// defEntity is the entity of a file's definition (the module for def -1
// or a definition the file no longer has).
func (v *View) defEntity(ctx context.Context, p string, def int) (*Entity, error) {
	f, err := v.file(ctx, p)
	if err != nil || f == nil {
		return nil, err
	}
	if def < 0 {
		return v.moduleEntity(ctx, p)
	}
	facts, err := v.snap.Facts(ctx, f.BlobID)
	if err != nil {
		return nil, err
	}
	if facts == nil || def >= len(facts.Defs) {
		return v.moduleEntity(ctx, p)
	}
	d := facts.Defs[def]
	e := &Entity{Key: symbolKey(p, d), Kind: d.Kind.String(), Name: d.Name, QName: d.Path,
		Location: protocol.Location{Path: protocol.RepoPath(p), Line: int(d.Span.Start.Line), Col: int(d.Span.Start.Col),
			EndLine: int(d.Span.End.Line), EndCol: int(d.Span.End.Col)},
		file: *f, def: def}
	syms, err := v.symbolsOf(ctx, f.ID)
	if err != nil {
		return nil, err
	}
	for _, s := range syms {
		if s.DefIdx == def {
			e.sym, e.SymbolID, e.QName = s.ID, protocol.NewSymbolID(s.ID), s.QName
			break
		}
	}
	return e, nil
}

// symbolEntity is the entity of a symbol id (nil when it is gone).
func (v *View) symbolEntity(ctx context.Context, id int64) (*Entity, error) {
	return v.vd.byID.load(id, func() (*Entity, error) {
		e, err := v.lookupSymbol(ctx, id)
		if err == nil && e != nil {
			v.vd.ents.put(e.Key, e)
		}
		return e, err
	})
}

func (v *View) lookupSymbol(ctx context.Context, id int64) (*Entity, error) {
	s, ok, err := v.r.SymbolByID(ctx, id)
	if err != nil || !ok {
		return nil, err
	}
	f, ok, err := v.r.FileByID(ctx, s.FileID)
	if err != nil || !ok {
		return nil, err
	}
	v.vd.files.put(f.Path, &f)
	return v.defEntity(ctx, f.Path, s.DefIdx)
}

// Entity resolves an entity key or a symbol id.
func (v *View) Entity(ctx context.Context, key string) (*Entity, error) {
	return v.vd.ents.load(key, func() (*Entity, error) { return v.entity(ctx, key) })
}

func (v *View) entity(ctx context.Context, key string) (*Entity, error) {
	notFound := func() error {
		return &errs.Error{Kind: errs.NotFound, Msg: "no code entity " + key,
			Fixes: []string{"name a file as module:<path>, a definition as symbol:<path>#<Name.Path>, or a symbol id"}}
	}
	if id, ok := protocol.SymbolID(key).Hash(); ok {
		e, err := v.symbolEntity(ctx, id)
		if err == nil && e == nil {
			err = notFound()
		}
		return e, err
	}
	kind, rest, _ := strings.Cut(key, ":")
	switch kind {
	case "module":
		e, err := v.moduleEntity(ctx, rest)
		if err == nil && e == nil {
			err = notFound()
		}
		return e, err
	case "symbol":
		p, name, ok := strings.Cut(rest, "#")
		if !ok || name == "" {
			return nil, notFound()
		}
		f, err := v.file(ctx, p)
		if err != nil {
			return nil, err
		}
		if f == nil {
			return nil, notFound()
		}
		facts, err := v.snap.Facts(ctx, f.BlobID)
		if err != nil {
			return nil, err
		}
		if facts != nil {
			for i, d := range facts.Defs {
				if symbolKey(p, d) == key {
					return v.defEntity(ctx, p, i)
				}
			}
		}
	}
	return nil, notFound()
}

// linkEntity is the entity a link belongs to.
func (v *View) linkEntity(ctx context.Context, l store.CardLink) (*Entity, error) {
	e, err := v.defEntity(ctx, l.Path, l.Def)
	if err == nil && e != nil {
		if known, ok := v.vd.ents.get(e.Key); ok {
			return known, nil
		}
		v.vd.ents.put(e.Key, e)
	}
	if err == nil && e == nil {
		// The file left the index after the link was derived: cannot
		// happen within one snapshot, but say what it was.
		e = &Entity{Key: ModuleKey(l.Path), Kind: "module", Location: protocol.Location{Path: protocol.RepoPath(l.Path), Line: l.Line, Col: l.Col}, def: -1}
	}
	return e, err
}

// linksAt returns the links that belong to an entity itself.
func (v *View) linksAt(ctx context.Context, e *Entity) ([]store.CardLink, error) {
	var out []store.CardLink
	for _, i := range v.m.byPath[string(e.Location.Path)] {
		l := v.m.links[i]
		if l.Def == e.def {
			out = append(out, l)
		}
	}
	return out, nil
}

// enclosingLinks returns the links of an entity, of the definitions that
// enclose it and of its file: the cards a change to it touches.
func (v *View) enclosingLinks(ctx context.Context, e *Entity) ([]store.CardLink, error) {
	owners := map[int]bool{-1: true, e.def: true}
	if e.def >= 0 {
		facts, err := v.snap.Facts(ctx, e.file.BlobID)
		if err != nil {
			return nil, err
		}
		for d := e.def; facts != nil && d >= 0 && d < len(facts.Defs); d = int(facts.Defs[d].Parent) {
			owners[d] = true
		}
	}
	var out []store.CardLink
	for _, i := range v.m.byPath[string(e.Location.Path)] {
		if l := v.m.links[i]; owners[l.Def] {
			out = append(out, l)
		}
	}
	return out, nil
}

// codeEdge is a relation between two code entities.
type codeEdge struct {
	typ   string // imports, calls, extends, implements
	other string // the entity at the other end
	out   bool   // the entity at hand is the source
}

// edgeKinds of the index's edge table, as relation types.
var edgeNames = map[uint8]string{0: "calls", 1: "extends", 2: "implements", 3: "embeds"}

// codeEdges lists an entity's code relations: out (what it uses) and in
// (what uses it), each capped at limit.
func (v *View) codeEdges(ctx context.Context, e *Entity, out, in bool, limit int) ([]codeEdge, error) {
	var edges []codeEdge
	if e.def < 0 {
		if out {
			b, err := v.r.Imports(ctx, e.file.ID)
			if err != nil {
				return nil, err
			}
			imps, _ := index.DecodeImports(b)
			for _, im := range imps {
				if im.TargetPath == "" {
					continue
				}
				for _, p := range v.filesAt(ctx, im.TargetPath, e.file.Lang, limit) {
					if p != e.file.Path {
						edges = append(edges, codeEdge{typ: "imports", other: ModuleKey(p), out: true})
					}
				}
			}
		}
		if in {
			imps, err := v.vd.imps.of(ctx, v.r, e.file.Path)
			if err != nil {
				return nil, err
			}
			for _, p := range imps {
				if p != e.file.Path {
					edges = append(edges, codeEdge{typ: "imports", other: ModuleKey(p)})
				}
			}
		}
		return capEdges(edges, limit), nil
	}
	if e.sym == 0 {
		return nil, nil
	}
	ids := map[int64]codeEdge{}
	var order []int64
	add := func(rows []store.EdgeRow, outward bool) {
		for _, r := range rows {
			other := r.Src
			if outward {
				other = r.Dst
			}
			if other == e.sym {
				continue
			}
			if _, seen := ids[other]; !seen {
				ids[other] = codeEdge{typ: edgeNames[r.Kind], out: outward}
				order = append(order, other)
			}
		}
	}
	if out {
		rows, err := v.r.EdgesFrom(ctx, e.file.ID, e.sym, 0, 1, 2)
		if err != nil {
			return nil, err
		}
		add(rows, true)
	}
	if in {
		rows, err := v.r.EdgesTo(ctx, e.sym, 0, 1, 2)
		if err != nil {
			return nil, err
		}
		add(rows, false)
	}
	for _, id := range order {
		if len(edges) >= limit {
			break
		}
		o, err := v.symbolEntity(ctx, id)
		if err != nil {
			return nil, err
		}
		if o == nil {
			continue
		}
		ce := ids[id]
		ce.other = o.Key
		edges = append(edges, ce)
	}
	return edges, nil
}

// filesAt resolves an import target to files: the file itself, or the
// files of a directory (a Go package) in the same language.
func (v *View) filesAt(ctx context.Context, target, language string, limit int) []string {
	if f, _ := v.file(ctx, target); f != nil {
		return []string{target}
	}
	rows, err := v.r.FilesUnder(ctx, target+"/")
	if err != nil {
		return nil
	}
	var out []string
	for _, f := range rows {
		if lang.DirOf(f.Path) == target && f.Lang == language && !strings.HasSuffix(f.Path, "_test.go") {
			out = append(out, f.Path)
		}
	}
	sort.Strings(out)
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

func capEdges(edges []codeEdge, limit int) []codeEdge {
	sort.SliceStable(edges, func(i, j int) bool { return edges[i].other < edges[j].other })
	if len(edges) > limit {
		edges = edges[:limit]
	}
	return edges
}
