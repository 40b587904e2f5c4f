package refactor

import (
	"context"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// mergedDeclarations returns, for a type, the constructors that spell its
// name (Java, C#, C++: class Box { Box() {} }), which a rename of the type
// changes with it; and the other declarations of the renamed name in
// the same scope of the same file, for JavaScript and TypeScript: there two
// declarations of one name in one scope are one symbol (TypeScript's
// declaration merging: an interface and the const, class or function of
// the same name, a namespace and a function, overloads, a getter and its
// setter), so a rename changes them all, as tsserver does. The semantic
// and syntactic layers hold them as separate symbols; renaming one alone
// leaves the other's uses naming something that no longer exists.
func (env *Env) mergedDeclarations(ctx context.Context, r *query.Resolved) ([]*query.Resolved, error) {
	var same []store.SymbolRow
	if lang.DefKind(r.Row.Kind).IsTypeLike() {
		ctors, err := env.Engine.Constructors(ctx, r.Row)
		if err != nil {
			return nil, err
		}
		for _, c := range ctors {
			if c.Name == r.Row.Name { // not TypeScript's constructor, which no rename changes
				same = append(same, c)
			}
		}
	}
	if isECMA(r.File.Lang) {
		rows, err := env.Engine.SameScopeDeclarations(ctx, r)
		if err != nil {
			return nil, err
		}
		same = append(same, rows...)
	}
	return env.loadAll(ctx, same)
}

// loadAll loads rows.
func (env *Env) loadAll(ctx context.Context, rows []store.SymbolRow) ([]*query.Resolved, error) {
	var out []*query.Resolved
	for _, row := range rows {
		m, err := env.Engine.Load(ctx, row)
		if err != nil {
			return nil, err
		}
		if m != nil {
			out = append(out, m)
		}
	}
	return out, nil
}
