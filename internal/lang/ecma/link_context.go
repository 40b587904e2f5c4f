package ecma

import (
	"context"
	"slices"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/link"
)

// TypeScript: a parameter without a declared type, of a function passed as
// an argument, f((a, b) => a.m()) or new C((a) => a.m()), has the type the
// callee declares for that position: f's parameter at the function's
// position must be declared with a function type, (x: X, y: Y) => R, whose
// parameter at the parameter's position names a type. The callee is a
// function (every overload of it, the implementation of overloads left
// out outside declaration files) or the constructors of a class, of the
// file or imported by name; the type name resolves in the callee's file. A
// member reference on such a parameter is then linked as on a typed one.
// Anything else (a callee of another kind, overloads that disagree, a type
// that is a type parameter, a union, a type alias of a function type, an
// argument passed to a rest parameter) leaves the reference as it was.

// ecmaContext is the symbol of member name of the contextual type of the
// qualifier of r; ok is false when the qualifier has none that the source
// declares.
func (l *batch) ecmaContext(ctx context.Context, lf *link.File, d *link.DeclTypes, r lang.Ref, name string, targets []lang.Target, resolved []bool) (int64, bool) {
	f := d.Facts
	ls, found := d.Local(r.Qualifier, r.Scope, r.Pos)
	if !found || len(ls) != 1 {
		return 0, false
	}
	lo := f.Locals[ls[0]]
	arg, param, ok := lang.ParseContextType(lo.Type)
	if !ok || lo.Via <= 0 || int(lo.Via) > len(f.Refs) {
		return 0, false
	}
	sigs, file, facts, ok := l.calleeSigs(ctx, lf, lo.Via-1, targets, resolved)
	if !ok {
		return 0, false
	}
	typ := agreedType(sigs, func(sig calleeSig) (string, bool) {
		return contextParamType(sig.text, sig.typeParams, arg, param), true
	})
	if typ == "" {
		return 0, false
	}
	return l.ecmaTypeMember(ctx, file, facts, typ, name, 0), true
}

// guardLocal is the local that a type guard declared for the qualifier of
// r (Narrowing), when it is the one r sees.
func guardLocal(d *link.DeclTypes, r lang.Ref) (int32, bool) {
	ls, found := d.Local(r.Qualifier, r.Scope, r.Pos)
	if !found || len(ls) != 1 {
		return 0, false
	}
	_, ok := parseGuardType(d.Facts.Locals[ls[0]].Type)
	return ls[0], ok
}

// guardMember is the symbol of member name of the type that the guard of
// local li asserts for it (isT(x): x is T), through every declaration of
// the guard; ok is false when they assert none or disagree.
func (l *batch) guardMember(ctx context.Context, lf *link.File, li int32, name string, targets []lang.Target, resolved []bool) (int64, bool) {
	f := lf.Facts
	lo := f.Locals[li]
	arg, _ := parseGuardType(lo.Type)
	if lo.Via <= 0 || int(lo.Via) > len(f.Refs) {
		return 0, false
	}
	sigs, file, facts, ok := l.calleeSigs(ctx, lf, lo.Via-1, targets, resolved)
	if !ok {
		return 0, false
	}
	typ := agreedType(sigs, func(sig calleeSig) (string, bool) {
		return guardedType(sig.text, sig.typeParams, arg), true
	})
	if typ == "" {
		return 0, false
	}
	id := l.ecmaTypeMember(ctx, file, facts, typ, name, 0)
	return id, id != 0
}

// guardedType reads from a function's signature the type name its
// predicate asserts for parameter arg ((x: unknown): x is T), without type
// arguments; "" when it declares no predicate on that parameter, or
// asserts a type parameter (of typeParams).
func guardedType(sig string, typeParams []string, arg int) string {
	p, _, open, read, found := paramAt(sig, arg)
	if !read || !found {
		return ""
	}
	param, _, typed := splitParam(p)
	if !typed {
		param = strings.TrimSuffix(strings.TrimSpace(p), "?")
	}
	ret, ok := strings.CutPrefix(strings.TrimSpace(sig[matching(sig, open)+1:]), ":")
	if !ok {
		return ""
	}
	asserted, ok := strings.CutPrefix(strings.TrimSpace(ret), param+" is ")
	if !ok || !lang.IsIdentifier(param) {
		return ""
	}
	return declaredName(asserted, typeParams)
}

// argumentMember is the symbol of member name of the type that the callee
// of r (Via) declares for the argument whose object literal's key r is
// (ArgumentKeys); ok is false when it declares none.
func (l *batch) argumentMember(ctx context.Context, lf *link.File, r lang.Ref, arg int, name string, targets []lang.Target, resolved []bool) (int64, bool) {
	if int(r.Via) > len(lf.Facts.Refs) {
		return 0, false
	}
	sigs, file, facts, ok := l.calleeSigs(ctx, lf, r.Via-1, targets, resolved)
	if !ok {
		return 0, false
	}
	typ := agreedType(sigs, func(sig calleeSig) (string, bool) {
		return argumentType(sig.text, sig.typeParams, arg)
	})
	if typ == "" {
		return 0, false
	}
	id := l.ecmaTypeMember(ctx, file, facts, typ, name, 0)
	return id, id != 0
}

// agreedType is the type that read finds in every declaration of a callee
// that takes the argument (an overload without it is not the one called);
// "" when one of them declares none or they disagree.
func agreedType(sigs []calleeSig, read func(calleeSig) (typ string, takes bool)) string {
	typ := ""
	for _, sig := range sigs {
		t, takes := read(sig)
		if !takes {
			continue
		}
		if t == "" || typ != "" && t != typ {
			return ""
		}
		typ = t
	}
	return typ
}

// calleeSigs are the declarations that callers of the callee reference ci
// of a file see: the overloads of a function of the file or imported by
// name, or the constructors of such a class, for a bare name; the overloads
// of the method a member call (x.m(...)) is linked to, which the file's
// earlier references have settled. The implementation of overloads is
// left out outside declaration files and interfaces. With the file that
// declares them and its facts; ok is false for any other callee.
func (l *batch) calleeSigs(ctx context.Context, lf *link.File, ci int32, targets []lang.Target, resolved []bool) ([]calleeSig, string, *lang.Facts, bool) {
	f := lf.Facts
	callee := f.Refs[ci]
	file, facts, path := lf.Path, f, ""
	var sigs []calleeSig
	implemented := true
	switch {
	case callee.Shape != lang.QualNone:
		var di int
		var ok bool
		if file, facts, di, ok = l.defOf(ctx, lf, lf.Target(int(ci))); !ok || facts.Defs[di].Kind != lang.KindMethod {
			return nil, "", nil, false
		}
		sigs = methodSignatures(facts, di)
		implemented = facts.Defs[di].Parent >= 0 && facts.Defs[facts.Defs[di].Parent].Kind == lang.KindClass
	case callee.BindDef >= 0:
		path = f.Defs[callee.BindDef].Path
	case callee.BindImp >= 0:
		im := f.Imports[callee.BindImp]
		t := targets[callee.BindImp]
		exported, named := "", false
		if resolved[callee.BindImp] && t.File != "" {
			exported, named = l.exportedName(ctx, im, t.File)
		}
		if !named {
			return nil, "", nil, false
		}
		if _, facts = link.FactsAt(ctx, l.R, t.File); facts == nil {
			return nil, "", nil, false
		}
		file, path = t.File, exported
	default:
		return nil, "", nil, false
	}
	if path != "" {
		sigs = calleeSignatures(facts, path)
	}
	if len(sigs) > 1 && !strings.HasSuffix(file, ".d.ts") && implemented {
		// overloads: the last declaration is the implementation, which
		// callers do not see (an interface's overloads have none)
		sigs = sigs[:len(sigs)-1]
	}
	return sigs, file, facts, len(sigs) > 0
}

// methodSignatures lists the declarations of method di of a file: each
// overload of its lexical path, with the type parameters of the method and
// of its class.
func methodSignatures(facts *lang.Facts, di int) []calleeSig {
	m := facts.Defs[di]
	var outer []string
	if m.Parent >= 0 {
		outer = typeParams(facts.Defs[m.Parent].Signature)
	}
	var out []calleeSig
	for _, d := range facts.Defs {
		if d.Path == m.Path && d.Kind == lang.KindMethod {
			out = append(out, calleeSig{d.Signature, append(typeParams(d.Signature), outer...)})
		}
	}
	return out
}

// calleeSig is one declaration of a callee: its signature and the type
// parameters in scope of it.
type calleeSig struct {
	text       string
	typeParams []string
}

// calleeSignatures lists the declarations of the top-level function path of
// a file (each overload), or the constructors of the class path; nil when
// path is something else or a class without a constructor.
func calleeSignatures(facts *lang.Facts, path string) []calleeSig {
	var out []calleeSig
	for _, d := range facts.Defs {
		if d.Parent >= 0 || d.Path != path {
			continue
		}
		switch d.Kind {
		case lang.KindFunction:
			if !strings.Contains(d.Signature, "function") {
				return nil // const f = (...) => ...
			}
			out = append(out, calleeSig{d.Signature, typeParams(d.Signature)})
		case lang.KindClass:
			outer := typeParams(d.Signature)
			for _, c := range facts.Defs {
				if c.Kind == lang.KindConstructor && c.Path == path+".constructor" {
					out = append(out, calleeSig{c.Signature, append(typeParams(c.Signature), outer...)})
				}
			}
			if len(out) == 0 {
				return nil
			}
		default:
			return nil
		}
	}
	return out
}

// ecmaTypeMember is the symbol of member name of the type typ written in a
// JavaScript or TypeScript file: a top-level type of the file or one it
// imports by name or through a namespace import, looked up in its bases as
// ecmaInherited does from depth; 0 for none.
func (l *batch) ecmaTypeMember(ctx context.Context, file string, facts *lang.Facts, typ, name string, depth int) int64 {
	first, rest, dotted := strings.Cut(typ, ".")
	if typ == "" || dotted && strings.Contains(rest, ".") {
		return 0
	}
	if !dotted && topType(facts, typ) {
		return l.ecmaInherited(ctx, file, typ, name, depth)
	}
	fi, found := l.R.File(file)
	if !found {
		return 0
	}
	for _, im := range facts.Imports {
		if im.LocalName() != first {
			continue
		}
		t, ok := l.R.Import(ctx, fi, im)
		if !ok || t.File == "" {
			return 0
		}
		switch {
		case !dotted:
			if exported, ok := l.exportedName(ctx, im, t.File); ok {
				return l.ecmaInherited(ctx, t.File, exported, name, depth)
			}
		case dotted && im.Kind == lang.ImportNamespace:
			return l.ecmaInherited(ctx, t.File, rest, name, depth)
		}
		return 0
	}
	return 0
}

// contextParamType reads from a function's or constructor's signature the
// type name of parameter param of the function type declared for its
// parameter arg, without type arguments; "" when the signature does not
// declare one, or declares a type parameter (of typeParams or of the
// function type).
func contextParamType(sig string, typeParams []string, arg, param int) string {
	p, _, _, read, found := paramAt(sig, arg)
	if !read || !found {
		return ""
	}
	_, ptyp, ok := splitParam(p)
	ptyp = strings.TrimSpace(ptyp)
	if !ok || !strings.HasPrefix(ptyp, "(") {
		return ""
	}
	inner, ok := splitList(ptyp, 0)
	if !ok {
		return ""
	}
	end := matching(ptyp, 0)
	if !strings.HasPrefix(strings.TrimSpace(ptyp[end+1:]), "=>") {
		return "" // a parenthesised type, not a function type
	}
	q, ok := positional(inner, param)
	if !ok {
		return ""
	}
	_, qtyp, ok := splitParam(q)
	if !ok {
		return ""
	}
	return declaredName(qtyp, typeParams)
}

// argumentType reads from a function's or constructor's signature the type
// name of its parameter arg, without type arguments; "" when it declares
// none, or a type parameter (of typeParams). takes is false when the
// signature has no parameter arg (fewer parameters, no rest parameter).
func argumentType(sig string, typeParams []string, arg int) (typ string, takes bool) {
	p, params, _, read, found := paramAt(sig, arg)
	if !read {
		return "", true
	}
	if !found {
		return "", restAt(params, arg)
	}
	_, ptyp, ok := splitParam(p)
	if !ok {
		return "", true
	}
	return declaredName(ptyp, typeParams), true
}

// declaredName is the type name of type text t without type arguments;
// "" when t names none, or names a type parameter of typeParams.
func declaredName(t string, typeParams []string) string {
	typ := lang.TypeName(t)
	first, _, _ := strings.Cut(typ, ".")
	if slices.Contains(typeParams, first) {
		return ""
	}
	return typ
}

// paramAt reads parameter arg of a function's or constructor's signature:
// its text, the signature's parameters and the offset of the ( that opens
// them. read is false for a signature that is not read (one with literals
// or cut short, or without a parameter list); found is false when it has
// no parameter arg (fewer parameters, or a rest parameter before it).
func paramAt(sig string, arg int) (p string, params []string, open int, read, found bool) {
	if strings.ContainsAny(sig, "\"'`…") {
		return "", nil, 0, false, false
	}
	open = topIndex(sig, 0, '(')
	if open < 0 {
		return "", nil, 0, false, false
	}
	params, ok := splitList(sig, open)
	if !ok {
		return "", nil, 0, false, false
	}
	p, found = positional(params, arg)
	return p, params, open, true, found
}

// restAt reports whether a rest parameter of the list takes argument i.
func restAt(params []string, i int) bool {
	for _, p := range params {
		p = strings.TrimSpace(p)
		if name, _, _ := splitParam(p); name == "this" || p == "" {
			continue
		}
		if strings.HasPrefix(p, "...") {
			return true
		}
		if i == 0 {
			return false
		}
		i--
	}
	return false
}

// positional is the parameter at index i of a parameter list, a this
// parameter left out; false when there is none or a rest parameter takes it.
func positional(params []string, i int) (string, bool) {
	for _, p := range params {
		p = strings.TrimSpace(p)
		if name, _, _ := splitParam(p); name == "this" {
			continue
		}
		if strings.HasPrefix(p, "...") {
			return "", false
		}
		if i == 0 {
			return p, true
		}
		i--
	}
	return "", false
}

// splitParam splits "name?: T = v" (modifiers before name allowed) into the
// name and the type; ok is false without a type.
func splitParam(p string) (name, typ string, ok bool) {
	colon := topIndex(p, 0, ':')
	if colon < 0 {
		return "", "", false
	}
	head := strings.Fields(strings.TrimSuffix(strings.TrimSpace(p[:colon]), "?"))
	if len(head) == 0 {
		return "", "", false
	}
	name = head[len(head)-1]
	typ = p[colon+1:]
	if eq := topIndex(typ, 0, '='); eq >= 0 {
		typ = typ[:eq]
	}
	return name, typ, true
}

// typeParams lists the names of the type parameters a declaration's
// signature writes before its parameters (function f<T, U extends X>(...),
// class C<T>).
func typeParams(sig string) []string {
	open := topIndex(sig, 0, '(')
	if open < 0 {
		open = len(sig)
	}
	lt := strings.IndexByte(sig[:open], '<')
	if lt < 0 {
		return nil
	}
	list, ok := splitList(sig, lt)
	if !ok {
		return nil
	}
	var out []string
	for _, tp := range list {
		for _, w := range strings.Fields(tp) {
			if w != "const" && w != "in" && w != "out" {
				out = append(out, w)
				break
			}
		}
	}
	return out
}

// matching is the index of the bracket that closes the one at open, or -1.
// The > of => closes nothing.
func matching(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		depth = nest(s, i, depth)
		if depth == 0 {
			return i
		}
		if depth < 0 {
			return -1
		}
	}
	return -1
}

// topIndex is the index of the first c at bracket depth 0 from start (an =
// of => does not count), or -1.
func topIndex(s string, start int, c byte) int {
	depth := 0
	for i := start; i < len(s); i++ {
		b := s[i]
		if b == c && depth == 0 && !(c == '=' && i+1 < len(s) && s[i+1] == '>') {
			return i
		}
		depth = nest(s, i, depth)
	}
	return -1
}

// nest is the bracket depth after s[i], given the depth before it: ( [ { <
// open, ) ] } > close, and the > of => closes nothing.
func nest(s string, i, depth int) int {
	switch s[i] {
	case '(', '[', '{', '<':
		return depth + 1
	case '>':
		if i > 0 && s[i-1] == '=' {
			return depth
		}
		return depth - 1
	case ')', ']', '}':
		return depth - 1
	}
	return depth
}

// splitList splits the bracketed list that opens at open at its top-level
// commas; false when the bracket does not close.
func splitList(s string, open int) ([]string, bool) {
	end := matching(s, open)
	if end < 0 {
		return nil, false
	}
	body := s[open+1 : end]
	if strings.TrimSpace(body) == "" {
		return nil, true
	}
	var out []string
	for {
		i := topIndex(body, 0, ',')
		if i < 0 {
			return append(out, body), true
		}
		out = append(out, body[:i])
		body = body[i+1:]
	}
}
