package refactor

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// An import that names a function by name names all its overloads: Kotlin's
// import a.f, Java's import static a.C.f. Renaming one of them leaves the
// others needing that import, and the renamed one needing one of its own.

// keepSharedImports turns the renaming of such an import, and its absence
// beside a renamed call, into a copy of the import naming the new name, on
// the line after it, in every file the plan edits; the import itself stays.
// An aliased import is refused: its alias would have to name both.
func (env *Env) keepSharedImports(ctx context.Context, r *query.Resolved, p *Plan, old, name string) error {
	if !lang.Of(r.File.Lang).Overloads {
		return nil
	}
	rows, err := env.Engine.SymbolsByQName(ctx, r.Row.QName)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(rows, func(o store.SymbolRow) bool { return o.ID != r.Row.ID && o.Kind == r.Row.Kind }) {
		return nil
	}
	files := map[string]bool{}
	for _, e := range p.Edits {
		files[e.Path] = true
	}
	for _, f := range slices.Sorted(maps.Keys(files)) {
		if err := env.keepImportsIn(ctx, f, r.Row.QName, p, old, name); err != nil {
			return err
		}
	}
	return nil
}

// keepImportsIn keeps the imports of file f that name qname.
func (env *Env) keepImportsIn(ctx context.Context, f, qname string, p *Plan, old, name string) error {
	ix, err := env.load(ctx, f)
	if err != nil || ix == nil || ix.facts == nil {
		return err
	}
	data, ok := env.read(f)
	if !ok {
		return nil // gone: the gate blocks the plan
	}
	starts := lang.LineStarts(data)
	for _, im := range ix.facts.Imports {
		if im.Kind != lang.ImportNamed || im.Source == "" || im.Source+"."+im.Name != qname {
			continue
		}
		line := int(im.Pos.Line)
		if im.Alias != "" {
			return &errs.Error{Kind: errs.Precondition, Path: f,
				Msg: fmt.Sprintf("cannot rename %s alone: %s:%d imports it with its overloads as %s, and that name cannot stand for both",
					qname, f, line, im.Alias),
				Details: map[string]any{"reason": "overloaded", "path": f, "line": line},
				Fixes:   []string{"import the overloads apart (one under the alias, one by name), then rename"}}
		}
		if line < 1 || line > len(starts) {
			continue
		}
		end := len(data)
		if i := bytes.IndexByte(data[starts[line-1]:], '\n'); i >= 0 {
			end = starts[line-1] + i
		}
		stmt := data[starts[line-1]:end]
		at := lastNameIn(stmt, old)
		if at < 0 {
			continue
		}
		p.Edits = slices.DeleteFunc(p.Edits, func(e Edit) bool { return e.Path == f && e.Line == line && e.Kind == "import" })
		copied := string(stmt[:at]) + name + string(stmt[at+len(old):])
		p.Edits = append(p.Edits, editAt(f, starts, end, "", "\n"+copied, "import"))
	}
	return nil
}

// lastNameIn is the offset of the last occurrence of name in stmt that
// stands as a whole identifier after a dot, or -1.
func lastNameIn(stmt []byte, name string) int {
	for end := len(stmt); ; {
		i := bytes.LastIndex(stmt[:end], []byte("."+name))
		if i < 0 {
			return -1
		}
		after := i + 1 + len(name)
		if after == len(stmt) || !lang.IsIdentRune(rune(stmt[after])) {
			return i + 1
		}
		end = i
	}
}
