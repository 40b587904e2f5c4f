package refactor

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// pyModule is the dotted module path of a Python file, every directory
// included (a/b/__init__.py is a.b); imports name a suffix of it, from the
// directory on sys.path.
func pyModule(p string) []string {
	p = strings.TrimSuffix(p, ".py")
	parts := strings.Split(p, "/")
	if parts[len(parts)-1] == "__init__" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// hasSuffixParts reports whether the parts end with suffix.
func hasSuffixParts(parts, suffix []string) bool {
	if len(suffix) == 0 || len(suffix) > len(parts) {
		return false
	}
	off := len(parts) - len(suffix)
	for i, s := range suffix {
		if parts[off+i] != s {
			return false
		}
	}
	return true
}

// pyRename maps an absolute module name of a moved file to its new name:
// the same root (the directories before the name) on the new path.
func pyRename(oldFile, newFile string, name []string) ([]string, bool) {
	o, n := pyModule(oldFile), pyModule(newFile)
	if !hasSuffixParts(o, name) {
		return nil, false
	}
	root := o[:len(o)-len(name)]
	if len(n) <= len(root) {
		return nil, false
	}
	for i, r := range root {
		if n[i] != r {
			return nil, false
		}
	}
	return n[len(root):], true
}

// pyRelative resolves a relative module (".m", "..pkg.m", ".") of the file
// at from to its module path parts (every directory included).
func pyRelative(from, src string) ([]string, bool) {
	dots := len(src) - len(strings.TrimLeft(src, "."))
	dir := strings.Split(path.Dir(from), "/")
	if path.Dir(from) == "." {
		dir = nil
	}
	if dots-1 > len(dir) {
		return nil, false
	}
	base := append([]string{}, dir[:len(dir)-(dots-1)]...)
	if rest := src[dots:]; rest != "" {
		base = append(base, strings.Split(rest, ".")...)
	}
	return base, true
}

// pyRelativeSpec writes a module (parts) relative to the file at from.
func pyRelativeSpec(from string, mod []string) string {
	dir := strings.Split(path.Dir(from), "/")
	if path.Dir(from) == "." {
		dir = nil
	}
	i := 0
	for i < len(dir) && i < len(mod) && dir[i] == mod[i] {
		i++
	}
	return strings.Repeat(".", len(dir)-i+1) + strings.Join(mod[i:], ".")
}

// fromImport finds "from SOURCE import" ending before offset off.
func fromImport(data []byte, off int, src string) int {
	start := max(0, off-4000)
	re := regexp.MustCompile(`from\s+(` + regexp.QuoteMeta(src) + `)\s+import\b`)
	ms := re.FindAllSubmatchIndex(data[start:off], -1)
	if len(ms) == 0 {
		return -1
	}
	return start + ms[len(ms)-1][2]
}

// movePython rewrites the module names of moved Python files in imports:
// absolute dotted names (and the dotted uses of a plain import a.b),
// relative ones, and the moved files' own relative imports.
func (env *Env) movePython(ctx context.Context, p *Plan, ms moveSet) error {
	moved := map[string]string{} // old module (every directory) -> old file
	var needles []string
	for f := range ms {
		if strings.HasSuffix(f, ".py") {
			moved[strings.Join(pyModule(f), ".")] = f
			parts := pyModule(f)
			needles = append(needles, parts[len(parts)-1])
		}
	}
	if len(moved) == 0 {
		return nil
	}
	sites, err := env.importers(ctx, needles, ms, func(f string) bool { return strings.HasSuffix(f, ".py") })
	if err != nil {
		return err
	}
	for _, site := range sites {
		for _, im := range site.facts.Imports {
			env.pyImport(p, site.path, site.data, site.starts, site.facts, im, ms, moved)
		}
	}
	return nil
}

// pyImport rewrites one import of file f when it names a moved module.
func (env *Env) pyImport(p *Plan, f string, data []byte, starts []int, facts *lang.Facts, im lang.Import, ms moveSet, moved map[string]string) {
	off := posOffset(data, starts, im.Pos)
	if off < 0 {
		return
	}
	relative := strings.HasPrefix(im.Source, ".")
	// The module the import names, as every-directory parts, and whether
	// it is the source or the source plus the imported name (from pkg
	// import mod).
	var target []string
	if relative {
		t, ok := pyRelative(f, im.Source)
		if !ok {
			return
		}
		target = t
	}
	find := func(parts []string) (string, bool) {
		if relative {
			mod := strings.Join(parts, ".")
			file, ok := moved[mod]
			return file, ok
		}
		for mod, file := range moved {
			if hasSuffixParts(strings.Split(mod, "."), parts) {
				return file, true
			}
		}
		return "", false
	}
	srcParts := target
	if !relative {
		srcParts = strings.Split(im.Source, ".")
	}
	if file, ok := find(srcParts); ok {
		var spec string
		if relative {
			spec = pyRelativeSpec(ms.target(f), pyModule(ms.target(file)))
		} else {
			n, ok := pyRename(file, ms.target(file), srcParts)
			if !ok {
				p.Warnings = append(p.Warnings, fmt.Sprintf("%s:%d: cannot rewrite import %s: the new path is outside its root", f, im.Pos.Line, im.Source))
				return
			}
			spec = strings.Join(n, ".")
		}
		if spec == im.Source {
			return
		}
		at := off
		if im.Kind != lang.ImportModule {
			at = fromImport(data, off, im.Source)
		}
		if at < 0 || string(data[at:min(len(data), at+len(im.Source))]) != im.Source {
			p.Warnings = append(p.Warnings, fmt.Sprintf("%s:%d: import %s not found in the file's text; left alone", f, im.Pos.Line, im.Source))
			return
		}
		p.Edits = append(p.Edits, editAt(f, starts, at, im.Source, spec, "import_path"))
		if im.Kind == lang.ImportModule && im.Alias == "" && strings.Contains(im.Source, ".") {
			p.Edits = append(p.Edits, qualifierEdits(f, data, facts, im.Source, spec)...)
		}
		return
	}
	// from pkg import mod: the imported name is the moved module.
	file, ok := "", false
	if im.Kind == lang.ImportNamed {
		file, ok = find(append(append([]string{}, srcParts...), im.Name))
	}
	if !ok {
		if relative && ms.target(f) != f {
			// A moved file's own relative import of a module that stays:
			// the same module, seen from the new place.
			env.pyRebase(p, f, data, starts, off, im, pyRelativeSpec(ms.target(f), target))
		}
		return
	}
	full := append(append([]string{}, srcParts...), im.Name)
	var newParts []string
	if relative {
		newParts = pyModule(ms.target(file))
	} else if newParts, ok = pyRename(file, ms.target(file), full); !ok {
		return
	}
	newName := newParts[len(newParts)-1]
	var newSrc string
	if relative {
		newSrc = pyRelativeSpec(ms.target(f), newParts[:len(newParts)-1])
	} else {
		newSrc = strings.Join(newParts[:len(newParts)-1], ".")
		if newSrc == "" {
			p.Warnings = append(p.Warnings, fmt.Sprintf("%s:%d: from %s import %s: the module moved to the top level; rewrite it by hand", f, im.Pos.Line, im.Source, im.Name))
			return
		}
	}
	if newSrc != im.Source {
		at := fromImport(data, off, im.Source)
		if at >= 0 && pyKeepsOthers(data, starts, facts, im, at, off, func(name string) bool {
			_, moves := find(append(append([]string{}, srcParts...), name))
			return moves
		}) {
			// from pkg import other, mod: the others stay where they are;
			// mod is imported from its new place by a statement of its own.
			env.pySplitImport(p, f, data, starts, im, at, off, newSrc, newName)
			return
		}
		if at >= 0 {
			p.Edits = append(p.Edits, editAt(f, starts, at, im.Source, newSrc, "import_path"))
		}
	}
	if newName != im.Name && string(data[off:min(len(data), off+len(im.Name))]) == im.Name {
		repl := newName
		if im.Alias == "" {
			repl = newName + " as " + im.Name // the file keeps using the old name
		}
		p.Edits = append(p.Edits, editAt(f, starts, off, im.Name, repl, "import_name"))
	}
}

// pyRebase rewrites the source of a relative from-import to spec.
func (env *Env) pyRebase(p *Plan, f string, data []byte, starts []int, off int, im lang.Import, spec string) {
	if spec == im.Source {
		return
	}
	at := fromImport(data, off, im.Source)
	if at < 0 {
		p.Warnings = append(p.Warnings, fmt.Sprintf("%s:%d: import %s not found in the file's text; left alone", f, im.Pos.Line, im.Source))
		return
	}
	p.Edits = append(p.Edits, editAt(f, starts, at, im.Source, spec, "import_path"))
}

// pyKeepsOthers reports whether the from-import statement whose source is
// at offset at imports names other than im's that do not move (moves says
// whether a name is a moved module).
func pyKeepsOthers(data []byte, starts []int, facts *lang.Facts, im lang.Import, at, off int, moves func(string) bool) bool {
	for _, o := range facts.Imports {
		if o.Kind != lang.ImportNamed || o.Source != im.Source || o.Pos == im.Pos {
			continue
		}
		oo := posOffset(data, starts, o.Pos)
		if oo < 0 || fromImport(data, oo, o.Source) != at {
			continue // another statement
		}
		if !moves(o.Name) {
			return true
		}
	}
	return false
}

// pySplitImport takes a moved module out of a from-import that keeps other
// names (deleting it and its comma) and imports it from newSrc by a new
// statement on the next line, under the name the file used.
func (env *Env) pySplitImport(p *Plan, f string, data []byte, starts []int, im lang.Import, at, off int, newSrc, newName string) {
	end := off + len(im.Name)
	if string(data[off:min(len(data), end)]) != im.Name {
		p.Warnings = append(p.Warnings, fmt.Sprintf("%s:%d: import %s not found in the file's text; left alone", f, im.Pos.Line, im.Name))
		return
	}
	if im.Alias != "" {
		if m := pyAlias.FindIndex(data[end:]); m != nil && m[0] == 0 {
			end += m[1]
		}
	}
	// The name goes with the comma after it, or else the one before it.
	from, to := off, end
	if m := pyCommaAfter.FindIndex(data[end:]); m != nil && m[0] == 0 {
		to = end + m[1]
	} else if i := bytes.LastIndexByte(data[at:off], ','); i >= 0 && len(bytes.TrimSpace(data[at+i+1:off])) == 0 {
		from = at + i
	}
	p.Edits = append(p.Edits, editAt(f, starts, from, string(data[from:to]), "", "import_name"))
	local := im.LocalName()
	stmt := "from " + newSrc + " import " + newName
	if local != newName {
		stmt += " as " + local
	}
	line := sortSearch(starts, at)
	indent := data[starts[line-1]:at]
	indent = indent[:len(indent)-len(bytes.TrimLeft(indent, " \t"))]
	next := pyStatementEnd(data, at)
	if next < len(data) {
		p.Edits = append(p.Edits, editAt(f, starts, next+1, "", string(indent)+stmt+"\n", "import_path"))
	} else {
		p.Edits = append(p.Edits, editAt(f, starts, next, "", "\n"+string(indent)+stmt, "import_path"))
	}
}

var (
	pyAlias      = regexp.MustCompile(`^\s+as\s+\w+`)
	pyCommaAfter = regexp.MustCompile(`^\s*,[ \t]*`)
)

// pyStatementEnd is the offset of the newline that ends the from-import
// statement starting before at (a parenthesised list, or lines continued
// with a backslash), or len(data).
func pyStatementEnd(data []byte, at int) int {
	i := at
	depth := 0
	for ; i < len(data); i++ {
		switch data[i] {
		case '(':
			depth++
		case ')':
			depth--
		case '\\':
			if i+1 < len(data) && data[i+1] == '\n' {
				i++
			}
		case '\n':
			if depth <= 0 {
				return i
			}
		}
	}
	return i
}
