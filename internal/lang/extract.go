package lang

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"
	"github.com/zeebo/xxh3"
)

// Extractor parses files into Facts. It holds one tree-sitter parser per language
// and reusable buffers, so it must be used by one goroutine at a time; Close it.
type Extractor struct {
	parsers map[*Language]*ts.Parser
	cursor  *queryCursor
	buf     []node
	caps    []capture
}

// NewExtractor returns an extractor; callers must Close it.
func NewExtractor() *Extractor {
	return &Extractor{parsers: map[*Language]*ts.Parser{}, cursor: newQueryCursor()}
}

// Close frees the C memory of the parsers.
func (x *Extractor) Close() {
	for _, p := range x.parsers {
		p.Close()
	}
	x.parsers = nil
	x.cursor.close()
}

// MaxSignature caps a signature's length in bytes, for every language's
// extractor.
const MaxSignature = 240

// maxDoc caps a doc summary's length in bytes.
const maxDoc = 200

// Extract parses src as language l.
func (x *Extractor) Extract(l *Language, src []byte) (*Facts, error) {
	if l.Extract != nil {
		f, err := l.Extract(src)
		if err != nil {
			return nil, fmt.Errorf("lang %s: %w", l.Name, err)
		}
		f.Lang = l.Name
		f.Surfaces = finishSurfaces(f.Surfaces)
		enforceBounds(f)
		return f, nil
	}
	c, p, err := x.parser(l)
	if err != nil {
		return nil, err
	}
	if l.FinalNewline && (len(src) == 0 || src[len(src)-1] != '\n') {
		src = append(src[:len(src):len(src)], '\n') // a copy: src is the caller's
	}
	tree := parse(p, src)
	if tree == nil {
		return nil, fmt.Errorf("lang %s: parser returned no tree", l.Name)
	}
	nodes, nErr, firstErr, depth := flatten(tree, x.buf)
	v := &View{src: src, nodes: nodes, c: c}
	if l.Unwrap != nil {
		// The file's own parse errors are the ones it reports: the rewritten
		// source may read less cleanly than the macro's input did.
		if unwrapped := l.Unwrap(v); unwrapped != nil {
			tree.Close()
			if tree = parse(p, unwrapped); tree == nil {
				return nil, fmt.Errorf("lang %s: parser returned no tree", l.Name)
			}
			nodes, _, _, depth = flatten(tree, nodes)
			v = &View{src: unwrapped, nodes: nodes, c: c}
		}
	}
	defer tree.Close()
	x.buf = nodes[:0]
	b := newBuilder(l, c, v)
	b.facts.ParseErrors = nErr
	if nErr > 0 && int(firstErr) <= len(src) {
		b.facts.FirstError = posAt(src, int(firstErr))
	}
	x.caps = x.cursor.run(c.query, tree, x.caps, bandFor(depth))
	b.collect(x.caps)
	b.buildDefs()
	b.buildScopes()
	b.buildImports()
	b.buildRefs()
	b.buildRelations()
	b.buildDynamic()
	if l.Package != nil {
		b.facts.Package = l.Package(v)
	}
	if l.Constraint != nil {
		b.facts.Build = l.Constraint(v)
	}
	if l.Refine != nil {
		l.Refine(v, b.facts)
	}
	if l.Surfaces != nil {
		b.facts.Surfaces = finishSurfaces(l.Surfaces(v, b.facts))
	}
	enforceBounds(b.facts)
	return b.facts, nil
}

// parser returns the compiled language and this extractor's parser for it.
func (x *Extractor) parser(l *Language) (*compiled, *ts.Parser, error) {
	c, err := compile(l)
	if err != nil {
		return nil, nil, err
	}
	p := x.parsers[l]
	if p == nil {
		p = ts.NewParser()
		if err := p.SetLanguage(c.lang); err != nil {
			p.Close()
			return nil, nil, fmt.Errorf("lang %s: %w", l.Name, err)
		}
		x.parsers[l] = p
	}
	return c, p, nil
}

// Parse parses src as language l into a View of its own (Extract's views
// share the extractor's buffers), for code that needs the syntax around a
// position rather than the facts. A language without a tree-sitter grammar
// (its own Extract) has no View: nil.
func (x *Extractor) Parse(l *Language, src []byte) (*View, error) {
	if l.Extract != nil {
		return nil, nil
	}
	c, p, err := x.parser(l)
	if err != nil {
		return nil, err
	}
	tree := parse(p, src)
	if tree == nil {
		return nil, fmt.Errorf("lang %s: parser returned no tree", l.Name)
	}
	defer tree.Close()
	nodes, _, _, _ := flatten(tree, nil)
	return &View{src: src, nodes: nodes, c: c}, nil
}

// posAt computes the position of a byte offset (used rarely: parse errors).
func posAt(src []byte, off int) Pos {
	line, col := uint32(1), uint32(1)
	for i := 0; i < off && i < len(src); i++ {
		if src[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return Pos{line, col}
}

type defCand struct {
	node, name int
	kind       DefKind
	pattern    uint
	receiver   string
	typ        int // flat index of the @local.type node, or -1
}

type refMark struct {
	role Role
	recv int // flat index of the qualifier node, or -1
	set  bool
	imp  int // @reference.import: flat index of the node holding the import, or -1
	call int // @reference.call: flat index of the call node, or -1
	// binding: @reference.binding, a reference also where the name binds
	// a local or names a definition
	binding bool
}

type relCand struct {
	node int
	kind RelKind
}

type dynCand struct {
	node int
	kind DynKind
}

type importCand struct {
	node, source, name, alias int
	kind                      ImportKind
}

// builder accumulates one file's facts.
type builder struct {
	l     *Language
	c     *compiled
	v     *View
	facts *Facts
	names *NameTable

	defCands   map[int]defCand // by name node
	marks      map[int]refMark // by name node
	bindings   int             // marks of @reference.binding
	skip       map[int]bool    // identifier nodes that are not references
	scopeNodes []int
	localNodes []int
	localType  map[int]int // local definition node -> its declared type node
	localInit  map[int]int // local definition node -> its initialiser node
	relCands   []relCand
	dynCands   []dynCand
	imports    []importCand

	defOfNode   map[int]int32 // def node -> def index
	scopeOfNode map[int]int32
	encDef      []int32 // per flat node: innermost enclosing def (including itself)
	encScope    []int32
}

func newBuilder(l *Language, c *compiled, v *View) *builder {
	facts := &Facts{Lang: l.Name}
	return &builder{
		l: l, c: c, v: v,
		facts:    facts,
		names:    NewNameTable(facts),
		defCands: map[int]defCand{},
		marks:    map[int]refMark{},
		skip:     map[int]bool{},
	}
}

func (b *builder) name(s string) uint32 { return b.names.ID(s) }

// collect sorts the query's captures by meaning, one match at a time.
func (b *builder) collect(caps []capture) {
	for start := 0; start < len(caps); {
		end := start + 1
		for end < len(caps) && caps[end].match == caps[start].match {
			end++
		}
		b.collectMatch(caps[start:end])
		start = end
	}
}

func (b *builder) collectMatch(caps []capture) {
	main, mainRole := -1, capOther
	var mainCap uint16
	name, recv, source, alias := -1, -1, -1, -1
	localDef, localType, localInit := -1, -1, -1
	var extraNames []int // further @name captures of a definition (const a, b = ...)
	pattern := uint(caps[0].pattern)
	for _, cp := range caps {
		role := b.c.caps[cp.index]
		idx := b.v.find(cp.sb, cp.eb, cp.sym)
		if idx < 0 {
			continue
		}
		switch role {
		case capScope:
			b.scopeNodes = append(b.scopeNodes, idx)
		case capLocalDef:
			b.localNodes = append(b.localNodes, idx)
			localDef = idx
		case capLocalType:
			if b.v.Text(idx) != "var" { // Java and C# var: the type is inferred, not declared
				localType = idx
			}
		case capLocalInit:
			localInit = idx
		case capRel:
			b.relCands = append(b.relCands, relCand{idx, b.c.capRel[cp.index]})
		case capIgnore:
			b.skip[idx] = true
		case capDynamic:
			b.dynCands = append(b.dynCands, dynCand{idx, b.c.capDyn[cp.index]})
		case capDef, capCall, capMember, capBinding, capWrite, capImport, capImportRef:
			main, mainRole, mainCap = idx, role, cp.index
		case capName:
			if name < 0 {
				name = idx
			} else {
				extraNames = append(extraNames, idx)
			}
		case capReceiver:
			recv = idx
		case capSource:
			source = idx
		case capAlias:
			alias = idx
		}
	}
	if localDef >= 0 && localType >= 0 {
		if b.localType == nil {
			b.localType = map[int]int{}
		}
		if _, ok := b.localType[localDef]; !ok {
			b.localType[localDef] = localType
		}
	}
	if localDef >= 0 && localInit >= 0 {
		if b.localInit == nil {
			b.localInit = map[int]int{}
		}
		b.localInit[localDef] = localInit
	}
	switch mainRole {
	case capDef:
		if name < 0 {
			return
		}
		cand := defCand{node: main, name: name, kind: b.c.capKind[mainCap], pattern: pattern, typ: localType}
		if recv >= 0 {
			cand.receiver = b.v.Text(recv)
		}
		for _, n := range append([]int{name}, extraNames...) {
			cand.name = n
			if old, ok := b.defCands[n]; !ok || cand.pattern < old.pattern {
				b.defCands[n] = cand
			}
		}
	case capCall, capMember, capBinding, capWrite, capImportRef:
		if name < 0 {
			return
		}
		mk := b.marks[name]
		if !mk.set {
			mk.recv, mk.imp, mk.call = -1, -1, -1
			mk.set = true
		}
		switch mainRole {
		case capCall:
			mk.role, mk.call = RoleCall, main
		case capWrite:
			if mk.role != RoleCall {
				mk.role = RoleWrite
			}
		case capImportRef:
			mk.role, mk.imp = RoleImport, main
		case capBinding:
			if !mk.binding {
				b.bindings++
			}
			mk.binding = true
		}
		if recv >= 0 {
			mk.recv = recv
		}
		b.marks[name] = mk
	case capImport:
		b.imports = append(b.imports, importCand{main, source, name, alias, b.c.capImport[mainCap]})
	}
}

// buildDefs orders definitions, links parents and computes paths and details.
// Definitions nested deeper than MaxNesting are left out (their names stay
// out of the references too): what they contain belongs to their ancestor.
func (b *builder) buildDefs() {
	cands := make([]defCand, 0, len(b.defCands))
	for _, d := range b.defCands {
		cands = append(cands, d)
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].node != cands[j].node {
			return cands[i].node < cands[j].node
		}
		return cands[i].name < cands[j].name
	})
	b.defOfNode = make(map[int]int32, len(cands))
	// encDef is filled in pre-order while the candidates (sorted by node)
	// are placed: a node's ancestors come before it, so the enclosing
	// definition of a candidate is known when it is reached, without a
	// walk up its ancestors.
	enc := newEnclosing(b.v, b.defOfNode)
	comments := b.commentsByEndLine()
	dups := map[string]uint16{}
	for _, cd := range cands {
		b.skip[cd.name] = true
		parent, ok := enc.nest(cd.node, MaxNesting)
		if !ok {
			b.facts.Limits |= LimitNesting
			continue
		}
		idx := int32(len(b.facts.Defs))
		if _, taken := b.defOfNode[cd.node]; !taken {
			b.defOfNode[cd.node] = idx // several names on one node: the first encloses
		}
		d := Def{
			Kind:     cd.kind,
			Name:     b.v.Text(cd.name),
			Parent:   parent,
			Span:     b.v.Span(cd.node),
			NameSpan: b.v.Span(cd.name),
			Receiver: cd.receiver,
		}
		if cd.typ >= 0 {
			d.Type = TypeName(b.v.Text(cd.typ))
		}
		if d.Receiver != "" {
			d.Path = b.facts.JoinPath(d.Receiver, d.Name)
		} else {
			d.Path = b.facts.ChildPath(d.Parent, d.Name)
		}
		d.Dup = dups[d.Path]
		dups[d.Path]++
		d.Signature = b.signature(cd.node)
		d.BodyHash = b.bodyHash(cd.node, cd.name)
		d.Doc = b.doc(cd.node, comments)
		b.facts.Defs = append(b.facts.Defs, d)
		if b.l.Visibility != nil {
			dn := DefNode{Node: cd.node, Def: &b.facts.Defs[idx]}
			b.facts.Defs[idx].Visibility = b.l.Visibility(b.v, dn)
		}
	}
	b.encDef = enc.all()
}

// enclosing computes, per node, the innermost of a set of marked nodes
// (definitions, scopes) that contains it, in one pre-order pass that can be
// interrupted: the marks of nodes before the one asked about must be final.
type enclosing struct {
	v      *View
	marks  map[int]int32 // node -> its index among the marked, read as it grows
	out    []int32       // per node: the innermost marked node containing it, itself included; -1 for none
	filled int
	levels []int // per index among the marked: how many marked nodes contain it, itself included
}

// nest is the innermost marked node strictly containing node n, for an item
// (definition, scope) the caller creates at n as the next index among the
// marked; ok is false, and no item may be created, when that item would be
// nested deeper than max.
func (e *enclosing) nest(n, max int) (parent int32, ok bool) {
	parent = e.above(n)
	level := 1
	if parent >= 0 {
		level = e.levels[parent] + 1
	}
	if level > max {
		return parent, false
	}
	e.levels = append(e.levels, level)
	return parent, true
}

func newEnclosing(v *View, marks map[int]int32) *enclosing {
	return &enclosing{v: v, marks: marks, out: make([]int32, len(v.nodes))}
}

// fill computes the entries of the nodes before upTo.
func (e *enclosing) fill(upTo int) {
	for ; e.filled < upTo; e.filled++ {
		i := e.filled
		if m, ok := e.marks[i]; ok {
			e.out[i] = m
		} else if p := e.v.nodes[i].parent; p >= 0 {
			e.out[i] = e.out[p]
		} else {
			e.out[i] = -1
		}
	}
}

// above is the innermost marked node strictly containing node n.
func (e *enclosing) above(n int) int32 {
	e.fill(n)
	if p := e.v.nodes[n].parent; p >= 0 {
		return e.out[p]
	}
	return -1
}

// all completes the pass and returns the entry of every node.
func (e *enclosing) all() []int32 {
	e.fill(len(e.out))
	return e.out
}

func (b *builder) signature(defNode int) string {
	start, end := b.v.Bytes(defNode)
	stop := end
	// The header ends where the first body node starts; stop there rather
	// than visit the whole body (nested definitions would each visit theirs).
	for j, last := defNode+1, b.v.subtreeEnd(defNode); j < last; j++ {
		if sym := b.v.nodes[j].sym; int(sym) < len(b.c.bodyKind) && b.c.bodyKind[sym] {
			stop, _ = b.v.Bytes(j)
			break
		}
	}
	sig := CollapseSpace(string(b.v.src[start:stop]))
	sig = strings.TrimSuffix(sig, ":")
	sig = strings.TrimSpace(strings.TrimSuffix(sig, "=>"))
	return Truncate(sig, MaxSignature)
}

// Truncate caps s at n bytes without splitting a UTF-8 sequence, marking the cut.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && (s[cut]&0xC0) == 0x80 { // do not split a UTF-8 sequence
		cut--
	}
	return s[:cut] + "…"
}

// bodyHash fingerprints a definition's text without whitespace and without
// its own name, so a renamed or moved definition keeps its fingerprint (that
// is how aliases find it across epochs).
func (b *builder) bodyHash(defNode, nameNode int) uint64 {
	start, end := b.v.Bytes(defNode)
	ns, ne := b.v.Bytes(nameNode)
	return BodyHash(b.v.src, start, end, ns, ne)
}

// BodyHash fingerprints src[start:end] without whitespace and without the
// name at src[ns:ne] when it lies inside: the fingerprint of a definition
// that every extractor, for code or data, computes the same way.
func BodyHash(src []byte, start, end, ns, ne int) uint64 {
	h := xxh3.New()
	write := func(text []byte) {
		last := 0
		for i, c := range text {
			if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				if i > last {
					h.Write(text[last:i])
				}
				last = i + 1
			}
		}
		if last < len(text) {
			h.Write(text[last:])
		}
	}
	end = min(end, len(src))
	start = min(start, end)
	if ns >= start && ne <= end && ns <= ne {
		write(src[start:ns])
		write(src[ne:end])
	} else {
		write(src[start:end])
	}
	return h.Sum64()
}

// commentsByEndLine maps the last line of each comment to its node.
func (b *builder) commentsByEndLine() map[uint32]int {
	out := map[uint32]int{}
	for i, n := range b.v.nodes {
		if int(n.sym) < len(b.c.comment) && b.c.comment[n.sym] {
			out[n.er+1] = i
		}
	}
	return out
}

func (b *builder) doc(defNode int, comments map[uint32]int) string {
	if b.l.DocStyle == DocString {
		return docString(b.v, defNode)
	}
	line := b.v.nodes[defNode].sr + 1
	var parts []string
	for {
		ci, ok := comments[line-1]
		if !ok || line <= 1 {
			break
		}
		parts = append(parts, b.v.Text(ci))
		line = b.v.nodes[ci].sr + 1
	}
	if len(parts) == 0 {
		return ""
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return Summary(stripCommentMarkers(strings.Join(parts, "\n")))
}

// docString finds a Python-style docstring: the first statement of the body.
func docString(v *View, defNode int) string {
	body := v.Child(defNode, "body")
	if body < 0 {
		return ""
	}
	kids := v.Children(body)
	if len(kids) == 0 || v.Kind(kids[0]) != "expression_statement" {
		return ""
	}
	str := v.ChildOfKind(kids[0], "string")
	if str < 0 {
		return ""
	}
	t := v.Text(str)
	t = strings.TrimLeft(t, "rRbBuUfF")
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if strings.HasPrefix(t, q) && strings.HasSuffix(t, q) && len(t) >= 2*len(q) {
			t = t[len(q) : len(t)-len(q)]
			break
		}
	}
	return Summary(t)
}

func stripCommentMarkers(s string) string {
	lines := strings.Split(s, "\n")
	for i, ln := range lines {
		ln = strings.TrimSpace(ln)
		for _, p := range []string{"///", "//", "/**", "/*", "*/", "#"} {
			ln = strings.TrimPrefix(ln, p)
		}
		ln = strings.TrimSuffix(ln, "*/")
		ln = strings.TrimPrefix(strings.TrimSpace(ln), "* ")
		if ln == "*" {
			ln = ""
		}
		lines[i] = strings.TrimSpace(ln)
	}
	return strings.Join(lines, "\n")
}

// Summary returns the first sentence (or paragraph line) of a doc text, capped.
func Summary(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "\n\n"); i >= 0 {
		s = s[:i]
	}
	s = CollapseSpace(s)
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	return Truncate(s, maxDoc)
}

// buildScopes places the scopes and the locals. Scopes nested deeper than
// MaxScopeNesting merge into their ancestor at that level.
func (b *builder) buildScopes() {
	sort.Ints(b.scopeNodes)
	b.scopeOfNode = map[int]int32{}
	enc := newEnclosing(b.v, b.scopeOfNode)
	for _, n := range b.scopeNodes {
		if _, ok := b.scopeOfNode[n]; ok {
			continue
		}
		parent, ok := enc.nest(n, MaxScopeNesting)
		if !ok {
			b.facts.Limits |= LimitNesting
			continue
		}
		b.scopeOfNode[n] = int32(len(b.facts.Scopes))
		b.facts.Scopes = append(b.facts.Scopes, Scope{Span: b.v.Span(n), Parent: parent})
	}
	b.encScope = enc.all()
	sort.Ints(b.localNodes)
	seen := map[int]bool{}
	for _, n := range b.localNodes {
		if _, isDef := b.defCands[n]; seen[n] || isDef {
			continue // top-level declarations are definitions, not locals
		}
		seen[n] = true
		b.skip[n] = true
		scope := b.encScope[n]
		if s, ok := b.scopeOfNode[n]; ok && s == scope {
			scope = b.facts.Scopes[s].Parent // a scope node naming itself binds outside
		}
		lo := Local{Name: b.name(b.v.Text(n)), Pos: b.v.Start(n), Scope: scope}
		if t, ok := b.localType[n]; ok {
			lo.Type = TypeName(b.v.Text(t))
		}
		if init, ok := b.localInit[n]; ok && b.l.BlockScoped {
			lo.From = b.v.End(init)
		}
		b.facts.Locals = append(b.facts.Locals, lo)
	}
}

func (b *builder) buildImports() {
	for _, ic := range b.imports {
		if b.l.Imports != nil {
			b.facts.Imports = append(b.facts.Imports, b.l.Imports(b.v, ic.node)...)
			continue
		}
		im := Import{Kind: ic.kind, Pos: b.v.Start(ic.node)}
		if ic.source >= 0 {
			im.Source = Unquote(b.v.Text(ic.source))
			im.Pos = b.v.Start(ic.source)
		}
		if ic.name >= 0 {
			im.Name = b.v.Text(ic.name)
			b.skip[ic.name] = true
		}
		if ic.alias >= 0 {
			im.Alias = b.v.Text(ic.alias)
			b.skip[ic.alias] = true
			switch im.Alias {
			case ".":
				im.Kind, im.Alias = ImportAll, ""
			case "_":
				im.Kind, im.Alias = ImportSideEffect, ""
			}
		}
		b.facts.Imports = append(b.facts.Imports, im)
	}
	sort.SliceStable(b.facts.Imports, func(i, j int) bool {
		return b.facts.Imports[i].Pos.Before(b.facts.Imports[j].Pos)
	})
}

// Unquote strips one layer of string quotes.
func Unquote(s string) string {
	if len(s) >= 2 {
		f, l := s[0], s[len(s)-1]
		if (f == '"' || f == '\'' || f == '`') && f == l {
			return s[1 : len(s)-1]
		}
	}
	return s
}

func (b *builder) buildRefs() {
	f := b.facts
	localsByScope := map[uint64]int32{}
	for i, lo := range f.Locals {
		k := uint64(uint32(lo.Scope))<<32 | uint64(lo.Name)
		if _, ok := localsByScope[k]; !ok {
			localsByScope[k] = int32(i)
		}
	}
	topDefs := f.TopDefs()
	importByName := f.ImportByName()
	for i, n := range b.v.nodes {
		isRef, binds := b.refNode(i)
		if !isRef || (b.skip[i] && !binds) || n.eb == n.sb {
			continue
		}
		if n.eb-n.sb == 1 && b.v.src[n.sb] == '_' {
			continue // the blank identifier names nothing
		}
		r := Ref{
			Name:      b.name(string(b.v.src[n.sb:n.eb])),
			Pos:       Pos{n.sr + 1, n.sc + 1},
			Enclosing: b.encDef[i],
			Scope:     b.encScope[i],
			BindLocal: -1, BindDef: -1, BindImp: -1,
		}
		if mk, ok := b.marks[i]; ok {
			r.Role = mk.role
			if mk.role == RoleCall && mk.call >= 0 {
				r.Args = callArgs(b.v, mk.call)
			}
			if mk.imp >= 0 {
				r.BindImp = b.importIn(mk.imp, f.Names[r.Name])
				f.Refs = append(f.Refs, r)
				continue
			}
			if mk.recv >= 0 {
				r.Shape, r.Qualifier = b.qualifier(mk.recv)
			} else if mk.role == RoleRead {
				// a member access whose receiver the query did not name
				r.Shape, r.Qualifier = QualExpr, b.name("")
			}
		}
		switch r.Shape {
		case QualNone:
			b.bindBare(&r, localsByScope, topDefs, importByName)
		case QualIdent, QualPath:
			q := f.Names[r.Qualifier]
			if dot := strings.IndexByte(q, '.'); dot >= 0 {
				q = q[:dot]
			}
			if b.bindsLocally(q, r, localsByScope) {
				r.QualBound = true
			} else if _, ok := topDefs[q]; ok {
				r.QualBound = true
			} else if imp, ok := importByName[q]; ok {
				r.BindImp = imp
			}
		}
		f.Refs = append(f.Refs, r)
	}
}

// refNode reports whether node i is a reference: a node of the language's
// reference kinds, or one a @reference.binding pattern names (binds), which
// is one even where it also binds a local or names a definition:
// JavaScript's const { a } = x binds a and reads x.a.
func (b *builder) refNode(i int) (isRef, binds bool) {
	if b.bindings > 0 { // most files have none: no lookup per node
		binds = b.marks[i].binding
	}
	sym := b.v.nodes[i].sym
	return binds || int(sym) < len(b.c.refKind) && b.c.refKind[sym], binds
}

// importIn finds the named import of name that the Imports hook (or the
// @import captures) reported at a position inside node n, or -1.
func (b *builder) importIn(n int, name string) int32 {
	sp := b.v.Span(n)
	for i, im := range b.facts.Imports {
		if im.Kind == ImportNamed && im.Name == name && sp.Contains(im.Pos) {
			return int32(i)
		}
	}
	return -1
}

// TypeName normalises a type as written to the name of the type: spaces and
// one leading * or & go, and so do trailing type arguments ("*pkg.List[T]" is
// "pkg.List"); "" when what is left is not a name or a dotted name.
func TypeName(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "*") || strings.HasPrefix(s, "&") {
		s = strings.TrimSpace(s[1:])
	}
	if i := strings.IndexAny(s, "[<"); i > 0 {
		end := byte(']')
		if s[i] == '<' {
			end = '>'
		}
		if s[len(s)-1] != end || strings.TrimSpace(s[i+1:len(s)-1]) == "" {
			return "" // T[] is an array, not T with type arguments
		}
		if closing(s, i) != len(s)-1 {
			return "" // A<x> | B<y>: not one type
		}
		s = s[:i]
	}
	s = strings.Join(strings.Fields(s), "")
	if IsIdentifier(s) || IsDottedPath(s) {
		return s
	}
	return ""
}

// closing is the index of the bracket that closes the one at open in s
// ('[' or '<'; the > of an arrow => closes none), or -1.
func closing(s string, open int) int {
	shut := byte(']')
	if s[open] == '<' {
		shut = '>'
	}
	depth := 0
	for i := open; i < len(s); i++ {
		switch {
		case s[i] == s[open]:
			depth++
		case s[i] == shut && !(shut == '>' && i > 0 && s[i-1] == '='):
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// maxQualifier caps the qualifier text kept for a reference, in bytes.
const maxQualifier = 80

// maxQualifierScan caps the qualifier text read to tell its shape: in a chain
// a.b.c... each member's qualifier holds all the ones before it, so reading
// them whole would cost the square of the chain. A longer qualifier is never
// kept (maxQualifier) and is taken as an expression.
const maxQualifierScan = 1024

func (b *builder) qualifier(recv int) (QualShape, uint32) {
	text := ""
	if s, e := b.v.Bytes(recv); e-s <= maxQualifierScan {
		text = b.v.Text(recv)
	}
	shape := QualExpr
	kind := b.v.Kind(recv)
	sym := b.v.nodes[recv].sym
	switch {
	case b.c.selfName[text]:
		shape = QualSelf
	case int(sym) < len(b.c.refKind) && b.c.refKind[sym]:
		shape = QualIdent
	case strings.Contains(kind, "call"):
		shape = QualCall
	case IsDottedPath(text):
		shape = QualPath
	}
	if len(text) > maxQualifier || strings.ContainsAny(text, "\n\r") {
		text = ""
	}
	return shape, b.name(text)
}

// IsDottedPath reports whether s is two or more identifiers (IsIdentifier)
// joined by dots: a.b.c.
func IsDottedPath(s string) bool {
	if s == "" || !strings.Contains(s, ".") {
		return false
	}
	for _, part := range strings.Split(s, ".") {
		if !IsIdentifier(part) {
			return false
		}
	}
	return true
}

// IsIdentifier reports whether s is one identifier as the languages Cairn
// reads write them: ASCII letters, digits (not first), '_', '$' and any
// non-ASCII character.
func IsIdentifier(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for _, c := range s {
		if !IsIdentRune(c) {
			return false
		}
	}
	return true
}

// IsWordByte reports whether c is a byte of a word: an ASCII letter, digit or
// '_', or a byte of a multi-byte UTF-8 character (scanning bytes, a
// non-ASCII letter counts as part of the word it stands in).
func IsWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// IsIdentRune reports whether c may stand in an identifier (IsIdentifier).
func IsIdentRune(c rune) bool {
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c > 127
}

func (b *builder) bindBare(r *Ref, locals map[uint64]int32, top map[string]int32, imports map[string]int32) {
	if b.bindLocal(r, locals) {
		return
	}
	name := b.facts.Names[r.Name]
	if d, ok := top[name]; ok {
		r.BindDef = d
		return
	}
	if imp, ok := imports[name]; ok {
		r.BindImp = imp
	}
}

// bindLocal looks for a local binding of r's name in r's scope chain.
func (b *builder) bindLocal(r *Ref, locals map[uint64]int32) bool {
	for s := r.Scope; ; s = b.facts.Scopes[s].Parent {
		k := uint64(uint32(s))<<32 | uint64(r.Name)
		if li, ok := locals[k]; ok {
			lo := b.facts.Locals[li]
			if !b.l.BlockScoped || !r.Pos.Before(lo.Visible()) {
				r.BindLocal = li
				return true
			}
		}
		if s < 0 {
			return false
		}
	}
}

func (b *builder) bindsLocally(name string, r Ref, locals map[uint64]int32) bool {
	id, ok := b.names.Lookup(name)
	if !ok {
		return false
	}
	probe := r
	probe.Name = id
	return b.bindLocal(&probe, locals)
}

func (b *builder) buildRelations() {
	for _, rc := range b.relCands {
		d := b.encDef[rc.node]
		if d < 0 {
			continue
		}
		b.facts.TypeRels = append(b.facts.TypeRels, TypeRel{
			Def: d, Kind: rc.kind, Target: CollapseSpace(b.v.Text(rc.node)), Pos: b.v.Start(rc.node),
		})
	}
	sort.SliceStable(b.facts.TypeRels, func(i, j int) bool {
		return b.facts.TypeRels[i].Pos.Before(b.facts.TypeRels[j].Pos)
	})
}

// maxDynText caps the text kept for a dynamic site, in bytes.
const maxDynText = 80

// buildDynamic records the dynamic sites: the nodes the query marks with
// @dynamic.<kind>, and the calls to the language's DynamicCalls.
func (b *builder) buildDynamic() {
	f := b.facts
	seen := map[Pos]bool{}
	for _, dc := range b.dynCands {
		p := b.v.Start(dc.node)
		if seen[p] {
			continue
		}
		seen[p] = true
		s, e := b.v.Bytes(dc.node)
		f.Dynamic = append(f.Dynamic, DynamicSite{Kind: dc.kind, Pos: p, Enclosing: b.encDef[dc.node], Text: siteText(b.v.src[s:e])})
	}
	if len(b.l.DynamicCalls) > 0 {
		lineStart := 0 // byte offset of the current line, found by walking forward
		line := uint32(1)
		for _, r := range f.Refs {
			if r.Role != RoleCall || seen[r.Pos] {
				continue
			}
			name := f.Names[r.Name]
			back := 0 // bytes before the name where the text starts
			kind, ok := b.l.DynamicCalls[name]
			if q := f.Names[r.Qualifier]; !ok && r.Shape != QualNone {
				kind, ok = b.l.DynamicCalls[q+"."+name]
				back = len(q) + 1
			}
			if !ok {
				continue
			}
			for line < r.Pos.Line && lineStart < len(b.v.src) { // refs are in source order
				if i := bytes.IndexByte(b.v.src[lineStart:], '\n'); i >= 0 {
					lineStart += i + 1
					line++
				} else {
					lineStart = len(b.v.src)
				}
			}
			start := min(max(lineStart+int(r.Pos.Col)-1-back, lineStart), len(b.v.src))
			seen[r.Pos] = true
			f.Dynamic = append(f.Dynamic, DynamicSite{Kind: kind, Pos: r.Pos, Enclosing: r.Enclosing, Text: siteText(b.v.src[start:])})
		}
	}
	sort.SliceStable(f.Dynamic, func(i, j int) bool { return f.Dynamic[i].Pos.Before(f.Dynamic[j].Pos) })
}

// siteText is the first line of an expression, shortened.
func siteText(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	return Truncate(strings.TrimSpace(string(b)), maxDynText)
}
