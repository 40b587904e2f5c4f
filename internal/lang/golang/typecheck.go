package golang

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
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

// predeclared are Go's predeclared types (which have no members in the
// repository), with the aliases among them resolved.
var predeclared = map[string]string{
	"any": "any", "bool": "bool", "byte": "uint8", "complex64": "complex64", "complex128": "complex128", "error": "error",
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
func (k *checker) funcTypes(ctx context.Context, c *goSigCtx, ft *ast.FuncType) (params, results []*gtype, variadic bool, err error) {
	fields := func(fl *ast.FieldList) ([]*gtype, error) {
		var out []*gtype
		if fl == nil {
			return out, nil
		}
		for _, f := range fl.List {
			t, err := k.normType(ctx, c, f.Type, 0)
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
func (k *checker) normType(ctx context.Context, c *goSigCtx, e ast.Expr, depth int) (*gtype, error) {
	sub := func(x ast.Expr) (*gtype, error) { return k.normType(ctx, c, x, depth) }
	switch x := e.(type) {
	case *ast.ParenExpr:
		return sub(x.X)
	case *ast.Ident:
		if id, ok := c.params[x.Name]; ok {
			return &gtype{kind: "param", name: id}, nil
		}
		if x.Name == "any" {
			return &gtype{kind: "iface"}, nil
		}
		if p, ok := predeclared[x.Name]; ok {
			return &gtype{kind: "named", name: p}, nil
		}
		qn := c.pkg + "." + x.Name
		if len(c.dots) > 0 {
			// Declared in the package, or brought in by the one dot import.
			decls, err := k.src.Named(ctx, qn)
			if err != nil {
				return nil, err
			}
			switch {
			case len(decls) > 0:
			case len(c.dots) == 1:
				qn = c.dots[0] + "." + x.Name
			default:
				return unknownType(x.Name + " (one of the dot imports " + strings.Join(c.dots, ", ") + " declares it)"), nil
			}
		}
		return k.named(ctx, qn, depth)
	case *ast.SelectorExpr:
		q, ok := x.X.(*ast.Ident)
		if !ok {
			return unknownType("a qualified type"), nil
		}
		p, ok := c.imports[q.Name]
		if !ok || p == "" {
			return unknownType(q.Name + "." + x.Sel.Name + " (no import binds " + q.Name + ")"), nil
		}
		return k.named(ctx, p+"."+x.Sel.Name, depth)
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
		ps, rs, v, err := k.funcTypes(ctx, c, x)
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
		return k.instance(ctx, c, x.X, []ast.Expr{x.Index}, depth)
	case *ast.IndexListExpr:
		return k.instance(ctx, c, x.X, x.Indices, depth)
	}
	return unknownType("a type syntax cannot read"), nil
}

// instance normalises a generic type's instantiation G[A, B].
func (k *checker) instance(ctx context.Context, c *goSigCtx, g ast.Expr, args []ast.Expr, depth int) (*gtype, error) {
	gt, err := k.normType(ctx, c, g, depth)
	if err != nil {
		return nil, err
	}
	out := &gtype{kind: "inst", args: []*gtype{gt}}
	for _, a := range args {
		t, err := k.normType(ctx, c, a, depth)
		if err != nil {
			return nil, err
		}
		out.args = append(out.args, t)
	}
	return out, nil
}

// typeParamNames lists the type parameter names of a generic declaration in
// order.
func typeParamNames(sig string) []string {
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

// unifier compares normalised types, binding type parameters to the types
// they stand for, once each.
type unifier struct {
	bind map[string]*gtype
	why  string // the first undecided type met
}

func newUnifier() *unifier { return &unifier{bind: map[string]*gtype{}} }

func (u *unifier) unify(a, b *gtype) lang.Verdict {
	if a == nil || b == nil {
		return lang.VerdictUndecided
	}
	if a.kind == "unknown" || b.kind == "unknown" {
		if u.why == "" {
			u.why = a.name
			if a.kind != "unknown" {
				u.why = b.name
			}
		}
		return lang.VerdictUndecided
	}
	if a.kind == "param" || b.kind == "param" {
		p, t := a, b
		if p.kind != "param" {
			p, t = b, a
		}
		if t.kind == "param" && t.name == p.name {
			return lang.VerdictYes
		}
		if bound, ok := u.bind[p.name]; ok {
			return u.unify(bound, t)
		}
		u.bind[p.name] = t
		return lang.VerdictYes
	}
	if a.kind != b.kind || a.name != b.name || len(a.args) != len(b.args) || a.variadic != b.variadic || a.nparams != b.nparams {
		return lang.VerdictNo
	}
	out := lang.VerdictYes
	for i := range a.args {
		switch u.unify(a.args[i], b.args[i]) {
		case lang.VerdictNo:
			return lang.VerdictNo
		case lang.VerdictUndecided:
			out = lang.VerdictUndecided
		}
	}
	return out
}

// sameSig compares a method's signature with an interface method's.
func (u *unifier) sameSig(iface, m *goSig) lang.Verdict {
	if iface == nil || m == nil {
		u.why = "a signature syntax cannot read"
		return lang.VerdictUndecided
	}
	if len(iface.params) != len(m.params) || len(iface.results) != len(m.results) || iface.variadic != m.variadic {
		return lang.VerdictNo
	}
	a := &gtype{kind: "func", args: append(append([]*gtype{}, iface.params...), iface.results...)}
	b := &gtype{kind: "func", args: append(append([]*gtype{}, m.params...), m.results...)}
	return u.unify(a, b)
}

// checker is Go's lang.TypeChecker for one request: it keeps the
// signatures and aliases it read.
type checker struct {
	src     lang.TypeSource
	sigs    map[int64]*goSig  // method -> its signature (nil: unreadable)
	aliases map[string]*gtype // qualified type name -> the type an alias stands for (nil: not an alias)
}

func newChecker(src lang.TypeSource) lang.TypeChecker {
	return &checker{src: src, sigs: map[int64]*goSig{}, aliases: map[string]*gtype{}}
}

// pkgOf is the import path of a symbol's package: its qualified name
// without the lexical path.
func pkgOf(d *lang.TypeDecl) string {
	if d.Def != nil {
		if p, ok := strings.CutSuffix(d.QName, "."+d.Def.Path); ok {
			return p
		}
	}
	return qualifier(d.QName)
}

// qualifier is a qualified name without its last element.
func qualifier(qn string) string { return qn[:max(strings.LastIndexByte(qn, '.'), 0)] }

// sigContext reads a file's imports for normalising the types it names.
func sigContext(d *lang.TypeDecl) *goSigCtx {
	c := &goSigCtx{pkg: pkgOf(d), imports: map[string]string{}, params: map[string]string{}}
	if d.Facts == nil {
		return c
	}
	bind := func(name, path string) {
		if old, ok := c.imports[name]; ok && old != path {
			c.imports[name] = ""
			return
		}
		c.imports[name] = path
	}
	for _, im := range d.Facts.Imports {
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

// sig reads the signature of a method (declared on a type or in an
// interface), normalised; nil when it cannot be parsed.
func (k *checker) sig(ctx context.Context, id int64) (*goSig, error) {
	if s, ok := k.sigs[id]; ok {
		return s, nil
	}
	d, err := k.src.Decl(ctx, id)
	if err != nil || d == nil || d.Def == nil {
		return nil, err
	}
	var s *goSig
	c := sigContext(d)
	text := d.Def.Signature
	if !parsable(text) {
		// The stored header is cut short (a long one, a generic receiver):
		// the declaration's source has all of it.
		if text, err = k.src.Source(ctx, d); err != nil {
			return nil, err
		}
	}
	if strings.HasPrefix(text, "func") {
		s, err = k.methodSig(ctx, c, d, text)
	} else {
		s, err = k.interfaceMethodSig(ctx, c, d, text)
	}
	if err != nil {
		return nil, err
	}
	k.sigs[id] = s
	return s, nil
}

// methodSig reads a method declared on a type: func (r *T[P]) Name(...) ...
func (k *checker) methodSig(ctx context.Context, c *goSigCtx, d *lang.TypeDecl, text string) (*goSig, error) {
	f, perr := parser.ParseFile(token.NewFileSet(), "", "package p\n"+text, parser.SkipObjectResolution)
	if perr != nil || len(f.Decls) != 1 {
		return nil, nil
	}
	fd, ok := f.Decls[0].(*ast.FuncDecl)
	if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 {
		return nil, nil
	}
	recv := fd.Recv.List[0].Type
	if st, ok := recv.(*ast.StarExpr); ok {
		recv = st.X
	}
	s := &goSig{pointer: recv != fd.Recv.List[0].Type}
	c.typeParams(recv, qualifier(d.QName))
	var err error
	s.params, s.results, s.variadic, err = k.funcTypes(ctx, c, fd.Type)
	return s, err
}

// interfaceMethodSig reads a method an interface declares: Name(...) ...,
// the interface's type parameters in scope.
func (k *checker) interfaceMethodSig(ctx context.Context, c *goSigCtx, d *lang.TypeDecl, text string) (*goSig, error) {
	f, perr := parser.ParseFile(token.NewFileSet(), "", "package p\ntype _ interface {\n"+text+"\n}", parser.SkipObjectResolution)
	if perr != nil {
		return nil, nil
	}
	ft := interfaceMethod(f)
	if ft == nil {
		return nil, nil
	}
	owner, ok, err := k.src.Owner(ctx, d.ID)
	if err != nil {
		return nil, err
	}
	if ok {
		od, err := k.src.Decl(ctx, owner)
		if err != nil {
			return nil, err
		}
		if od != nil && od.Def != nil {
			c.declParams(od.Def.Signature, od.QName)
		}
	}
	s := &goSig{}
	s.params, s.results, s.variadic, err = k.funcTypes(ctx, c, ft)
	return s, err
}

// named is the type a qualified name denotes: the type a repository alias
// (type A = B) or a known standard library alias stands for, else itself.
func (k *checker) named(ctx context.Context, qn string, depth int) (*gtype, error) {
	if to, ok := stdAliases[qn]; ok {
		return &gtype{kind: "named", name: to}, nil
	}
	if depth >= maxAliasDepth {
		return unknownType("a chain of type aliases"), nil
	}
	if t, ok := k.aliases[qn]; ok {
		if t == nil {
			return &gtype{kind: "named", name: qn}, nil
		}
		return t, nil
	}
	k.aliases[qn] = nil
	decls, err := k.src.Named(ctx, qn)
	if err != nil {
		return nil, err
	}
	for _, n := range decls {
		if n.Kind != lang.KindType {
			continue
		}
		d, err := k.src.Decl(ctx, n.ID)
		if err != nil {
			return nil, err
		}
		if d == nil || d.Def == nil || d.Lang != "go" {
			continue
		}
		_, rhs, ok := strings.Cut(d.Def.Signature, "=")
		if !ok || strings.ContainsAny(d.Def.Signature[:strings.IndexByte(d.Def.Signature, '=')], "[") {
			continue // a defined type, or a generic alias
		}
		x, perr := parser.ParseExpr(strings.TrimSpace(rhs))
		if perr != nil {
			k.aliases[qn] = unknownType("alias " + qn)
			return k.aliases[qn], nil
		}
		t, err := k.normType(ctx, sigContext(d), x, depth+1)
		if err != nil {
			return nil, err
		}
		k.aliases[qn] = t
		return t, nil
	}
	return &gtype{kind: "named", name: qn}, nil
}

// EmbedBindings binds the type parameters of a generic type a Go type
// embeds to the type arguments the embedding writes (S embeds G[*T]: G's T
// is *T).
func (k *checker) EmbedBindings(ctx context.Context, embedding int64, written string, embedded int64) (lang.TypeBindings, error) {
	if !strings.Contains(written, "[") {
		return nil, nil
	}
	x, perr := parser.ParseExpr(strings.TrimPrefix(written, "*"))
	if perr != nil {
		return nil, nil
	}
	args, ok := typeArgs(x)
	if !ok {
		return nil, nil
	}
	g, err := k.src.Decl(ctx, embedded)
	if err != nil || g == nil || g.Def == nil {
		return nil, err
	}
	decl := g.Def.Signature
	if !parsable(decl) {
		if decl, err = k.src.Source(ctx, g); err != nil {
			return nil, err
		}
		decl = strings.TrimPrefix(strings.TrimSpace(decl), "type ")
	}
	names := typeParamNames(decl)
	if len(names) != len(args) {
		return nil, nil
	}
	t, err := k.src.Decl(ctx, embedding)
	if err != nil || t == nil {
		return nil, err
	}
	c := sigContext(t)
	out := lang.TypeBindings{}
	for i, a := range args {
		at, err := k.normType(ctx, c, a, 0)
		if err != nil {
			return nil, err
		}
		out[g.QName+"."+names[i]] = at
	}
	return out, nil
}

// Satisfies decides whether a Go type's method set (impl) has every method
// of an interface (iface) with the same signature. An unexported method
// only counts from the interface's own package. Why says what kept a
// comparison undecided; Pointer is set when some method is declared on a
// pointer receiver of the type itself (only *T has it).
func (k *checker) Satisfies(ctx context.Context, iface, impl *lang.MemberSet, names []string) (lang.Satisfaction, error) {
	no := lang.Satisfaction{Verdict: lang.VerdictNo}
	u := newUnifier()
	out := lang.Satisfaction{Verdict: lang.VerdictYes}
	for _, n := range names {
		im := iface.Members[n]
		m, ok := impl.Members[n]
		if !ok || m.Kind != lang.KindMethod {
			return no, nil
		}
		if im.Kind != lang.KindMethod {
			continue
		}
		if !ast.IsExported(n) {
			if same, err := k.samePackage(ctx, im.ID, m.ID); err != nil || !same {
				return no, err
			}
		}
		isig, err := k.sig(ctx, im.ID)
		if err != nil {
			return no, err
		}
		msig, err := k.sig(ctx, m.ID)
		if err != nil {
			return no, err
		}
		for p, t := range m.Bindings {
			if u.unify(&gtype{kind: "param", name: p}, t.(*gtype)) == lang.VerdictNo {
				return no, nil
			}
		}
		switch u.sameSig(isig, msig) {
		case lang.VerdictNo:
			return no, nil
		case lang.VerdictUndecided:
			out.Verdict = lang.VerdictUndecided
		}
		if msig != nil && msig.pointer && m.Via == "" {
			out.Pointer = true
		}
	}
	if len(iface.Unknown) > 0 && out.Verdict == lang.VerdictYes {
		out.Verdict, u.why = lang.VerdictUndecided, "the interface embeds "+strings.Join(iface.Unknown, ", ")+", whose methods syntax cannot see"
	}
	out.Why = u.why
	return out, nil
}

// samePackage reports whether two symbols are declared in one package; a
// symbol gone from the index does not rule the method out.
func (k *checker) samePackage(ctx context.Context, a, b int64) (bool, error) {
	da, err := k.src.Decl(ctx, a)
	if err != nil || da == nil {
		return err == nil, err
	}
	db, err := k.src.Decl(ctx, b)
	if err != nil || db == nil {
		return err == nil, err
	}
	return pkgOf(da) == pkgOf(db), nil
}
