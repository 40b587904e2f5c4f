package lang

import (
	"context"
	"iter"
	"path"
	"strings"
)

// Cross-file linking: what a language's Linker hook gets from the index and
// gives back. The index (internal/index) drives a batch: it computes every
// changed file's symbols, then asks each file's language to link the file's
// references, and stores the links. A language resolves its references
// through the Resolver, which answers from the worktree as the batch leaves
// it; it never touches the store.

// Tier says how a reference was resolved (DESIGN §5), best first.
type Tier uint8

// Tiers. Precise comes from the semantic layer; the syntactic layer sets the rest.
const (
	TierPrecise Tier = iota
	TierProven
	TierStrong
	TierAnchored
	TierUnknown
)

var tierNames = [...]string{"precise", "proven", "strong", "anchored", "unknown"}

func (t Tier) String() string { return nameOf(tierNames[:], t, "unknown") }

// ParseTier reads a tier name.
func ParseTier(s string) (Tier, bool) {
	return parseName[Tier](tierNames[:], s)
}

// Link is one resolved reference of a file. A link with Target 0 (tier
// unknown) says that the reference resolves outside the repository, into the
// standard library or a dependency (tls.Config through import "crypto/tls"):
// it is no candidate for any symbol of the index.
type Link struct {
	Ref    int   // index into the file's Facts.Refs
	Tier   Tier  // proven or strong; unknown for Target 0
	Target int64 // symbol id, 0 outside the repository
	// Runs: the reference runs Target, a method, though it is no call, as
	// Kotlin's b.foo runs Java's getFoo(); the call graph counts it a call.
	Runs bool
}

// Unbound yields the references of f that no local binds, with their index
// in f.Refs: what a language's Linker resolves.
func (f *Facts) Unbound() iter.Seq2[int, Ref] {
	return func(yield func(int, Ref) bool) {
		for i, r := range f.Refs {
			if r.BindLocal < 0 && !yield(i, r) {
				return
			}
		}
	}
}

// DirOf is the directory of a repo path, "" at the root.
func DirOf(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}

// File is what linking knows of a file of the worktree.
type File struct {
	Path string // repo path
	Lang string // the language's Name, "" for a file no language reads
	Pkg  string // Facts.Package: Go package clause, Java/Kotlin package, C# or PHP namespace
}

// Module is a module a manifest defines (DESIGN §5 "Modules and contexts").
type Module struct {
	ID       int64
	Root     string // repo-relative directory, "" for the repository root
	Name     string // module path, package name, project name, or the directory
	Kind     string // the manifest family: go, javascript, python, rust, jvm, dotnet, ruby, php, dir
	Manifest string // repo path of the manifest, "" for none
}

// Symbol is a definition of the index as the batch leaves it.
type Symbol struct {
	ID     int64
	File   string // repo path of the defining file
	DefIdx int    // index into that file's Facts.Defs
	Name   string
	QName  string // canonical qualified name: the unit's prefix, its separator, the lexical path
	Kind   DefKind
	Module int64 // Module.ID of the defining file
	Parent int64 // the enclosing symbol, 0 at top level
}

// Target is what an import leads to inside the repository.
type Target struct {
	Dir  string // a package directory (Go)
	File string // a module file (JavaScript, TypeScript, Python, Ruby, PHP), or the file declaring what a JVM import names
	// Source names the import's edge when the import's Source does not name
	// its target alone: a JVM import's type (java.util.HashMap), where
	// Source is its package and one package has many files.
	Source string
}

// Resolver is what a language's linker needs from the index. The methods
// that may read the store or the disk (ReadFile, Symbols, Facts, Import)
// take the caller's context first; the others answer from the batch's
// world in memory.
type Resolver interface {
	// File finds a file of the worktree (code or not) by repo path.
	File(path string) (File, bool)
	// Files lists every file of the worktree, by path.
	Files() iter.Seq[File]
	// Dir lists the repo paths of the files directly in a directory, sorted.
	Dir(dir string) []string
	// ReadFile reads a file of the worktree: configuration a linker
	// consults (tsconfig.json, package.json).
	ReadFile(ctx context.Context, path string) ([]byte, error)

	// Modules lists the modules of the worktree, by root directory and kind.
	Modules() []Module
	// ModuleOf is the module owning a file of a language: the closest
	// ancestor of the language's family, else of any family, else the root.
	ModuleOf(path, language string) Module
	// Unit is how the qualified names of a file's symbols begin: the unit's
	// prefix and the separator before the lexical path.
	Unit(path string) (prefix, sep string)

	// Symbols lists the symbols of some files, in the order of the files
	// (nil when the store cannot say): the batch's new symbols for the files
	// it changed, the stored ones for the others.
	Symbols(ctx context.Context, paths ...string) []Symbol
	// Facts decodes another file's facts; nil when unavailable.
	Facts(ctx context.Context, path string) *Facts

	// Import resolves an import of a file through the Linker of that
	// file's language (the file may be of another language than the caller).
	Import(ctx context.Context, from File, im Import) (Target, bool)
	// Outside says, per import of a file, whether it resolves outside the
	// repository: it does not resolve in it (resolved, from Import), and it
	// names the language's standard library or a dependency the file's
	// module declares.
	Outside(from File, facts *Facts, resolved []bool) []bool

	// KeepSymbols bounds the symbols a BatchLinker keeps loaded from one
	// file to the next (0: no bound, the whole batch): past it, it forgets
	// what it loaded before it links the next file and loads again what
	// that file needs, linking exactly as if it had kept everything. It is
	// the batch's memory budget (index.memory_mb) at work.
	KeepSymbols() int
}

// Linker is the hook through which a language links references across
// files. Languages that share one value (TypeScript, TSX and JavaScript;
// Java, Kotlin and C#; C and C++) share one BatchLinker per batch.
type Linker struct {
	// NewBatch starts linking one batch; the BatchLinker keeps whatever it
	// learns about other files until the batch ends.
	NewBatch func(r Resolver) BatchLinker
}

// BatchLinker links the files of one batch, one file at a time, in path
// order.
type BatchLinker interface {
	// Import resolves one import of a file inside the repository; false
	// when it does not resolve there, or when the language does not resolve
	// imports to files or packages.
	Import(ctx context.Context, f File, im Import) (Target, bool)
	// Link resolves the references of a file beyond its same-file local
	// bindings. own holds the ids of the file's symbols in definition order
	// (own[i] is the symbol of facts.Defs[i]; it may be shorter than Defs
	// when the store holds fewer). Links are sorted by Ref.
	Link(ctx context.Context, f File, facts *Facts, own []int64) []Link
}

// ModuleStem is the word an import names a module file by in the languages
// whose imports name files (./util, ../lib/util.js, from .util import x):
// the file's name without its extensions, or its directory's for an index
// or __init__ file. A file posts the words of its imports' sources, so the
// files that may import a module are those posting its stem.
func ModuleStem(p string) string {
	base := path.Base(p)
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	if (base == "index" || base == "__init__") && path.Dir(p) != "." {
		return ModuleStem(path.Dir(p))
	}
	return base
}
