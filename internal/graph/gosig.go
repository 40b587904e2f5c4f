package graph

import (
	"bytes"
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"strings"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// Go method signatures as syntax states them: a Go type satisfies an
// interface when its method set has every method of the interface with
// identical parameter and result types. Types are read from the signatures
// as written and normalised: a package qualifier becomes the import path it
// names in its file, an unqualified name the path of its own package, a type
// alias of the repository (and the few of the standard library) the type it
// stands for. A type parameter is a variable bound once per comparison, as
// gopls unifies a generic type with an interface. What syntax cannot name
// (a qualifier no import binds, a name a dot import may bring in, an array
// length written as a constant) is undecided: a type whose comparison rests
// on one is a candidate, never an implementation.

// gtype is a normalised Go type.
type gtype struct {
	// kind: named (name is the qualified name), param (a type parameter;
	// name identifies it), ptr, slice, array (name is the length), map,
	// chan (name is the direction), func, iface, struct, inst (args[0] the
	// generic type, then its type arguments), ellipsis, unknown (name says
	// what syntax could not read).
	kind string
	name string
	args []*gtype
	// variadic: a func whose last parameter is ...T (args: parameters, then results).
	variadic bool
	nparams  int
}

// goSig is a Go method's parameter and result types.
type goSig struct {
	params, results []*gtype
	variadic        bool
	pointer         bool // declared on a pointer receiver
}

// goSigCtx is what a signature's type names mean: the file's imports and the
// package the declaration belongs to.
type goSigCtx struct {
	pkg     string            // import path of the declaring package
	imports map[string]string // qualifier -> import path ("" value: more than one import may bind it)
	dots    []string          // the paths the file dot-imports: a bare name may come from one
	params  map[string]string // type parameter names in scope -> their identity
}

// predeclared are Go's predeclared types, with the aliases among them resolved.
var predeclared = map[string]string{
	"bool": "bool", "byte": "uint8", "complex64": "complex64", "complex128": "complex128", "error": "error",
	"float32": "float32", "float64": "float64", "int": "int", "int8": "int8", "int16": "int16", "int32": "int32",
	"int64": "int64", "rune": "int32", "string": "string", "uint": "uint", "uint8": "uint8", "uint16": "uint16",
	"uint32": "uint32", "uint64": "uint64", "uintptr": "uintptr", "comparable": "comparable",
}

// stdAliases are type aliases of the standard library that signatures name.
var stdAliases = map[string]string{
	"os.FileInfo": "io/fs.FileInfo", "os.FileMode": "io/fs.FileMode", "os.DirEntry": "io/fs.DirEntry",
	"os.PathError": "io/fs.PathError",
}

// maxAliasDepth bounds the chains of type aliases followed.
const maxAliasDepth = 8

// goPkgOf is the import path of a Go symbol's package: its qualified name
// without the lexical path.
func goPkgOf(r *query.Resolved) string {
	if r.Def != nil {
		if p, ok := strings.CutSuffix(r.Row.QName, "."+r.Def.Path); ok {
			return p
		}
	}
	return r.Row.QName[:max(strings.LastIndexByte(r.Row.QName, '.'), 0)]
}

// sigContext reads a Go file's imports for normalising the types it names.
func sigContext(r *query.Resolved) *goSigCtx {
	c := &goSigCtx{pkg: goPkgOf(r), imports: map[string]string{}, params: map[string]string{}}
	if r.Facts == nil {
		return c
	}
	bind := func(name, path string) {
		if old, ok := c.imports[name]; ok && old != path {
			c.imports[name] = ""
			return
		}
		c.imports[name] = path
	}
	for _, im := range r.Facts.Imports {
		switch {
		case im.Kind == lang.ImportAll:
			c.dots = append(c.dots, im.Source)
		case im.Kind == lang.ImportSideEffect:
		case im.Alias != "":
			bind(im.Alias, im.Source)
		default:
			for _, n := range goImportNames(im.Source) {
				bind(n, im.Source)
			}
		}
	}
	return c
}

// goImportNames are the names an unaliased import may bind: its package
// clause is not in the import, so the usual spellings of a path's last
// element (yaml for gopkg.in/yaml.v3 or .../yaml/v3, bar for go-bar) and
// the element itself (v1 for k8s.io/api/core/v1).
func goImportNames(src string) []string {
	last := path.Base(src)
	names := []string{last}
	if len(last) >= 2 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		if parent := path.Base(path.Dir(src)); parent != "." && parent != "/" {
			names = append(names, parent)
		}
	}
	for _, n := range names {
		m := strings.TrimPrefix(n, "go-")
		if i := strings.IndexAny(m, ".-"); i > 0 {
			m = m[:i]
		}
		if m != n {
			names = append(names, m)
		}
	}
	return names
}

// goSig reads the signature of a Go method (declared on a type or in an
// interface), normalised; nil when it cannot be parsed.
func (w *walker) goSig(ctx context.Context, row store.SymbolRow) (*goSig, error) {
	if s, ok := w.types.sigs[row.ID]; ok {
		return s, nil
	}
	r, err := w.resolved(ctx, row)
	if err != nil || r == nil || r.Def == nil {
		return nil, err
	}
	var s *goSig
	c := sigContext(r)
	text := r.Def.Signature
	if !parsable(text) {
		// The stored header is cut short (a long one, a generic receiver):
		// the declaration's source has all of it.
		if text, err = w.defSource(ctx, r); err != nil {
			return nil, err
		}
	}
	if strings.HasPrefix(text, "func") {
		if f, perr := parser.ParseFile(token.NewFileSet(), "", "package p\n"+text, parser.SkipObjectResolution); perr == nil && len(f.Decls) == 1 {
			if fd, ok := f.Decls[0].(*ast.FuncDecl); ok && fd.Recv != nil && len(fd.Recv.List) == 1 {
				recv := fd.Recv.List[0].Type
				if st, ok := recv.(*ast.StarExpr); ok {
					recv = st.X
				}
				s = &goSig{}
				s.pointer = recv != fd.Recv.List[0].Type
				c.typeParams(recv, r.Row.QName[:max(strings.LastIndexByte(r.Row.QName, '.'), 0)])
				s.params, s.results, s.variadic, err = w.funcTypes(ctx, c, fd.Type)
			}
		}
	} else {
		src := "package p\ntype _ interface {\n" + text + "\n}"
		if f, perr := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution); perr == nil {
			if ft := interfaceMethod(f); ft != nil {
				owner, ok, oerr := w.ownerOf(ctx, row)
				if oerr != nil {
					return nil, oerr
				}
				if ok {
					if or, oerr := w.resolved(ctx, owner); oerr != nil {
						return nil, oerr
					} else if or != nil && or.Def != nil {
						c.declParams(or.Def.Signature, owner.QName)
					}
				}
				s = &goSig{}
				s.params, s.results, s.variadic, err = w.funcTypes(ctx, c, ft)
			}
		}
	}
	if err != nil {
		return nil, err
	}
	w.types.sigs[row.ID] = s
	return s, nil
}

// parsable reports whether a stored Go header may be whole: not cut at a
// bracket or shortened.
func parsable(sig string) bool {
	if strings.HasSuffix(sig, "…") {
		return false
	}
	depth := 0
	for i := 0; i < len(sig); i++ {
		switch sig[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		}
	}
	return depth == 0
}

// defSource is the source text of a definition (from its file's content).
func (w *walker) defSource(ctx context.Context, r *query.Resolved) (string, error) {
	text, ok := w.idx.texts[r.File.BlobID]
	if !ok {
		var err error
		if text, err = w.e.FileText(ctx, r.File); err != nil {
			return "", err
		}
		w.idx.texts[r.File.BlobID] = text
	}
	start, end := offsetOf(text, r.Def.Span.Start), offsetOf(text, r.Def.Span.End)
	if start < 0 || end < start {
		return "", nil
	}
	return string(text[start:end]), nil
}

// offsetOf is the byte offset of a position in a text (-1 past its end).
func offsetOf(text []byte, p lang.Pos) int {
	line, off := uint32(1), 0
	for line < p.Line {
		i := bytes.IndexByte(text[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
		line++
	}
	off += int(p.Col) - 1
	if off > len(text) {
		return -1
	}
	return off
}

// interfaceMethod finds the one method of a parsed type _ interface{...}.
func interfaceMethod(f *ast.File) *ast.FuncType {
	if len(f.Decls) != 1 {
		return nil
	}
	gd, ok := f.Decls[0].(*ast.GenDecl)
	if !ok || len(gd.Specs) != 1 {
		return nil
	}
	ts, ok := gd.Specs[0].(*ast.TypeSpec)
	if !ok {
		return nil
	}
	it, ok := ts.Type.(*ast.InterfaceType)
	if !ok || it.Methods == nil || len(it.Methods.List) != 1 {
		return nil
	}
	ft, _ := it.Methods.List[0].Type.(*ast.FuncType)
	return ft
}

// typeArgs are the expressions in the brackets of T[A] or T[A, B]; ok is
// false for any other expression.
func typeArgs(x ast.Expr) (args []ast.Expr, ok bool) {
	switch ix := x.(type) {
	case *ast.IndexExpr:
		return []ast.Expr{ix.Index}, true
	case *ast.IndexListExpr:
		return ix.Indices, true
	}
	return nil, false
}

// typeParams records the type parameters a receiver names (func (l *List[T]) ...).
func (c *goSigCtx) typeParams(recv ast.Expr, owner string) {
	idx, _ := typeArgs(recv)
	for _, e := range idx {
		if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
			c.params[id.Name] = owner + "." + id.Name
		}
	}
}

// declParams records the type parameters of a generic type declaration
// whose signature is "Name[T any, U comparable] interface{".
func (c *goSigCtx) declParams(sig, owner string) {
	i := strings.IndexByte(sig, '[')
	if i < 0 || strings.ContainsAny(sig[:i], " =") {
		return
	}
	list, _, ok := lang.Balanced(sig[i:], '[', ']')
	if !ok {
		return
	}
	var pending []string
	for _, p := range lang.SplitTop(list, false) {
		f := strings.Fields(p)
		if len(f) == 0 {
			continue
		}
		pending = append(pending, f[0])
		if len(f) > 1 {
			for _, n := range pending {
				c.params[n] = owner + "." + n
			}
			pending = nil
		}
	}
}

// funcTypes normalises a function type's parameter and result types.
func (w *walker) funcTypes(ctx context.Context, c *goSigCtx, ft *ast.FuncType) (params, results []*gtype, variadic bool, err error) {
	fields := func(fl *ast.FieldList) ([]*gtype, error) {
		var out []*gtype
		if fl == nil {
			return out, nil
		}
		for _, f := range fl.List {
			t, err := w.normType(ctx, c, f.Type, 0)
			if err != nil {
				return nil, err
			}
			for n := max(len(f.Names), 1); n > 0; n-- {
				out = append(out, t)
			}
		}
		return out, nil
	}
	if params, err = fields(ft.Params); err != nil {
		return nil, nil, false, err
	}
	if results, err = fields(ft.Results); err != nil {
		return nil, nil, false, err
	}
	if n := len(params); n > 0 && params[n-1].kind == "ellipsis" {
		variadic = true
	}
	return params, results, variadic, nil
}

func unknownType(why string) *gtype { return &gtype{kind: "unknown", name: why} }

// normType normalises one type expression.
func (w *walker) normType(ctx context.Context, c *goSigCtx, e ast.Expr, depth int) (*gtype, error) {
	sub := func(x ast.Expr) (*gtype, error) { return w.normType(ctx, c, x, depth) }
	switch x := e.(type) {
	case *ast.ParenExpr:
		return sub(x.X)
	case *ast.Ident:
		if id, ok := c.params[x.Name]; ok {
			return &gtype{kind: "param", name: id}, nil
		}
		if p, ok := predeclared[x.Name]; ok {
			return &gtype{kind: "named", name: p}, nil
		}
		if x.Name == "any" {
			return &gtype{kind: "iface"}, nil
		}
		qn := c.pkg + "." + x.Name
		if len(c.dots) > 0 {
			// Declared in the package, or brought in by the one dot import.
			rows, err := w.e.SymbolsByQName(ctx, qn)
			if err != nil {
				return nil, err
			}
			switch {
			case len(rows) > 0:
			case len(c.dots) == 1:
				qn = c.dots[0] + "." + x.Name
			default:
				return unknownType(x.Name + " (one of the dot imports " + strings.Join(c.dots, ", ") + " declares it)"), nil
			}
		}
		return w.named(ctx, qn, depth)
	case *ast.SelectorExpr:
		q, ok := x.X.(*ast.Ident)
		if !ok {
			return unknownType("a qualified type"), nil
		}
		p, ok := c.imports[q.Name]
		if !ok || p == "" {
			return unknownType(q.Name + "." + x.Sel.Name + " (no import binds " + q.Name + ")"), nil
		}
		return w.named(ctx, p+"."+x.Sel.Name, depth)
	case *ast.StarExpr:
		t, err := sub(x.X)
		return &gtype{kind: "ptr", args: []*gtype{t}}, err
	case *ast.Ellipsis:
		t, err := sub(x.Elt)
		return &gtype{kind: "ellipsis", args: []*gtype{t}}, err
	case *ast.ArrayType:
		t, err := sub(x.Elt)
		if x.Len == nil {
			return &gtype{kind: "slice", args: []*gtype{t}}, err
		}
		lit, ok := x.Len.(*ast.BasicLit)
		if !ok {
			return unknownType("an array length syntax cannot evaluate"), err
		}
		return &gtype{kind: "array", name: lit.Value, args: []*gtype{t}}, err
	case *ast.MapType:
		k, err := sub(x.Key)
		if err != nil {
			return nil, err
		}
		v, err := sub(x.Value)
		return &gtype{kind: "map", args: []*gtype{k, v}}, err
	case *ast.ChanType:
		t, err := sub(x.Value)
		dir := "chan"
		switch x.Dir {
		case ast.SEND:
			dir = "chan<-"
		case ast.RECV:
			dir = "<-chan"
		}
		return &gtype{kind: "chan", name: dir, args: []*gtype{t}}, err
	case *ast.FuncType:
		ps, rs, v, err := w.funcTypes(ctx, c, x)
		return &gtype{kind: "func", args: append(ps, rs...), nparams: len(ps), variadic: v}, err
	case *ast.InterfaceType:
		if x.Methods == nil || len(x.Methods.List) == 0 {
			return &gtype{kind: "iface"}, nil
		}
		return unknownType("an interface literal"), nil
	case *ast.StructType:
		if x.Fields == nil || len(x.Fields.List) == 0 {
			return &gtype{kind: "struct"}, nil
		}
		return unknownType("a struct literal"), nil
	case *ast.IndexExpr:
		return w.instance(ctx, c, x.X, []ast.Expr{x.Index}, depth)
	case *ast.IndexListExpr:
		return w.instance(ctx, c, x.X, x.Indices, depth)
	}
	return unknownType("a type syntax cannot read"), nil
}

// instance normalises a generic type's instantiation G[A, B].
func (w *walker) instance(ctx context.Context, c *goSigCtx, g ast.Expr, args []ast.Expr, depth int) (*gtype, error) {
	gt, err := w.normType(ctx, c, g, depth)
	if err != nil {
		return nil, err
	}
	out := &gtype{kind: "inst", args: []*gtype{gt}}
	for _, a := range args {
		t, err := w.normType(ctx, c, a, depth)
		if err != nil {
			return nil, err
		}
		out.args = append(out.args, t)
	}
	return out, nil
}

// named is the type a qualified name denotes: the type a repository alias
// (type A = B) or a known standard library alias stands for, else itself.
func (w *walker) named(ctx context.Context, qn string, depth int) (*gtype, error) {
	if to, ok := stdAliases[qn]; ok {
		return &gtype{kind: "named", name: to}, nil
	}
	if depth >= maxAliasDepth {
		return unknownType("a chain of type aliases"), nil
	}
	if t, ok := w.types.aliases[qn]; ok {
		if t == nil {
			return &gtype{kind: "named", name: qn}, nil
		}
		return t, nil
	}
	w.types.aliases[qn] = nil
	rows, err := w.e.SymbolsByQName(ctx, qn)
	if err != nil {
		return nil, err
	}
	for _, row := range rows {
		if lang.DefKind(row.Kind) != lang.KindType {
			continue
		}
		r, err := w.resolved(ctx, row)
		if err != nil {
			return nil, err
		}
		if r == nil || r.Def == nil || r.File.Lang != "go" {
			continue
		}
		_, rhs, ok := strings.Cut(r.Def.Signature, "=")
		if !ok || strings.ContainsAny(r.Def.Signature[:strings.IndexByte(r.Def.Signature, '=')], "[") {
			continue // a defined type, or a generic alias
		}
		x, perr := parser.ParseExpr(strings.TrimSpace(rhs))
		if perr != nil {
			w.types.aliases[qn] = unknownType("alias " + qn)
			return w.types.aliases[qn], nil
		}
		t, err := w.normType(ctx, sigContext(r), x, depth+1)
		if err != nil {
			return nil, err
		}
		w.types.aliases[qn] = t
		return t, nil
	}
	return &gtype{kind: "named", name: qn}, nil
}

// embedSubst binds the type parameters of a generic type a Go type embeds to
// the type arguments the embedding writes (S embeds G[*T]: G's T is *T);
// nil when the relation is not such an embedding.
func (w *walker) embedSubst(ctx context.Context, t store.SymbolRow, s typeEdge) (map[string]*gtype, error) {
	if s.kind != index.EdgeEmbeds {
		return nil, nil
	}
	tr, err := w.resolved(ctx, t)
	if err != nil || tr == nil || tr.Facts == nil || tr.File.Lang != "go" {
		return nil, err
	}
	text := ""
	for _, rel := range tr.Facts.TypeRels {
		if int(rel.Def) == t.DefIdx && int(rel.Pos.Line) == s.at.Line && int(rel.Pos.Col) == s.at.Col {
			text = rel.Target
		}
	}
	if !strings.Contains(text, "[") {
		return nil, nil
	}
	x, perr := parser.ParseExpr(strings.TrimPrefix(text, "*"))
	if perr != nil {
		return nil, nil
	}
	args, ok := typeArgs(x)
	if !ok {
		return nil, nil
	}
	gr, err := w.resolved(ctx, s.row)
	if err != nil || gr == nil || gr.Def == nil {
		return nil, err
	}
	decl := gr.Def.Signature
	if !parsable(decl) {
		if decl, err = w.defSource(ctx, gr); err != nil {
			return nil, err
		}
		decl = strings.TrimPrefix(strings.TrimSpace(decl), "type ")
	}
	gc := &goSigCtx{params: map[string]string{}}
	gc.declParams(decl, s.row.QName)
	names := gc.paramOrder(decl)
	if len(names) != len(args) {
		return nil, nil
	}
	c := sigContext(tr)
	out := map[string]*gtype{}
	for i, a := range args {
		at, err := w.normType(ctx, c, a, 0)
		if err != nil {
			return nil, err
		}
		out[s.row.QName+"."+names[i]] = at
	}
	return out, nil
}

// paramOrder lists the type parameter names of a generic declaration in order.
func (c *goSigCtx) paramOrder(sig string) []string {
	i := strings.IndexByte(sig, '[')
	if i < 0 {
		return nil
	}
	list, _, ok := lang.Balanced(sig[i:], '[', ']')
	if !ok {
		return nil
	}
	var names []string
	for _, p := range lang.SplitTop(list, false) {
		if f := strings.Fields(p); len(f) > 0 {
			names = append(names, f[0])
		}
	}
	return names
}

// mergeSubst combines type parameter bindings (a new map; b wins).
func mergeSubst(a, b map[string]*gtype) map[string]*gtype {
	out := make(map[string]*gtype, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// Verdicts of a comparison syntax makes.
type verdict uint8

const (
	verdictNo      verdict = iota
	verdictUnknown         // undecided: a type syntax cannot read
	verdictYes
)

// unifier compares normalised types, binding type parameters to the types
// they stand for, once each.
type unifier struct {
	bind map[string]*gtype
	why  string // the first undecided type met
}

func newUnifier() *unifier { return &unifier{bind: map[string]*gtype{}} }

func (u *unifier) unify(a, b *gtype) verdict {
	if a == nil || b == nil {
		return verdictUnknown
	}
	if a.kind == "unknown" || b.kind == "unknown" {
		if u.why == "" {
			u.why = a.name
			if a.kind != "unknown" {
				u.why = b.name
			}
		}
		return verdictUnknown
	}
	if a.kind == "param" || b.kind == "param" {
		p, t := a, b
		if p.kind != "param" {
			p, t = b, a
		}
		if t.kind == "param" && t.name == p.name {
			return verdictYes
		}
		if bound, ok := u.bind[p.name]; ok {
			return u.unify(bound, t)
		}
		u.bind[p.name] = t
		return verdictYes
	}
	if a.kind != b.kind || a.name != b.name || len(a.args) != len(b.args) || a.variadic != b.variadic || a.nparams != b.nparams {
		return verdictNo
	}
	out := verdictYes
	for i := range a.args {
		switch u.unify(a.args[i], b.args[i]) {
		case verdictNo:
			return verdictNo
		case verdictUnknown:
			out = verdictUnknown
		}
	}
	return out
}

// sameSig compares a method's signature with an interface method's.
func (u *unifier) sameSig(iface, m *goSig) verdict {
	if iface == nil || m == nil {
		u.why = "a signature syntax cannot read"
		return verdictUnknown
	}
	if len(iface.params) != len(m.params) || len(iface.results) != len(m.results) || iface.variadic != m.variadic {
		return verdictNo
	}
	a := &gtype{kind: "func", args: append(append([]*gtype{}, iface.params...), iface.results...)}
	b := &gtype{kind: "func", args: append(append([]*gtype{}, m.params...), m.results...)}
	return u.unify(a, b)
}

// goSatisfies decides whether a Go type's method set (ms) has every method
// of an interface (ims) with the same signature. An unexported method only
// counts from the interface's own package. why says what kept a comparison
// undecided; pointer is set when some method is declared on a pointer
// receiver of the type itself (only *T has it).
func (w *walker) goSatisfies(ctx context.Context, ims, ms *memberSet, names []string) (v verdict, why string, pointer bool, err error) {
	u := newUnifier()
	v = verdictYes
	for _, n := range names {
		im := ims.all[n]
		m, ok := ms.all[n]
		if !ok || lang.DefKind(m.row.Kind) != lang.KindMethod {
			return verdictNo, "", false, nil
		}
		if lang.DefKind(im.row.Kind) != lang.KindMethod {
			continue
		}
		if !ast.IsExported(n) {
			ip, mp, err := w.goPkgs(ctx, im.row, m.row)
			if err != nil {
				return verdictNo, "", false, err
			}
			if ip != mp {
				return verdictNo, "", false, nil
			}
		}
		isig, err := w.goSig(ctx, im.row)
		if err != nil {
			return verdictNo, "", false, err
		}
		msig, err := w.goSig(ctx, m.row)
		if err != nil {
			return verdictNo, "", false, err
		}
		for p, t := range m.subst {
			if u.unify(&gtype{kind: "param", name: p}, t) == verdictNo {
				return verdictNo, "", false, nil
			}
		}
		switch u.sameSig(isig, msig) {
		case verdictNo:
			return verdictNo, "", false, nil
		case verdictUnknown:
			v = verdictUnknown
		}
		if msig != nil && msig.pointer && m.via == "" {
			pointer = true
		}
	}
	if len(ims.unknown) > 0 && v == verdictYes {
		v, u.why = verdictUnknown, "the interface embeds "+strings.Join(ims.unknown, ", ")+", whose methods syntax cannot see"
	}
	return v, u.why, pointer, nil
}

// goPkgs are the packages two Go symbols are declared in.
func (w *walker) goPkgs(ctx context.Context, a, b store.SymbolRow) (string, string, error) {
	ra, err := w.resolved(ctx, a)
	if err != nil || ra == nil {
		return "", "", err
	}
	rb, err := w.resolved(ctx, b)
	if err != nil || rb == nil {
		return "", "", err
	}
	return goPkgOf(ra), goPkgOf(rb), nil
}
