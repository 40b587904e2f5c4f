package refactor

import (
	"context"
	"fmt"

	"github.com/cairnhq/cairn/internal/graph"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// A JavaScript or TypeScript shorthand property names two things with one
// token: { x } in an object literal is the property x holding the variable
// x, and const { x } = v reads the property x into a new local x. Renaming
// either one at that token renames the other too. tsserver (asked to rename
// without aliases) renames the destructured local with the property, its
// uses included, and renames only the property of an object literal
// (leaving it without a value when the variable keeps its name). Cairn does
// the first where the local's uses are all known (the same file binds
// them) and asks about everything else with the edit that keeps the code
// meaning what it meant (x: xNew or xNew: x).

// shorthandKind is the syntax at a renamed token.
type shorthandKind int

const (
	notShorthand     shorthandKind = iota
	shorthandPattern               // const { x } = v, function f({ x }), { x = 1 }
	shorthandObject                // { x } in an object literal
)

// memberKinds are the kinds whose renames change property names.
var memberKinds = map[string]bool{lang.KindMethod.String(): true, lang.KindField.String(): true, lang.KindProperty.String(): true}

// ecmaFile is one JavaScript or TypeScript file a rename touches, parsed.
type ecmaFile struct {
	data   []byte
	starts []int
	facts  *lang.Facts
	view   *lang.View
}

// shorthands rewrites the edits of a JavaScript or TypeScript rename that
// land on shorthand properties: a destructured local of a renamed property
// is renamed with its uses (when the new name is free in the file); other
// shorthands become candidate groups with the edit that spells the property
// and the value apart. Without the semantic layer for a file, the
// shorthands of the renamed property's name there are found too: a
// destructuring of this inside a class that has the member is proven, one
// inside a class that cannot have it is left alone, every other
// destructuring and object literal shorthand is a candidate.
func (env *Env) shorthands(ctx context.Context, files *ecmaFiles, card *query.SymbolCard, r *query.Resolved, p *Plan, old, name string) {
	if !isECMA(card.Language) {
		return
	}
	member := memberKinds[card.Kind]
	open := func(path string) *ecmaFile { return files.open(ctx, env, path) }
	covered := map[[3]any]bool{}
	if member {
		groupShorthands(p.Groups, open, covered, old, name)
	}
	keep := p.Edits[:0:0]
	var more []Edit
	for _, e := range p.Edits {
		covered[[3]any{e.Path, e.Line, e.Col}] = true
		f := open(e.Path)
		kind, local := f.shorthandAt(e, old)
		switch {
		case kind == notShorthand:
			keep = append(keep, e)
		case kind == shorthandPattern && member && local >= 0 && !f.declares(name):
			keep = append(keep, e)
			more = append(more, f.localUses(e, local, old, name)...)
		default:
			p.Groups = append(p.Groups, shorthandGroup(card, e, kind, member, old, name))
		}
	}
	p.Edits = append(keep, more...)
	if !member {
		return
	}
	var family map[protocol.SymbolID]bool
	tied := func() map[protocol.SymbolID]bool {
		if family == nil {
			family, _ = env.declaredFamily(ctx, r, old)
			if family == nil {
				family = map[protocol.SymbolID]bool{}
			}
		}
		return family
	}
	sem, _ := env.Engine.Semantic(ctx)
	hits, err := env.Snap.Store().NameCandidates(ctx, old)
	if err != nil {
		return
	}
	for _, h := range hits {
		if !isECMA(h.Lang) || sem.Usable(h.Path) || !env.bareName(ctx, h.BlobID, old) {
			continue
		}
		f := open(h.Path)
		if f == nil {
			continue
		}
		for i, l := range f.facts.Locals {
			e := Edit{Path: h.Path, Line: int(l.Pos.Line), Col: int(l.Pos.Col), EndLine: int(l.Pos.Line), EndCol: int(l.Pos.Col) + len(old),
				Old: old, New: name, Kind: "reference", Tier: "proven", Layer: query.LayerSyntactic}
			if f.facts.Names[l.Name] != old || covered[[3]any{e.Path, e.Line, e.Col}] {
				continue
			}
			if kind, _ := f.shorthandAt(e, old); kind != shorthandPattern {
				continue
			}
			edits := append([]Edit{e}, f.localUses(e, int32(i), old, name)...)
			switch reads := env.thisReads(ctx, h.FileID, f, e, card, tied); {
			case reads == readsOther:
				continue
			case reads == readsMember && !f.declares(name):
				p.Edits = append(p.Edits, edits...)
				continue
			}
			for j := range edits {
				edits[j].Tier = "anchored"
			}
			p.Groups = append(p.Groups, destructuringGroup(card, edits, old))
		}
		for _, r := range f.facts.Refs {
			e := Edit{Path: h.Path, Line: int(r.Pos.Line), Col: int(r.Pos.Col), EndLine: int(r.Pos.Line), EndCol: int(r.Pos.Col) + len(old),
				Old: old, New: name, Kind: "reference", Tier: "anchored", Layer: query.LayerSyntactic}
			if r.Shape != lang.QualNone || f.facts.Names[r.Name] != old || covered[[3]any{e.Path, e.Line, e.Col}] {
				continue
			}
			if kind, _ := f.shorthandAt(e, old); kind == shorthandObject {
				p.Groups = append(p.Groups, shorthandGroup(card, e, kind, member, old, name))
			}
		}
	}
}

// groupShorthands completes the candidate groups of a member rename whose
// edits land on destructuring shorthands (const { x } = v, which the
// references count as reads of v.x): the group renames the local with its
// uses where the file binds them all and the new name is free, and spells
// the property and the local apart ({ xNew: x }) otherwise. The tokens are
// covered: the search for other destructurings passes them over.
func groupShorthands(groups []Group, open func(string) *ecmaFile, covered map[[3]any]bool, old, name string) {
	for gi := range groups {
		g := &groups[gi]
		var uses []Edit
		for ei := range g.Edits {
			e := &g.Edits[ei]
			covered[[3]any{e.Path, e.Line, e.Col}] = true
			f := open(e.Path)
			switch kind, local := f.shorthandAt(*e, old); {
			case kind != shorthandPattern:
			case local >= 0 && !f.declares(name):
				for _, u := range f.localUses(*e, local, old, name) {
					u.Tier = e.Tier
					uses = append(uses, u)
				}
			default:
				e.New = name + ": " + old
			}
		}
		g.Edits = append(g.Edits, uses...)
		g.Count = len(g.Edits)
	}
}

// structuralShorthands completes the groups of a member rename's
// structural family as groupShorthands does the others'.
func (env *Env) structuralShorthands(ctx context.Context, files *ecmaFiles, card *query.SymbolCard, groups []Group, old, name string) {
	if !isECMA(card.Language) || !memberKinds[card.Kind] {
		return
	}
	open := func(path string) *ecmaFile { return files.open(ctx, env, path) }
	groupShorthands(groups, open, map[[3]any]bool{}, old, name)
}

// ecmaFiles parses each JavaScript or TypeScript file a rename looks at
// once, for shorthands and structuralShorthands alike.
type ecmaFiles struct {
	x     *lang.Extractor
	files map[string]*ecmaFile
}

func newECMAFiles() *ecmaFiles {
	return &ecmaFiles{files: map[string]*ecmaFile{}}
}

// open is the parsed file at path (nil when it is gone or not JavaScript
// or TypeScript); the extractor starts with the first file.
func (fs *ecmaFiles) open(ctx context.Context, env *Env, path string) *ecmaFile {
	if f, ok := fs.files[path]; ok {
		return f
	}
	if fs.x == nil {
		fs.x = lang.NewExtractor()
	}
	fs.files[path] = env.parseECMA(ctx, fs.x, path)
	return fs.files[path]
}

// close releases the extractor.
func (fs *ecmaFiles) close() {
	if fs.x != nil {
		fs.x.Close()
	}
}

// parseECMA reads and parses a file of the rename (nil when it is gone or
// not JavaScript or TypeScript).
func (env *Env) parseECMA(ctx context.Context, x *lang.Extractor, path string) *ecmaFile {
	row, ok, err := env.Snap.Store().FileByPath(ctx, path)
	if err != nil || !ok || !isECMA(row.Lang) {
		return nil
	}
	data, ok := env.read(path)
	l := lang.ByName(row.Lang)
	if !ok || l == nil {
		return nil
	}
	facts, err := env.Snap.Facts(ctx, row.BlobID)
	if err != nil || facts == nil {
		return nil
	}
	v, err := x.Parse(l, data)
	if err != nil || v == nil {
		return nil
	}
	return &ecmaFile{data: data, starts: lang.LineStarts(data), facts: facts, view: v}
}

// bareName reports whether a blob's facts declare a local named name or
// refer to name unqualified, as a shorthand does (read before parsing the
// file).
func (env *Env) bareName(ctx context.Context, blob int64, name string) bool {
	facts, err := env.Snap.Facts(ctx, blob)
	if err != nil || facts == nil {
		return false
	}
	for _, l := range facts.Locals {
		if facts.Names[l.Name] == name {
			return true
		}
	}
	for _, r := range facts.Refs {
		if r.Shape == lang.QualNone && facts.Names[r.Name] == name {
			return true
		}
	}
	return false
}

// shorthandAt classifies the token an edit renames and, for a pattern,
// returns the local it declares (-1 when it declares none the facts know,
// as a module-level destructuring declares a definition).
func (f *ecmaFile) shorthandAt(e Edit, old string) (shorthandKind, int32) {
	if f == nil {
		return notShorthand, -1
	}
	a, b, ok := span(f.starts, len(f.data), e)
	if !ok || string(f.data[a:b]) != old {
		return notShorthand, -1
	}
	for _, n := range f.view.Spanning(a, b) {
		switch f.view.Kind(n) {
		case "shorthand_property_identifier":
			return shorthandObject, -1
		case "shorthand_property_identifier_pattern":
			for i, l := range f.facts.Locals {
				if int(l.Pos.Line) == e.Line && int(l.Pos.Col) == e.Col {
					return shorthandPattern, int32(i)
				}
			}
			return shorthandPattern, -1
		}
	}
	return notShorthand, -1
}

// declares reports whether the file already uses name for something: the
// renamed local could then capture or shadow it.
func (f *ecmaFile) declares(name string) bool {
	for _, n := range f.facts.Names {
		if n == name {
			return true
		}
	}
	for _, d := range f.facts.Defs {
		if d.Name == name {
			return true
		}
	}
	return false
}

// localUses are the edits renaming the uses of a local (the references the
// file binds to it).
func (f *ecmaFile) localUses(decl Edit, local int32, old, name string) []Edit {
	var out []Edit
	for _, r := range f.facts.Refs {
		if r.BindLocal != local || f.facts.Names[r.Name] != old {
			continue
		}
		e := Edit{Path: decl.Path, Line: int(r.Pos.Line), Col: int(r.Pos.Col), EndLine: int(r.Pos.Line), EndCol: int(r.Pos.Col) + len(old),
			Old: old, New: name, Kind: r.Role.String(), Tier: "proven", Layer: decl.Layer}
		if e.Line == decl.Line && e.Col == decl.Col {
			continue
		}
		out = append(out, e)
	}
	return out
}

// What a destructuring of this reads, for a member rename.
const (
	readsUnknown = iota // not this, or a class syntax cannot place
	readsMember         // this of a class the renamed member belongs to (its own, a subclass)
	readsOther          // this of a class whose declared hierarchy is all known and does not have the member
)

// thisReads says whether a pattern's declaration destructures this inside a
// class that has the renamed member (the member's class or one the
// declared hierarchy ties to it: tied), inside a class that cannot have it
// (none of its supertypes is outside the repository or resolved by name
// only), or neither.
func (env *Env) thisReads(ctx context.Context, fileID int64, f *ecmaFile, e Edit, card *query.SymbolCard, tied func() map[protocol.SymbolID]bool) int {
	cls := f.thisClass(e)
	if cls == "" {
		return readsUnknown
	}
	if card.Parent != nil && string(card.Location.Path) == e.Path && cls == card.Parent.Name {
		return readsMember
	}
	rows, err := env.Engine.SymbolsOfFile(ctx, fileID)
	if err != nil {
		return readsUnknown
	}
	var class *store.SymbolRow
	for i := range rows {
		if rows[i].Name == cls && rows[i].Kind == uint8(lang.KindClass) {
			if class != nil {
				return readsUnknown // two classes of that name in the file
			}
			class = &rows[i]
		}
	}
	if class == nil {
		return readsUnknown
	}
	if tied()[protocol.NewSymbolID(class.ID)] {
		return readsMember
	}
	t, err := env.Engine.Load(ctx, *class)
	if err != nil || t == nil {
		return readsUnknown
	}
	h, err := graph.Hierarchy(ctx, env.Engine, t, graph.HierarchyParams{Layer: query.LayerSyntactic})
	if err != nil || len(h.Unknown) > 0 {
		return readsUnknown
	}
	for _, l := range h.Supertypes {
		if !declared(l) {
			return readsUnknown
		}
	}
	return readsOther
}

// thisClass is the name of the class whose this a pattern's declaration
// destructures (const { x } = this in one of its methods), "" when the
// pattern destructures something else or this belongs to a function.
func (f *ecmaFile) thisClass(e Edit) string {
	a, b, _ := span(f.starts, len(f.data), e)
	nodes := f.view.Spanning(a, b)
	if len(nodes) == 0 {
		return ""
	}
	n := f.view.Parent(nodes[len(nodes)-1])
	for n >= 0 && f.view.Kind(n) == "object_pattern" {
		n = f.view.Parent(n)
	}
	if f.view.Kind(n) != "variable_declarator" || f.view.Kind(f.view.Child(n, "value")) != "this" {
		return ""
	}
	for ; n >= 0; n = f.view.Parent(n) {
		switch f.view.Kind(n) {
		case "class_declaration", "class", "abstract_class_declaration":
			return f.view.Text(f.view.Child(n, "name"))
		case "function_declaration", "function_expression", "function":
			return "" // another this
		}
	}
	return ""
}

// shorthandGroup asks about one shorthand the rename reaches, offering the
// edit that keeps both names: the property renamed and the value kept
// (member renames), or the other way round.
func shorthandGroup(card *query.SymbolCard, e Edit, kind shorthandKind, member bool, old, name string) Group {
	e.New = old + ": " + name
	what := "the variable"
	if member {
		e.New = name + ": " + old
		what = "the property"
	}
	syntax := "an object literal's shorthand property"
	if kind == shorthandPattern {
		syntax = "a destructuring shorthand"
	}
	return Group{Key: fmt.Sprintf("shorthand|%s:%d:%d", e.Path, e.Line, e.Col), Receiver: "shorthand", Count: 1, Files: 1, Edits: []Edit{e},
		Description: fmt.Sprintf("%s { %s } at %s:%d names both the property and a variable: renamed as { %s }", syntax, old, e.Path, e.Line, e.New),
		Capsule: Capsule{Kind: "shorthand",
			Question: fmt.Sprintf("Should { %s } at %s:%d become { %s }, renaming %s and keeping the other name?", old, e.Path, e.Line, e.New, what),
			For:      []string{fmt.Sprintf("the token is %s of %s", what, card.QName)},
			Against:  []string{"renaming the token alone would rename the other name too: the property or the variable would no longer exist"},
			VerifyBy: "read the line: which name should change, the property's or the variable's",
			StopRule: "select it to keep the code's meaning; leave it out and rename by hand to change both names"}}
}

// destructuringGroup asks about a destructuring of the renamed property's
// name from a value whose type syntax cannot tell.
func destructuringGroup(card *query.SymbolCard, edits []Edit, old string) Group {
	e := edits[0]
	return Group{Key: fmt.Sprintf("destructuring|%s:%d:%d", e.Path, e.Line, e.Col), Receiver: "destructuring", Count: len(edits), Files: 1, Edits: edits,
		Description: fmt.Sprintf("{ %s } destructured at %s:%d and the %d uses of the local it declares", old, e.Path, e.Line, len(edits)-1),
		Capsule: Capsule{Kind: "receiver_resolution",
			Question: fmt.Sprintf("Is the value destructured at %s:%d a %s (so that { %s } reads %s)?", e.Path, e.Line, ownerName(card), old, card.QName),
			For:      []string{fmt.Sprintf("it reads a property named %s", old)},
			Against:  []string{"the index has no compiler facts for this file: the destructured value's type is not known"},
			VerifyBy: "trace the destructured value back to its type",
			StopRule: "select the group when the value is of the renamed member's type; leave it out otherwise"}}
}
