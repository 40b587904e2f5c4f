package refactor

import (
	"context"
	"fmt"
	"path"
	"sort"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/graph"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/plural"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
)

// maxFamilyGroups bounds the other methods of the same name a syntactic Go
// method rename offers as groups; past it the rename is refused.
const maxFamilyGroups = 64

// methodFamily returns, for a Go, JavaScript or TypeScript method renamed
// without the semantic layer (or a JavaScript or TypeScript property: only
// the properties of its name its declared hierarchy ties, certain), one candidate group per other method of the
// same name in the repository (in the language family): its declaration
// and its references. Syntax cannot tell which of them are tied to the
// renamed one by an interface (an interface method and the methods
// implementing it must change together, or every type used as the
// interface stops implementing it) or, in JavaScript and TypeScript, by
// overriding (tsserver renames a method with its overrides along the class
// hierarchy), so each is a decision — except, in JavaScript and
// TypeScript, the methods of the types the declared class hierarchy ties
// to the renamed one's (declaredFamily), whose edits are returned as
// certain. merged are the renamed method's own other declarations
// (overloads), renamed with it. With the semantic layer the family is
// known (Refs with Family) and none is asked.
func (env *Env) methodFamily(ctx context.Context, card *query.SymbolCard, r *query.Resolved, merged map[int64]bool, semantic string, newName string) ([]Group, []Edit, error) {
	fam := query.LangFamily(card.Language)
	property := fam == "ecma" && (card.Kind == lang.KindProperty.String() || card.Kind == lang.KindField.String())
	if (card.Language != "go" && fam != "ecma") || (card.Kind != lang.KindMethod.String() && !property) || semantic == "used" || semantic == "partial" {
		return nil, nil, nil
	}
	if query.StaticMember(r) {
		return nil, nil, nil // statics are not dispatched: no other method is tied to one
	}
	rows, err := env.Snap.Store().SymbolsByName(ctx, card.Name)
	if err != nil {
		return nil, nil, err
	}
	var tied map[protocol.SymbolID]bool
	if fam == "ecma" {
		if tied, err = env.declaredFamily(ctx, r, card.Name); err != nil {
			return nil, nil, err
		}
	}
	// An unexported method name belongs to its package: an interface that
	// declares it can be implemented only by that package's types, so the
	// methods of the same name in other packages are never tied to it.
	local := card.Language == "go" && !isExported(card.Name)
	dir, pkg := path.Dir(string(card.Location.Path)), ""
	if local {
		if row, ok, err := env.Snap.Store().FileByPath(ctx, string(card.Location.Path)); err == nil && ok {
			pkg = row.Pkg
		}
	}
	var others []*query.Resolved
	for _, row := range rows {
		if !graph.SameMember(r.Row, row) || protocol.NewSymbolID(row.ID) == card.ID || merged[row.ID] {
			continue
		}
		o, err := env.Engine.ResolveID(ctx, protocol.NewSymbolID(row.ID))
		if err != nil || query.LangFamily(o.File.Lang) != fam || query.StaticMember(o) {
			continue
		}
		if local && (path.Dir(o.File.Path) != dir || o.File.Pkg != pkg) {
			continue
		}
		others = append(others, o)
	}
	var certain []Edit
	undecided := others[:0:0]
	for _, o := range others {
		if !tied[protocol.NewSymbolID(o.Row.Parent)] {
			undecided = append(undecided, o)
			continue
		}
		refs, err := env.Engine.Refs(ctx, o, query.RefsParams{Limit: maxRefs})
		if err != nil {
			return nil, nil, err
		}
		for _, l := range refs.Locations {
			if e, ok := env.tokenEdit(ctx, l, card.Name, newName); ok {
				certain = append(certain, e)
			}
		}
	}
	if property {
		// the properties no declared hierarchy ties stay structuralFamily's
		return nil, certain, nil
	}
	others = undecided
	if len(others) > maxFamilyGroups {
		return nil, nil, &errs.Error{Kind: errs.Precondition,
			Msg: fmt.Sprintf("cannot rename %s from syntax alone: %d other methods are named %s, and syntax cannot tell which of them an interface or a class hierarchy ties to it",
				card.QName, len(others), card.Name),
			Details: map[string]any{"reason": "method_family_unknown", "methods": len(others)},
			Fixes:   []string{"cairn index --semantic (the compiler's index knows which methods implement which interfaces), then plan again"}}
	}
	out, err := env.memberGroups(ctx, card, others, newName)
	return out, certain, err
}

// memberGroups is the memberGroup of each other member, by key.
func (env *Env) memberGroups(ctx context.Context, card *query.SymbolCard, others []*query.Resolved, newName string) ([]Group, error) {
	var out []Group
	for _, o := range others {
		g, ok, err := env.memberGroup(ctx, card, o, newName)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, g)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
}

// memberGroup is the candidate group of another member of the renamed
// one's name: its declaration and its references, renamed with it when an
// interface, a class hierarchy or (JavaScript, TypeScript) a structural
// match ties them.
func (env *Env) memberGroup(ctx context.Context, card *query.SymbolCard, o *query.Resolved, newName string) (Group, bool, error) {
	ref := o.Ref()
	refs, err := env.Engine.Refs(ctx, o, query.RefsParams{Limit: maxRefs})
	if err != nil {
		return Group{}, false, err
	}
	g := Group{Key: "method_family|" + ref.QName, Receiver: "method_family", Enclosing: ownerOf(ref.QName)}
	files := map[string]bool{}
	for _, l := range refs.Locations {
		if e, ok := env.tokenEdit(ctx, l, card.Name, newName); ok {
			g.Edits = append(g.Edits, e)
			files[e.Path] = true
		}
	}
	if len(g.Edits) == 0 {
		return g, false, nil
	}
	sortEdits(g.Edits)
	g.Count, g.Files = len(g.Edits), len(files)
	g.Description = fmt.Sprintf("the %s %s (declaration and %s) in %s: renamed with %s when an interface or a class hierarchy ties them",
		ref.Kind, ref.QName, plural.Count(g.Count-1, "reference", "references"), plural.Count(g.Files, "file", "files"), card.QName)
	g.Capsule = Capsule{Kind: "implementation",
		Question: fmt.Sprintf("Is %s tied to %s by an interface (one declares the member, the other's type is used as that interface) or by overriding, so that both must be renamed?", ref.QName, card.QName),
		For:      []string{fmt.Sprintf("the same member name %s", card.Name)},
		Against:  []string{"the index has no compiler facts that tie or separate them: which types are used as which interfaces is not known"},
		VerifyBy: "find where the types are assigned, passed or returned as a type declaring " + card.Name + " (or run cairn index --semantic and plan again)",
		StopRule: "select the group when leaving it out would make a type stop implementing an interface it is used as; leave it out otherwise"}
	return g, true, nil
}

// structuralFamily returns, for a public JavaScript or TypeScript member,
// one candidate group per other public member of its name the plan does
// not rename already (edits and groups so far). TypeScript types match by
// structure: a class whose method is renamed stops matching every
// interface or type literal it was used as that declares the old name,
// without any declared relation (which the semantic layer's relationships
// and the declared hierarchy follow) saying so; tsserver leaves those
// members alone, and the code no longer compiles. Private and protected
// members take part in no structural match, statics in none that tsserver
// or the compiler ties.
func (env *Env) structuralFamily(ctx context.Context, card *query.SymbolCard, r *query.Resolved, p *Plan, merged map[int64]bool, newName string) ([]Group, error) {
	public := func(o *query.Resolved) bool {
		return o.Def != nil && o.Def.Visibility == lang.VisPublic && memberKinds[lang.DefKind(o.Row.Kind).String()] && !query.StaticMember(o)
	}
	if query.LangFamily(card.Language) != "ecma" || !public(r) {
		return nil, nil
	}
	covered := map[[3]any]bool{}
	for _, e := range p.Edits {
		covered[[3]any{e.Path, e.Line, e.Col}] = true
	}
	for _, g := range p.Groups {
		for _, e := range g.Edits {
			covered[[3]any{e.Path, e.Line, e.Col}] = true
		}
	}
	rows, err := env.Snap.Store().SymbolsByName(ctx, card.Name)
	if err != nil {
		return nil, err
	}
	var others []*query.Resolved
	for _, row := range rows {
		if row.ID == r.Row.ID || merged[row.ID] || !memberKinds[lang.DefKind(row.Kind).String()] {
			continue
		}
		o, err := env.Engine.Load(ctx, row)
		if err != nil {
			return nil, err
		}
		if o == nil || o.Def == nil || query.LangFamily(o.File.Lang) != "ecma" || !public(o) {
			continue
		}
		if covered[[3]any{o.File.Path, int(o.Def.NameSpan.Start.Line), int(o.Def.NameSpan.Start.Col)}] {
			continue
		}
		others = append(others, o)
	}
	if len(others) > maxFamilyGroups {
		return nil, &errs.Error{Kind: errs.Precondition,
			Msg: fmt.Sprintf("cannot rename %s: %d other members are named %s, and no index can tell which of them a structural match ties to it",
				card.QName, len(others), card.Name),
			Details: map[string]any{"reason": "member_family_unknown", "members": len(others)},
			Fixes:   []string{"rename by hand with the compiler's help"}}
	}
	return env.memberGroups(ctx, card, others, newName)
}

// ownerOf is the part of a qualified member name before its last dot.
func ownerOf(qname string) string {
	for i := len(qname) - 1; i >= 0; i-- {
		if qname[i] == '.' {
			return qname[:i]
		}
	}
	return ""
}
