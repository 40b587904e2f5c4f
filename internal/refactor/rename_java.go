package refactor

import (
	"context"
	"path"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
)

// javaFileMove is the move a rename of a Java top-level type needs when
// its file is named after it: javac wants a public top-level class in the
// file of its name, so Box.java becomes Crate.java with the class. nil
// for any other symbol or file.
func (env *Env) javaFileMove(ctx context.Context, r *query.Resolved, newName string) (*Move, error) {
	if r.File.Lang != "java" || r.Def == nil || r.Def.Parent >= 0 || !lang.DefKind(r.Row.Kind).IsTypeLike() {
		return nil, nil
	}
	dir, base := path.Split(r.File.Path)
	if base != r.Row.Name+".java" {
		return nil, nil
	}
	to := dir + newName + ".java"
	if env.exists(to) {
		return nil, &errs.Error{Kind: errs.Precondition, Path: to,
			Msg:     "cannot rename " + r.Row.QName + ": its file would become " + to + ", which already exists",
			Details: map[string]any{"reason": "target_exists"}}
	}
	ok, why := env.gitTrackedClean(ctx, r.File.Path)
	return &Move{From: r.File.Path, To: to, GitMV: ok, Reason: why}, nil
}
