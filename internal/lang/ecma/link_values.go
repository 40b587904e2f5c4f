package ecma

import (
	"context"
	"slices"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/link"
)

// TypeScript: a member reference whose qualifier is a value typed elsewhere
// (values.go) is the member of that type: the result of a call (the
// function's or method's declared return type, resolved in the file that
// declares it), a binding initialised with such a value, or an element of
// one (for ... of, the callbacks of forEach, map, filter and the like).
// The callee of a call is the symbol its reference is linked to, which the
// file's earlier references have settled: reg.list().forEach(j => j.stop())
// links list through reg's declared type, then stop through list's
// declared Job[]. A type parameter, a union, or a type that is not a class
// or interface of the repository leaves the reference as it was.

// tsType is a type as written in a TypeScript file, with the type
// parameters in scope where it is written (they are not types).
type tsType struct {
	file   string
	facts  *lang.Facts
	text   string
	params []string
}

// maxValueHops bounds the values followed from one reference
// (const a = f(); const b = a; ...).
const maxValueHops = 8

// valueMember is the symbol of member name of the value of local li of the
// file, when ValueTypes derived its type; ok is false otherwise.
func (l *batch) valueMember(ctx context.Context, lf *link.File, li int32, name string) (int64, bool) {
	switch lf.Facts.Locals[li].Type {
	case typeOfValue, typeOfElement, typeOfItem:
	default:
		return 0, false
	}
	t, ok := l.localType(ctx, lf, li, 0)
	if !ok {
		return 0, false
	}
	return l.typeMember(ctx, t, name)
}

// resultMember is the symbol of member name of the result of the call whose
// callee reference is via (1 + index): f().name, a.f().name.
func (l *batch) resultMember(ctx context.Context, lf *link.File, via int32, name string) (int64, bool) {
	t, ok := l.refType(ctx, lf, via-1, 0)
	if !ok {
		return 0, false
	}
	return l.typeMember(ctx, t, name)
}

// typeMember is the symbol of member name of a named type of the repository;
// ok is false when t is not one.
func (l *batch) typeMember(ctx context.Context, t tsType, name string) (int64, bool) {
	named := lang.TypeName(t.text)
	first, _, _ := strings.Cut(named, ".")
	if named == "" || slices.Contains(t.params, first) {
		return 0, false
	}
	id := l.ecmaTypeMember(ctx, t.file, t.facts, named, name, 0)
	return id, id != 0
}

// localType is the type of local li of the file: declared, or derived from
// a value (values.go).
func (l *batch) localType(ctx context.Context, lf *link.File, li int32, hops int) (tsType, bool) {
	lo := lf.Facts.Locals[li]
	switch {
	case lo.Type == typeOfValue:
		return l.refType(ctx, lf, lo.Via-1, hops+1)
	case lo.Type == typeOfElement || lo.Type == typeOfItem:
		t, ok := l.refType(ctx, lf, lo.Via-1, hops+1)
		if !ok {
			return tsType{}, false
		}
		t.text = elementOf(t.text, lo.Type == typeOfItem)
		return t, t.text != ""
	case strings.HasPrefix(lo.Type, arrayOf):
		return tsType{file: lf.Path, facts: lf.Facts, text: strings.TrimPrefix(lo.Type, arrayOf) + "[]"}, true
	case lo.Type == "" || strings.HasPrefix(lo.Type, "#") || strings.HasPrefix(lo.Type, "?"):
		return tsType{}, false // none, typed by its context, narrowed by a guard
	}
	return tsType{file: lf.Path, facts: lf.Facts, text: lo.Type}, true
}

// refType is the type of the value reference ri of the file stands for: a
// call's declared return type, or the declared type of a local, field,
// property or variable it reads.
func (l *batch) refType(ctx context.Context, lf *link.File, ri int32, hops int) (tsType, bool) {
	f := lf.Facts
	if hops > maxValueHops || ri < 0 || int(ri) >= len(f.Refs) {
		return tsType{}, false
	}
	r := f.Refs[ri]
	if r.BindLocal >= 0 {
		if r.Role == lang.RoleCall {
			return tsType{}, false // a function held in a local
		}
		return l.localType(ctx, lf, r.BindLocal, hops)
	}
	file, facts, di, ok := l.defOf(ctx, lf, lf.Target(int(ri)))
	if !ok {
		return tsType{}, false
	}
	d := facts.Defs[di]
	params := typeParams(d.Signature)
	if d.Parent >= 0 {
		params = append(params, typeParams(facts.Defs[d.Parent].Signature)...)
	}
	text := ""
	switch {
	case r.Role == lang.RoleCall && (d.Kind == lang.KindFunction || d.Kind == lang.KindMethod):
		text = returnType(d.Signature)
	case r.Role != lang.RoleCall && (d.Kind == lang.KindField || d.Kind == lang.KindProperty || d.Kind == lang.KindVariable || d.Kind == lang.KindConstant):
		text = valueType(d)
	}
	text = declared(text)
	if text == "" || strings.ContainsAny(text, "…") {
		return tsType{}, false
	}
	return tsType{file: file, facts: facts, text: text, params: params}, true
}

// valueType is the type a field, property or variable declares, name: T = v
// written before any parameter list (not f = (x): R => ...), else the one
// its value gives it (Def.Type: new C()).
func valueType(d lang.Def) string {
	colon := topIndex(d.Signature, 0, ':')
	if _, typ, ok := splitParam(d.Signature); ok && !strings.Contains(d.Signature[:colon], "(") {
		return declared(typ)
	}
	return d.Type
}

// defOf is the definition of symbol id: its file, the file's facts and its
// index among them.
func (l *batch) defOf(ctx context.Context, lf *link.File, id int64) (string, *lang.Facts, int, bool) {
	if id == 0 {
		return "", nil, 0, false
	}
	if i := lf.DefOf(id); i >= 0 {
		return lf.Path, lf.Facts, int(i), true
	}
	s, ok := l.Symbol(id)
	if !ok {
		return "", nil, 0, false
	}
	facts := l.R.Facts(ctx, s.File)
	if facts == nil || s.DefIdx < 0 || s.DefIdx >= len(facts.Defs) {
		return "", nil, 0, false
	}
	return s.File, facts, s.DefIdx, true
}

// returnType is the return type a function's or method's signature
// declares, as written; "" for none.
func returnType(sig string) string {
	open := topIndex(sig, 0, '(')
	if open < 0 {
		return ""
	}
	end := matching(sig, open)
	if end < 0 {
		return ""
	}
	t, ok := strings.CutPrefix(strings.TrimSpace(sig[end+1:]), ":")
	if !ok {
		return ""
	}
	return declared(t)
}

// declared is a type as a signature writes it, without the semicolon that
// ends an overload, an interface member or a property declaration.
func declared(t string) string {
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(t), ";"))
}
