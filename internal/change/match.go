package change

import (
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
)

// defOcc is a definition in one state.
type defOcc struct {
	f      *fileSide
	idx    int
	def    *lang.Def
	unit   string
	public string // public, private, internal, unknown, test, internal-package
}

// structural reports whether a file side has definitions worth comparing
// (code with a grammar; data files' outlines are not API).
func structural(f *fileSide) bool {
	return f != nil && f.facts != nil && isCode(f.lang)
}

// occurrences lists a file's definitions with their identity keys.
func occurrences(f *fileSide) []*defOcc {
	if !structural(f) {
		return nil
	}
	f.kids = map[int32]bool{}
	for _, d := range f.facts.Defs {
		if d.Parent >= 0 {
			f.kids[d.Parent] = true
		}
	}
	unit := index.UnitKey(f.path, f.lang, f.facts)
	out := make([]*defOcc, 0, len(f.facts.Defs))
	for i := range f.facts.Defs {
		d := &f.facts.Defs[i]
		out = append(out, &defOcc{f: f, idx: i, def: d, unit: unit, public: visibilityOf(f, i)})
	}
	return out
}

// visibilityOf says whether a definition is API: public itself and in every
// enclosing definition, outside test files, and not set apart by its
// language (lang.Language.NotAPI).
func visibilityOf(f *fileSide, i int) string {
	if query.TestFileKind(f.path, f.lang) != "" {
		return "test"
	}
	if notAPI := lang.Of(f.lang).NotAPI; notAPI != nil {
		if why := notAPI(f.path, f.facts, int32(i)); why != "" {
			return why
		}
	}
	vis := lang.VisPublic
	for at := int32(i); at >= 0; at = f.facts.Defs[at].Parent {
		switch v := f.facts.Defs[at].Visibility; v {
		case lang.VisPrivate, lang.VisInternal:
			return v.String()
		case lang.VisUnknown:
			vis = lang.VisUnknown
		}
	}
	return vis.String()
}

func (o *defOcc) key() string {
	return o.unit + "\x00" + o.def.Kind.String() + "\x00" + o.def.Path + "\x00" + strconv.Itoa(int(o.def.Dup))
}

// matchDefs pairs the definitions of both states: by identity (unit, kind,
// lexical path), then the rest by fingerprint (kind + body) as renames.
func matchDefs(olds, news []*defOcc) []StructuralChange {
	index := func(list []*defOcc) map[string]*defOcc {
		m := map[string]*defOcc{}
		dup := map[string]bool{}
		for _, o := range list {
			k := o.key()
			if _, ok := m[k]; ok {
				dup[k] = true
			}
			m[k] = o
		}
		// Build-tag variants define the same name in several files of a
		// package: those pair by file.
		for k := range dup {
			delete(m, k)
		}
		for _, o := range list {
			if dup[o.key()] {
				m[o.key()+"\x00"+o.f.path] = o
			}
		}
		return m
	}
	om, nm := index(olds), index(news)
	var out []StructuralChange
	var removed, added []*defOcc
	keys := slices.Sorted(maps.Keys(om))
	for _, k := range keys {
		o := om[k]
		n, ok := nm[k]
		if !ok {
			removed = append(removed, o)
			continue
		}
		if c, changed := compareDefs(o, n); changed {
			out = append(out, c)
		}
	}
	keys = keys[:0]
	for k := range nm {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, ok := om[k]; !ok {
			added = append(added, nm[k])
		}
	}
	// Renames: a unique 1:1 match of kind and body fingerprint (the
	// fingerprint leaves out the definition's own name).
	type fp struct {
		kind lang.DefKind
		body uint64
	}
	rm, ad := map[fp][]*defOcc{}, map[fp][]*defOcc{}
	for _, o := range removed {
		if o.def.BodyHash != 0 {
			rm[fp{o.def.Kind, o.def.BodyHash}] = append(rm[fp{o.def.Kind, o.def.BodyHash}], o)
		}
	}
	for _, n := range added {
		if n.def.BodyHash != 0 {
			ad[fp{n.def.Kind, n.def.BodyHash}] = append(ad[fp{n.def.Kind, n.def.BodyHash}], n)
		}
	}
	paired := map[*defOcc]bool{}
	for k, os := range rm {
		if ns := ad[k]; len(os) == 1 && len(ns) == 1 {
			o, n := os[0], ns[0]
			paired[o], paired[n] = true, true
			c := newChange(n, "renamed")
			c.old = o
			c.OldName, c.OldSignature, c.NewSignature = o.def.Path, sig(o.def), sig(n.def)
			if o.f.path != n.f.path {
				c.OldPath = o.f.path
			}
			c.DeltaTags = []string{"symbol_renamed"}
			if o.def.Path == n.def.Path {
				c.Change = "moved"
				c.DeltaTags = []string{"symbol_moved"}
			}
			out = append(out, c)
		}
	}
	out = appendUnpaired(out, removed, paired, "removed")
	out = appendUnpaired(out, added, paired, "added")
	out = dropExplainedContainers(out)
	for i := range out {
		classifyChange(&out[i])
	}
	return out
}

func sig(d *lang.Def) string { return lang.CollapseSpace(d.Signature) }

// apiSignature is the part of a signature that callers depend on (less
// what the language's APISignature hook leaves out), and a variable's or
// constant's initialiser is its value, not its signature.
func apiSignature(o *defOcc) (api, value string) {
	s := sig(o.def)
	if trim := lang.Of(o.f.lang).APISignature; trim != nil {
		s = trim(s)
	}
	switch o.def.Kind {
	case lang.KindVariable, lang.KindConstant, lang.KindField, lang.KindProperty, lang.KindEnumMember:
		if i := topLevelAssign(s); i >= 0 {
			return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:])
		}
	}
	return s, ""
}

// topLevelAssign finds an initialiser's "=" outside brackets (not ==, <=, =>).
func topLevelAssign(s string) int {
	return lang.TopLevel(s, func(i int) bool {
		return s[i] == '=' && (i+1 >= len(s) || s[i+1] != '=' && s[i+1] != '>') && (i == 0 || !strings.ContainsRune("=!<>:+-*/", rune(s[i-1])))
	})
}

// appendUnpaired adds a change (removed or added) for each definition no
// definition of the other state was paired with.
func appendUnpaired(out []StructuralChange, defs []*defOcc, paired map[*defOcc]bool, change string) []StructuralChange {
	for _, o := range defs {
		if paired[o] {
			continue
		}
		c := newChange(o, change)
		if change == "removed" {
			c.OldSignature = sig(o.def)
		} else {
			c.NewSignature = sig(o.def)
		}
		c.DeltaTags = []string{"symbol_" + change}
		out = append(out, c)
	}
	return out
}

func newChange(o *defOcc, change string) StructuralChange {
	c := StructuralChange{Path: o.f.path, Kind: o.def.Kind.String(), Name: o.def.Name, QName: o.def.Path, Change: change,
		Visibility: o.public, Line: int(o.def.Span.Start.Line), EndLine: int(o.def.Span.End.Line)}
	if o.def.Parent >= 0 {
		c.Container = o.f.facts.Defs[o.def.Parent].Path
	} else if o.def.Receiver != "" {
		c.Container = o.def.Receiver
	}
	if change == "removed" {
		c.old = o
	} else {
		c.new = o
	}
	return c
}

// compareDefs reports how a definition present in both states changed.
func compareDefs(o, n *defOcc) (StructuralChange, bool) {
	os, ns := sig(o.def), sig(n.def)
	oa, ov := apiSignature(o)
	na, nv := apiSignature(n)
	moved := o.f.path != n.f.path
	if os == ns && o.def.BodyHash == n.def.BodyHash {
		if !moved {
			return StructuralChange{}, false
		}
		c := newChange(n, "moved")
		c.old, c.OldPath, c.DeltaTags = o, o.f.path, []string{"symbol_moved"}
		return c, true
	}
	c := newChange(n, "body_changed")
	c.old = o
	if moved {
		c.OldPath = o.f.path
	}
	switch {
	case oa != na:
		c.Change = "signature_changed"
		c.OldSignature, c.NewSignature = os, ns
		c.DeltaTags = signatureTags(o.def, n.def)
	case ov != nv:
		c.OldSignature, c.NewSignature = os, ns
		c.DeltaTags = []string{"value_changed"}
	case os != ns:
		c.OldSignature, c.NewSignature = os, ns
		c.DeltaTags = []string{"signature_text_changed"} // a.g. a receiver or parameter renamed
	default:
		c.DeltaTags = []string{}
	}
	if moved {
		c.DeltaTags = append(c.DeltaTags, "symbol_moved")
	}
	return c, true
}

// signatureTags says which part of a signature changed.
func signatureTags(o, n *lang.Def) []string {
	op, or := splitSignature(sig(o), o.Name)
	np, nr := splitSignature(sig(n), n.Name)
	var tags []string
	if op != np {
		tags = append(tags, "parameters_changed")
	}
	if or != nr {
		tags = append(tags, "return_type_changed")
	}
	if len(tags) == 0 {
		tags = append(tags, "signature_changed")
	}
	return tags
}

// splitSignature finds the parameter list after the name and what follows it.
func splitSignature(s, name string) (params, rest string) {
	i := strings.Index(s, name+"(")
	if i < 0 {
		i = strings.Index(s, name)
		if i < 0 {
			return s, ""
		}
	}
	s = s[i+len(name):]
	open := strings.IndexByte(s, '(')
	if open < 0 {
		return "", s
	}
	inner, after, ok := lang.Balanced(s[open:], '(', ')')
	if !ok {
		return s[open:], ""
	}
	return "(" + inner + ")", strings.TrimSpace(after)
}

// dropExplainedContainers removes body changes of types whose members
// changed: the members' own entries say what changed.
func dropExplainedContainers(cs []StructuralChange) []StructuralChange {
	inner := map[string]bool{}
	for _, c := range cs {
		if c.Container != "" {
			inner[c.Path+"\x00"+c.Container] = true
		}
	}
	out := cs[:0]
	for _, c := range cs {
		if c.Change == "body_changed" && c.new != nil && c.new.f.kids[int32(c.new.idx)] && inner[c.Path+"\x00"+c.QName] {
			continue
		}
		out = append(out, c)
	}
	return out
}
