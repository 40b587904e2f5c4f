package refactor

import (
	"context"
	"fmt"
	"sort"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
)

// maxMoveChecks bounds the symbols whose uses a move looks for in files of
// languages whose imports it does not rewrite.
const maxMoveChecks = 500

// rewritesImports reports whether a move rewrites what names a file of
// this language (move_go.go, move_ecma.go, move_py.go).
func rewritesImports(language string) bool {
	return language == "go" || language == "python" || isECMA(language)
}

// checkUnrewritten refuses a move of a code file whose language's imports
// a move does not rewrite (Java's package and imports, C's #include, Ruby's
// require) while a file staying where it is uses one of its top-level
// symbols: moving it would break that file without a word.
func (env *Env) checkUnrewritten(ctx context.Context, ms moveSet) error {
	files := make([]string, 0, len(ms))
	for f := range ms {
		files = append(files, f)
	}
	sort.Strings(files)
	checked := 0
	for _, f := range files {
		ix, err := env.load(ctx, f)
		if err != nil {
			return err
		}
		if ix == nil || lang.Of(ix.row.Lang).Linker == nil || rewritesImports(ix.row.Lang) {
			continue // not code another file can use, or a language a move rewrites
		}
		rows, err := env.Engine.SymbolsOfFile(ctx, ix.row.ID)
		if err != nil {
			return err
		}
		for _, row := range rows {
			if row.Parent != 0 {
				continue
			}
			if checked++; checked > maxMoveChecks {
				return nil
			}
			r, err := env.Engine.Load(ctx, row)
			if err != nil {
				return err
			}
			if r == nil {
				continue
			}
			refs, err := env.Engine.Refs(ctx, r, query.RefsParams{Limit: 100})
			if err != nil {
				return err
			}
			for _, l := range refs.Locations {
				if _, moved := ms[string(l.Path)]; !moved {
					return &errs.Error{Kind: errs.Precondition, Path: f,
						Msg: fmt.Sprintf("cannot move %s: a move rewrites what names a file only in Go, JavaScript, TypeScript and Python, and %s:%d uses %s, defined there, through %s's imports or includes, which would still name the old place",
							f, l.Path, l.Line, row.QName, ix.row.Lang),
						Details: map[string]any{"reason": "imports_not_rewritten", "used_at": fmt.Sprintf("%s:%d", l.Path, l.Line)},
						Fixes:   []string{"move the file and edit what names it in one write_source batch", "or move it together with the files that use it"}}
				}
			}
		}
	}
	return nil
}
