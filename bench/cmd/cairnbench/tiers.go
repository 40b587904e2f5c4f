package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/store"
)

func pathLast(s string) string {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' || s[i] == '.' {
			return s[i+1:]
		}
	}
	return s
}

// goBuiltins are Go's predeclared identifiers.
var goBuiltins = map[string]bool{}

func init() {
	for _, n := range []string{"bool", "byte", "complex64", "complex128", "error", "float32", "float64", "int", "int8", "int16", "int32",
		"int64", "rune", "string", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "any", "comparable", "true", "false", "iota",
		"nil", "append", "cap", "clear", "close", "complex", "copy", "delete", "imag", "len", "make", "max", "min", "new", "panic",
		"print", "println", "real", "recover"} {
		goBuiltins[n] = true
	}
}

var pyBuiltins = map[string]bool{"print": true, "len": true, "str": true, "int": true, "dict": true, "list": true, "set": true, "tuple": true,
	"isinstance": true, "super": true, "range": true, "object": true, "Exception": true, "ValueError": true, "TypeError": true,
	"KeyError": true, "None": true, "True": true, "False": true, "getattr": true, "setattr": true, "hasattr": true, "bool": true,
	"type": true, "sorted": true, "enumerate": true, "zip": true, "iter": true, "next": true, "repr": true, "open": true, "map": true,
	"filter": true, "any": true, "all": true, "min": true, "max": true, "sum": true, "bytes": true, "float": true, "callable": true,
	"NotImplementedError": true, "AttributeError": true, "RuntimeError": true, "property": true, "staticmethod": true, "classmethod": true}

var jsBuiltins = map[string]bool{"undefined": true, "Object": true, "Array": true, "String": true, "Number": true, "Boolean": true,
	"Promise": true, "Error": true, "TypeError": true, "Symbol": true, "Map": true, "Set": true, "JSON": true, "Math": true,
	"console": true, "string": true, "number": true, "boolean": true, "any": true, "unknown": true, "never": true, "void": true,
	"Record": true, "Partial": true, "ReadonlyArray": true, "Readonly": true, "Iterable": true, "require": true, "module": true,
	"exports": true, "globalThis": true, "window": true, "document": true, "Date": true, "RegExp": true, "parseInt": true}

// rustBuiltins are the names of Rust's prelude (types, variants, traits and
// the derive macros named after them), its primitive types and the macros of
// the standard library.
var rustBuiltins = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`Option Some None Result Ok Err Vec String Box ToString ToOwned Clone Copy Send Sync Sized
		Unpin Drop Fn FnMut FnOnce Default Eq PartialEq Ord PartialOrd Hash Debug Iterator IntoIterator DoubleEndedIterator
		ExactSizeIterator Extend AsRef AsMut Into From TryFrom TryInto FromIterator bool char str u8 u16 u32 u64 u128 usize
		i8 i16 i32 i64 i128 isize f32 f64 println print eprintln eprint format write writeln vec panic assert assert_eq
		assert_ne debug_assert debug_assert_eq debug_assert_ne unreachable unimplemented todo matches concat stringify
		include_str include_bytes env cfg line file column format_args dbg`) {
		rustBuiltins[n] = true
	}
}

func builtin(language, name string) bool {
	switch language {
	case "go":
		return goBuiltins[name]
	case "python":
		return pyBuiltins[name]
	case "typescript", "tsx", "javascript":
		return jsBuiltins[name]
	case "rust":
		return rustBuiltins[name]
	case "ruby":
		return lang.Of("ruby").Builtins[name] // Kernel's and Module's methods, the core classes
	}
	return false
}

// tiers counts the references of a whole index by tier: proven (bound in the
// same file: locals and same-file definitions), strong (resolved across files
// through imports or the same package), and unresolved (anchored or unknown).
// Outside the repository, built-ins, and the names of the repository's own
// modules (no symbol) are counted apart, and left out of the in-repo shares.
// "Before import resolution" is what same-file binding alone gives.
func tiers(ctx context.Context, repo, state, dump string) error {
	ix, err := openCurrent(ctx, repo, state)
	if err != nil {
		return err
	}
	defer ix.Close()
	db, release := ix.Acquire()
	defer release()
	files, err := db.Files(ctx)
	if err != nil {
		return err
	}
	type counts struct {
		Refs, Local, ProvenDef, Strong, Unresolved, External, Builtin int
		// OwnModules: the names of the repository's own modules and
		// packages where code uses them (a Go package's name in pkg.F,
		// ns in ns.f with import * as ns), which no symbol stands for
		OwnModules int
		// Spelled: links whose reference spells another name than the
		// symbol it reaches (Kotlin's b.foo for Java's getFoo())
		Spelled int
	}
	names, err := symbolNames(ctx, db)
	if err != nil {
		return err
	}
	imports, err := db.AllImports(ctx)
	if err != nil {
		return err
	}
	per := map[string]*counts{}
	var unresolved *unresolvedDump
	if dump != "" {
		if unresolved, err = newUnresolvedDump(repo, dump); err != nil {
			return err
		}
		defer unresolved.Close()
	}
	for _, f := range files {
		if f.Lang == "" {
			continue
		}
		facts, err := ix.Facts(ctx, f.BlobID)
		if err != nil || facts == nil {
			continue
		}
		data, err := db.Link(ctx, f.ID)
		if err != nil {
			return err
		}
		links, _ := index.DecodeLinks(data)
		byRef := map[int]index.Link{}
		for _, l := range links {
			byRef[l.Ref] = l
		}
		c := per[f.Lang]
		if c == nil {
			c = &counts{}
			per[f.Lang] = c
		}
		// qualifiers that name imports resolved outside the repository
		outside := map[string]bool{}
		outsideImport := map[int32]bool{} // by import: the imported name of import { inject as service }
		ownModule := map[int32]bool{}     // by import: a whole module of the repository
		if edges, err := index.DecodeImports(imports[f.ID]); err == nil {
			cls := map[string]string{}
			for _, e := range edges {
				cls[e.Source] = e.Class
			}
			for i, im := range facts.Imports {
				switch cls[im.Source] {
				case index.EdgeLocalFile, index.EdgeLocalModule, index.EdgeWorkspacePackage:
					ownModule[int32(i)] = im.Kind == lang.ImportModule || im.Kind == lang.ImportNamespace
				case index.EdgeStdlib, index.EdgeExternal, index.EdgeUnknown:
					name := im.LocalName()
					if name == "" {
						name = pathLast(im.Source)
					}
					outside[name] = true
					outsideImport[int32(i)] = true
				}
			}
		}
		for i, r := range facts.Refs {
			c.Refs++
			name := facts.Names[r.Name]
			if l, ok := byRef[i]; ok && l.Target > 0 && names[l.Target] != "" && names[l.Target] != name {
				c.Spelled++
			}
			switch l, ok := byRef[i]; {
			case r.BindLocal >= 0:
				c.Local++
			case ok && l.Tier == index.TierProven:
				c.ProvenDef++
			case ok && l.Tier == index.TierStrong:
				c.Strong++
			case ok && l.Tier == index.TierUnknown && l.Target == 0, // the linker says: outside the repository
				r.Shape == lang.QualIdent && !r.QualBound && outside[facts.Names[r.Qualifier]],
				r.Shape == lang.QualNone && r.BindImp >= 0 && (outside[name] || outsideImport[r.BindImp]):
				c.External++
			case r.Shape == lang.QualNone && builtin(f.Lang, name):
				c.Builtin++
			case r.Shape == lang.QualNone && r.BindImp >= 0 && ownModule[r.BindImp]:
				c.OwnModules++
			default:
				c.Unresolved++
				unresolved.add(f.Path, int(r.Pos.Line), int(r.Pos.Col), name)
			}
		}
	}
	out := map[string]any{}
	for l, c := range per {
		share := func(n int) float64 { return float64(int(1000*float64(n)/float64(max(c.Refs, 1)))) / 10 }
		inRepo := c.Refs - c.External - c.Builtin - c.OwnModules
		shareOf := func(n int) float64 { return float64(int(1000*float64(n)/float64(max(inRepo, 1)))) / 10 }
		out[l] = map[string]any{
			"refs": c.Refs, "proven_local": c.Local, "proven_definition": c.ProvenDef, "strong": c.Strong, "unresolved": c.Unresolved,
			"to_external_or_stdlib": c.External, "builtin": c.Builtin, "spelled_otherwise": c.Spelled, "own_module_names": c.OwnModules,
			"strong_or_better_pct_before_imports": share(c.Local + c.ProvenDef),
			"strong_or_better_pct":                share(c.Local + c.ProvenDef + c.Strong),
			// the same, among references that can resolve inside the repository
			"in_repo_strong_or_better_pct_before_imports": shareOf(c.Local + c.ProvenDef),
			"in_repo_strong_or_better_pct":                shareOf(c.Local + c.ProvenDef + c.Strong),
		}
	}
	return json.NewEncoder(os.Stdout).Encode(out)
}

// symbolNames maps each symbol's id to its name.
func symbolNames(ctx context.Context, db *store.DB) (map[int64]string, error) {
	syms, err := db.AllSymbols(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]string, len(syms))
	for _, s := range syms {
		out[s.ID] = s.Name
	}
	return out, nil
}

// constructors prints where each constructor of the index is declared
// (path:line:col of its name), for cairn refs --at and callers --at.
func constructors(ctx context.Context, repo, state string) error {
	return readIndex(ctx, repo, state, func(ix *index.Index, db *store.DB) error {
		files, err := db.Files(ctx)
		if err != nil {
			return err
		}
		for _, f := range files {
			if facts, err := ix.Facts(ctx, f.BlobID); err == nil && facts != nil {
				for _, d := range facts.Defs {
					if d.Kind == lang.KindConstructor {
						fmt.Printf("%s:%d:%d\n", f.Path, d.NameSpan.Start.Line, d.NameSpan.Start.Col)
					}
				}
			}
		}
		return nil
	})
}

// unresolvedDump writes the unresolved references of a tiers run, each with
// the line it stands on, to look for the shapes the linker misses.
type unresolvedDump struct {
	repo  string
	out   *os.File
	path  string
	lines []string
}

func newUnresolvedDump(repo, path string) (*unresolvedDump, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &unresolvedDump{repo: repo, out: f}, nil
}

func (d *unresolvedDump) add(path string, line, col int, name string) {
	if d == nil {
		return
	}
	if path != d.path {
		data, _ := os.ReadFile(filepath.Join(d.repo, path))
		d.path, d.lines = path, strings.Split(string(data), "\n")
	}
	text := ""
	if line >= 1 && line <= len(d.lines) {
		text = strings.TrimSpace(d.lines[line-1])
	}
	fmt.Fprintf(d.out, "%s:%d:%d %s\t%s\n", path, line, col, name, text)
}

func (d *unresolvedDump) Close() error {
	if d == nil {
		return nil
	}
	return d.out.Close()
}
