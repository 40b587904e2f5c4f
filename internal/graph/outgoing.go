package graph

import (
	"cmp"
	"context"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// outgoingCalls is what a node calls.
type outgoingCalls struct {
	calls      []call
	unresolved []UnresolvedCall
	dynamic    []DynamicCall
	external   []ExternalCall
}

// outgoing lists a node's calls (those whose innermost enclosing definition
// is the node): per call site the semantic layer's target when it describes
// the file as it is, else the syntactic link; calls of a function value, an
// interface method or a run-time name are dynamic; the rest are unresolved,
// grouped by name and receiver.
func (w *walker) outgoing(ctx context.Context, n *query.Resolved) (*outgoingCalls, error) {
	out := &outgoingCalls{}
	facts := n.Facts
	if facts == nil || n.Def == nil {
		return out, nil
	}
	links, err := w.fileLinks(ctx, n.File.ID)
	if err != nil {
		return nil, err
	}
	var doc *semDocOccs
	if w.layer != query.LayerSyntactic {
		if doc, err = w.semDoc(ctx, n.File.Path); err != nil {
			return nil, err
		}
	} else {
		w.used.syn = true
	}
	if w.layer == query.LayerSemantic && doc == nil {
		return out, nil
	}
	me := int32(n.Row.DefIdx)
	from := n.ID()
	type ukey struct{ name, recv string }
	unres := map[ukey]int{}
	type dkey struct {
		kind, name, recv string
		through          int64
	}
	dyn := map[dkey]int{}
	addDyn := func(k dkey, d DynamicCall) {
		if i, ok := dyn[k]; ok {
			out.dynamic[i].Count++
			return
		}
		dyn[k] = len(out.dynamic)
		out.dynamic = append(out.dynamic, d)
	}
	ext := map[string]int{}
	sites := map[lang.Pos]bool{} // dynamic sites are listed as such, not as calls
	for _, s := range facts.Dynamic {
		if s.Enclosing == me {
			sites[s.Pos] = true
		}
	}
	for i, ref := range facts.Refs {
		if ref.Role != lang.RoleCall || ref.Enclosing != me || sites[ref.Pos] {
			continue
		}
		name := facts.Names[ref.Name]
		site := query.RefLoc(n.File.Path, ref.Pos, name)
		target, tier, layer := int64(0), index.TierUnknown, query.LayerSyntactic
		if doc != nil {
			if o, ok := doc.byAt[ref.Pos]; ok {
				t, external, ok := w.e.SemTarget(ctx, doc.idx, o.Sym)
				switch {
				case ok && external != "":
					if j, seen := ext[external]; seen {
						out.external[j].Count++
					} else {
						ext[external] = len(out.external)
						out.external = append(out.external, ExternalCall{From: from, Symbol: external, Count: 1, Line: site.Line})
					}
					continue
				case ok:
					target, tier, layer = t, index.TierPrecise, query.LayerSemantic
				}
			}
		}
		if target == 0 && w.layer != query.LayerSemantic {
			if l, ok := links[i]; ok {
				target, tier = l.Target, l.Tier
			}
		}
		if target != 0 {
			c, d, ok, err := w.classify(ctx, n, target, tier, layer, site)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			if d != nil {
				var th int64
				if d.Through != nil {
					th, _ = index.ParseID(d.Through.ID)
				}
				addDyn(dkey{d.Kind, name, "", th}, *d)
			}
			if c.other != 0 {
				out.calls = append(out.calls, c)
				// Build variants of the callee: the build decides which runs.
				vars, err := w.variantRows(ctx, c.other)
				if err != nil {
					return nil, err
				}
				for _, v := range vars {
					if v.ID == c.other {
						continue
					}
					vc := c
					vc.other = v.ID
					if f, err := w.file(ctx, w.idx.syms[c.other].FileID); err == nil && f != nil {
						vc.via = f.Path
					}
					out.calls = append(out.calls, vc)
				}
			}
			continue
		}
		recv := ""
		if ref.Shape != lang.QualNone {
			recv = query.ShapeKey(facts, ref)
		}
		if ref.BindLocal >= 0 {
			d := DynamicCall{From: from, Kind: "value", Name: name, Count: 1, Line: site.Line, Candidates: []query.SymbolRef{},
				Tier: index.TierProven.String(), Layer: query.LayerSyntactic}
			if err := w.localCandidates(ctx, n, ref.BindLocal, &d); err != nil {
				return nil, err
			}
			addDyn(dkey{"value", name, "", 0}, d)
			continue
		}
		if d, ok, err := w.interfaceCall(ctx, n, ref, name, site); err != nil {
			return nil, err
		} else if ok {
			var th int64
			if d.Through != nil {
				th, _ = index.ParseID(d.Through.ID)
			}
			addDyn(dkey{"interface", name, recv, th}, *d)
			continue
		}
		k := ukey{name, recv}
		if j, ok := unres[k]; ok {
			out.unresolved[j].Count++
			continue
		}
		unres[k] = len(out.unresolved)
		out.unresolved = append(out.unresolved, UnresolvedCall{From: from, Name: name, Receiver: recv, Count: 1, Line: site.Line})
	}
	for i := range out.unresolved {
		u := &out.unresolved[i]
		n, err := w.sameName(ctx, u.Name)
		if err != nil {
			return nil, err
		}
		u.Candidates, u.Tier = n, index.TierAnchored.String()
		if n == 0 {
			u.Tier = index.TierUnknown.String()
		}
	}
	for _, s := range facts.Dynamic {
		if s.Enclosing != me {
			continue
		}
		site := protocol.Location{Path: protocol.RepoPath(n.File.Path), Line: int(s.Pos.Line), Col: int(s.Pos.Col),
			EndLine: int(s.Pos.Line), EndCol: int(s.Pos.Col) + len(s.Text)}
		out.dynamic = append(out.dynamic, DynamicCall{From: from, Kind: s.Kind.String(), Count: 1, Line: site.Line, Text: s.Text,
			Candidates: []query.SymbolRef{}, Tier: index.TierUnknown.String(), Layer: query.LayerSyntactic})
	}
	out.calls = mergeCalls(out.calls)
	return out, nil
}

// classify turns a resolved call target into an edge, or into a dynamic
// call when the target is a value (a field or variable holding a function)
// or an interface method. ok is false when the target vanished.
func (w *walker) classify(ctx context.Context, n *query.Resolved, target int64, tier index.Tier, layer string, site protocol.Location) (call, *DynamicCall, bool, error) {
	rows, err := w.symbols(ctx, []int64{target})
	if err != nil {
		return call{}, nil, false, err
	}
	row, ok := rows[target]
	if !ok {
		return call{}, nil, false, nil
	}
	k := lang.DefKind(row.Kind)
	if kind, dyn := dynamicKind(k); dyn {
		t, err := w.resolved(ctx, row)
		if err != nil || t == nil {
			return call{}, nil, false, err
		}
		ref := t.Ref()
		d := &DynamicCall{From: n.ID(), Kind: kind, Name: row.Name, Count: 1, Line: site.Line, Through: &ref, Candidates: []query.SymbolRef{},
			Tier: tier.String(), Layer: layer}
		if err := w.assignedCandidates(ctx, t, d); err != nil {
			return call{}, nil, false, err
		}
		return call{}, d, true, nil
	}
	if k == lang.KindMethod && row.Parent != 0 {
		if iface, err := w.interfaceOf(ctx, row.Parent); err != nil {
			return call{}, nil, false, err
		} else if iface != nil {
			t, err := w.resolved(ctx, row)
			if err != nil || t == nil {
				return call{}, nil, false, err
			}
			ref := t.Ref()
			d := &DynamicCall{From: n.ID(), Kind: "interface", Name: row.Name, Count: 1, Line: site.Line, Through: &ref, Candidates: []query.SymbolRef{},
				Tier: tier.String(), Layer: layer}
			if err := w.implementationCandidates(ctx, iface, row.ID, row.Name, d); err != nil {
				return call{}, nil, false, err
			}
			return call{}, d, true, nil
		}
	}
	language := n.File.Lang
	if f, err := w.file(ctx, row.FileID); err == nil && f != nil {
		language = f.Lang
	}
	c := call{other: target, count: 1, tier: tier, layer: layer, kind: callKind(language, k), site: site}
	if k != lang.KindMethod || row.Parent == 0 || language == "go" {
		return c, nil, true, nil
	}
	// A method of a class: subclasses may override it, and the call runs
	// whichever the receiver's class has. The edge stays; the overrides are
	// listed as what may run instead.
	over, err := w.overrides(ctx, row)
	if err != nil || len(over) == 0 {
		return c, nil, err == nil, err
	}
	t, err := w.resolved(ctx, row)
	if err != nil || t == nil {
		return c, nil, err == nil, err
	}
	ref := t.Ref()
	d := &DynamicCall{From: n.ID(), Kind: "virtual", Name: row.Name, Count: 1, Line: site.Line, Through: &ref, Candidates: []query.SymbolRef{},
		Tier: tier.String(), Layer: layer}
	refs, err := w.refsOf(ctx, append([]int64{row.ID}, over...))
	if err != nil {
		return c, nil, false, err
	}
	setCandidates(d, refs, "overrides")
	return c, d, true, nil
}

// overrides lists the methods of the same name declared on the subtypes of
// a method's class (transitively): what a call of it may run instead.
func (w *walker) overrides(ctx context.Context, m store.SymbolRow) ([]int64, error) {
	if o, ok := w.types.over[m.ID]; ok {
		return o, nil
	}
	parents, err := w.symbols(ctx, []int64{m.Parent})
	if err != nil {
		return nil, err
	}
	owner, ok := parents[m.Parent]
	var out []int64
	if ok && lang.DefKind(owner.Kind).IsTypeLike() {
		// Subclasses, not implementations: an interface method has no body to override.
		subclasses := func(it typeStep) ([]typeEdge, error) {
			subs, err := w.subtypes(ctx, it.row)
			return slices.DeleteFunc(subs, func(s typeEdge) bool { return s.kind == index.EdgeImplements }), err
		}
		err := w.relatedMethods(ctx, owner, m.Name, subclasses, func(mm store.SymbolRow) error {
			out = append(out, mm.ID)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	w.types.over[m.ID] = out
	return out, nil
}

// nameCache keeps what a walk looked up by name.
type nameCache struct {
	defined  map[string]int               // name -> same-name symbols in the repository
	variants map[string][]store.SymbolRow // qualified name -> its definitions
}

func newNameCache() nameCache {
	return nameCache{defined: map[string]int{}, variants: map[string][]store.SymbolRow{}}
}

// sameName counts the symbols of the repository with a name (cached).
func (w *walker) sameName(ctx context.Context, name string) (int, error) {
	if n, ok := w.names.defined[name]; ok {
		return n, nil
	}
	rows, err := w.e.Store().SymbolsByName(ctx, name)
	if err != nil {
		return 0, err
	}
	w.names.defined[name] = len(rows)
	return len(rows), nil
}

// maxCandidates bounds the candidates listed for one dynamic call.
const maxDynCandidates = 10

// setCandidates fills a dynamic call's candidates (sorted, capped).
func setCandidates(d *DynamicCall, refs []query.SymbolRef, from string) {
	sort.Slice(refs, func(i, j int) bool {
		return cmp.Or(cmp.Compare(refs[i].QName, refs[j].QName), cmp.Compare(refs[i].ID, refs[j].ID)) < 0
	})
	refs = dedupRefs(refs)
	d.CandidatesTotal = len(refs)
	if len(refs) > maxDynCandidates {
		refs = refs[:maxDynCandidates]
	}
	d.Candidates = append(d.Candidates[:0], refs...)
	if len(refs) > 0 {
		d.CandidatesFrom = from
	}
}

func dedupRefs(refs []query.SymbolRef) []query.SymbolRef {
	out := refs[:0]
	for i, r := range refs {
		if i > 0 && r.ID == refs[i-1].ID {
			continue
		}
		out = append(out, r)
	}
	return out
}

// node describes a walked symbol: its build constraint and variants.
func (w *walker) node(ctx context.Context, r *query.Resolved, depth int) (Node, error) {
	n := Node{SymbolRef: r.Ref(), Depth: depth, Build: buildOf(r)}
	vars, err := w.variantsOf(ctx, r)
	if err != nil {
		return n, err
	}
	for _, v := range vars {
		if v.ID == r.Row.ID {
			continue
		}
		vr, err := w.resolved(ctx, v)
		if err != nil {
			return n, err
		}
		if vr != nil {
			n.Variants = append(n.Variants, Variant{ID: vr.ID(), Location: vr.Ref().Location, Build: buildOf(vr)})
		}
	}
	sort.Slice(n.Variants, func(i, j int) bool { return query.LessLoc(n.Variants[i].Location, n.Variants[j].Location) })
	return n, nil
}

// variantsOf lists every definition of a symbol's qualified name (itself
// included) when it has several: Go build-tag and platform variants,
// conditional definitions.
func (w *walker) variantsOf(ctx context.Context, r *query.Resolved) ([]store.SymbolRow, error) {
	return w.variantsOfRow(ctx, r.Row)
}

// variantRows is variantsOf for a symbol id (nil when it has no variants).
func (w *walker) variantRows(ctx context.Context, id int64) ([]store.SymbolRow, error) {
	row, ok, err := w.row(ctx, id)
	if err != nil || !ok {
		return nil, err
	}
	return w.variantsOfRow(ctx, row)
}

func (w *walker) variantsOfRow(ctx context.Context, r store.SymbolRow) ([]store.SymbolRow, error) {
	if r.Name == "_" || r.Name == "init" {
		// Go declares any number of blank identifiers and init functions in
		// a package: each is its own symbol, never a variant of another.
		if f, err := w.file(ctx, r.FileID); err != nil || (f != nil && f.Lang == "go") {
			return nil, err
		}
	}
	qn := r.QName
	rows, ok := w.names.variants[qn]
	if !ok {
		var err error
		if rows, err = w.e.Store().SymbolsByQName(ctx, qn); err != nil {
			return nil, err
		}
		w.names.variants[qn] = rows
	}
	if len(rows) < 2 {
		return nil, nil
	}
	var out []store.SymbolRow
	for _, row := range rows {
		if row.Kind == r.Kind {
			out = append(out, row)
		}
	}
	if len(out) < 2 {
		return nil, nil
	}
	return out, nil
}

// buildOf says under which build a symbol's file compiles: its build
// constraint and, for Go, the GOOS/GOARCH (and _test) its file name implies.
func buildOf(r *query.Resolved) string {
	var parts []string
	if r.File.Lang == "go" {
		if tags := goFileTags(r.File.Path); tags != "" {
			parts = append(parts, tags)
		}
	}
	if r.Facts != nil && r.Facts.Build != "" && (len(parts) == 0 || parts[0] != r.Facts.Build) {
		parts = append(parts, r.Facts.Build)
	}
	return strings.Join(parts, " && ")
}

var (
	goosList   = strings.Fields("aix android darwin dragonfly freebsd hurd illumos ios js linux nacl netbsd openbsd plan9 solaris wasip1 windows zos")
	goarchList = strings.Fields("386 amd64 amd64p32 arm armbe arm64 arm64be loong64 mips mipsle mips64 mips64le mips64p32 mips64p32le ppc ppc64 ppc64le riscv riscv64 s390 s390x sparc sparc64 wasm")
)

// goFileTags reads the build constraints a Go file name implies (go/build's
// rules: *_GOOS, *_GOARCH, *_GOOS_GOARCH, and _test).
func goFileTags(p string) string {
	name := strings.TrimSuffix(path.Base(p), ".go")
	var tags []string
	if s, ok := strings.CutSuffix(name, "_test"); ok {
		name = s
		tags = append(tags, "test")
	}
	parts := strings.Split(name, "_")
	is := func(list []string, s string) bool {
		for _, x := range list {
			if x == s {
				return true
			}
		}
		return false
	}
	var plat []string
	if n := len(parts); n >= 3 && is(goosList, parts[n-2]) && is(goarchList, parts[n-1]) {
		plat = []string{parts[n-2], parts[n-1]}
	} else if n >= 2 && (is(goosList, parts[n-1]) || is(goarchList, parts[n-1])) {
		plat = []string{parts[n-1]}
	}
	return strings.Join(append(plat, tags...), " && ")
}
