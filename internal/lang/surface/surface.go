// Package surface holds what the languages' Surfaces hooks share: a Finder
// that records surfaces with their enclosing definitions, the SQL scanner that
// finds table names in string literals, the rules for frameworks known by
// their imports, configuration keys, log calls, HTTP method names and route
// joining, and the naming conventions of ORMs.
//
// A hook walks the file's nodes once (Finder.Walk: View nodes are in
// pre-order), normalises the calls, decorators, annotations or attributes it
// meets into a Call and hands them to its rules; string literals go through
// SQL. Values written literally get lang.ConfHigh, values built at run time
// or derived from a convention get lang.ConfLow.
package surface

import (
	"slices"
	"strings"
	"unicode"

	"github.com/cairnhq/cairn/internal/lang"
)

// Finder collects one file's surfaces.
type Finder struct {
	V   *lang.View
	F   *lang.Facts
	Out []lang.Surface
	// imports are the file's import sources, for framework detection.
	imports []string
}

// NewFinder starts collecting surfaces of a parsed file.
func NewFinder(v *lang.View, f *lang.Facts) *Finder {
	x := &Finder{V: v, F: f}
	for _, im := range f.Imports {
		x.imports = append(x.imports, im.Source)
	}
	return x
}

// Add records a surface written at node n (its position; its definition is the
// innermost one around n). Set further fields through the returned pointer
// before the next Add.
func (x *Finder) Add(kind lang.SurfaceKind, n int, value, framework string, conf lang.Confidence) *lang.Surface {
	p := x.V.Start(n)
	x.Out = append(x.Out, lang.Surface{Kind: kind, Value: value, Framework: framework, Pos: p, Def: x.F.DefAt(p), Confidence: conf})
	return &x.Out[len(x.Out)-1]
}

// Imports reports whether the file imports a source equal to one of the
// prefixes or under it ("github.com/gin-gonic/gin" matches
// "github.com/gin-gonic/gin" and ".../gin/binding").
func (x *Finder) Imports(prefixes ...string) bool {
	for _, src := range x.imports {
		for _, p := range prefixes {
			if src == p || strings.HasPrefix(src, p+"/") || strings.HasPrefix(src, p+".") {
				return true
			}
		}
	}
	return false
}

// ImportsName reports whether the file imports a member with this local name
// from a source under one of the prefixes (from django.urls import path).
func (x *Finder) ImportsName(name string, prefixes ...string) bool {
	for _, im := range x.F.Imports {
		if im.LocalName() != name {
			continue
		}
		for _, p := range prefixes {
			if im.Source == p || strings.HasPrefix(im.Source, p+".") || strings.HasPrefix(im.Source, p+"/") {
				return true
			}
		}
	}
	return false
}

// SQL records the tables of a SQL statement found in a string written at node
// n; built says the string is assembled at run time (interpolation,
// concatenation, formatting), which makes every table low confidence (a
// tagged template's substitutions are parameters, not built text: a table
// is never read from a Hole).
func (x *Finder) SQL(n int, text string, built bool) {
	tables, sure, ok := SQLTables(text)
	if !ok {
		return
	}
	conf := lang.ConfHigh
	if built || !sure {
		conf = lang.ConfLow
	}
	for _, t := range tables {
		s := x.Add(lang.SurfDBTable, n, t.Name, "sql", conf)
		s.Method = t.Verb
	}
}

// Call is a call (or a decorator, annotation or attribute) in a normalised form.
type Call struct {
	Node     int      // the call node
	Name     string   // the callee's last name: HandleFunc, get, MapGet
	Recv     string   // the receiver's text ("" for a bare call): http, r, klog.V(2), this.config; at most MaxRecv bytes
	Args     []int    // positional argument nodes
	Named    []Named  // named arguments (Python keywords, annotation elements, C# name: value)
	TypeArgs []string // generic type arguments: AddScoped<IFoo, Foo>
}

// MaxRecv caps Call.Recv in bytes (lang.View.Head). In a chain a.f().g()...
// each call's receiver holds every call before it; rules compare receivers
// with short names or look at their first identifier, which the cut keeps.
const MaxRecv = 1024

// Callee reads a call's callee node fn into c: an identifier is a bare call
// of that name; a node of kind member (x.name) is a call of the node under
// field name on the text of the node under field object. It reports false
// for any other callee and for a member without a name.
func (x *Finder) Callee(c *Call, fn int, member, name, object string) bool {
	v := x.V
	switch v.Kind(fn) {
	case member:
		p := v.Child(fn, name)
		if p < 0 {
			return false
		}
		c.Name = v.Text(p)
		if o := v.Child(fn, object); o >= 0 {
			c.Recv = v.Head(o, MaxRecv)
		}
	case "identifier":
		c.Name = v.Text(fn)
	default:
		return false
	}
	return true
}

// Named is a named argument.
type Named struct {
	Name string
	Node int
}

// Arg is the i-th positional argument node, or -1.
func (c *Call) Arg(i int) int {
	if i < len(c.Args) {
		return c.Args[i]
	}
	return -1
}

// NamedArg is the node of a named argument, or -1.
func (c *Call) NamedArg(names ...string) int {
	for _, a := range c.Named {
		for _, n := range names {
			if a.Name == n {
				return a.Node
			}
		}
	}
	return -1
}

// RecvRoot is the first identifier of the receiver (klog of klog.V(2)).
func (c *Call) RecvRoot() string {
	r := c.Recv
	for i, ch := range r {
		if !(ch == '_' || ch == '$' || unicode.IsLetter(ch) || unicode.IsDigit(ch)) {
			return r[:i]
		}
	}
	return r
}

// RecvLast is the last identifier of the receiver (logger of this.logger).
func (c *Call) RecvLast() string {
	r := strings.TrimRight(c.Recv, "?!")
	if strings.HasSuffix(r, ")") {
		return ""
	}
	if i := strings.LastIndexAny(r, ".>:"); i >= 0 {
		r = r[i+1:]
	}
	return r
}

// HTTPMethods are the HTTP methods routes name.
var HTTPMethods = []string{"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"}

// HTTPMethod reads a method name in any case ("get", "Get", "GET"); ok is
// false for anything else.
func HTTPMethod(name string) (string, bool) {
	u := strings.ToUpper(name)
	for _, m := range HTTPMethods {
		if u == m {
			return m, true
		}
	}
	return "", false
}

// JoinRoute joins a route prefix and a path with exactly one slash between.
func JoinRoute(prefix, p string) string {
	switch {
	case prefix == "":
		return p
	case p == "":
		return prefix
	}
	return strings.TrimRight(prefix, "/") + "/" + strings.TrimLeft(p, "/")
}

// Prefix is a route prefix a name stands for inside a byte span of the file:
// a router group variable (v1 := r.Group("/v1"), var g = app.MapGroup("/p"))
// in the function that declares it, or a router parameter in its closure.
type Prefix struct {
	Name       string
	Path       string
	Start, End int // byte span where the name means this prefix
}

// Prefixes are the route prefixes of a file, in the order they are found.
type Prefixes []Prefix

// Of is the route prefix name stands for at byte at: of the prefixes of
// that name whose span holds at, the one that starts last (the innermost,
// or the latest of one span); "" for none.
func (ps Prefixes) Of(name string, at int) string {
	best, bestStart := "", -1
	for _, p := range ps {
		if p.Name == name && at >= p.Start && at < p.End && p.Start >= bestStart {
			best, bestStart = p.Path, p.Start
		}
	}
	return best
}

// PrefixSpan is the byte span where a prefix named at node n holds: the
// nearest ancestor of n whose kind is one of funcKinds (the function that
// declares the name), or the whole file when there is none.
func PrefixSpan(v *lang.View, n int, funcKinds ...string) (start, end int) {
	for p := v.Parent(n); p >= 0; p = v.Parent(p) {
		if slices.Contains(funcKinds, v.Kind(p)) {
			return v.Bytes(p)
		}
	}
	return 0, len(v.Src())
}

// LooksLikeRoute reports whether s can be a route pattern: it starts with a
// slash, or is a relative pattern without spaces (Django "users/<int:pk>/",
// Spring "{id}", ASP.NET "api/[controller]").
func LooksLikeRoute(s string, relative bool) bool {
	if s == "" {
		return relative
	}
	if strings.ContainsAny(s, " \t\n") || strings.Contains(s, "://") {
		return false
	}
	return s[0] == '/' || relative
}

// SnakeCase turns a class name into snake_case (UserProfile -> user_profile).
func SnakeCase(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// LastName is the last segment of a dotted or qualified name (a.b.C -> C).
func LastName(s string) string {
	if i := strings.LastIndexAny(s, ".:"); i >= 0 {
		return s[i+1:]
	}
	return s
}

// IsTypeName reports whether a name looks like a type: it starts with an
// upper-case letter (exception classes, model classes).
func IsTypeName(s string) bool {
	s = LastName(s)
	for _, r := range s {
		return unicode.IsUpper(r)
	}
	return false
}

// Throw records what the throw statement or expression n of a C-family
// language (Java, C#) throws, its first child: an object creation (new
// T(...)) is T, with the message that message reads from its argument list
// (-1 when it has none); a rethrown value, of rethrownKinds, is named by its
// text with low confidence.
func (x *Finder) Throw(n int, framework string, rethrownKinds []string, message func(args int) string) {
	v := x.V
	kids := v.Children(n)
	if len(kids) == 0 {
		return
	}
	e := kids[0]
	switch k := v.Kind(e); {
	case k == "object_creation_expression":
		t := v.Child(e, "type")
		if t < 0 {
			return
		}
		s := x.Add(lang.SurfException, e, v.Text(t), framework, lang.ConfHigh)
		s.Detail = message(v.Child(e, "arguments"))
	case slices.Contains(rethrownKinds, k):
		x.Add(lang.SurfException, e, x.Expr(e), framework, lang.ConfLow)
	}
}

// Pieces is the text of a string literal n put together from its children
// of the given kinds (contents, escapes as written), with Hole for each
// child of kind hole (an interpolation; "" when the literal has none).
func Pieces(v *lang.View, n int, hole string, kinds ...string) string {
	var b strings.Builder
	for _, c := range v.Children(n) {
		switch k := v.Kind(c); {
		case slices.Contains(kinds, k):
			b.WriteString(v.Text(c))
		case hole != "" && k == hole:
			b.WriteString(Hole)
		}
	}
	return b.String()
}

// Class is the name and body nodes of the class-like declaration n (a
// class, record, interface or struct: its name and body fields); ok is
// false when it lacks either, as an incomplete declaration does.
func Class(v *lang.View, n int) (name, body int, ok bool) {
	name, body = v.Child(n, "name"), v.Child(n, "body")
	return name, body, name >= 0 && body >= 0
}

// Expr is the text of node n for a Detail or a low-confidence Value: one
// line, at most 80 bytes.
func (x *Finder) Expr(n int) string {
	if n < 0 {
		return ""
	}
	a, b := x.V.Bytes(n)
	if b-a > 160 {
		b = a + 160
	}
	t := lang.CollapseSpace(string(x.V.Src()[a:b]))
	if len(t) > 80 {
		t = t[:80]
		for len(t) > 0 && t[len(t)-1]&0xC0 == 0x80 {
			t = t[:len(t)-1]
		}
		t += "…"
	}
	return t
}
