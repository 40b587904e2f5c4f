package refactor

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/plural"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// groupKey is what makes anchored candidates one decision: the receiver
// shape (ident:x, self, call:f, ...) and the type whose method or body
// holds them. Paths and lines are left out so the key survives edits
// elsewhere in the files.
func groupKey(token string, l query.RefLocation) (receiver, enclosing, key string) {
	receiver = l.Receiver
	if receiver == "" {
		receiver = "bare"
	}
	if i := strings.LastIndexByte(l.Enclosing, '.'); i > 0 {
		enclosing = l.Enclosing[:i]
	}
	return receiver, enclosing, token + "|" + receiver + "|" + enclosing
}

// family groups languages that can refer to each other's symbols.
func family(l string) string {
	if isECMA(l) {
		return "ecma"
	}
	return l
}

// groupAnchored turns anchored references into candidate groups, each with
// its exact edits and a decision capsule. Candidates in files of another
// language family cannot refer to the symbol and are dropped.
//
// A candidate whose receiver is declared with a type the repository does
// not declare (outsideRepo) cannot be the symbol either, unless the symbol
// is an extension function (extended names the type it extends), which may
// extend such a type: it is left out, and the second result says so.
func (env *Env) groupAnchored(ctx context.Context, card *query.SymbolCard, anchored []query.RefLocation, newName string, others []Fact, extended string) ([]Group, string) {
	byKey := map[string]*Group{}
	outside := map[string]int{}       // left-out uses by declared type
	declared := map[string][]string{} // by key: how the receivers are declared
	outsideMemo := map[[2]string]bool{}
	isOutside := func(p, lg, typ string) bool { // one store read per file and type
		k := [2]string{p, typ}
		v, ok := outsideMemo[k]
		if !ok {
			v = env.outsideRepo(ctx, p, lg, typ)
			outsideMemo[k] = v
		}
		return v
	}
	files := map[string]map[string]bool{}
	langOf := map[string]string{}
	for _, l := range anchored {
		p := string(l.Path)
		lg, ok := langOf[p]
		if !ok {
			if row, found, err := env.Snap.Store().FileByPath(ctx, p); err == nil && found {
				lg = row.Lang
			}
			langOf[p] = lg
		}
		if lg != "" && family(lg) != family(card.Language) {
			continue
		}
		e, ok := env.tokenEdit(ctx, l, card.Name, newName)
		if !ok {
			continue
		}
		recv, encl, key := groupKey(card.Name, l)
		typ, line := "", 0
		if kind, name, ok := strings.Cut(recv, ":"); ok && kind == "ident" {
			if typ, line = env.declaredType(ctx, p, name, l.Line, l.Col, l.Enclosing); typ != "" && extended == "" && isOutside(p, lg, typ) {
				outside[typ]++
				continue
			}
		}
		g := byKey[key]
		if g == nil {
			g = &Group{Key: key, Receiver: recv, Enclosing: encl}
			byKey[key] = g
			files[key] = map[string]bool{}
		}
		g.Edits = append(g.Edits, e)
		files[key][p] = true
		if typ != "" {
			_, name, _ := strings.Cut(recv, ":")
			declared[key] = append(declared[key], fmt.Sprintf("%s is declared as %s at %s:%d", name, typ, p, line))
		}
	}
	keys := slices.Sorted(maps.Keys(byKey))
	out := make([]Group, 0, len(keys))
	for i, k := range keys {
		g := byKey[k]
		sortEdits(g.Edits)
		g.ID = fmt.Sprintf("g%d", i+1)
		g.Count, g.Files = len(g.Edits), len(files[k])
		where := ""
		if g.Enclosing != "" {
			where = " inside " + g.Enclosing
		}
		g.Description = fmt.Sprintf("%s of %s%s in %s%s", plural.Count(g.Count, "use", "uses"), receiverText(g.Receiver), card.Name,
			plural.Count(g.Files, "file", "files"), where)
		g.Capsule = capsule(card, g, others, declared[k], extended)
		out = append(out, *g)
	}
	return out, outsideNote(outside)
}

// outsideNote says which uses were left out for a receiver declared with a
// type outside the repository ("" when none were).
func outsideNote(outside map[string]int) string {
	if len(outside) == 0 {
		return ""
	}
	n, types := 0, slices.Sorted(maps.Keys(outside))
	for _, c := range outside {
		n += c
	}
	if len(types) > 5 {
		types = append(types[:5], "...")
	}
	return fmt.Sprintf("left out %s of the same name through receivers declared with types the repository does not declare (%s): a member read through them is that type's",
		plural.Count(n, "use", "uses"), strings.Join(types, ", "))
}

// staticLangs are the languages whose member reads resolve by the
// receiver's declared type (TypeScript's checker holds a binding to the
// type it declares; JavaScript and Python do not).
var staticLangs = map[string]bool{"java": true, "kotlin": true, "csharp": true, "rust": true, "typescript": true}

// outsideRepo reports whether typ, the declared type of a receiver in file
// p, is one the repository does not declare (String, List<T>, Vec): a
// member read through it is a member of that type, not of the symbol; a
// repository method it could dispatch to overrides one of that type's,
// which a rename refuses. A name that the file also binds as a local (a
// type parameter) could be any type, and one an import aliases names
// another: neither is outside.
func (env *Env) outsideRepo(ctx context.Context, p, lg, typ string) bool {
	if !staticLangs[lg] || !(lang.IsIdentifier(typ) || lang.IsDottedPath(typ) || lang.IsDottedPath(strings.ReplaceAll(typ, "::", "."))) {
		return false // a union, an array, a pattern place: not one named type
	}
	name := typ[strings.LastIndexAny(typ, ".:")+1:]
	if name == "" || name == "Self" {
		return false
	}
	ix, err := env.load(ctx, p)
	if err != nil || ix == nil || ix.facts == nil {
		return false
	}
	f, first := ix.facts, typ[:strings.IndexAny(typ+".:", ".:")]
	if slices.ContainsFunc(f.Locals, func(l lang.Local) bool { return f.Names[l.Name] == name }) ||
		slices.ContainsFunc(f.Imports, func(im lang.Import) bool { return im.Alias != "" && im.Alias == first }) {
		return false // a type parameter, or a type imported under another name
	}
	rows, err := env.Snap.Store().SymbolsByName(ctx, name)
	if err != nil {
		return false
	}
	return !slices.ContainsFunc(rows, func(r store.SymbolRow) bool { return lang.DefKind(r.Kind).IsTypeLike() })
}

// receiverText renders a receiver shape as code: ident:x -> "x.".
func receiverText(shape string) string {
	kind, text, _ := strings.Cut(shape, ":")
	switch kind {
	case "bare":
		return ""
	case "self":
		return "self."
	case "ident", "path", "type":
		return text + "."
	case "call":
		if strings.HasSuffix(text, ")") {
			return text + "."
		}
		return text + "()."
	}
	return "<expr>."
}

// declaredType finds the type written for the nearest binding of name
// before a position in a file (a parameter, var x T, x := T{...}), else
// for the field of that name of the types around the use (enclosing, the
// path of the definition holding it), innermost first.
func (env *Env) declaredType(ctx context.Context, p, name string, line, col int, enclosing string) (string, int) {
	ix, err := env.load(ctx, p)
	if err != nil || ix == nil || ix.facts == nil {
		return "", 0
	}
	f := ix.facts
	best := -1
	for i, l := range f.Locals {
		if f.Names[l.Name] != name || int(l.Pos.Line) > line || (int(l.Pos.Line) == line && int(l.Pos.Col) >= col) {
			continue
		}
		if best < 0 || f.Locals[best].Pos.Before(l.Pos) {
			best = i
		}
	}
	if best < 0 {
		return fieldType(f, name, enclosing)
	}
	if f.Locals[best].Type == "" || strings.HasPrefix(f.Locals[best].Type, "#") || strings.ContainsAny(f.Locals[best].Type, "({") {
		// none, or a place in a pattern (Rust's Ast::Literal(0), Group{concat})
		return "", 0
	}
	return f.Locals[best].Type, int(f.Locals[best].Pos.Line)
}

// fieldType is the declared type of field name of the innermost type of
// the file whose path encloses the definition at path enclosing.
func fieldType(f *lang.Facts, name, enclosing string) (string, int) {
	for outer := enclosing; outer != ""; {
		i := strings.LastIndexByte(outer, '.')
		if i < 0 {
			break
		}
		outer = outer[:i]
		for _, d := range f.Defs {
			if d.Name == name && (d.Kind == lang.KindField || d.Kind == lang.KindProperty) && d.Path == outer+"."+name {
				if d.Type == "" {
					return "", 0
				}
				return d.Type, int(d.Span.Start.Line)
			}
		}
	}
	return "", 0
}

// article puts "a" or "an" before a type's name, as it most often sounds:
// an Impl, a Server, a User (U as in "you").
func article(name string) string {
	if name != "" && strings.ContainsRune("AEIOaeio", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}

// capsule states the decision a group asks for: what would make its uses
// the symbol's, and what speaks for and against it. An extension function
// (extended: the type it extends) is asked about as a member of that type.
func capsule(card *query.SymbolCard, g *Group, others []Fact, declared []string, extended string) Capsule {
	owner := cmp.Or(extended, ownerName(card))
	c := Capsule{Kind: "receiver_resolution", For: []string{}, Against: []string{},
		StopRule: fmt.Sprintf("select the group when the receiver's type is %s (or a type that embeds or implements it); leave it out for any other type", owner)}
	recv := receiverText(g.Receiver)
	c.Question = fmt.Sprintf("Is %s in %s %s, so that %s%s is %s?", strings.TrimSuffix(recv, "."), these(g.Count), article(owner), recv, card.Name, card.QName)
	if card.Parent == nil && extended == "" {
		owner = "the module " + string(card.Location.Path)
		c.Question = fmt.Sprintf("Does %s in %s name %s, so that %s%s is %s?", strings.TrimSuffix(recv, "."), these(g.Count), owner, recv, card.Name, card.QName)
		c.StopRule = "select the group when the qualifier is the defining module (imported under that name); leave it out for any other value"
	}
	if g.Receiver == "bare" {
		c.Kind = "scope_resolution"
		c.Question = fmt.Sprintf("Does the bare name %s in %s refer to %s (not to another definition in scope)?", card.Name, these(g.Count), card.QName)
		c.StopRule = "select the group when the first definition of the name visible from the uses (imports, enclosing scopes) is this symbol"
		c.VerifyBy = "read the exemplars' imports and enclosing scopes for another definition of the name"
	} else {
		c.VerifyBy = fmt.Sprintf("read the exemplars and follow %s back to its declaration, parameter type or assignment", strings.TrimSuffix(recv, "."))
	}
	c.For = append(c.For, fmt.Sprintf("the same name %s, used as a member the way %s is", card.Name, card.QName))
	if g.Enclosing != "" && card.Parent != nil && g.Enclosing == card.Parent.Name {
		c.For = append(c.For, fmt.Sprintf("the uses are inside %s's own methods", owner))
	}
	if _, name, ok := strings.Cut(g.Receiver, ":"); ok && owner != "" && strings.Contains(strings.ToLower(owner), strings.ToLower(name)) {
		c.For = append(c.For, fmt.Sprintf("the receiver %s is named like a %s", name, owner))
	}
	if g.Receiver == "self" {
		if card.Parent != nil && g.Enclosing == card.Parent.Name {
			c.For = append(c.For, "self/this inside the owning class")
		} else {
			c.Against = append(c.Against, "self/this inside another class: it would be that class's member unless it inherits "+owner)
		}
	}
	for _, d := range firstByKey(declared, func(d string) string { return d }) {
		typ := d[strings.Index(d, " is declared as ")+len(" is declared as "):]
		typ = typ[:strings.Index(typ, " at ")]
		if typ == owner || strings.HasSuffix(typ, "."+owner) {
			c.For = append(c.For, d)
		} else {
			c.Against = append(c.Against, d+", not "+owner)
		}
	}
	inFiles := map[string]bool{}
	for _, e := range g.Edits {
		inFiles[e.Path] = true
	}
	var list []string
	for _, o := range others {
		if o.Type != "other_definition" {
			continue
		}
		list = append(list, fmt.Sprintf("%s (%s:%d)", o.Symbol, o.Path, o.Line))
		if inFiles[o.Path] {
			c.Against = append(c.Against, fmt.Sprintf("another %s is defined in the same file: %s at %s:%d", card.Name, o.Symbol, o.Path, o.Line))
		}
	}
	if len(list) == 0 {
		c.For = append(c.For, "no other definition of "+card.Name+" in the repository: only a type from outside it (a dependency, the standard library) could own the member instead")
	} else {
		if len(list) > 3 {
			list = list[:3]
		}
		c.Against = append(c.Against, fmt.Sprintf("other definitions named %s in the repository: %s", card.Name, strings.Join(list, "; ")))
	}
	c.Against = append(c.Against, "the index could not link these uses to any definition: their receiver's type is not written where they are")
	return c
}

// these renders "this use" or "these N uses".
func these(n int) string {
	if n == 1 {
		return "this use"
	}
	return "these " + plural.Count(n, "use", "uses")
}
