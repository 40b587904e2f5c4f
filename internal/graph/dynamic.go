package graph

import (
	"context"
	"slices"
	"strings"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// Dynamic calls: what syntax can say about a call whose target is chosen at
// run time, without resolving it to one target.

// maxAssignmentFiles bounds the files searched for assignments to a
// function-valued field or variable.
const maxAssignmentFiles = 50

// isCallable reports whether a symbol kind is something a function value can be.
func isCallable(k lang.DefKind) bool {
	return k == lang.KindFunction || k == lang.KindMethod || k == lang.KindConstructor
}

// localCandidates fills the candidates of a call through a local binding:
// the functions assigned to it where it is declared (f := handle, const f =
// handle). A parameter has none: its value comes from the callers.
func (w *walker) localCandidates(ctx context.Context, n *query.Resolved, local int32, d *DynamicCall) error {
	facts := n.Facts
	lo := facts.Locals[local]
	links, err := w.fileLinks(ctx, n.File.ID)
	if err != nil {
		return err
	}
	start := -1
	for i, r := range facts.Refs {
		if r.Pos.Line == lo.Pos.Line && lo.Pos.Before(r.Pos) {
			start = i
			break
		}
	}
	if start < 0 {
		return nil
	}
	ids, err := w.assignedAfter(ctx, facts, links, start, lo.Pos.Line, facts.Names[lo.Name])
	if err != nil {
		return err
	}
	refs, err := w.refsOf(ctx, ids)
	if err != nil {
		return err
	}
	setCandidates(d, refs, "assignments")
	return nil
}

// assignedAfter reads what a line assigns from reference i on: the first
// function or method it names (not one it calls), by link or by same-file binding.
func (w *walker) assignedAfter(ctx context.Context, facts *lang.Facts, links map[int]index.Link, i int, line uint32, self string) ([]int64, error) {
	for j := i; j < len(facts.Refs) && facts.Refs[j].Pos.Line == line; j++ {
		r := facts.Refs[j]
		if facts.Names[r.Name] == self && r.Shape != lang.QualNone {
			continue
		}
		if r.Role == lang.RoleCall {
			return nil, nil // the result of a call is assigned: unknown
		}
		target := int64(0)
		if l, ok := links[j]; ok {
			target = l.Target
		}
		if target == 0 {
			continue
		}
		rows, err := w.symbols(ctx, []int64{target})
		if err != nil {
			return nil, err
		}
		if row, ok := rows[target]; ok && isCallable(lang.DefKind(row.Kind)) {
			return []int64{target}, nil
		}
	}
	return nil, nil
}

// assignedCandidates fills the candidates of a call through a field or
// variable holding a function: the functions assigned to it, where syntax
// sees the assignment (its declaration, x.f = g, T{f: g}, self.f = g).
func (w *walker) assignedCandidates(ctx context.Context, t *query.Resolved, d *DynamicCall) error {
	if t.Def == nil {
		return nil
	}
	var ids []int64
	seen := map[int64]bool{}
	addAll := func(xs []int64) {
		for _, x := range xs {
			if !seen[x] {
				seen[x] = true
				ids = append(ids, x)
			}
		}
	}
	name := t.Row.Name
	// The declaration: var handle = serve, handler = staticmethod(serve)...
	links, err := w.fileLinks(ctx, t.File.ID)
	if err != nil {
		return err
	}
	for i, r := range t.Facts.Refs {
		if r.Pos.Line == t.Def.NameSpan.Start.Line && t.Def.NameSpan.Start.Before(r.Pos) {
			xs, err := w.assignedAfter(ctx, t.Facts, links, i, r.Pos.Line, name)
			if err != nil {
				return err
			}
			addAll(xs)
			break
		}
	}
	cands, err := w.e.Store().TextCandidates(ctx, store.GlobLiteral(name), true, maxAssignmentFiles)
	if err != nil {
		return err
	}
	for _, c := range cands {
		if c.Lang == "" || query.LangFamily(c.Lang) != query.LangFamily(t.File.Lang) || ctx.Err() != nil {
			continue
		}
		f, err := w.file(ctx, c.FileID)
		if err != nil {
			return err
		}
		if f == nil {
			continue
		}
		facts, err := w.e.Facts(ctx, f.BlobID)
		if err != nil || facts == nil {
			continue
		}
		fl, err := w.fileLinks(ctx, f.ID)
		if err != nil {
			return err
		}
		for i, r := range facts.Refs {
			if facts.Names[r.Name] != name || r.Role == lang.RoleCall {
				continue
			}
			l, linked := fl[i]
			switch {
			case linked && l.Target == t.Row.ID:
			case !linked && r.Role == lang.RoleWrite:
			case !linked && r.Shape == lang.QualExpr && facts.Names[r.Qualifier] == "": // a key of a composite literal
			default:
				continue
			}
			xs, err := w.assignedAfter(ctx, facts, fl, i+1, r.Pos.Line, name)
			if err != nil {
				return err
			}
			addAll(xs)
		}
	}
	refs, err := w.refsOf(ctx, ids)
	if err != nil {
		return err
	}
	setCandidates(d, refs, "assignments")
	return nil
}

// interfaceCall recognises an unresolved method call on a value whose
// declared type is an interface: a parameter (f(r Reader) { r.Read() }) or a
// field reached from the receiver (s.store.Get(), self.store.get(),
// this.store.get()). It lists what may run, and never picks one.
func (w *walker) interfaceCall(ctx context.Context, n *query.Resolved, ref lang.Ref, name string, site protocol.Location) (*DynamicCall, bool, error) {
	if ref.Shape != lang.QualIdent && ref.Shape != lang.QualPath {
		return nil, false, nil
	}
	q := n.Facts.Names[ref.Qualifier]
	if q == "" {
		return nil, false, nil
	}
	parts := strings.Split(q, ".")
	var cur *query.Resolved // the type of the value so far
	var err error
	params := paramTypes(n)
	switch {
	case slices.Contains(lang.Of(n.File.Lang).SelfNames, parts[0]):
		cur, err = w.enclosingType(ctx, n)
	case params[parts[0]] != "":
		if ref.Shape == lang.QualIdent && !ref.QualBound {
			return nil, false, nil
		}
		cur, err = w.resolveTypeText(ctx, n, params[parts[0]])
	default:
		return nil, false, nil
	}
	if err != nil || cur == nil {
		return nil, false, err
	}
	for _, field := range parts[1:] {
		ms, err := w.typeMembers(ctx, cur.Row)
		if err != nil {
			return nil, false, err
		}
		m, ok := ms.all[field]
		if !ok {
			return nil, false, nil
		}
		k := lang.DefKind(m.row.Kind)
		if k != lang.KindField && k != lang.KindProperty {
			return nil, false, nil
		}
		fr, err := w.resolved(ctx, m.row)
		if err != nil || fr == nil || fr.Def == nil {
			return nil, false, err
		}
		if cur, err = w.resolveTypeText(ctx, fr, fieldType(fr)); err != nil || cur == nil {
			return nil, false, err
		}
	}
	is, err := w.isInterface(ctx, cur.Row)
	if err != nil || !is {
		return nil, false, err
	}
	d := &DynamicCall{From: n.ID(), Kind: "interface", Name: name, Receiver: query.Receiver(n.Facts, ref), Count: 1, Line: site.Line,
		Candidates: []query.SymbolRef{}, Tier: index.TierStrong.String(), Layer: query.LayerSyntactic}
	ms, err := w.typeMembers(ctx, cur.Row)
	if err != nil {
		return nil, false, err
	}
	var method int64
	if m, ok := ms.all[name]; ok {
		mr, err := w.resolved(ctx, m.row)
		if err != nil {
			return nil, false, err
		}
		if mr != nil {
			ref := mr.Ref()
			d.Through, method = &ref, m.row.ID
		}
	} else {
		ref := cur.Ref()
		d.Through = &ref
	}
	if err := w.implementationCandidates(ctx, &cur.Row, method, name, d); err != nil {
		return nil, false, err
	}
	return d, true, nil
}

// enclosingType is the class or (Go) receiver type a method belongs to.
func (w *walker) enclosingType(ctx context.Context, n *query.Resolved) (*query.Resolved, error) {
	if n.Row.Parent != 0 {
		if p, err := w.resolveID(ctx, n.Row.Parent); err != nil || p == nil {
			return nil, err
		} else if lang.DefKind(p.Row.Kind).IsTypeLike() {
			return p, nil
		}
	}
	if n.Def != nil && n.Def.Receiver != "" {
		i := strings.LastIndexByte(n.Row.QName, '.')
		if i > 0 {
			rows, err := w.e.SymbolsByQName(ctx, n.Row.QName[:i])
			if err != nil {
				return nil, err
			}
			for _, r := range rows {
				if lang.DefKind(r.Kind).IsTypeLike() {
					return w.resolved(ctx, r)
				}
			}
		}
	}
	return nil, nil
}

// resolveTypeText finds the symbol a type written inside a definition
// names: the reference with the type's name in that definition, as linked.
func (w *walker) resolveTypeText(ctx context.Context, in *query.Resolved, text string) (*query.Resolved, error) {
	name := typeName(text)
	if name == "" || in.Facts == nil || in.Def == nil {
		return nil, nil
	}
	links, err := w.fileLinks(ctx, in.File.ID)
	if err != nil {
		return nil, err
	}
	try := func(inside bool) (*query.Resolved, error) {
		for i, r := range in.Facts.Refs {
			if in.Facts.Names[r.Name] != name || (inside && !in.Def.Span.Contains(r.Pos)) {
				continue
			}
			l, ok := links[i]
			if !ok {
				continue
			}
			t, err := w.resolveID(ctx, l.Target)
			if err != nil {
				return nil, err
			}
			if t != nil && lang.DefKind(t.Row.Kind).IsTypeLike() {
				return t, nil
			}
		}
		return nil, nil
	}
	if t, err := try(true); t != nil || err != nil {
		return t, err
	}
	return try(false)
}

// typeName is the name of the type a type expression denotes: Reader in
// *io.Reader, Optional["Store"] gives Store, Store | None gives Store.
func typeName(text string) string {
	t := strings.TrimSpace(text)
	for _, p := range []string{"Optional[", "typing.Optional["} {
		if s, ok := strings.CutPrefix(t, p); ok {
			t = strings.TrimSuffix(s, "]")
		}
	}
	if i := strings.IndexAny(t, "|="); i >= 0 {
		t = t[:i]
	}
	t = strings.Trim(strings.TrimSpace(t), `"'`)
	t = strings.TrimLeft(t, "*&.[]")
	t = strings.TrimPrefix(t, "readonly ")
	if i := strings.IndexAny(t, "[<( {;"); i >= 0 {
		t = t[:i]
	}
	if i := strings.LastIndexByte(t, '.'); i >= 0 {
		t = t[i+1:]
	}
	if !lang.IsIdentifier(t) {
		return ""
	}
	return t
}

// fieldType is the declared type of a field from its signature: the
// language's FieldType hook (Go's "store Store"), else the text after a
// top-level colon (TypeScript "private store: Store", Python "store: Store =
// None").
func fieldType(f *query.Resolved) string {
	sig := f.Def.Signature
	if hook := lang.Of(f.File.Lang).FieldType; hook != nil {
		return hook(sig, f.Row.Name)
	}
	if i := topLevelIndex(sig, ':'); i >= 0 {
		return strings.TrimSuffix(strings.TrimSpace(sig[i+1:]), ";")
	}
	return ""
}

// paramTypes reads the declared types of a function's parameters from its
// signature: the language's ParamTypes hook (Go's, with a method's
// receiver), else "name: Type" lists.
func paramTypes(n *query.Resolved) map[string]string {
	if n.Def == nil {
		return map[string]string{}
	}
	sig := n.Def.Signature
	if hook := lang.Of(n.File.Lang).ParamTypes; hook != nil {
		return hook(sig, n.Row.Name)
	}
	out := map[string]string{}
	if params, ok := lang.ParamList(sig, n.Row.Name); ok {
		addParams(out, params)
	}
	return out
}

// addParams parses a parameter list "r: Reader, x?: number = 1, *args".
func addParams(out map[string]string, list string) {
	for _, p := range lang.SplitTop(list, true) {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		for _, mod := range []string{"public ", "private ", "protected ", "readonly ", "override "} {
			p = strings.TrimPrefix(p, mod)
		}
		p = strings.TrimLeft(p, "*.")
		i := topLevelIndex(p, ':')
		if i < 0 {
			continue
		}
		name := strings.TrimSuffix(strings.TrimSpace(p[:i]), "?")
		typ := p[i+1:]
		if j := topLevelIndex(typ, '='); j >= 0 {
			typ = typ[:j]
		}
		out[name] = strings.TrimSpace(typ)
	}
}

// topLevelIndex finds c outside brackets, or -1.
func topLevelIndex(s string, c byte) int {
	return lang.TopLevel(s, func(i int) bool { return s[i] == c })
}
