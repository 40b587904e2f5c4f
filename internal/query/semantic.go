package query

import (
	"cmp"
	"context"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/semantic"
	"github.com/cairnhq/cairn/internal/store"
)

// Layer names, as facts and provenance report them.
const (
	LayerSemantic  = "semantic"
	LayerSyntactic = "syntactic"
)

// CheckLayer refuses a layer a request names that is neither ("" leaves
// the choice to the engine).
func CheckLayer(layer string) error {
	if layer != "" && layer != LayerSyntactic && layer != LayerSemantic {
		return errs.E(errs.InvalidArgument, "layer must be syntactic or semantic, got %q", layer)
	}
	return nil
}

// SemView is what the engine knows about the semantic layer at one epoch and
// import generation: every imported document and whether it still describes
// its file (its content hash at semantic-index time equals the current one).
type SemView struct {
	key     string
	head    string
	files   map[string]*store.FileRow
	byPath  map[string]semDoc   // the document used for a path
	byDoc   map[[2]int64]semDoc // the same by (index, ord)
	indexes map[int64]store.SemIndexRow
	list    []store.FileRow
	// importers maps, per language, a package directory to the directories
	// importing it (built on first use, under Engine.semMu).
	importers map[string]map[string][]string
}

type semDoc struct {
	row    store.SemDocRow
	status semantic.FileStatus
}

// Usable reports whether a path's facts come from the semantic layer.
func (v *SemView) Usable(path string) bool {
	if v == nil {
		return false
	}
	d, ok := v.byPath[path]
	return ok && d.status.Usable
}

// FallbackReason says why a path uses syntactic facts ("" when it does not,
// or when no semantic index covers it).
func (v *SemView) FallbackReason(path string) string {
	if v == nil {
		return ""
	}
	d, ok := v.byPath[path]
	if !ok || d.status.Usable {
		return ""
	}
	return d.status.Reason
}

// Empty reports whether no semantic index is imported.
func (v *SemView) Empty() bool { return v == nil || len(v.indexes) == 0 }

// Semantic returns the current view, rebuilt when the epoch or the imported
// indexes changed.
func (e *Engine) Semantic(ctx context.Context) (*SemView, error) {
	gen, err := e.Store().SemGeneration(ctx)
	if err != nil {
		return nil, err
	}
	st, ver := e.snap.State(), e.Version()
	key := fmt.Sprintf("%s@%d.%d", gen, ver.Store, ver.Epoch)
	e.semMu.Lock()
	defer e.semMu.Unlock()
	if e.sem != nil && e.sem.key == key {
		return e.sem, nil
	}
	v := &SemView{key: key, head: st.Head, byPath: map[string]semDoc{}, indexes: map[int64]store.SemIndexRow{}}
	idxs, err := e.Store().SemIndexes(ctx)
	if err != nil {
		return nil, err
	}
	for _, x := range idxs {
		v.indexes[x.ID] = x
	}
	if len(idxs) > 0 {
		if v.list, err = e.Store().Files(ctx); err != nil {
			return nil, err
		}
		v.files = make(map[string]*store.FileRow, len(v.list))
		for i := range v.list {
			v.files[v.list[i].Path] = &v.list[i]
		}
		docs, err := e.Store().SemDocs(ctx)
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			sd := semDoc{row: d, status: semantic.DocStatus(d, v.files[d.Path])}
			old, ok := v.byPath[d.Path]
			// A usable document beats an unusable one; among equals, the newest index.
			if !ok || (sd.status.Usable && !old.status.Usable) || (sd.status.Usable == old.status.Usable && d.Index > old.row.Index) {
				v.byPath[d.Path] = sd
			}
		}
	}
	v.byDoc = make(map[[2]int64]semDoc, len(v.byPath))
	for _, d := range v.byPath {
		v.byDoc[[2]int64{d.row.Index, d.row.Ord}] = d
	}
	e.sem = v
	return v, nil
}

// SemanticFreshness reports every imported index against HEAD and the files.
func (e *Engine) SemanticFreshness(ctx context.Context) ([]semantic.IndexFreshness, error) {
	v, err := e.Semantic(ctx)
	if err != nil || v.Empty() {
		return nil, err
	}
	e.semMu.Lock()
	if e.semFresh != nil && e.semFreshKey == v.key {
		out := e.semFresh
		e.semMu.Unlock()
		return out, nil
	}
	e.semMu.Unlock()
	out, err := semantic.Freshness(ctx, e.Store(), e.ix.Paths().Root, v.head, v.list)
	if err != nil {
		return nil, err
	}
	e.semMu.Lock()
	e.semFresh, e.semFreshKey = out, v.key
	e.semMu.Unlock()
	return out, nil
}

// SemOcc is one semantic occurrence with its file.
type SemOcc struct {
	semantic.Occ
	Path   string
	Usable bool   // its document describes the file as it is
	Via    string // the related SCIP symbol it references, for related occurrences
}

// maxRelated bounds the related symbols one reference query expands to.
const maxRelated = 64

// maxFamily bounds a rename's family (RefsParams.Family); a larger family
// is reported as external (a rename of part of it would break the build).
const maxFamily = 4096

// SemanticOccs returns the occurrences of the SCIP symbols mapped to a Cairn
// symbol, with the symbols.
func (e *Engine) SemanticOccs(ctx context.Context, v *SemView, cairn int64) ([]store.SemSymbolRow, []SemOcc, error) {
	mapped, occs, _, err := e.semanticOccs(ctx, v, cairn, false, true)
	return mapped, occs, err
}

// semanticOccs is SemanticOccs; family widens the related symbols to a
// rename's (RefsParams.Family) and lists the related symbols no indexed
// document declares (external); related false leaves the related symbols
// out (a static member: see StaticMember).
func (e *Engine) semanticOccs(ctx context.Context, v *SemView, cairn int64, family, related bool) (mapped []store.SemSymbolRow, out []SemOcc, external []string, err error) {
	if v.Empty() {
		return nil, nil, nil, nil
	}
	mapped, err = e.Store().SemSymbolsOfCairn(ctx, cairn)
	if err != nil || len(mapped) == 0 {
		return nil, nil, nil, err
	}
	// The same SCIP symbol may occur in other indexes too (one Go module
	// using another): gather it everywhere.
	var rows []store.SemSymbolRow
	seen := map[[2]int64]bool{}
	for _, m := range mapped {
		all, err := e.Store().SemSymbols(ctx, m.ID)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, r := range all {
			if r.Symbol != m.Symbol || seen[[2]int64{r.Index, r.ID}] {
				continue
			}
			seen[[2]int64{r.Index, r.ID}] = true
			rows = append(rows, r)
		}
	}
	ctors, err := e.constructorsOf(ctx, rows, seen)
	if err != nil {
		return nil, nil, nil, err
	}
	var rel []store.SemSymbolRow
	var relDecl map[[2]int64]bool
	if related {
		if rel, relDecl, err = e.relatedSymbols(ctx, v, rows, seen, family); err != nil {
			return nil, nil, nil, err
		}
	}
	if family && len(rel) >= maxFamily {
		external = append(external, fmt.Sprintf("(more than %d related symbols)", maxFamily))
	}
	for _, r := range append(rows, rel...) {
		occs, err := semantic.DecodeSymbolOccs(r.Occs, r.ID)
		if err != nil {
			return nil, nil, nil, err
		}
		via := ""
		if _, own := seen[[2]int64{r.Index, r.ID}]; !own {
			via = r.Symbol
		}
		if family && via != "" && !declaredIn(occs, v, r.Index) {
			external = append(external, r.Symbol)
		}
		for _, o := range occs {
			if via != "" && o.Roles&semantic.RoleDefinition != 0 && !relDecl[[2]int64{r.Index, r.ID}] {
				continue // gopls: a related method's declaration is not a use of this one
			}
			d, ok := v.byDoc[[2]int64{r.Index, o.Doc}]
			if !ok {
				continue // a document of an older index that another one replaced for this path
			}
			out = append(out, SemOcc{Occ: o, Path: d.row.Path, Usable: d.status.Usable, Via: via})
		}
	}
	for _, c := range ctors {
		occs, err := semantic.DecodeSymbolOccs(c.row.Occs, c.row.ID)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, o := range occs {
			// new T(...) spells the class's name; the constructor's own
			// declaration and super(...) do not
			if o.Roles&semantic.RoleDefinition != 0 || o.EndLine != o.Line || int(o.EndCol-o.Col) != c.nameLen {
				continue
			}
			if d, ok := v.byDoc[[2]int64{c.row.Index, o.Doc}]; ok {
				out = append(out, SemOcc{Occ: o, Path: d.row.Path, Usable: d.status.Usable})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col)) < 0
	})
	sort.Strings(external)
	return mapped, out, external, nil
}

// ctorRow is a class's constructor in a SCIP index, with the length of the
// class's name.
type ctorRow struct {
	row     store.SemSymbolRow
	nameLen int
}

// constructorsOf finds the constructors of the classes among rows: SCIP
// indexers of TypeScript, JavaScript and the JVM languages record new T(...)
// as a use of T's constructor, not of T, though it is T's name that is
// written there (and that a rename of T must change).
func (e *Engine) constructorsOf(ctx context.Context, rows []store.SemSymbolRow, seen map[[2]int64]bool) ([]ctorRow, error) {
	var out []ctorRow
	for _, r := range rows {
		name, ok := typeName(r.Symbol)
		if !ok {
			continue
		}
		for _, suffix := range []string{"`<constructor>`().", "`<init>`()."} {
			ctor := r.Symbol + suffix
			all, err := e.Store().SemSymbols(ctx, semantic.SymbolID(ctor))
			if err != nil {
				return nil, err
			}
			for _, c := range all {
				k := [2]int64{c.Index, c.ID}
				if c.Symbol != ctor || seen[k] {
					continue
				}
				seen[k] = true
				out = append(out, ctorRow{row: c, nameLen: len(name)})
			}
		}
	}
	return out, nil
}

// StaticMember reports whether a symbol is a static member of a
// JavaScript or TypeScript class. scip-typescript relates a subclass's
// static member to the base class's static member of the same name, but
// statics are not dispatched: tsserver's references and renames leave the
// other class's static alone, and the compiler does not need them to stay
// in step (a class's static side only gains a member).
func StaticMember(r *Resolved) bool {
	if r.Def == nil || r.Def.Parent < 0 || LangFamily(r.File.Lang) != "ecma" {
		return false
	}
	head, _, ok := strings.Cut(r.Def.Signature, r.Def.Name)
	return ok && slices.Contains(strings.Fields(head), "static")
}

// typeName is the name of a SCIP type symbol (one ending in a type
// descriptor, T#), without backquotes.
func typeName(symbol string) (string, bool) {
	body, ok := strings.CutSuffix(symbol, "#")
	if !ok || strings.HasSuffix(body, ")") {
		return "", false
	}
	if strings.HasSuffix(body, "`") {
		if i := strings.LastIndex(body[:len(body)-1], "`"); i >= 0 {
			return body[i+1 : len(body)-1], true
		}
		return "", false
	}
	i := strings.LastIndexAny(body, "/#. ")
	return body[i+1:], body[i+1:] != ""
}

// declaredIn reports whether one of a symbol's occurrences declares it in a
// document of the view.
func declaredIn(occs []semantic.Occ, v *SemView, index int64) bool {
	for _, o := range occs {
		if o.Roles&semantic.RoleDefinition == 0 {
			continue
		}
		if _, ok := v.byDoc[[2]int64{index, o.Doc}]; ok {
			return true
		}
	}
	return false
}

// DocUses are the occurrences of one file's usable semantic document that
// are not definitions (calls, references), by position.
type DocUses struct {
	Index int64 // the semantic index the document belongs to
	At    map[lang.Pos]semantic.Occ
}

// Uses returns the DocUses of a path, nil when the semantic layer does not
// describe the path as it is.
func (e *Engine) Uses(ctx context.Context, v *SemView, path string) (*DocUses, error) {
	occs, idx, ok, err := e.docOccs(ctx, v, path)
	if err != nil || !ok {
		return nil, err
	}
	d := &DocUses{Index: idx, At: make(map[lang.Pos]semantic.Occ, len(occs))}
	for _, o := range occs {
		if o.Roles&semantic.RoleDefinition == 0 {
			d.At[lang.Pos{Line: o.Line, Col: o.Col}] = o
		}
	}
	return d, nil
}

// at is the occurrence at a position (false without one, or without uses).
func (d *DocUses) at(p lang.Pos) (semantic.Occ, bool) {
	if d == nil {
		return semantic.Occ{}, false
	}
	o, ok := d.At[p]
	return o, ok
}

// docOccs returns the occurrences of a path's usable semantic document, by position.
func (e *Engine) docOccs(ctx context.Context, v *SemView, path string) ([]semantic.Occ, int64, bool, error) {
	d, ok := v.byPath[path]
	if !ok || !d.status.Usable {
		return nil, 0, false, nil
	}
	docs, err := e.Store().SemDocsByPath(ctx, path)
	if err != nil {
		return nil, 0, false, err
	}
	for _, row := range docs {
		if row.Index == d.row.Index && row.Ord == d.row.Ord {
			occs, err := semantic.DecodeDocOccs(row.Occs)
			return occs, row.Index, err == nil, err
		}
	}
	return nil, 0, false, nil
}

// symbolLayer says which layer vouches for a symbol's definition: semantic
// when a usable semantic document maps its definition.
func (e *Engine) symbolLayer(ctx context.Context, v *SemView, ids []int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	if v.Empty() || len(ids) == 0 {
		return out, nil
	}
	m, err := e.Store().SemMapped(ctx, ids)
	if err != nil {
		return nil, err
	}
	for id, loc := range m {
		if d, ok := v.byDoc[[2]int64{loc[0], loc[1]}]; ok && d.status.Usable {
			out[id] = true
		}
	}
	return out, nil
}

// relatedSymbols returns the symbols whose references count as references
// of these (SCIP is_reference, in both directions), as each language's own
// find-references counts them: for Go (gopls) the interface methods a method
// implements and the methods implementing an interface method, one level;
// elsewhere (tsserver) the whole family of overrides and implementations,
// declarations included. decl reports whether a related symbol's
// declarations count too. family (a rename) takes the whole family in every
// language, declarations included: an interface method renamed without the
// methods implementing it, or a method without the interface methods it
// implements, breaks the build where a type is used as the interface.
func (e *Engine) relatedSymbols(ctx context.Context, v *SemView, rows []store.SemSymbolRow, own map[[2]int64]bool, family bool) ([]store.SemSymbolRow, map[[2]int64]bool, error) {
	var out []store.SemSymbolRow
	decl := map[[2]int64]bool{}
	seen := map[[2]int64]bool{}
	type item struct {
		row   store.SemSymbolRow
		depth int
	}
	queue := make([]item, 0, len(rows))
	for _, r := range rows {
		queue = append(queue, item{r, 0})
	}
	limit := maxRelated
	if family {
		limit = maxFamily
	}
	for len(queue) > 0 && len(out) < limit {
		it := queue[0]
		queue = queue[1:]
		goStyle := v.indexes[it.row.Index].Tool == "scip-go" && !family
		if goStyle && it.depth > 0 {
			continue // gopls: one level, no siblings
		}
		for _, reverse := range []bool{false, true} {
			rels, err := e.Store().SemRels(ctx, it.row.Index, it.row.ID, reverse, limit)
			if err != nil {
				return nil, nil, err
			}
			for _, rel := range rels {
				if rel.Kinds&semantic.RelReference == 0 {
					continue
				}
				other := rel.Target
				if reverse {
					other = rel.Sym
				}
				k := [2]int64{it.row.Index, other}
				if own[k] || seen[k] || len(out) >= limit {
					continue
				}
				seen[k] = true
				row, ok, err := e.Store().SemSymbol(ctx, it.row.Index, other)
				if err != nil {
					return nil, nil, err
				}
				if ok {
					out = append(out, row)
					decl[k] = !goStyle
					queue = append(queue, item{row, it.depth + 1})
				}
			}
		}
	}
	return out, decl, nil
}

// dependents returns the package directories of a language (Go) that
// import dir, directly or not, and dir itself: the only code that can reach
// a method declared in dir, and where gopls looks for the references of the
// interface methods it implements.
func (e *Engine) dependents(ctx context.Context, v *SemView, language, dir string) (map[string]bool, error) {
	e.semMu.Lock()
	graph := v.importers[language]
	e.semMu.Unlock()
	if graph == nil {
		list := v.list
		if list == nil { // no semantic index: the view holds no file list
			var err error
			if list, err = e.Store().Files(ctx); err != nil {
				return nil, err
			}
		}
		byID := make(map[int64]*store.FileRow, len(list))
		for i := range list {
			byID[list[i].ID] = &list[i]
		}
		graph = map[string][]string{}
		seen := map[[2]string]bool{}
		ofLanguage := func(id int64) bool { f := byID[id]; return f != nil && f.Lang == language }
		err := e.Imports(ctx, ofLanguage, func(id int64, edges []index.ImportEdge) {
			from := path.Dir(byID[id].Path)
			for _, ed := range edges {
				if ed.TargetPath == "" && ed.TargetModule == 0 {
					continue // outside the repository
				}
				to := ed.TargetPath
				if to == "" {
					to = "."
				}
				if k := [2]string{to, from}; !seen[k] {
					seen[k] = true
					graph[to] = append(graph[to], from)
				}
			}
		})
		if err != nil {
			return nil, err
		}
		e.semMu.Lock()
		if v.importers == nil {
			v.importers = map[string]map[string][]string{}
		}
		v.importers[language] = graph
		e.semMu.Unlock()
	}
	out := map[string]bool{dir: true}
	queue := []string{dir}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		for _, imp := range graph[d] {
			if !out[imp] {
				out[imp] = true
				queue = append(queue, imp)
			}
		}
	}
	return out, nil
}
