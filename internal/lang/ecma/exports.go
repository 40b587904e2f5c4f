package ecma

import (
	"context"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// A module exports one definition as a whole: export default class Foo
// {...}, export default function f() {...}, export default foo, TypeScript's
// export = foo, or CommonJS's module.exports = foo. import Foo from "./m"
// and const Foo = require("./m") bind that definition (link.go). An
// anonymous default (export default class extends Base {...}) is none.

// defaultExport records the module's default export in f.DefaultExport.
func defaultExport(v *lang.View, f *lang.Facts) {
	root := v.Root()
	for _, n := range langutil.Children(v, root) {
		def := int32(-1)
		switch v.Kind(n) {
		case "export_statement":
			def = exportedAsDefault(v, f, n)
		case "expression_statement":
			def = assignedToModule(v, f, langutil.ChildOfKind(v, n, "assignment_expression"))
		}
		if def >= 0 {
			f.DefaultExport = def + 1 // the last statement wins, as at run time
		}
	}
}

// exportedAsDefault is the definition an export default (or export =)
// statement exports, or -1.
func exportedAsDefault(v *lang.View, f *lang.Facts, n int) int32 {
	text := v.Text(n)
	if !strings.HasPrefix(text, "export default") && !strings.HasPrefix(text, "export =") {
		return -1
	}
	if d := langutil.Child(v, n, "declaration"); d >= 0 {
		if name := langutil.Child(v, d, "name"); name >= 0 {
			return defNamedAt(f, v.Start(name))
		}
		return -1
	}
	for _, c := range langutil.Children(v, n) {
		switch v.Kind(c) {
		case "identifier":
			return topValue(f, v.Text(c))
		case "class", "function_expression", "function":
			if name := langutil.Child(v, c, "name"); name >= 0 {
				return defNamedAt(f, v.Start(name))
			}
		}
	}
	return -1
}

// assignedToModule is the definition module.exports = X assigns, or -1.
func assignedToModule(v *lang.View, f *lang.Facts, a int) int32 {
	if a < 0 {
		return -1
	}
	left, right := langutil.Child(v, a, "left"), langutil.Child(v, a, "right")
	if left < 0 || right < 0 || v.Text(left) != "module.exports" || v.Kind(right) != "identifier" {
		return -1
	}
	return topValue(f, v.Text(right))
}

// defNamedAt is the definition whose name starts at p, or -1.
func defNamedAt(f *lang.Facts, p lang.Pos) int32 {
	for i, d := range f.Defs {
		if d.NameSpan.Start == p {
			return int32(i)
		}
	}
	return -1
}

// topValue is the first top-level definition of the name that is a value
// (an interface of the same name is no export of a value), or -1.
func topValue(f *lang.Facts, name string) int32 {
	for i, d := range f.Defs {
		if d.Parent < 0 && d.Name == name && !isTypeKind(d.Kind) {
			return int32(i)
		}
	}
	return -1
}

// exportedName is the top-level name that an import binds in the module it
// resolves to (file): the name it imports, or the name of the module's
// default export for import X from and const X = require(); ok is false
// for a namespace import and for a module with no default export.
func (l *batch) exportedName(ctx context.Context, im lang.Import, file string) (string, bool) {
	switch {
	case im.Kind == lang.ImportNamed:
		return im.Name, true
	case im.Kind == lang.ImportDefault, im.Kind == lang.ImportModule && im.Alias != "":
		return l.defaultName(ctx, file)
	}
	return "", false
}

// defaultName is the name of a module's default export, memoised per file.
func (l *batch) defaultName(ctx context.Context, file string) (string, bool) {
	if n, ok := l.defaults[file]; ok {
		return n, n != ""
	}
	n := ""
	if facts := l.R.Facts(ctx, file); facts != nil && facts.DefaultExport > 0 && int(facts.DefaultExport) <= len(facts.Defs) {
		n = facts.Defs[facts.DefaultExport-1].Name
	}
	l.defaults[file] = n
	return n, n != ""
}
