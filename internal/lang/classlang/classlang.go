// Package classlang holds the hooks that Java, C# and Kotlin share: languages
// whose code lives in classes, whose symbols are named
// <package or namespace>.<Type>.<member>, and whose documentation is a doc
// comment (Javadoc, KDoc, C# XML comments) above the declaration.
//
// The engine does the generic work; these helpers redo what differs:
//   - signatures leave annotations, attributes and comments out;
//   - docs come from doc comments only (/** */ or ///), cleaned of markup;
//   - a bare name binds to a member of an enclosing type declaration in the
//     same file (the engine binds only top-level names);
//   - names inside package and import declarations are not references, except
//     the imported name itself, which is an import reference bound to its import.
package classlang

import (
	"html"
	"regexp"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// Set is a set of node kinds.
type Set map[string]bool

// NewSet makes a Set.
func NewSet(kinds ...string) Set {
	s := Set{}
	for _, k := range kinds {
		s[k] = true
	}
	return s
}

// Signature is the text of definition node n up to its body (the first
// descendant whose kind is in body), without the descendants whose kind is in
// cut (annotations, attributes, comments), normalised to single spaces.
func Signature(v *lang.View, n int, body, cut Set) string {
	_, stop := v.Bytes(n)
	return CleanSignature(langutil.Head(v, n, stop, body, func(k string) bool { return cut[k] }))
}

// CleanSignature normalises a signature's text: single spaces, no space inside
// brackets, no trailing separator or arrow, capped in length.
func CleanSignature(s string) string {
	s = lang.CollapseSpace(s)
	for _, r := range [][2]string{{"( ", "("}, {" )", ")"}, {" ,", ","}, {"< ", "<"}, {" >", ">"}} {
		s = strings.ReplaceAll(s, r[0], r[1])
	}
	for {
		t := strings.TrimSpace(s)
		for _, suf := range []string{";", "{", "=>", "->", "=", ":"} {
			t = strings.TrimSpace(strings.TrimSuffix(t, suf))
		}
		if t == s {
			break
		}
		s = t
	}
	return lang.Truncate(s, lang.MaxSignature)
}

// Prepare starts the Refine hook of a class language: it finds each
// definition's node (langutil.DefNodes; -1 when none) and recomputes the
// signatures without the kinds in cut (Signatures) and the doc summaries
// from the comments of the kinds in comment (Docs).
func Prepare(v *lang.View, f *lang.Facts, body, cut, comment Set, style DocKind) (nodes []int) {
	nodes = langutil.DefNodes(v, f, nil)
	Signatures(v, f, nodes, body, cut)
	Docs(v, f, nodes, comment, style)
	return nodes
}

// Finish ends the Refine hook of a class language with the rules they share:
// the references inside package and import declarations (decls, ImportRefs)
// and this inside anonymous class bodies (anon, SelfIn), the targets of type
// relations (Relations), generic qualifiers (GenericQualifiers) and bare
// names bound to members of enclosing types (BindMembers).
func Finish(f *lang.Facts, decls, anon []lang.Span) {
	ImportRefs(f, decls)
	SelfIn(f, anon)
	Relations(f)
	GenericQualifiers(f)
	BindMembers(f)
}

// Signatures recomputes every definition's signature with Signature.
func Signatures(v *lang.View, f *lang.Facts, nodes []int, body, cut Set) {
	for i := range f.Defs {
		if n := nodes[i]; n >= 0 {
			f.Defs[i].Signature = Signature(v, n, body, cut)
		}
	}
}

// DocKind says which comments document a declaration.
type DocKind uint8

// Doc comment styles.
const (
	Javadoc DocKind = iota // the nearest /** ... */ block in the comments above
	XMLDoc                 // the run of /// lines right above
	KDoc                   // as Javadoc, its links written [Name] in markdown
)

// Docs recomputes every definition's doc summary from its doc comment; other
// comments above a declaration (licence headers, // notes) are not docs.
func Docs(v *lang.View, f *lang.Facts, nodes []int, comment Set, style DocKind) {
	byEnd := map[uint32]int{} // last line of a comment -> its node
	for n := 0; n < v.Len(); n++ {
		if comment[v.Kind(n)] {
			byEnd[v.End(n).Line] = n
		}
	}
	for i := range f.Defs {
		f.Defs[i].Doc = ""
		n := nodes[i]
		if n < 0 || !firstOnLine(v, n) {
			continue // a parameter after its class's name is not what the comment documents
		}
		line := v.Start(n).Line
		var run []string // nearest first
		for line > 1 {
			c, ok := byEnd[line-1]
			if !ok {
				break
			}
			run = append(run, v.Text(c))
			line = v.Start(c).Line
		}
		switch style {
		case Javadoc, KDoc:
			for _, c := range run {
				if strings.HasPrefix(c, "/**") && c != "/**/" {
					c = CleanJavadoc(c)
					if style == KDoc {
						c = cleanKDocLinks(c)
					}
					f.Defs[i].Doc = lang.Summary(c)
					break
				}
			}
		case XMLDoc:
			var lines []string
			for _, c := range run {
				if !strings.HasPrefix(c, "///") {
					break
				}
				lines = append(lines, c)
			}
			for a, b := 0, len(lines)-1; a < b; a, b = a+1, b-1 {
				lines[a], lines[b] = lines[b], lines[a]
			}
			if len(lines) > 0 {
				f.Defs[i].Doc = lang.Summary(CleanXMLDoc(strings.Join(lines, "\n")))
			}
		}
	}
}

// firstOnLine reports whether only whitespace precedes node n on its line.
func firstOnLine(v *lang.View, n int) bool {
	src := v.Src()
	sb, _ := v.Bytes(n)
	for i := sb - 1; i >= 0 && src[i] != '\n'; i-- {
		if src[i] != ' ' && src[i] != '\t' && src[i] != '\r' {
			return false
		}
	}
	return true
}

var (
	inlineTag = regexp.MustCompile(`\{@(?:link|linkplain|code|literal|value|systemProperty)\s+([^}]*)\}`)
	otherTag  = regexp.MustCompile(`\{@[a-zA-Z]+\s*([^}]*)\}`)
	htmlTag   = regexp.MustCompile(`</?[a-zA-Z][^>]*>`)
)

// CleanJavadoc turns a /** */ comment into plain text: comment markers, block
// tags (@param and what follows), inline tags ({@link X label} is "label",
// {@code x} is "x") and HTML tags are removed; a blank line separates paragraphs.
func CleanJavadoc(c string) string {
	c = strings.TrimSuffix(strings.TrimPrefix(c, "/**"), "*/")
	var out []string
	for _, ln := range strings.Split(c, "\n") {
		ln = strings.TrimSpace(ln)
		ln = strings.TrimSpace(strings.TrimLeft(ln, "*"))
		if strings.HasPrefix(ln, "@") {
			break // block tags end the description
		}
		out = append(out, ln)
	}
	s := strings.Join(out, "\n")
	s = inlineTag.ReplaceAllStringFunc(s, func(m string) string {
		arg := strings.TrimSpace(inlineTag.FindStringSubmatch(m)[1])
		if strings.HasPrefix(m, "{@link") {
			// {@link Type#member label}: the label, else the reference
			if _, label, ok := strings.Cut(arg, " "); ok && strings.TrimSpace(label) != "" {
				return strings.TrimSpace(label)
			}
			return strings.TrimPrefix(strings.ReplaceAll(arg, "#", "."), ".")
		}
		return arg
	})
	s = otherTag.ReplaceAllString(s, "$1")
	s = strings.ReplaceAll(s, "<p>", "\n\n")
	s = strings.ReplaceAll(s, "<P>", "\n\n")
	s = htmlTag.ReplaceAllString(s, "")
	return html.UnescapeString(s)
}

var (
	kdocLabelled = regexp.MustCompile(`\[([^\[\]]+)\](?:\[[^\[\]]*\]|\([^()]*\))`)
	kdocLink     = regexp.MustCompile(`(^|[^\w)\]])\[([A-Za-z_][\w.]*)\]`)
)

// cleanKDocLinks turns KDoc's markdown links into their text: [label][X]
// and [label](url) into label, [X] into X (a[i], indexing, stays).
func cleanKDocLinks(s string) string {
	s = kdocLabelled.ReplaceAllString(s, "$1")
	return kdocLink.ReplaceAllString(s, "$1$2")
}

var (
	xmlRef     = regexp.MustCompile(`<(?:see|seealso|paramref|typeparamref)\s+(?:cref|name|langword|href)\s*=\s*"([^"]*)"\s*/?>(?:</(?:see|seealso|paramref|typeparamref)>)?`)
	xmlSummary = regexp.MustCompile(`(?s)<summary>(.*?)</summary>`)
	xmlPara    = regexp.MustCompile(`<para\s*/?>|</para>`)
)

// CleanXMLDoc turns /// lines into plain text: the <summary> element when there
// is one, with references (<see cref="T:X"/>) as their names and other tags removed.
func CleanXMLDoc(c string) string {
	var lines []string
	for _, ln := range strings.Split(c, "\n") {
		ln = strings.TrimSpace(ln)
		ln = strings.TrimPrefix(ln, "///")
		lines = append(lines, strings.TrimSpace(ln))
	}
	s := strings.Join(lines, "\n")
	if m := xmlSummary.FindStringSubmatch(s); m != nil {
		s = m[1]
	}
	s = xmlRef.ReplaceAllStringFunc(s, func(m string) string {
		ref := xmlRef.FindStringSubmatch(m)[1]
		if len(ref) > 2 && ref[1] == ':' { // documentation ids: T:Ns.Type, M:Ns.Type.Method(System.Int32)
			ref = ref[2:]
			if i := strings.IndexByte(ref, '('); i >= 0 {
				ref = ref[:i]
			}
			ref = ref[strings.LastIndexByte(ref, '.')+1:]
		}
		return ref
	})
	s = xmlPara.ReplaceAllString(s, "\n\n")
	s = htmlTag.ReplaceAllString(s, "")
	return html.UnescapeString(s)
}

// BindMembers binds bare references that bind to no local to the members of
// enclosing type declarations in the file, innermost first (a field, a method,
// a nested type; constructors, named like their type, are left out) or to
// types declared in an enclosing method (local classes), and marks
// the qualifiers whose first name does (field.x). Members of a type's
// supertypes are not searched.
func BindMembers(f *lang.Facts) {
	members := langutil.NewMembers(f, func(d *lang.Def) bool {
		// members of types, and types declared in a method body (local classes)
		return f.Defs[d.Parent].Kind.IsTypeLike() && d.Kind != lang.KindConstructor || d.Kind.IsTypeLike()
	})
	if len(members) == 0 {
		return
	}
	langutil.BindNested(f, func(from int32, name string) int32 {
		for d := from; d >= 0; d = f.Defs[d].Parent {
			if i := members.Of(d, name); i >= 0 {
				return i
			}
		}
		return -1
	})
}

// ImportRefs cleans the references inside package and import declarations
// (the spans): they are dropped, except the reference at the position of an
// import that names something (Import.Pos of a named import), which becomes an
// import reference bound to that import.
func ImportRefs(f *lang.Facts, spans []lang.Span) {
	if len(spans) == 0 {
		return
	}
	in := langutil.SpanSet(spans)
	in.Sort()
	named := map[lang.Pos]int32{}
	for i, im := range f.Imports {
		if im.Kind == lang.ImportNamed {
			named[im.Pos] = int32(i)
		}
	}
	refs := f.Refs[:0]
	for _, r := range f.Refs {
		if in.Contains(r.Pos) {
			imp, ok := named[r.Pos]
			if !ok {
				continue
			}
			r.BindImport(imp)
		}
		refs = append(refs, r)
	}
	f.Refs = refs
	if len(refs) == 0 {
		f.Refs = nil // as the codec decodes it
	}
}

// SelfIn turns this.x references inside the given spans (anonymous class
// bodies) into plain member accesses: there this is not the enclosing named type.
func SelfIn(f *lang.Facts, spans []lang.Span) {
	if len(spans) == 0 {
		return
	}
	for i := range f.Refs {
		r := &f.Refs[i]
		if r.Shape != lang.QualSelf {
			continue
		}
		for _, sp := range spans {
			if sp.Contains(r.Pos) {
				r.Shape = lang.QualExpr
				break
			}
		}
	}
}

// DottedImport is the import of a dotted name: with all, every name in full
// (import a.b.*; C# using a.b), else the last name of full from the rest
// (import a.b.C is C from a.b). pos is where it is written.
func DottedImport(full string, all bool, pos lang.Pos) lang.Import {
	if all {
		return lang.Import{Kind: lang.ImportAll, Source: full, Pos: pos}
	}
	im := lang.Import{Kind: lang.ImportNamed, Name: full, Pos: pos}
	if i := strings.LastIndexByte(full, '.'); i >= 0 {
		im.Source, im.Name = full[:i], full[i+1:]
	}
	return im
}

// StripTypeArgs removes type arguments and spaces from a type as written:
// "Comparable<Point<T>>" is "Comparable", "a.b.C<T>" is "a.b.C".
func StripTypeArgs(s string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '<':
			depth++
		case c == '>':
			if depth > 0 {
				depth--
			}
		case depth > 0, c == ' ', c == '\t', c == '\n', c == '\r':
		case c == '?' || c == '(' || c == ')':
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// GenericQualifiers turns qualifiers with type arguments (List<String>::size,
// Order<T>.Helper()) into the identifier or dotted path they name.
func GenericQualifiers(f *lang.Facts) {
	for i := range f.Refs {
		r := &f.Refs[i]
		if r.Shape != lang.QualExpr || !strings.Contains(f.Names[r.Qualifier], "<") {
			continue
		}
		q := StripTypeArgs(f.Names[r.Qualifier])
		shape := lang.QualPath
		for _, part := range strings.Split(q, ".") {
			if !isIdent(part) {
				shape = lang.QualExpr
			}
		}
		if shape == lang.QualExpr {
			continue
		}
		if !strings.Contains(q, ".") {
			shape = lang.QualIdent
		}
		r.Shape, r.Qualifier = shape, langutil.Name(f, q)
		first, _, _ := strings.Cut(q, ".")
		for _, d := range f.Defs {
			if d.Parent < 0 && d.Name == first {
				r.QualBound = true
				break
			}
		}
	}
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c == '_' || c == '$' || c == '@' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c > 127 || (i > 0 && c >= '0' && c <= '9') {
			continue
		}
		return false
	}
	return true
}

// Relations strips type arguments from the targets of type relations.
func Relations(f *lang.Facts) {
	for i := range f.TypeRels {
		f.TypeRels[i].Target = StripTypeArgs(f.TypeRels[i].Target)
	}
}

// Dotted joins the texts of the identifier-like descendants of n with dots,
// leaving out whitespace and comments: a.b.C from a scoped or qualified name.
func Dotted(v *lang.View, n int, ident Set) string {
	if n < 0 {
		return ""
	}
	if ident[v.Kind(n)] {
		return v.Text(n)
	}
	var parts []string
	v.Descendants(n, func(j int) {
		if ident[v.Kind(j)] {
			parts = append(parts, v.Text(j))
		}
	})
	return strings.Join(parts, ".")
}

// Words lists the whitespace-separated words of node n's text outside the
// descendants whose kind is in cut: the keywords of a modifiers node without
// its annotations.
func Words(v *lang.View, n int, cut Set) []string {
	start, end := v.Bytes(n)
	src := v.Src()
	var b strings.Builder
	at := start
	skipTo := -1
	v.Descendants(n, func(j int) {
		sb, eb := v.Bytes(j)
		if sb < skipTo || !cut[v.Kind(j)] {
			return
		}
		b.Write(src[at:sb])
		b.WriteByte(' ')
		at, skipTo = eb, eb
	})
	if at < end {
		b.Write(src[at:end])
	}
	return strings.Fields(b.String())
}

// Modifiers lists the modifier keywords of declaration n (the words of its
// modifiers child), without the descendants whose kind is in cut
// (annotations).
func Modifiers(v *lang.View, n int, cut Set) []string {
	m := v.ChildOfKind(n, "modifiers")
	if m < 0 {
		return nil
	}
	return Words(v, m, cut)
}

// Has reports whether words contains w.
func Has(words []string, w string) bool {
	for _, x := range words {
		if x == w {
			return true
		}
	}
	return false
}

// Chains marks the member references whose qualifier is a method call,
// a.f().m and f().m, as QualCall with Via the reference to f, so that the
// linker looks m up in the type f is declared to return. chained gives, for
// a node, the name node of such a member and the name node of the call's
// callee (-1, -1 for any other node). It runs after Finish, which may drop
// references (and so move their indexes).
func Chains(v *lang.View, f *lang.Facts, refAt map[lang.Pos]int32, chained func(n int) (name, callee int)) {
	for n := 0; n < v.Len(); n++ {
		name, callee := chained(n)
		if name < 0 || callee < 0 {
			continue
		}
		ri, ok := refAt[v.Start(name)]
		ci, ok2 := refAt[v.Start(callee)]
		if ok && ok2 && f.Refs[ci].Role == lang.RoleCall {
			f.Refs[ri].Shape, f.Refs[ri].Via = lang.QualCall, ci+1
		}
	}
}

// CallLocals sets Local.Via of the bindings without a declared type that a
// call initialises (var x = f(), val x = a.f()), so that the linker types
// x.m by what f is declared to return, or (Kotlin) a member's value (val x
// = a.b, by b's declared type); callees maps a binding's position to the
// position of its callee's or member's name. It runs after Finish, like
// Chains.
func CallLocals(f *lang.Facts, refAt map[lang.Pos]int32, callees map[lang.Pos]lang.Pos) {
	if len(callees) == 0 {
		return
	}
	for i := range f.Locals {
		lo := &f.Locals[i]
		callee, ok := callees[lo.Pos]
		if !ok || lo.Type != "" {
			continue
		}
		if ci, ok := refAt[callee]; ok && (f.Refs[ci].Role == lang.RoleCall || f.Refs[ci].Role == lang.RoleRead) {
			lo.Via = ci + 1
		}
	}
}

// AnonymousBodies records the anonymous class bodies (Facts.Anonymous):
// bodies[i] extends the type whose name node is bases[i] (-1 when it has
// none the references hold). It runs after Finish, like Chains.
func AnonymousBodies(v *lang.View, f *lang.Facts, refAt map[lang.Pos]int32, bodies []lang.Span, bases []int) {
	for i, body := range bodies {
		if bases[i] < 0 {
			continue
		}
		if ri, ok := refAt[v.Start(bases[i])]; ok {
			f.Anonymous = append(f.Anonymous, lang.Anonymous{Body: body, Base: ri})
		}
	}
}

// RefsByPos indexes references by position (the first at each), for
// Chains and AnonymousBodies.
func RefsByPos(f *lang.Facts) map[lang.Pos]int32 {
	refAt := make(map[lang.Pos]int32, len(f.Refs))
	for i, r := range f.Refs {
		if _, ok := refAt[r.Pos]; !ok {
			refAt[r.Pos] = int32(i)
		}
	}
	return refAt
}
