package index

import (
	"context"
	"encoding/binary"
	"errors"
	"path"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/manifest"
)

// Import edge classes (DESIGN §5 "Modules and contexts").
const (
	EdgeLocalFile        = "local-file"          // resolved inside the importing module
	EdgeLocalModule      = "local-module"        // resolved to another module of the repository
	EdgeWorkspacePackage = "workspace-package"   // another module of the same workspace, by its package name
	EdgeExternal         = "external-dependency" // a dependency the module's manifest declares
	EdgeStdlib           = "stdlib"              // the language's standard library
	EdgeUnknown          = "unknown"
)

var edgeClasses = []string{EdgeLocalFile, EdgeLocalModule, EdgeWorkspacePackage, EdgeExternal, EdgeStdlib, EdgeUnknown}

// ImportEdge is one import of a file, resolved and classified.
type ImportEdge struct {
	Source       string // the source literal
	Class        string
	TargetPath   string // file or Go package directory, when resolved in the repository
	TargetModule int64  // module id, when resolved in the repository
	Dep          string // the declared dependency it belongs to (external-dependency)
}

// importEdges resolves and classifies the imports of one file.
func (l *linker) importEdges(ctx context.Context, f *fileInfo, facts *lang.Facts) []ImportEdge {
	if facts == nil || len(facts.Imports) == 0 {
		return nil
	}
	own := moduleOf(l.w.mods, f.path, f.lang)
	seen := map[string]bool{}
	perName := map[string]bool{} // sources whose imports name edges of their own (a JVM package's types)
	var out []ImportEdge
	for _, im := range facts.Imports {
		if seen[im.Source] && !perName[im.Source] {
			continue // one edge per source literal, resolved once
		}
		t, ok := l.Import(ctx, fileOf(f), im)
		e := ImportEdge{Source: im.Source}
		if ok && t.Source != "" {
			e.Source = t.Source
			perName[im.Source] = true
		}
		if seen[e.Source] {
			continue
		}
		seen[e.Source] = true
		if ok {
			e.TargetPath = t.File
			if t.Dir != "" || e.TargetPath == "" {
				e.TargetPath = t.Dir
			}
			lang := f.lang
			if t.File != "" {
				if tf := l.w.files[t.File]; tf != nil {
					lang = tf.lang
				}
			}
			target := moduleOf(l.w.mods, path.Join(t.Dir, "x"), lang)
			if t.File != "" {
				target = moduleOf(l.w.mods, t.File, lang)
			}
			e.TargetModule = target.ID
			switch {
			case target.ID == own.ID:
				e.Class = EdgeLocalFile
			case target.Workspace != "" && target.Workspace == own.Workspace && !target.Detached && !own.Detached &&
				!strings.HasPrefix(im.Source, "."):
				e.Class = EdgeWorkspacePackage
			default:
				e.Class = EdgeLocalModule
			}
		} else if stdlib(f.lang, im) {
			e.Class = EdgeStdlib
		} else if dep := declaredDep(own, f.lang, im.Source); dep != "" {
			e.Class, e.Dep = EdgeExternal, dep
		} else {
			e.Class = EdgeUnknown
		}
		out = append(out, e)
	}
	return out
}

// stdlib reports whether an unresolved import names the language's standard
// library (the language's Stdlib hook).
func stdlib(language string, im lang.Import) bool {
	l := lang.Of(language)
	return l.Stdlib != nil && l.Stdlib(im)
}

// declaredDep finds the dependency of a module's manifest an import belongs to.
func declaredDep(m *Module, language, source string) string {
	if m == nil {
		return ""
	}
	return manifest.DependencyOf(manifest.Ecosystem(lang.Of(language).Ecosystem), source, m.Deps)
}

// EncodeImports packs a file's import edges.
func EncodeImports(edges []ImportEdge) []byte {
	buf := binary.AppendUvarint(nil, uint64(len(edges)))
	str := func(s string) {
		buf = binary.AppendUvarint(buf, uint64(len(s)))
		buf = append(buf, s...)
	}
	for _, e := range edges {
		buf = append(buf, classCode(e.Class))
		buf = binary.AppendUvarint(buf, uint64(e.TargetModule))
		str(e.Source)
		str(e.TargetPath)
		str(e.Dep)
	}
	return buf
}

func classCode(c string) byte {
	for i, x := range edgeClasses {
		if x == c {
			return byte(i)
		}
	}
	return byte(len(edgeClasses) - 1)
}

// DecodeImports unpacks EncodeImports output.
func DecodeImports(b []byte) ([]ImportEdge, error) {
	if len(b) == 0 {
		return nil, nil
	}
	bad := errors.New("index: corrupt import edges")
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return nil, bad
	}
	b = b[k:]
	str := func() (string, bool) {
		l, k := binary.Uvarint(b)
		if k <= 0 || uint64(len(b)-k) < l {
			return "", false
		}
		s := string(b[k : k+int(l)])
		b = b[k+int(l):]
		return s, true
	}
	out := make([]ImportEdge, 0, n)
	for i := uint64(0); i < n; i++ {
		if len(b) < 1 || int(b[0]) >= len(edgeClasses) {
			return nil, bad
		}
		e := ImportEdge{Class: edgeClasses[b[0]]}
		b = b[1:]
		m, k := binary.Uvarint(b)
		if k <= 0 {
			return nil, bad
		}
		e.TargetModule = int64(m)
		b = b[k:]
		var ok1, ok2, ok3 bool
		e.Source, ok1 = str()
		e.TargetPath, ok2 = str()
		e.Dep, ok3 = str()
		if !ok1 || !ok2 || !ok3 {
			return nil, bad
		}
		out = append(out, e)
	}
	return out, nil
}
