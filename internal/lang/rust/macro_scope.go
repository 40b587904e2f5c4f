package rust

import (
	"context"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// A macro_rules! macro is in scope by the text, not by use: one declared at
// the top of lib.rs before mod de; is seen in de and the modules below it,
// and one declared in #[macro_use] mod macros; by the modules declared after
// that. So tri!(…) in src/de.rs, bound by no item or use of its file, is the
// tri that src/lib.rs (or a module file lib.rs declares) defines.

// macroInScope links bare call ri of name, bound by nothing in its file, to
// the macro_rules! of that name declared by the file of a module enclosing
// it, or by the file of a module such a file declares, nearest first.
func (rf *rustFile) macroInScope(ctx context.Context, ri int, name string) bool {
	m := rustModuleOf(rf.f.Path, rf.facts, rf.facts.Refs[ri].Enclosing)
	for depth := 0; depth < maxMacroDepth; depth++ {
		up, ok := rf.l.rustParent(m)
		if !ok {
			return false
		}
		m = up
		if m.inline != "" {
			continue // an inline module's macros are read with its file's
		}
		if p, ok := rf.l.macrosOf(ctx, m.file)[name]; ok {
			return rf.linkTo(ri, lang.TierStrong, p.file, p.path, rf.l.syms.Of(ctx, p.file).Paths[p.path])
		}
	}
	return false
}

// maxMacroDepth bounds the modules a macro is looked for in, up from a file.
const maxMacroDepth = 8

// macrosOf is the macro_rules! declared at the top of file and of the files
// of the modules it declares (mod x;), by name; the file's own first.
func (l *batch) macrosOf(ctx context.Context, file string) map[string]rustPath {
	if ms, ok := l.macros[file]; ok {
		return ms
	}
	ms := map[string]rustPath{}
	l.macros[file] = ms
	facts := l.r.Facts(ctx, file)
	if facts == nil {
		return ms
	}
	addMacros(ms, file, facts)
	for _, im := range facts.Imports {
		if im.Kind != lang.ImportModule || strings.Contains(im.Source, "::") {
			continue
		}
		if c, ok := l.rustChild(ctx, rustMod{file: file}, im.Name); ok && c.inline == "" && c.file != file {
			if cf := l.r.Facts(ctx, c.file); cf != nil {
				addMacros(ms, c.file, cf)
			}
		}
	}
	return ms
}

// addMacros adds the top-level macro_rules! of a file that ms has no macro
// of the name for.
func addMacros(ms map[string]rustPath, file string, facts *lang.Facts) {
	for _, d := range facts.Defs {
		if d.Parent < 0 && strings.HasPrefix(d.Signature, "macro_rules! ") {
			if _, ok := ms[d.Name]; !ok {
				ms[d.Name] = rustPath{file, d.Path}
			}
		}
	}
}
