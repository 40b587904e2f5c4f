package refactor

import (
	"context"
	"fmt"
	"path"
	"sort"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lang"
)

// changedInterfaces lists the Go interfaces declared in the repository
// whose method sets a rename's edits change (an edit that renames a method
// of an interface type), as "dir/Name".
func (env *Env) changedInterfaces(ctx context.Context, edits []Edit) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range edits {
		if e.Kind != "definition" || path.Ext(e.Path) != ".go" {
			continue
		}
		ix, err := env.load(ctx, e.Path)
		if err != nil || ix == nil || ix.facts == nil {
			continue
		}
		d := defAt(ix.facts, e.Line, e.Col)
		if d == nil || d.Parent < 0 || ix.facts.Defs[d.Parent].Kind != lang.KindInterface {
			continue
		}
		k := path.Dir(e.Path) + "/" + ix.facts.Defs[d.Parent].Name
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// proveInterfaceRename asks the compiler about a Go rename that changes an
// interface's method set. The index only sees the repository: a type
// declared in a dependency or the standard library that the code uses as
// the interface (sse.Event passed as a render.Render) implements it through
// a method the rename cannot change, and no reference the index holds says
// so. The renamed code is built (go build -overlay, nothing written) over
// the changed packages and the direct importers of each interface's
// package, where such uses are; a compile error refuses the plan with the
// compiler's diagnostics, as gopls refuses the rename.
func (env *Env) proveInterfaceRename(ctx context.Context, p *Plan, from string) error {
	ifaces := env.changedInterfaces(ctx, p.Edits)
	if len(ifaces) == 0 {
		return nil
	}
	if _, ok := toolchain(env.Paths.Root, "go"); !ok {
		p.Warnings = append(p.Warnings, fmt.Sprintf("the rename changes the method set of %v: a type outside the repository used as it would stop implementing it, and without the go toolchain that was not checked", ifaces))
		return nil
	}
	changes, _, err := env.contents(p, p.Edits)
	if err != nil {
		return err
	}
	var dirs []string
	for _, k := range ifaces {
		dirs = append(dirs, path.Dir(k))
	}
	rep := Verify(ctx, VerifyRequest{Root: env.Paths.Root, Changes: changes, GoPackages: append(dirs, env.GoImporters(ctx, dirs)...), BuildOnly: true})
	if err := ctx.Err(); err != nil {
		return &errs.Error{Kind: errs.Timeout, Err: err,
			Msg:   fmt.Sprintf("the rename of %s changes the method set of %v; building the renamed code to check that every type used as it still implements it did not finish within the deadline", from, ifaces),
			Fixes: []string{"repeat with a larger timeout_ms"}}
	}
	if rep.OK {
		return nil
	}
	msg := fmt.Sprintf("cannot rename %s: it changes the method set of %v, and the renamed code does not compile", from, ifaces)
	if len(rep.Diagnostics) > 0 {
		d := rep.Diagnostics[0]
		msg += fmt.Sprintf(": %s:%d: %s", d.Path, d.Line, d.Message)
	}
	return &errs.Error{Kind: errs.Precondition,
		Msg:     msg + " (most often a type from outside the repository, which no rename here can change, is used as the interface)",
		Details: map[string]any{"reason": "interface_use_outside", "interfaces": ifaces, "verify": rep},
		Fixes:   []string{"keep the name, or stop using the outside type as the interface first"}}
}
