package index

import (
	"path"
	"strconv"
	"strings"

	"github.com/zeebo/xxh3"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/store"
)

// symbolID hashes what identifies a definition: its module, language, kind,
// unit (Go package / file), lexical path and a disambiguator. Positions are not
// part of it, so moving lines or reformatting keeps the id.
func symbolID(module, language string, kind lang.DefKind, unitKey, defPath, disamb string) int64 {
	h := xxh3.New()
	for _, s := range []string{module, language, kind.String(), unitKey, defPath, disamb} {
		h.WriteString(s)
		h.Write([]byte{0})
	}
	id := int64(h.Sum64())
	if id == 0 {
		id = 1
	}
	return id
}

// versionID hashes a normalised signature.
func versionID(sig string) int64 {
	return int64(xxh3.HashString(lang.CollapseSpace(sig)) >> 1)
}

// unit says where a file's definitions live for naming and identity.
type unit struct {
	key    string // identity: Go import path, otherwise the module-relative file path
	prefix string // canonical qualified-name prefix
	sep    string // between prefix and the lexical path: "." or "#"
}

// world is what naming and linking know about the worktree's files.
type world struct {
	root     string
	mods     map[string][]*Module // by root dir
	files    map[string]*fileInfo
	rootName string          // the root directory's name, which leads dotted names that reach it
	pkgDirs  map[string]bool // directories holding a dotted-module package file (__init__.py)
	dirFiles map[string][]string
}

type fileInfo struct {
	id     int64
	path   string
	lang   string
	pkg    string // Facts.Package: Go package clause, Java/Kotlin package, C# namespace
	blobID int64
	status store.BlobStatus
}

func newWorld(root string, mods []Module, files []*fileInfo) *world {
	w := &world{root: root, rootName: pathBase(root), mods: byRoot(mods), files: map[string]*fileInfo{}, pkgDirs: map[string]bool{},
		dirFiles: map[string][]string{}}
	for _, f := range files {
		w.addFile(f)
	}
	return w
}

func (w *world) addFile(f *fileInfo) {
	w.files[f.path] = f
	dir := lang.DirOf(f.path)
	w.dirFiles[dir] = append(w.dirFiles[dir], f.path)
	if m := lang.Of(f.lang).Modules; m != nil && m.IsPackage(f.path) {
		w.pkgDirs[dir] = true
	}
}

// isPackageDir reports whether dir holds a dotted-module package file.
func (w *world) isPackageDir(dir string) bool { return w.pkgDirs[dir] }

// unitOf names the unit of a file.
func (w *world) unitOf(f *fileInfo) unit {
	p := f.path
	m := moduleOf(w.mods, p, f.lang)
	rel := strings.TrimPrefix(strings.TrimPrefix(p, m.Root), "/")
	l := lang.Of(f.lang)
	switch {
	case l.Packages == lang.PackageDirectory:
		ip := dirImportPath(m, lang.DirOf(p), l.Ecosystem)
		if l.StandsApart(f.pkg) { // an external test package shares the directory
			ip += l.ApartSuffix
		}
		return unit{key: ip, prefix: ip, sep: "."}
	case l.Modules != nil:
		return unit{key: rel, prefix: l.Modules.Name(p, w.isPackageDir, w.rootName), sep: "."}
	case f.pkg != "" && l.Packages == lang.PackageDeclared: // <package or namespace>.<Type>.<member>
		return unit{key: rel, prefix: f.pkg, sep: "."}
	}
	return unit{key: rel, prefix: p, sep: "#"}
}

// dirImportPath is the import path of the directory package in dir: the
// path of its module (m, of the ecosystem eco) joined with the directory
// below the module's root.
func dirImportPath(m *Module, dir, eco string) string {
	rel := strings.TrimPrefix(strings.TrimPrefix(dir, m.Root), "/")
	if m.Kind != eco {
		if dir == "" {
			return m.Name
		}
		return dir
	}
	if rel == "" {
		return m.Name
	}
	return m.Name + "/" + rel
}

func pathBase(root string) string {
	root = strings.TrimRight(strings.ReplaceAll(root, "\\", "/"), "/")
	if i := strings.LastIndexByte(root, '/'); i >= 0 {
		return root[i+1:]
	}
	return root
}

// qname composes a canonical qualified name.
func (u unit) qname(defPath string) string {
	if u.prefix == "" {
		return defPath
	}
	return u.prefix + u.sep + defPath
}

// fileSymbols computes the symbol rows of one file. earlierDup reports whether a
// file that sorts before this one in the same unit already defines the same
// qualified name (Go build-tag variants), which makes this one need a
// disambiguator; it also gets the id the definition has without one.
func fileSymbols(w *world, f *fileInfo, facts *lang.Facts, earlierDup func(qname string, plain int64) bool) []store.SymbolRow {
	if facts == nil || len(facts.Defs) == 0 {
		return nil
	}
	u := w.unitOf(f)
	m := moduleOf(w.mods, f.path, f.lang)
	ids := make([]int64, len(facts.Defs))
	rows := make([]store.SymbolRow, 0, len(facts.Defs))
	for i, d := range facts.Defs {
		disamb := ""
		if d.Dup > 0 {
			disamb = "#" + strconv.Itoa(int(d.Dup))
		}
		qn := u.qname(d.Path)
		ids[i] = symbolID(m.Name, f.lang, d.Kind, u.key, d.Path, disamb)
		if earlierDup != nil && earlierDup(qn, ids[i]) {
			ids[i] = symbolID(m.Name, f.lang, d.Kind, u.key, d.Path, path.Base(f.path)+disamb)
		}
		parent := int64(0)
		if d.Parent >= 0 {
			parent = ids[d.Parent]
		}
		rows = append(rows, store.SymbolRow{
			ID: ids[i], FileID: f.id, DefIdx: i, Name: d.Name, QName: qn, Kind: uint8(d.Kind),
			Visibility: uint8(d.Visibility), ModuleID: m.ID, Parent: parent, Version: versionID(d.Signature),
		})
	}
	// Methods belong to their receiver type when it is declared in this file
	// (Go, Rust impl blocks, C++ out-of-class definitions; Rust and C++
	// receivers are lexical paths that may lead through modules or namespaces);
	// Go types declared elsewhere in the package are attached by the linker's world.
	byPath := map[string]int64{}
	for i, d := range facts.Defs {
		if d.Receiver == "" && d.Dup == 0 && d.Kind.IsTypeLike() {
			byPath[d.Path] = ids[i]
		}
	}
	for i, d := range facts.Defs {
		if d.Receiver != "" {
			if t, ok := byPath[d.Receiver]; ok {
				rows[i].Parent = t
			}
		}
	}
	return rows
}
