package ecma

import (
	"context"
	"path"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/link"
)

// JavaScript and TypeScript linking (DESIGN §5 tiers): a relative import
// resolves to a file of the repository (with the extensions and index files
// of Node and TypeScript), a bare one through the nearest tsconfig's paths
// and baseUrl or to another package of the repository by its name
// (link_modules.go). The names an import brings in link to the top-level
// definitions of the module; the members of typed qualifiers and of this
// and super link through their classes and interfaces (link_typed.go,
// link_inherited.go, link_context.go).

// Linker links JavaScript, TypeScript and TSX files: the three languages
// import each other, and share one batch.
var Linker = &lang.Linker{NewBatch: newBatch}

// batch links the JavaScript and TypeScript files of one batch.
type batch struct {
	link.Batch
	tsConfigs map[string]*tsConfig // the closest tsconfig.json per directory (link_modules.go)
	defaults  map[string]string    // the name of each module's default export ("" for none; exports.go)
}

func newBatch(r lang.Resolver) lang.BatchLinker {
	return &batch{Batch: link.NewBatch(r), defaults: map[string]string{}}
}

// Import resolves an import to the module file it names.
func (l *batch) Import(ctx context.Context, f lang.File, im lang.Import) (lang.Target, bool) {
	if strings.HasPrefix(im.Source, ".") {
		if p, ok := l.resolveJSPath(path.Join(lang.DirOf(f.Path), im.Source)); ok {
			return lang.Target{File: p}, true
		}
		return lang.Target{}, false
	}
	if p, ok := l.resolveTSConfig(ctx, f, im.Source); ok { // tsconfig paths and baseUrl
		return lang.Target{File: p}, true
	}
	if p, ok := l.workspacePackage(ctx, im.Source); ok { // another package of the repository
		return lang.Target{File: p}, true
	}
	return lang.Target{}, false
}

var jsExtensions = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}

// resolveJSPath finds the file a module path names: the file itself, the
// path with an extension (a TypeScript source for its output's), or the
// directory's index file.
func (l *batch) resolveJSPath(p string) (string, bool) {
	if p == "." {
		p = ""
	}
	if l.Exists(p) {
		return p, true
	}
	stem := p
	for _, ext := range []string{".js", ".jsx", ".mjs", ".cjs"} { // TS sources imported with their output extension
		if s, ok := strings.CutSuffix(p, ext); ok {
			stem = s
			break
		}
	}
	for _, ext := range jsExtensions {
		if _, ok := l.R.File(stem + ext); ok {
			return stem + ext, true
		}
	}
	for _, ext := range jsExtensions {
		if _, ok := l.R.File(path.Join(p, "index"+ext)); ok {
			return path.Join(p, "index"+ext), true
		}
	}
	return "", false
}

// Link resolves the references of a JavaScript or TypeScript file.
func (l *batch) Link(ctx context.Context, f lang.File, facts *lang.Facts, own []int64) []lang.Link {
	lf := link.NewFile(f, facts, own)
	targets, resolved := link.Imports(ctx, l, f, facts)
	outside := l.R.Outside(f, facts, resolved)
	rules := link.Rules{
		// this.m where a base class declares m
		Base: func(cls int32, name string) int64 { return l.ecmaBases(ctx, f, facts, cls, name, 0) },
		Other: func(ri int, r lang.Ref, name string) {
			switch {
			case r.Shape == lang.QualExpr && facts.Names[r.Qualifier] == "super":
				// super.m: m of the base classes of the enclosing class
				if cls := link.EnclosingClass(facts, r.Enclosing); cls >= 0 {
					lf.Add(ri, lang.TierStrong, l.ecmaBases(ctx, f, facts, cls, name, 0))
				}
			case r.BindImp >= 0:
				if outside[r.BindImp] && link.ImportedOutside(r, facts, name) {
					lf.External(ri)
					return
				}
				l.linkImported(ctx, lf, ri, r, name, targets[r.BindImp], resolved[r.BindImp])
			}
		},
	}
	decl := link.NewDeclTypes(lf.Path, lf.Facts, true, false)
	typed := l.typed(ctx, lf, decl, targets, resolved)
	rules.Typed = func(ri int, r lang.Ref, name string) (int64, bool) {
		id, ok := typed(ri, r, name)
		if id == 0 && l.builtinValue(ctx, lf, decl, r) {
			lf.External(ri) // tags.push(x) with tags: string[] (builtins.go)
			return 0, true
		}
		return id, ok
	}
	return lf.Link(ctx, l.Tops, rules)
}

// typed links the member references whose qualifier has a declared type
// (TypeScript) or one its value gives it (new C(), in both languages):
// x.name, this.x.name (link_typed.go). JavaScript's properties have the
// type of the class every assignment constructs (attributes.go).
func (l *batch) typed(ctx context.Context, lf *link.File, decl *link.DeclTypes, targets []lang.Target, resolved []bool) func(int, lang.Ref, string) (int64, bool) {
	var typed func(int, lang.Ref, string) (int64, bool)
	typed = func(ri int, r lang.Ref, name string) (int64, bool) {
		if r.Shape == lang.QualIdent && r.QualBound {
			// x.m where a type guard narrowed x: m of the type its predicate
			// asserts, or else as the declarations around the guard say
			if guard, ok := guardLocal(decl, r); ok {
				if id, ok := l.guardMember(ctx, lf, guard, name, targets, resolved); ok {
					return id, true
				}
				r.Scope = lf.Facts.Scopes[lf.Facts.Locals[guard].Scope].Parent
				return typed(ri, r, name)
			}
		}
		if r.Shape == lang.QualCall && r.Via > 0 {
			// f().m, a.f().m: m of the type f declares it returns (link_values.go)
			return l.resultMember(ctx, lf, r.Via, name)
		}
		if r.Shape == lang.QualExpr && r.Via > 0 {
			// a key of an object literal passed to a callee that types the
			// argument (argkeys.go, link_context.go)
			if arg, ok := argumentOf(lf.Facts.Names[r.Qualifier]); ok {
				return l.argumentMember(ctx, lf, r, arg, name, targets, resolved)
			}
		}
		if r.Shape == lang.QualIdent {
			// a module-level binding initialised with new C(), of this file
			// or imported (link_modvalues.go)
			if id, ok := l.moduleValueMember(ctx, lf, decl, r, name, targets, resolved); ok {
				return id, true
			}
		}
		if !(r.Shape == lang.QualIdent && r.QualBound || r.Shape == lang.QualPath || r.Shape == lang.QualSelf || r.Shape == lang.QualExpr) {
			return 0, false
		}
		typ := decl.Of(r)
		if r.Shape == lang.QualExpr && typ == "" {
			typ = newClass(lf.Facts.Names[r.Qualifier]) // new C().m
		}
		if typ != "" {
			return l.ecmaMember(ctx, decl, typ, name, targets, resolved, lf.DefID), true
		}
		if r.Shape == lang.QualPath {
			// this.x.m where a base class declares x (link_inherited.go)
			if id, ok := l.ecmaInheritedField(ctx, lf.File, decl, r, name); ok {
				return id, true
			}
			if r.Via > 0 {
				// a.x.m: m of the type x declares (link_values.go)
				return l.resultMember(ctx, lf, r.Via, name)
			}
		}
		if r.Shape == lang.QualIdent {
			// a parameter typed by the call it is passed to (link_context.go)
			if id, ok := l.ecmaContext(ctx, lf, decl, r, name, targets, resolved); ok {
				return id, true
			}
			// a binding typed by a value: a call's result, an element (link_values.go)
			if ls, found := decl.Local(r.Qualifier, r.Scope, r.Pos); found && len(ls) == 1 {
				if id, ok := l.valueMember(ctx, lf, ls[0], name); ok {
					return id, true
				}
			}
		}
		return 0, false
	}
	return typed
}

// linkImported links a reference bound to an import that resolves to t:
// the imported name, ns.name and module.name, and Class.member where Class
// is an imported class or enum.
func (l *batch) linkImported(ctx context.Context, lf *link.File, ri int, r lang.Ref, name string, t lang.Target, ok bool) {
	if !ok {
		return
	}
	facts := lf.Facts
	im := facts.Imports[r.BindImp]
	switch r.Shape {
	case lang.QualNone: // the imported name where it is used, or in its import specifier
		exported, named := l.exportedName(ctx, im, t.File)
		if named && link.Names(im, r, name) {
			top := l.Tops.Of(ctx, t.File)
			if r.Role == lang.RoleCall {
				lf.Add(ri, lang.TierStrong, top.Value(exported)) // new X(), X(): not an interface of the name
			} else {
				lf.Add(ri, lang.TierStrong, top.First[exported])
			}
		}
	case lang.QualIdent: // ns.name, module.name
		top := l.Tops.Of(ctx, t.File)
		if facts.Names[r.Qualifier] == im.LocalName() && im.Kind != lang.ImportNamespace {
			// Class.member where Class is an imported class or enum, by name
			// or as the module's default export
			if exported, ok := l.exportedName(ctx, im, t.File); ok {
				if id := top.Members[exported+"."+name]; id != 0 || im.Kind != lang.ImportModule {
					lf.Add(ri, lang.TierStrong, id)
					return
				}
			}
		}
		if im.Kind == lang.ImportNamespace || im.Kind == lang.ImportModule {
			lf.Add(ri, lang.TierStrong, top.First[name])
		}
	}
}

// newClass is the class a qualifier written new C(...) or new C<T>(...)
// constructs ("C", "ns.C"), or "".
func newClass(q string) string {
	rest, ok := strings.CutPrefix(q, "new ")
	open := strings.IndexByte(rest, '(')
	if !ok || open < 0 || !strings.HasSuffix(rest, ")") || matching(rest, open) != len(rest)-1 {
		return ""
	}
	return lang.TypeName(rest[:open])
}
