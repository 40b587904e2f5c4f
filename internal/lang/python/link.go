package python

import (
	"context"
	"path"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/link"
)

// Python linking (DESIGN §5 tiers): an import resolves to a module file of
// the repository, relative (from .m import x) to the importing file's
// package or absolute through the dotted names of the repository's modules
// (the chain of packages with __init__.py above a file); from pkg import mod
// reaches a submodule. The names an import brings in link to the top-level
// definitions of the module, following re-exports; the members of typed
// qualifiers link through their classes (link_members.go).

var linker = &lang.Linker{NewBatch: newBatch}

// batch links the Python files of one batch.
type batch struct {
	link.Batch
	modules map[string]string // dotted module -> repo path, built on first use
	pyMemo  *pyMemo           // definitions, members and bases already looked up
}

func newBatch(r lang.Resolver) lang.BatchLinker { return &batch{Batch: link.NewBatch(r)} }

// Import resolves an import to the module file it names.
func (l *batch) Import(ctx context.Context, f lang.File, im lang.Import) (lang.Target, bool) {
	src := im.Source
	if strings.HasPrefix(src, ".") {
		level := len(src) - len(strings.TrimLeft(src, "."))
		dir := lang.DirOf(f.Path)
		for i := 1; i < level; i++ {
			if dir == "" {
				return lang.Target{}, false
			}
			dir = lang.DirOf(dir)
		}
		rest := strings.ReplaceAll(strings.TrimLeft(src, "."), ".", "/")
		base := path.Join(dir, rest)
		if base == "." {
			base = ""
		}
		if p, ok := l.pyFile(base); ok {
			return lang.Target{File: p}, true
		}
		return lang.Target{}, false
	}
	if p, ok := l.pyModules()[src]; ok {
		return lang.Target{File: p}, true
	}
	return lang.Target{}, false
}

// pyModules maps every dotted Python module to its file (the first path of
// a dotted name).
func (l *batch) pyModules() map[string]string {
	if l.modules != nil {
		return l.modules
	}
	l.modules = map[string]string{}
	for f := range l.R.Files() {
		if f.Lang != "python" {
			continue
		}
		if d, _ := l.R.Unit(f.Path); d != "" {
			if old, ok := l.modules[d]; !ok || f.Path < old {
				l.modules[d] = f.Path
			}
		}
	}
	return l.modules
}

// pyFile finds the module file for a slash path: base.py or base/__init__.py.
func (l *batch) pyFile(base string) (string, bool) {
	for _, c := range Modules.Files(base) {
		if _, ok := l.R.File(c); ok {
			return c, true
		}
	}
	return "", false
}

// pySubmodule resolves `from pkg import mod` where mod is a module, not a name.
func (l *batch) pySubmodule(t lang.Target, name string) (string, bool) {
	if !Modules.IsPackage(t.File) {
		return "", false
	}
	return l.pyFile(path.Join(lang.DirOf(t.File), name))
}

// Link resolves the references of a Python file.
func (l *batch) Link(ctx context.Context, f lang.File, facts *lang.Facts, own []int64) []lang.Link {
	lf := link.NewFile(f, facts, own)
	targets, resolved := link.Imports(ctx, l, f, facts)
	outside := l.R.Outside(f, facts, resolved)
	py := l.newPyLinker(f, facts) // typed links x.m, self.x.m, self.m in bases, super().m (link_members.go)
	return lf.Link(ctx, l.Tops, link.Rules{
		Typed: func(ri int, r lang.Ref, name string) (int64, bool) {
			id, ok := py.link(ctx, r, name)
			if !ok && py.outsideValue(r, outside) {
				// x = []; x.append(...), s = requests.Session(); s.get(...):
				// the language's or a dependency's member
				lf.External(ri)
				return 0, true
			}
			return id, ok
		},
		Other: func(ri int, r lang.Ref, name string) {
			if r.BindImp < 0 {
				return
			}
			if outside[r.BindImp] && importedOutside(r, facts, name) {
				lf.External(ri)
				return
			}
			l.linkImported(ctx, lf, ri, r, name, targets[r.BindImp], resolved[r.BindImp])
		},
	})
}

// importedOutside is link.ImportedOutside, except that import a.b binds a,
// whose members are not a.b's.
func importedOutside(r lang.Ref, facts *lang.Facts, name string) bool {
	im := facts.Imports[r.BindImp]
	if r.Shape == lang.QualIdent && im.Kind == lang.ImportModule && im.Alias == "" && strings.Contains(im.Source, ".") {
		return false
	}
	return link.ImportedOutside(r, facts, name)
}

// linkImported links a reference bound to an import that resolves to t:
// the imported name, module.name, pkg.submodule.name and Class.member where
// Class is an imported class, following re-exports.
func (l *batch) linkImported(ctx context.Context, lf *link.File, ri int, r lang.Ref, name string, t lang.Target, ok bool) {
	if !ok {
		return
	}
	facts := lf.Facts
	im := facts.Imports[r.BindImp]
	switch r.Shape {
	case lang.QualNone: // the imported name where it is used, or in its import specifier
		if im.Kind == lang.ImportNamed && link.Names(im, r, name) {
			lf.Add(ri, lang.TierStrong, l.pyTopName(ctx, t.File, im.Name)) // through re-exports
		}
	case lang.QualIdent: // module.name, or pkg.submodule.name
		switch im.Kind {
		case lang.ImportNamespace, lang.ImportModule:
			if im.Kind == lang.ImportModule && im.Alias == "" && strings.Contains(im.Source, ".") {
				return // `import a.b` binds a; a.name is a member of a, not of a.b
			}
			lf.Add(ri, lang.TierStrong, l.pyTopName(ctx, t.File, name))
		case lang.ImportNamed:
			if sub, ok := l.pySubmodule(t, im.Name); ok && l.Tops.Of(ctx, t.File).First[im.Name] == 0 {
				lf.Add(ri, lang.TierStrong, l.pyTopName(ctx, sub, name))
			} else if facts.Names[r.Qualifier] == im.LocalName() {
				// Class.member where Class is an imported class
				id := l.Tops.Of(ctx, t.File).Members[im.Name+"."+name]
				if id == 0 {
					if file, cls, ok := l.pyDefined(ctx, t.File, im.Name, lang.KindClass, 0); ok {
						id = l.pyMember(ctx, file, cls, name, 0)
					}
				}
				lf.Add(ri, lang.TierStrong, id)
			}
		}
	}
}
