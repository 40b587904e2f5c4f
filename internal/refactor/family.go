package refactor

import (
	"context"
	"fmt"
	"path"
	"sort"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/plural"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
)

// maxFamilyGroups bounds the other methods of the same name a syntactic Go
// method rename offers as groups; past it the rename is refused.
const maxFamilyGroups = 64

// methodFamily returns, for a Go method renamed without the semantic layer,
// one candidate group per other method of the same name in the repository:
// its declaration and its references. Syntax cannot tell which of them are
// tied to the renamed one by an interface (an interface method and the
// methods implementing it must change together, or every type used as the
// interface stops implementing it), so each is a decision. With the
// semantic layer the family is known (Refs with Family) and none is asked.
func (env *Env) methodFamily(ctx context.Context, card *query.SymbolCard, semantic string, newName string) ([]Group, error) {
	if card.Language != "go" || card.Kind != lang.KindMethod.String() || semantic == "used" || semantic == "partial" {
		return nil, nil
	}
	rows, err := env.Snap.Store().SymbolsByName(ctx, card.Name)
	if err != nil {
		return nil, err
	}
	// An unexported method name belongs to its package: an interface that
	// declares it can be implemented only by that package's types, so the
	// methods of the same name in other packages are never tied to it.
	local := !isExported(card.Name)
	dir, pkg := path.Dir(string(card.Location.Path)), ""
	if local {
		if row, ok, err := env.Snap.Store().FileByPath(ctx, string(card.Location.Path)); err == nil && ok {
			pkg = row.Pkg
		}
	}
	var others []*query.Resolved
	for _, row := range rows {
		if row.Kind != uint8(lang.KindMethod) || protocol.NewSymbolID(row.ID) == card.ID {
			continue
		}
		r, err := env.Engine.ResolveID(ctx, protocol.NewSymbolID(row.ID))
		if err != nil || r.File.Lang != "go" {
			continue
		}
		if local && (path.Dir(r.File.Path) != dir || r.File.Pkg != pkg) {
			continue
		}
		others = append(others, r)
	}
	if len(others) > maxFamilyGroups {
		return nil, &errs.Error{Kind: errs.Precondition,
			Msg: fmt.Sprintf("cannot rename %s from syntax alone: %d other Go methods are named %s, and syntax cannot tell which of them an interface ties to it",
				card.QName, len(others), card.Name),
			Details: map[string]any{"reason": "method_family_unknown", "methods": len(others)},
			Fixes:   []string{"cairn index --semantic (the compiler's index knows which methods implement which interfaces), then plan again"}}
	}
	var out []Group
	for _, r := range others {
		ref := r.Ref()
		refs, err := env.Engine.Refs(ctx, r, query.RefsParams{Limit: maxRefs})
		if err != nil {
			return nil, err
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
			continue
		}
		sortEdits(g.Edits)
		g.Count, g.Files = len(g.Edits), len(files)
		g.Description = fmt.Sprintf("the method %s (declaration and %s) in %s: renamed with %s when an interface ties them",
			ref.QName, plural.Count(g.Count-1, "reference", "references"), plural.Count(g.Files, "file", "files"), card.QName)
		g.Capsule = Capsule{Kind: "implementation",
			Question: fmt.Sprintf("Is %s tied to %s by an interface (one declares the method, the other's type is used as that interface), so that both must be renamed?", ref.QName, card.QName),
			For:      []string{fmt.Sprintf("the same method name %s", card.Name)},
			Against:  []string{"the index has no compiler facts for these files: which types implement which interfaces is not known"},
			VerifyBy: "find where the types are assigned, passed or returned as an interface declaring " + card.Name + " (or run cairn index --semantic and plan again)",
			StopRule: "select the group when leaving it out would make a type stop implementing an interface it is used as; leave it out otherwise"}
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
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
