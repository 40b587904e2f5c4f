package python

import (
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// exportList adds the names a module's __all__ lists as references of the
// definitions and imports they name: __all__ = ['Field', 'CharField'] (a
// list or tuple of plain strings, assigned or extended with +=) exports
// Field and CharField, and a rename of Field must change the string too.
// A string that names nothing of the module stays a string.
func exportList(v *lang.View, f *lang.Facts) {
	var top map[string]int32
	var imports map[string]int32
	var names *lang.NameTable
	for _, st := range langutil.Children(v, v.Root()) {
		if v.Kind(st) != "expression_statement" {
			continue
		}
		for _, a := range langutil.Children(v, st) {
			if k := v.Kind(a); k != "assignment" && k != "augmented_assignment" {
				continue
			}
			left, right := langutil.Child(v, a, "left"), langutil.Child(v, a, "right")
			if v.Kind(left) != "identifier" || v.Text(left) != "__all__" || (v.Kind(right) != "list" && v.Kind(right) != "tuple") {
				continue
			}
			if top == nil {
				top, imports, names = f.TopDefs(), f.ImportByName(), lang.NewNameTable(f)
			}
			for _, s := range langutil.Children(v, right) {
				content := plainString(v, s)
				if content < 0 {
					continue
				}
				name := v.Text(content)
				r := lang.Ref{Name: names.ID(name), Pos: v.Start(content), Enclosing: langutil.Enclosing(f, v.Start(content)),
					Scope: -1, BindLocal: -1, BindDef: -1, BindImp: -1}
				if d, ok := top[name]; ok {
					r.BindDef = d
				} else if im, ok := imports[name]; ok {
					r.BindImp = im
				} else {
					continue
				}
				f.Refs = append(f.Refs, r)
			}
		}
	}
	if names != nil {
		langutil.SortRefs(f)
	}
}

// plainString is the content node of s when s is a string literal without
// prefix or interpolation ('x', "x"), or -1.
func plainString(v *lang.View, s int) int {
	if v.Kind(s) != "string" {
		return -1
	}
	content := -1
	for _, c := range langutil.Children(v, s) {
		switch v.Kind(c) {
		case "string_start":
			if t := v.Text(c); t != "'" && t != "\"" {
				return -1 // f'', b'', r'' and triple quotes
			}
		case "string_content":
			content = c
		case "string_end":
		default:
			return -1 // an interpolation or an escape
		}
	}
	if content < 0 || !lang.IsIdentifier(v.Text(content)) {
		return -1
	}
	return content
}
