package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/refactor"
)

// MoveIn are the arguments of refactor_move.
type MoveIn struct {
	From string `json:"from" jsonschema:"the file or directory to move (repo path)"`
	To   string `json:"to" jsonschema:"where it goes (must not exist)"`
	ApplyNow
	Base
}

func init() {
	Register(Tool{
		Name: "refactor_move", Group: "edit", FreshIfPossible: true,
		Summary: "Plan moving or renaming a file or directory with the imports that name it: Go import paths and package clauses (a directory is a package), relative JS/TS specifiers, Python dotted modules. Returns a refactor_id and a status, as refactor_rename.",
		Doc: "Go: moving a directory moves its package (and the packages below it) within the module: every importer's import path changes, and the package clause follows the new directory name when it followed the old one (with the importers' qualifiers); a .go file may only be renamed within its directory. " +
			"JavaScript/TypeScript: relative specifiers of the importers and of the moved files keep their style (with or without extension, .js for .ts, directory index). " +
			"Python: absolute and relative imports of the moved modules, and the dotted uses of import a.b. " +
			"Other languages' imports are not rewritten (Java's imports, C's #include, Ruby's require): a file of theirs that a file staying behind uses is refused. " +
			"Tracked files without uncommitted changes are moved as git mv would (git's index records the rename); others are moved on disk. Files the index does not hold are not moved (a warning names them).",
		When:     []string{"renaming or moving a source file or a package directory"},
		WhenNot:  []string{"renaming a symbol: refactor_rename"},
		Examples: []string{`{"from": "internal/util", "to": "internal/strutil"}`, `{"from": "src/lib/date.ts", "to": "src/time/date.ts"}`},
	}, refactorMove)
}

func refactorMove(ctx context.Context, c *Call, in MoveIn) (*PlanOut, error) {
	if err := c.editsAllowed(); err != nil {
		return nil, err
	}
	p, err := c.refactorEnv().Move(ctx, refactor.MoveRequest{From: in.From, To: in.To})
	if err != nil {
		return nil, err
	}
	return c.planned(ctx, p, "move "+p.From+" to "+p.To, in.ApplyNow)
}
