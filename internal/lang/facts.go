package lang

import (
	"slices"
	"strconv"
	"strings"
)

// Facts are everything the syntactic layer learns from one file's bytes. They depend
// only on the bytes, the language and the extractor version, so they are stored once
// per content and shared by every worktree (DESIGN §5 "Content-addressed facts").
type Facts struct {
	Lang        string
	Package     string // Go: the package clause; Java, Kotlin: the package; C#: the namespace; empty elsewhere
	Defs        []Def
	Refs        []Ref
	Names       []string // string table for Ref.Name, Ref.Qualifier and Local.Name
	Locals      []Local
	Scopes      []Scope
	Imports     []Import
	TypeRels    []TypeRel
	ParseErrors int // ERROR and MISSING nodes; the file stays searchable
	FirstError  Pos // where the first one starts, when ParseErrors > 0
	// Limits says which of the extractor's bounds the file reached
	// (MaxNesting, MaxPath): its facts stop there (bounds.go).
	Limits Limits
	// Build is the file's build constraint as written (Go: the expression
	// of its //go:build line), "" when it has none. File-name constraints
	// (_linux.go) are not facts: they follow from the path.
	Build string
	// Dynamic lists the places where the code reaches a name chosen at run
	// time (obj[name](), getattr, reflection, eval): no static edge can
	// describe them, so they are reported as dynamic sites.
	Dynamic  []DynamicSite
	Surfaces []Surface // routes, config keys, tables, DI, exceptions, logs (see Surface)
	// Anonymous lists the bodies of anonymous classes (Java's
	// new T() { ... }), whose methods override T's.
	Anonymous []Anonymous
	// DefaultExport is 1 + the index of the definition the module exports
	// as a whole (JavaScript's export default X and module.exports = X);
	// 0 when it exports none.
	DefaultExport int32
}

// Anonymous is the body of an anonymous class: the methods declared in it
// override those of the type it extends or implements, which the reference
// Refs[Base] names (the T of new T() { ... }).
type Anonymous struct {
	Body Span
	Base int32
}

// AnonymousAt is the innermost anonymous class body holding p (-1 when none).
func (f *Facts) AnonymousAt(p Pos) int {
	best := -1
	for i, a := range f.Anonymous {
		if a.Body.Contains(p) && (best < 0 || f.Anonymous[best].Body.Contains(a.Body.Start)) {
			best = i
		}
	}
	return best
}

// Pos is a position: Line is 1-based, Col is 1-based and counts bytes.
type Pos struct {
	Line uint32
	Col  uint32
}

// Span is a range of text; End is exclusive.
type Span struct {
	Start, End Pos
}

// Contains reports whether p lies inside s.
func (s Span) Contains(p Pos) bool {
	return !p.Before(s.Start) && p.Before(s.End)
}

// Before reports whether p comes strictly before q.
func (p Pos) Before(q Pos) bool {
	return p.Line < q.Line || (p.Line == q.Line && p.Col < q.Col)
}

// DefKind is the kind of a definition.
type DefKind uint8

// Definition kinds; append-only (stored in the blob store).
const (
	KindUnknown DefKind = iota
	KindFunction
	KindMethod
	KindClass
	KindInterface
	KindStruct
	KindType
	KindEnum
	KindEnumMember
	KindField
	KindProperty
	KindConstant
	KindVariable
	KindModule
	KindNamespace
	KindConstructor
)

var kindNames = [...]string{"unknown", "function", "method", "class", "interface", "struct", "type", "enum", "enum_member", "field", "property", "constant", "variable", "module", "namespace", "constructor"}

func (k DefKind) String() string { return nameOf(kindNames[:], k, "unknown") }

// ParseKind maps a kind name (as used in .scm captures and by users) to a DefKind.
func ParseKind(s string) (DefKind, bool) {
	if k, ok := parseName[DefKind](kindNames[:], s); ok {
		return k, true
	}
	switch s {
	case "const":
		return KindConstant, true
	case "var":
		return KindVariable, true
	}
	return KindUnknown, false
}

// IsTypeLike reports whether definitions of this kind can own members.
func (k DefKind) IsTypeLike() bool {
	switch k {
	case KindClass, KindInterface, KindStruct, KindType, KindEnum:
		return true
	}
	return false
}

// Visibility of a definition (CKB §16.2 weights use these classes).
type Visibility uint8

// Visibility classes.
const (
	VisUnknown Visibility = iota
	VisPublic
	VisInternal
	VisPrivate
)

var visNames = [...]string{"unknown", "public", "internal", "private"}

func (v Visibility) String() string { return nameOf(visNames[:], v, "unknown") }

// Def is a definition: something with a name that other code can refer to.
type Def struct {
	Kind       DefKind
	Name       string
	Path       string // lexical path within the file, e.g. "Server.Handle"
	Parent     int32  // index of the enclosing definition, -1 at top level
	Span       Span   // the whole definition
	NameSpan   Span
	Signature  string // normalised header text, without the body
	Doc        string // first sentence of the doc comment or docstring
	Visibility Visibility
	Receiver   string // Go methods: the receiver's base type name
	// Type is the named type the source declares for a field or property
	// (Java, C#, TypeScript) or, for a Go function or method, its result
	// (the first one of several: T of (T, error)), as Local.Type: "T" or
	// "pkg.T" without type arguments; "" when it writes none or another kind
	// of type.
	Type string
	// Extends is the type a Kotlin extension function or property
	// (top-level or a member) or a C# extension method extends, as written
	// without type arguments and nullability ("Box", "a.Box" of fun
	// a.Box.twice(), of val a.Box.area, of Twice(this a.Box b)); "" for
	// every other definition.
	Extends  string
	BodyHash uint64 // fingerprint of the definition's text with whitespace removed
	Dup      uint16 // ordinal among definitions with the same Path in this file
}

// Role of a reference.
type Role uint8

// Reference roles.
const (
	RoleRead Role = iota
	RoleCall
	RoleWrite
	RoleImport
	RoleExport
	RoleType
	RoleDoc // a documentation comment's link to the name: JSDoc's {@link X}
)

var roleNames = [...]string{"reference", "call", "write", "import", "export", "type", "doc"}

func (r Role) String() string { return nameOf(roleNames[:], r, "reference") }

// QualShape is the shape of what stands before a member reference (x.Name).
type QualShape uint8

// Qualifier shapes.
const (
	QualNone  QualShape = iota // a bare identifier
	QualIdent                  // x.Name
	QualSelf                   // this.Name, self.Name
	QualPath                   // a.b.Name
	QualCall                   // f().Name
	QualExpr                   // anything else
	// QualType: the qualifier names a type and Name is a member of that type
	// itself, not of a value: the keys of a Go keyed composite literal T{k: v}.
	// The qualifier is a type name as written, "T" or "pkg.T", without pointer
	// or type arguments.
	QualType
)

var shapeNames = [...]string{"none", "ident", "self", "path", "call", "expr", "type"}

func (q QualShape) String() string { return nameOf(shapeNames[:], q, "expr") }

// Ref is an identifier that is not a definition's name.
type Ref struct {
	Name      uint32 // index into Facts.Names
	Pos       Pos
	Role      Role
	Shape     QualShape
	Qualifier uint32 // index into Facts.Names of the qualifier text, when Shape != QualNone
	QualBound bool   // the qualifier's first name binds to a local or a same-file definition
	Enclosing int32  // index of the innermost enclosing definition, -1 at top level
	Scope     int32  // innermost scope, -1 for the file
	BindLocal int32  // index into Facts.Locals of a same-file local binding, or -1
	BindDef   int32  // index into Facts.Defs of a same-file definition binding, or -1
	BindImp   int32  // index into Facts.Imports that brings the name in, or -1
	// Via, for Shape QualCall, is 1 + the index into Facts.Refs of the callee
	// of the call that is the qualifier (F in F(x).Name, M in x.M().Name); 0
	// when the language does not say (Go says).
	Via int32
	// Args, for a call, is 1 + the number of arguments it passes, which
	// tells overloads apart by arity (put(1) from put(1, 2)); 0 when the
	// extractor could not count them or the reference is no call.
	Args uint16
}

// BindImport makes r the name of what an import declaration imports,
// bound to import i of its file (which the linker links to the item).
func (r *Ref) BindImport(i int32) {
	r.Role, r.Shape, r.Qualifier, r.QualBound = RoleImport, QualNone, 0, false
	r.BindLocal, r.BindDef, r.BindImp = -1, -1, i
}

// Local is a binding that is not a symbol: a parameter, a local variable.
type Local struct {
	Name  uint32 // index into Facts.Names
	Pos   Pos
	Scope int32
	// Type is the named type the source declares for the binding, as written
	// but without pointer and type arguments ("T", "pkg.T"): a parameter's
	// type, var x T, or the type of the literal or new(T) it is initialised
	// with. "" when the source does not write one (the language's query
	// decides which forms count: @local.type). TypeScript: for an untyped
	// parameter of a function passed as an argument to a call of a bare
	// name, ContextType(argument, parameter) with Via the reference to the
	// callee, whose declaration gives the type (see ParseContextType).
	Type string
	// From is where the binding comes into scope when that is after Pos: the
	// end of its initialiser in x := v or var x = v (Go), so that v does not
	// see x. Zero: from Pos.
	From Pos
	// Via is 1 + the index into Facts.Refs of the callee of the call whose
	// (first) result initialises the binding (x := F(), x, err := p.F()), or,
	// in Kotlin, of the member or property whose value does (val x = a.b,
	// a?.b, a.b!!, checkNotNull(a.b)), for a binding without a declared Type;
	// 0 for none (Go; TypeScript: see Type).
	Via int32
}

// ContextType is the Local.Type of a parameter typed by its context: the
// parameter at index param of the function at index arg of a call's
// arguments ("#1.0"). It cannot be a type name.
func ContextType(arg, param int) string {
	return "#" + strconv.Itoa(arg) + "." + strconv.Itoa(param)
}

// ParseContextType reads a Local.Type written by ContextType.
func ParseContextType(typ string) (arg, param int, ok bool) {
	rest, ok := strings.CutPrefix(typ, "#")
	if !ok {
		return 0, 0, false
	}
	a, p, ok := strings.Cut(rest, ".")
	if !ok {
		return 0, 0, false
	}
	arg, err1 := strconv.Atoi(a)
	param, err2 := strconv.Atoi(p)
	return arg, param, err1 == nil && err2 == nil && arg >= 0 && param >= 0
}

// Visible is where the binding comes into scope.
func (l Local) Visible() Pos {
	if l.From != (Pos{}) {
		return l.From
	}
	return l.Pos
}

// Scope is a lexical scope.
type Scope struct {
	Span   Span
	Parent int32
}

// ImportKind says how an import brings names in.
type ImportKind uint8

// Import kinds.
const (
	ImportModule     ImportKind = iota // the whole module under one local name (Go import, Python import x)
	ImportNamed                        // one named member (import {X} from; from m import X)
	ImportNamespace                    // import * as ns
	ImportDefault                      // import X from
	ImportAll                          // from m import *; Go dot import
	ImportSideEffect                   // import "x" for its effects; Go blank import
)

var importKindNames = [...]string{"module", "named", "namespace", "default", "all", "side_effect"}

func (k ImportKind) String() string { return nameOf(importKindNames[:], k, "module") }

// Import is one name (or module) brought in by an import statement.
type Import struct {
	Source string // the source literal without quotes: "fmt", "./a", ".models"
	Name   string // the imported member, for named imports
	Alias  string // the local name when it differs from Name (or the module's local name)
	Kind   ImportKind
	Pos    Pos
}

// LocalName is the name the import binds in the file ("" when it binds none).
func (im Import) LocalName() string {
	if im.Alias != "" {
		return im.Alias
	}
	return im.Name
}

// ImportByName maps each local name the imports of f bind to the first
// import binding it.
func (f *Facts) ImportByName() map[string]int32 {
	out := map[string]int32{}
	for i, im := range f.Imports {
		if n := im.LocalName(); n != "" {
			if _, ok := out[n]; !ok {
				out[n] = int32(i)
			}
		}
	}
	return out
}

// TopDefs maps each name of a top-level definition of f (no parent, no
// receiver) to the first definition of that name, leaving out the kinds in
// skip: what a bare name no local binds denotes in its file.
func (f *Facts) TopDefs(skip ...DefKind) map[string]int32 {
	out := map[string]int32{}
	for i, d := range f.Defs {
		if d.Parent < 0 && d.Receiver == "" && !slices.Contains(skip, d.Kind) {
			if _, ok := out[d.Name]; !ok {
				out[d.Name] = int32(i)
			}
		}
	}
	return out
}

// RelKind is a type relation.
type RelKind uint8

// Type relation kinds.
const (
	RelExtends RelKind = iota
	RelImplements
	RelEmbeds
)

var relNames = [...]string{"extends", "implements", "embeds"}

func (k RelKind) String() string { return nameOf(relNames[:], k, "extends") }

// TypeRel says that Defs[Def] extends, implements or embeds the type named Target.
type TypeRel struct {
	Def    int32
	Kind   RelKind
	Target string // as written, e.g. "io.Reader", "Base"
	Pos    Pos
}

// DynKind is how a dynamic site reaches its name.
type DynKind uint8

// Dynamic site kinds; append-only (stored in the blob store).
const (
	DynSubscript DynKind = iota // a call through an indexed value: obj[name](), handlers[k](x)
	DynGetattr                  // a member looked up by a run-time name: getattr, MethodByName, Reflect.get
	DynSetattr                  // a member created or replaced by a run-time name: setattr, Reflect.set, defineProperty
	DynEval                     // code or modules chosen at run time: eval, exec, __import__, import_module
)

var dynNames = [...]string{"subscript_call", "getattr", "setattr", "eval"}

func (k DynKind) String() string { return nameOf(dynNames[:], k, "dynamic") }

// ParseDynKind reads a dynamic site kind name.
func ParseDynKind(s string) (DynKind, bool) {
	return parseName[DynKind](dynNames[:], s)
}

// DynamicSite is a place where code reaches a name chosen at run time.
type DynamicSite struct {
	Kind      DynKind
	Pos       Pos
	Enclosing int32  // index of the innermost enclosing definition, -1 at top level
	Text      string // the expression from its start, on one line, shortened
}

// NameTable adds strings to a file's name table (Facts.Names), each once.
type NameTable struct {
	f   *Facts
	ids map[string]uint32
}

// NewNameTable indexes the name table of f (the first of duplicates wins).
func NewNameTable(f *Facts) *NameTable {
	ids := make(map[string]uint32, len(f.Names))
	for i, n := range f.Names {
		if _, ok := ids[n]; !ok {
			ids[n] = uint32(i)
		}
	}
	return &NameTable{f: f, ids: ids}
}

// ID returns the index of s in the name table, adding it when missing.
func (t *NameTable) ID(s string) uint32 {
	if id, ok := t.ids[s]; ok {
		return id
	}
	id := uint32(len(t.f.Names))
	t.f.Names = append(t.f.Names, s)
	t.ids[s] = id
	return id
}

// Lookup returns the index of s, if the table has it.
func (t *NameTable) Lookup(s string) (uint32, bool) {
	id, ok := t.ids[s]
	return id, ok
}
