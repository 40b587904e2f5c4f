package lang

import (
	"path"
	"regexp"
	"strings"
)

// DottedModules is how a language names modules by dotted paths (Python):
// a.b is the module file a/b.py or the package a/b/__init__.py, a directory
// holding the package file is a package, and a from-import of a package may
// name its submodules (from a import b imports a.b).
type DottedModules struct {
	Ext     string // a module file's extension: ".py"
	Package string // the file that makes its directory a package: "__init__.py"
}

// Files are the files that may hold the module at slash path base (a/b for
// a.b): the module file, then the package's file.
func (m *DottedModules) Files(base string) []string {
	return []string{base + m.Ext, path.Join(base, m.Package)}
}

// FilesOf are the files that may hold the module of a dotted name (a.b)
// below dir: Files of dir/a/b.
func (m *DottedModules) FilesOf(dir, dotted string) []string {
	return m.Files(path.Join(dir, strings.ReplaceAll(dotted, ".", "/")))
}

// IsPackage reports whether p is a package's file (a/__init__.py).
func (m *DottedModules) IsPackage(p string) bool { return path.Base(p) == m.Package }

// Base is the slash path a module's file stands for: a/b for a/b.py and for
// a/b/__init__.py ("" for the root directory's package file).
func (m *DottedModules) Base(p string) string {
	if m.IsPackage(p) {
		return DirOf(p)
	}
	return strings.TrimSuffix(p, m.Ext)
}

// Name is the dotted name of the module at p: the chain of enclosing
// packages (isPackage says which directories are) and the file's stem; when
// the chain reaches the repository root, root names it.
func (m *DottedModules) Name(p string, isPackage func(dir string) bool, root string) string {
	stem := strings.TrimSuffix(path.Base(p), path.Ext(p))
	var parts []string
	if stem != strings.TrimSuffix(m.Package, path.Ext(m.Package)) {
		parts = append(parts, stem)
	}
	dir := DirOf(p)
	for isPackage(dir) {
		if dir == "" {
			parts = append(parts, root)
			break
		}
		parts = append(parts, path.Base(dir))
		dir = DirOf(dir)
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, ".")
}

// Package is a package of the repository, as its manifest declares it.
type Package struct {
	Name string // as the manifest spells it: regex-syntax
	Root string // its directory, "" for the repository root
}

// ItemPath is one reading of a name: the item at lexical path Path in
// File. Rank orders readings: a name is what its highest-ranked readings
// that find something denote.
type ItemPath struct {
	File, Path string
	Rank       int
}

// Mains says where a language's programs start (map_repo's entry points).
// Each way is optional.
type Mains struct {
	// Func declared at the top of a file of package Package starts a
	// program (Go: func main in package main); such a package is a
	// program, not an API.
	Func, Package string
	// Guard matches the text that runs a module as a program (Python's
	// if __name__ == "__main__":); Word, a word of it, finds the files
	// that may hold it through the trigram index.
	Guard *regexp.Regexp
	Word  string
	// File names a file that starts a program by itself (__main__.py).
	File string
}
