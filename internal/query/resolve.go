package query

import (
	"cmp"
	"context"
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/scan"
	"github.com/cairnhq/cairn/internal/semantic"
	"github.com/cairnhq/cairn/internal/store"
)

// maxCandidates bounds the candidates an ambiguous name reports.
const maxCandidates = 20

// Resolve finds the one symbol a name denotes (DESIGN §6a "Naming a symbol"):
// a symbol id, a canonical qualified name, path#Qualified.Name, or a unique
// dot-separated suffix. An exact path wins over paths that only end with it,
// then an exact qualified name over a suffix, and the variants of one name
// are one answer (variants.go); matches left that are different symbols give
// AMBIGUOUS_SYMBOL with candidates.
func (e *Engine) Resolve(ctx context.Context, name string) (*Resolved, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil, errs.E(errs.InvalidArgument, "empty symbol name")
	}
	if err := checkName("symbol name", name); err != nil {
		return nil, err
	}
	if id, ok := protocol.ParseSymbolID(name); ok {
		return e.byID(ctx, id)
	}
	if semantic.LooksLikeSymbol(name) {
		return e.bySCIP(ctx, name)
	}
	rows, err := e.spelledCandidates(ctx, name)
	if err != nil {
		return nil, err
	}
	if _, written := parameterList(name); written {
		if rows, err = e.constructorsOfTypes(ctx, rows); err != nil {
			return nil, err
		}
	}
	switch len(rows) {
	case 0:
		return nil, e.notFound(ctx, name)
	case 1:
		return e.Load(ctx, rows[0])
	}
	if group, err := e.variantGroup(ctx, rows); err != nil || group != nil {
		return first(group), err // one name under several builds: the primary stands for them
	}
	if row, ok, err := e.oneFunction(ctx, rows); err != nil || ok {
		return e.loadRow(ctx, row, err) // declared in a header, defined in a source file
	}
	if row, ok := e.oneSemanticSymbol(ctx, rows); ok {
		return e.Load(ctx, row)
	}
	before := len(rows)
	if row, ok, err := e.oneOverload(ctx, name, &rows); err != nil || ok {
		return e.loadRow(ctx, row, err)
	}
	if len(rows) < before { // a parameter list narrowed them: asked again of the rest
		if row, ok, err := e.oneFunction(ctx, rows); err != nil || ok {
			return e.loadRow(ctx, row, err) // the overload a parameter list chose, declared apart
		}
	}
	return nil, e.ambiguous(ctx, name, rows)
}

// oneOverload settles, or narrows, a name's candidates by how it is written:
// with a parameter list, to the overloads that take those parameters
// (ArrayList.add(int, E)); without one, to a type over its own constructors
// (HashMap is the class, not new HashMap(...)).
func (e *Engine) oneOverload(ctx context.Context, name string, rows *[]store.SymbolRow) (store.SymbolRow, bool, error) {
	written, ok := parameterList(name)
	if !ok {
		row, ok := typeOverItsConstructors(*rows)
		return row, ok, nil
	}
	kept, err := e.byParameters(ctx, *rows, written)
	if err != nil || len(kept) != 1 {
		*rows = kept
		return store.SymbolRow{}, false, err
	}
	return kept[0], true, nil
}

// loadRow loads row unless err is set.
func (e *Engine) loadRow(ctx context.Context, row store.SymbolRow, err error) (*Resolved, error) {
	if err != nil {
		return nil, err
	}
	return e.Load(ctx, row)
}

// first is the first of a variant group, nil for none.
func first(group []*Resolved) *Resolved {
	if len(group) == 0 {
		return nil
	}
	return group[0]
}

// oneSemanticSymbol settles an ambiguous name when the semantic layer says
// every candidate is one symbol (overload signatures, merged declarations):
// the first declaration stands for them all.
func (e *Engine) oneSemanticSymbol(ctx context.Context, rows []store.SymbolRow) (store.SymbolRow, bool) {
	var sym string
	for _, r := range rows {
		syms, err := e.Store().SemSymbolsOfCairn(ctx, r.ID)
		if err != nil || len(syms) != 1 || (sym != "" && syms[0].Symbol != sym) {
			return store.SymbolRow{}, false
		}
		sym = syms[0].Symbol
	}
	best := rows[0]
	for _, r := range rows[1:] {
		if r.FileID < best.FileID || (r.FileID == best.FileID && r.DefIdx < best.DefIdx) {
			best = r
		}
	}
	return best, true
}

// maxAliasHops caps how far an alias chain is followed.
const maxAliasHops = 16

// Redirect says that a requested symbol id was renamed or moved.
type Redirect struct {
	From       protocol.SymbolID `json:"from"`
	FromQName  string            `json:"from_qualified_name"`
	Reason     string            `json:"reason"` // renamed, moved
	Confidence float64           `json:"confidence"`
	Hops       int               `json:"hops"`
}

// ResolveID resolves a symbol id as Resolve does, following its aliases.
func (e *Engine) ResolveID(ctx context.Context, id protocol.SymbolID) (*Resolved, error) {
	if _, ok := id.Hash(); !ok {
		return nil, errs.E(errs.InvalidArgument, "%q is not a symbol id", string(id))
	}
	return e.byID(ctx, id)
}

// byID loads a symbol by id, following aliases (with cycle detection and a
// depth cap) and reporting tombstones as deleted.
func (e *Engine) byID(ctx context.Context, name protocol.SymbolID) (*Resolved, error) {
	id, _ := name.Hash()
	var redirect *Redirect
	seen := map[int64]bool{}
	for hop := 0; ; hop++ {
		row, found, err := e.symbolByID(ctx, id)
		if err != nil {
			return nil, err
		}
		if found {
			r, err := e.Load(ctx, row)
			if r != nil {
				r.Redirect = redirect
			}
			return r, err
		}
		if seen[id] || hop >= maxAliasHops {
			return nil, &errs.Error{Kind: errs.NotFound, Msg: fmt.Sprintf("the aliases of %s do not lead to a current symbol", name)}
		}
		seen[id] = true
		a, ok, err := e.Store().AliasOf(ctx, id)
		if err != nil {
			return nil, err
		}
		if ok {
			if redirect == nil {
				redirect = &Redirect{From: name, FromQName: a.OldQName, Reason: a.Reason, Confidence: a.Confidence}
			} else {
				redirect.Confidence *= a.Confidence
			}
			redirect.Hops++
			id = a.NewID
			continue
		}
		if t, ok, err := e.Store().TombstoneOf(ctx, id); err != nil {
			return nil, err
		} else if ok {
			return nil, &errs.Error{Kind: errs.SymbolDeleted, Msg: fmt.Sprintf("%s (%s) was deleted at epoch %d", name, t.QName, t.Epoch),
				Details: map[string]any{"qualified_name": t.QName, "path": t.Path, "deleted_at_epoch": t.Epoch, "kind": lang.DefKind(t.Kind).String()},
				Fixes:   []string{fmt.Sprintf("cairn search %q --mode symbol", lastSegment(t.QName))}}
		}
		return nil, &errs.Error{Kind: errs.NotFound, Msg: "no symbol " + string(name) + " in the current index",
			Fixes: []string{"cairn search <name> --mode symbol"}}
	}
}

// spelledCandidates is the candidates of the first reading of a name that
// denotes something (respellings).
func (e *Engine) spelledCandidates(ctx context.Context, name string) ([]store.SymbolRow, error) {
	for _, n := range respellings(name) {
		if rows, err := e.candidates(ctx, n); err != nil || len(rows) > 0 {
			return rows, err
		}
	}
	return nil, nil
}

// methodExpr is a receiver type in parentheses before a method, as Go's
// method expressions and its tools spell it: (*Server).Start, (T).M.
var methodExpr = regexp.MustCompile(`\(\*?([A-Za-z_][A-Za-z0-9_]*)\)\.`)

// withoutTypeArgs drops the type arguments of a name, nested ones too:
// Map<K, List<V>>.put is Map.put.
func withoutTypeArgs(name string) string {
	for {
		open := strings.LastIndexByte(name, '<')
		if open < 0 {
			return name
		}
		end := strings.IndexByte(name[open:], '>')
		if end < 0 {
			return name
		}
		name = name[:open] + name[open+end+1:]
	}
}

// respellings are the readings of a name, as given first: without type
// arguments, with a method expression's receiver out of its parentheses,
// without a trailing call or parameter list (save(), put(Object, Object)),
// then with dots for a language's own separators (Parser::parse,
// Rack::Request#get_header, HashMap#put), after a path's '#' first
// (request.rb#Rack::Request), then throughout.
func respellings(name string) []string {
	out := []string{name}
	if bare := withoutTypeArgs(name); bare != name {
		name = bare // Vec<T>::push, HashMap<K, V>#put
		out = append(out, name)
	}
	if m := methodExpr.ReplaceAllString(name, "$1."); m != name {
		name = m // a method expression: (*Server).Start is Server.Start
		out = append(out, name)
	}
	if i := strings.IndexByte(name, '('); i > 0 && strings.HasSuffix(name, ")") {
		name = strings.TrimSpace(name[:i])
		out = append(out, name)
	}
	if p, q, ok := strings.Cut(name, "#"); ok {
		if dq, ok := lang.Dotted(q); ok {
			out = append(out, p+"#"+dq)
		}
	}
	if dotted, ok := lang.Dotted(name); ok {
		out = append(out, dotted)
	}
	return out
}

// candidates lists the symbols a (non-id) name may denote, in the
// request's view (the overlay's symbols in place of its files' indexed ones).
func (e *Engine) candidates(ctx context.Context, name string) ([]store.SymbolRow, error) {
	rows, err := e.baseCandidates(ctx, name)
	if err != nil {
		return nil, err
	}
	return e.ovCandidates(ctx, name, rows)
}

// baseCandidates lists the symbols of the index a name may denote.
func (e *Engine) baseCandidates(ctx context.Context, name string) ([]store.SymbolRow, error) {
	if p, q, ok := strings.Cut(name, "#"); ok && p != "" && q != "" {
		return e.byPathName(ctx, p, q)
	}
	exact, err := e.Store().SymbolsByQName(ctx, name)
	if err != nil || len(exact) > 0 {
		return exact, err
	}
	last := name
	if i := strings.LastIndexAny(name, "./#"); i >= 0 {
		last = name[i+1:]
	}
	if last == "" {
		return nil, nil
	}
	rows, err := e.Store().SymbolsByName(ctx, last)
	if err != nil {
		return nil, err
	}
	if last == name {
		return rows, nil
	}
	var out []store.SymbolRow
	for _, r := range rows {
		if hasSuffixAtBoundary(r.QName, name) {
			out = append(out, r)
		}
	}
	if len(out) > 1 {
		return e.exactDir(ctx, name, out)
	}
	if len(out) > 0 {
		return out, nil
	}
	if out, err = e.inDeclaredPackage(ctx, name, rows); err != nil || len(out) > 0 {
		return out, err
	}
	if out, err = e.throughModule(ctx, name); err != nil || len(out) > 0 {
		return out, err
	}
	return e.byItemPath(ctx, name)
}

// inDeclaredPackage keeps the file-scoped symbols (path#Q.N) that name
// spells as the package or namespace their file declares, then Q.N: a
// PHP class Gadget in a file of namespace Acme\Lib is Acme.Lib.Gadget
// (Acme\Lib\Gadget before Dotted).
func (e *Engine) inDeclaredPackage(ctx context.Context, name string, rows []store.SymbolRow) ([]store.SymbolRow, error) {
	var out []store.SymbolRow
	for _, r := range rows {
		_, local, ok := strings.Cut(r.QName, "#")
		if !ok || !strings.HasSuffix(name, "."+local) {
			continue
		}
		f, found, err := e.Store().FileByID(ctx, r.FileID)
		if err != nil {
			return nil, err
		}
		if pkg, _ := lang.Dotted(f.Pkg); found && pkg != "" && pkg+"."+local == name {
			out = append(out, r)
		}
	}
	return out, nil
}

// exactDir narrows the symbols a suffix names to those declared in the
// directory the suffix spells, when it spells one: pkg/x.Run names the
// repository's pkg/x, not other/pkg/x, as a file's exact path wins over
// paths that only end with it (byPathName). Otherwise rows are returned
// as they are.
func (e *Engine) exactDir(ctx context.Context, name string, rows []store.SymbolRow) ([]store.SymbolRow, error) {
	slash := strings.LastIndexByte(name, '/')
	if slash < 0 {
		return rows, nil // a package name, not a path: the tie is real
	}
	dot := strings.IndexByte(name[slash:], '.')
	if dot < 0 {
		return rows, nil
	}
	dir := strings.TrimPrefix(name[:slash+dot], "./")
	var exact []store.SymbolRow
	for _, r := range rows {
		f, ok, err := e.Store().FileByID(ctx, r.FileID)
		if err != nil {
			return nil, err
		}
		if ok && path.Dir(f.Path) == dir {
			exact = append(exact, r)
		}
	}
	if len(exact) == 0 {
		return rows, nil
	}
	return exact, nil
}

// hasSuffixAtBoundary reports whether s ends with suffix starting at a name
// boundary ('.', '/', '#' or the start).
func hasSuffixAtBoundary(s, suffix string) bool {
	if !strings.HasSuffix(s, suffix) {
		return false
	}
	if len(s) == len(suffix) {
		return true
	}
	c := s[len(s)-len(suffix)-1]
	return c == '.' || c == '/' || c == '#'
}

// byPathName resolves path#Qualified.Name, where path is a file's repo path
// or a suffix of it at a directory boundary (mux.go#Mux.handle). A file
// whose path is exactly path wins over files that only end with it:
// helpers.ts#wait names the root's helpers.ts, not __tests__/helpers.ts.
func (e *Engine) byPathName(ctx context.Context, p, q string) ([]store.SymbolRow, error) {
	p = strings.TrimPrefix(p, "./")
	last := q
	if i := strings.LastIndexByte(q, '.'); i >= 0 {
		last = q[i+1:]
	}
	rows, err := e.Store().SymbolsByName(ctx, last)
	if err != nil {
		return nil, err
	}
	var exact, suffix []store.SymbolRow
	for _, row := range rows {
		r, err := e.Load(ctx, row)
		if err != nil {
			return nil, err
		}
		if r == nil || r.Def == nil || r.Def.Path != q {
			continue
		}
		switch {
		case r.File.Path == p:
			exact = append(exact, row)
		case strings.HasSuffix(r.File.Path, "/"+p):
			suffix = append(suffix, row)
		}
	}
	if len(exact) > 0 {
		return exact, nil
	}
	if len(suffix) > 0 {
		return suffix, nil
	}
	return e.reexportedAt(ctx, p, q)
}

// reexportedAt resolves path#Name.rest where the file at path, or else
// the files whose paths end with it, import or re-export Name from another
// file (a package's index.ts, __init__.py).
func (e *Engine) reexportedAt(ctx context.Context, p, q string) ([]store.SymbolRow, error) {
	segs := strings.Split(q, ".")
	if f, ok, err := e.FileByPath(ctx, p); err != nil || ok {
		if err != nil {
			return nil, err
		}
		return e.inReexport(ctx, f, segs[0], segs[1:])
	}
	files, err := e.Files(ctx)
	if err != nil {
		return nil, err
	}
	var out []store.SymbolRow
	for _, f := range files {
		if !strings.HasSuffix(f.Path, "/"+p) {
			continue
		}
		rows, err := e.inReexport(ctx, f, segs[0], segs[1:])
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	return out, nil
}

func (e *Engine) notFound(ctx context.Context, name string) error {
	if err := e.fileNotSymbol(ctx, name); err != nil {
		return err
	}
	last := lastSegment(name)
	err := &errs.Error{Kind: errs.NotFound, Msg: fmt.Sprintf("no symbol named %q", name),
		Fixes: []string{fmt.Sprintf("cairn search %q --mode symbol", last)}}
	// Overloads and variants share a name: ask for more rows than are named.
	q := store.SymbolSearch{Sub: last, KindWeight: kindWeight, VisWeight: visWeight, ExactBonus: exactBonus, Limit: 4 * didYouMean}
	if rows, _, serr := e.Store().SearchSymbols(ctx, q); serr == nil && len(rows) > 0 {
		refs, _ := e.SymbolRefs(ctx, rows)
		var names []string
		for _, r := range refs {
			names = suggest(names, r.QName)
		}
		err.Details = map[string]any{"did_you_mean": names}
	}
	return err
}

// suggest adds a qualified name to a NOT_FOUND answer's suggestions: each
// name once (overloads and variants share one), at most didYouMean.
func suggest(names []string, qname string) []string {
	if slices.Contains(names, qname) || len(names) >= didYouMean {
		return names
	}
	return append(names, qname)
}

// fileNotSymbol is the NOT_FOUND answer to a name that is an indexed
// file's path, or a directory's: it says so and suggests the top-level
// symbols of the file, or of the directory's own files; nil when the name
// is neither.
func (e *Engine) fileNotSymbol(ctx context.Context, name string) error {
	p := strings.TrimSuffix(strings.TrimPrefix(name, "./"), "/")
	if p == "" {
		return nil
	}
	files, what := []store.FileRow(nil), "file"
	if f, ok, err := e.FileByPath(ctx, p); err != nil {
		return nil
	} else if ok {
		files = []store.FileRow{f}
	} else if under, err := e.FilesUnder(ctx, p+"/"); err == nil && len(under) > 0 {
		what = "directory"
		for _, f := range under {
			if lang.DirOf(f.Path) == p {
				files = append(files, f)
			}
		}
	} else {
		return nil
	}
	var names []string
	for _, f := range files {
		syms, err := e.SymbolsOfFile(ctx, f.ID)
		if err != nil {
			return nil
		}
		for _, s := range syms {
			if s.Parent == 0 {
				names = suggest(names, s.QName)
			}
		}
	}
	out := &errs.Error{Kind: errs.NotFound, Msg: fmt.Sprintf("%s is a %s, not a symbol: name a symbol in it", p, what)}
	if what == "file" {
		out.Msg += fmt.Sprintf(" (%s#Name)", p)
		out.Fixes = []string{"cairn read " + p}
	} else {
		out.Fixes = []string{"cairn ls " + p}
	}
	if len(names) > 0 {
		out.Details = map[string]any{"did_you_mean": names}
	}
	return out
}

// didYouMean is how many names a NOT_FOUND answer suggests.
const didYouMean = 5

func lastSegment(name string) string {
	readings := respellings(name)
	name = readings[len(readings)-1]
	if i := strings.LastIndexAny(name, "./#"); i >= 0 && i < len(name)-1 {
		return name[i+1:]
	}
	return name
}

func (e *Engine) ambiguous(ctx context.Context, name string, rows []store.SymbolRow) error {
	sort.Slice(rows, func(i, j int) bool {
		return cmp.Or(cmp.Compare(rows[i].QName, rows[j].QName), cmp.Compare(rows[i].ID, rows[j].ID)) < 0
	})
	if example, ok := e.overloadExample(ctx, name, rows); ok {
		return e.ambiguousAmong(ctx, rows, map[string]any{"total": len(rows)},
			"%q matches %d overloads; name one by symbol_id or with its parameters, as in %s", name, len(rows), example)
	}
	return e.ambiguousAmong(ctx, rows, map[string]any{"total": len(rows)},
		"%q matches %d symbols; name one by symbol_id or a longer qualified name", name, len(rows))
}

// At resolves the identifier at a position: a definition, a resolved
// reference, or (for unresolved references) the symbols of that name.
// Several symbols are ranked (guess.go): with guess, the first answers,
// marked as a guess; without, the answer is AMBIGUOUS_SYMBOL with the
// candidates ranked.
func (e *Engine) At(ctx context.Context, root, path string, line, col int, guess bool) (*Resolved, error) {
	rp, err := scan.Contain(ctx, root, path)
	if err != nil {
		return nil, err
	}
	f, facts, syms, err := e.fileAt(ctx, rp)
	if err != nil {
		return nil, err
	}
	if facts == nil {
		return nil, &errs.Error{Kind: errs.NotFound, Msg: "no symbols in " + string(rp) + " (not a parsed language)"}
	}
	pos := lang.Pos{Line: uint32(line), Col: uint32(col)}
	for _, s := range syms {
		if s.DefIdx < len(facts.Defs) && facts.Defs[s.DefIdx].NameSpan.Contains(pos) {
			return e.Load(ctx, s)
		}
	}
	if f.ID >= 0 { // the semantic layer describes indexed files only
		if r, err := e.atSemantic(ctx, f.Path, pos); r != nil || err != nil {
			return r, err
		}
	}
	links, err := e.Links(ctx, f.ID)
	if err != nil {
		return nil, err
	}
	for i, r := range facts.Refs {
		name := facts.Names[r.Name]
		if r.Pos.Line != pos.Line || pos.Col < r.Pos.Col || int(pos.Col) >= int(r.Pos.Col)+len(name) {
			continue
		}
		if t, ok := links[i]; ok && t.Target == 0 {
			return nil, &errs.Error{Kind: errs.NotFound, Msg: fmt.Sprintf("%s is not defined in this repository (it comes from an import from outside it)", name)}
		}
		if t, ok := links[i]; ok {
			row, found, err := e.symbolByID(ctx, t.Target)
			if err != nil {
				return nil, err
			}
			if found {
				return e.primary(ctx, row)
			}
		}
		if r.BindLocal >= 0 {
			lo := facts.Locals[r.BindLocal]
			return nil, &errs.Error{Kind: errs.NotFound, Msg: fmt.Sprintf("%s is a local binding declared at %s:%d:%d, not a symbol", name, rp, lo.Pos.Line, lo.Pos.Col),
				Details: map[string]any{"local": map[string]any{"name": name, "line": lo.Pos.Line, "col": lo.Pos.Col}}}
		}
		rows, err := e.Store().SymbolsByName(ctx, name)
		if err != nil {
			return nil, err
		}
		if rows, err = e.ovByName(ctx, name, rows); err != nil {
			return nil, err
		}
		if rows, err = e.codeCandidates(ctx, f, rows); err != nil {
			return nil, err
		}
		switch len(rows) {
		case 0:
			return nil, &errs.Error{Kind: errs.NotFound, Msg: fmt.Sprintf("%s is not defined in this repository: no symbol has that name (it comes from outside the repository, is built in, or is created at run time)", name)}
		case 1:
			return e.Load(ctx, rows[0])
		}
		if group, err := e.variantGroup(ctx, rows); err != nil || group != nil {
			return first(group), err
		}
		if types, members := unionMembers(facts, i, rows); len(members) > 0 {
			return e.unionAnswer(ctx, name, types, members)
		}
		return e.guessOrAmbiguous(ctx, f, name, rows, guess)
	}
	return nil, &errs.Error{Kind: errs.NotFound, Msg: fmt.Sprintf("no identifier at %s:%d:%d", rp, line, col)}
}

// codeCandidates drops, for a name that code uses (a file of a language
// with a grammar), the candidates that data files define: a key of
// package.json or a YAML file named like a member (this.name) is no
// definition of it, let alone the only one.
func (e *Engine) codeCandidates(ctx context.Context, f store.FileRow, rows []store.SymbolRow) ([]store.SymbolRow, error) {
	if lang.Of(f.Lang).Grammar == nil {
		return rows, nil
	}
	out := rows[:0:0]
	for _, row := range rows {
		cf, ok, err := e.Store().FileByID(ctx, row.FileID)
		if err != nil {
			return nil, err
		}
		if ok && lang.Of(cf.Lang).Grammar == nil {
			continue
		}
		out = append(out, row)
	}
	return out, nil
}

// NameFile is what a candidate file of a text search offers for a name: its
// row, its facts, the name's index in facts.Names and its links.
type NameFile struct {
	File   store.FileRow
	Facts  *lang.Facts
	NameID int
	Links  map[int]index.Link
}

// NameFileOf loads candidate file id for name; nil (and no error) when the
// file is gone, has no facts or never mentions the name as an identifier.
func (e *Engine) NameFileOf(ctx context.Context, id int64, name string) (*NameFile, error) {
	f, facts, err := e.fileFacts(ctx, id)
	if err != nil || facts == nil {
		return nil, err
	}
	nameID := -1
	for i, n := range facts.Names {
		if n == name {
			nameID = i
			break
		}
	}
	if nameID < 0 {
		return nil, nil
	}
	links, err := e.Links(ctx, f.ID)
	if err != nil {
		return nil, err
	}
	return &NameFile{File: f, Facts: facts, NameID: nameID, Links: links}, nil
}

// Links returns a file's resolved references by reference index.
func (e *Engine) Links(ctx context.Context, fileID int64) (map[int]index.Link, error) {
	if of, ok, err := e.ovDerivedByID(ctx, fileID); err != nil || ok {
		if of == nil {
			return nil, err
		}
		return of.Links, err
	}
	if e.replaced(ctx, fileID) {
		return nil, nil // the overlay's version of the file holds its links
	}
	data, err := e.Store().Link(ctx, fileID)
	if err != nil {
		return nil, err
	}
	ls, err := index.DecodeLinks(data)
	if err != nil {
		return nil, err
	}
	out := make(map[int]index.Link, len(ls))
	for _, l := range ls {
		out[l.Ref] = l
	}
	return out, nil
}

// bySCIP resolves a SCIP symbol string: through the mapping of the imported
// semantic indexes, else by the Cairn names the symbol most likely has.
func (e *Engine) bySCIP(ctx context.Context, name string) (*Resolved, error) {
	rows, err := e.Store().SemSymbols(ctx, semantic.SymbolID(name))
	if err != nil {
		return nil, err
	}
	var ids []int64
	seen := map[int64]bool{}
	known, definedHere := false, false
	for _, r := range rows {
		if r.Symbol != name {
			continue // a hash collision
		}
		known = true
		definedHere = definedHere || r.DefDoc >= 0
		cairn, err := e.Store().SemCairnOf(ctx, r.Index, r.ID)
		if err != nil {
			return nil, err
		}
		for _, id := range cairn {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	symRows, err := e.Store().SymbolsByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	if len(symRows) > 0 {
		return e.single(ctx, name, symRows)
	}
	for _, guess := range semantic.NameGuesses(name) {
		cands, err := e.candidates(ctx, guess)
		if err != nil {
			return nil, err
		}
		if len(cands) > 0 {
			return e.single(ctx, name, cands)
		}
	}
	details := map[string]any{"scip_symbol": name, "known_to_semantic_index": known}
	msg := fmt.Sprintf("no symbol matches the SCIP symbol %q", name)
	if known && !definedHere {
		msg = fmt.Sprintf("the SCIP symbol %q is defined outside the repository (a dependency, the standard library or a built-in)", name)
	}
	return nil, &errs.Error{Kind: errs.NotFound, Msg: msg, Details: details,
		Fixes: []string{"cairn search <name> --mode symbol"}}
}

// single loads the one symbol of rows, or reports name as ambiguous when
// rows hold several.
func (e *Engine) single(ctx context.Context, name string, rows []store.SymbolRow) (*Resolved, error) {
	if len(rows) > 1 {
		if group, err := e.variantGroup(ctx, rows); err != nil || group != nil {
			return first(group), err
		}
		return nil, e.ambiguous(ctx, name, rows)
	}
	return e.Load(ctx, rows[0])
}

// primary loads a symbol row, or the primary of its variants when it is
// one of several (a call linked to one build's definition stands for the
// name under every build).
func (e *Engine) primary(ctx context.Context, row store.SymbolRow) (*Resolved, error) {
	rows, err := e.Store().SymbolsByQName(ctx, row.QName)
	if err != nil {
		return nil, err
	}
	if len(rows) > 1 {
		group, err := e.variantGroup(ctx, rows)
		if err != nil {
			return nil, err
		}
		for _, v := range group {
			if v.Row.ID == row.ID {
				return group[0], nil
			}
		}
	}
	return e.Load(ctx, row)
}

// atSemantic resolves a position through the semantic layer when it
// describes the file as it is: (nil, nil) when it cannot tell.
func (e *Engine) atSemantic(ctx context.Context, path string, pos lang.Pos) (*Resolved, error) {
	v, err := e.Semantic(ctx)
	if err != nil || !v.Usable(path) {
		return nil, err
	}
	occs, idx, ok, err := e.docOccs(ctx, v, path)
	if err != nil || !ok {
		return nil, err
	}
	for _, o := range occs {
		if o.Line != pos.Line || pos.Col < o.Col || (o.EndLine == o.Line && pos.Col >= o.EndCol) {
			continue
		}
		row, found, err := e.Store().SemSymbol(ctx, idx, o.Sym)
		if err != nil || !found {
			return nil, err
		}
		ids, err := e.Store().SemCairnOf(ctx, idx, o.Sym)
		if err != nil {
			return nil, err
		}
		rows, err := e.Store().SymbolsByIDs(ctx, ids)
		if err != nil {
			return nil, err
		}
		switch {
		case len(rows) > 0:
			return e.single(ctx, row.Symbol, rows)
		case row.DefDoc < 0:
			return nil, &errs.Error{Kind: errs.NotFound, Msg: fmt.Sprintf("%s is defined outside the repository (%s)", row.Display, row.Symbol),
				Details: map[string]any{"scip_symbol": row.Symbol, "layer": LayerSemantic}}
		}
		return nil, nil // defined here but not mapped: let syntax answer
	}
	return nil, nil
}
