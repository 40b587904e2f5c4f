package query

import (
	"cmp"
	"context"
	"path"
	"slices"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/store"
)

// Variants of a name: one declaration written several times, of which the
// build or the run picks one. Go declares a package-level name or a method
// once per build constraint (//go:build lines, _linux.go file names); a
// Python, TypeScript, JavaScript or C file may declare a name in several
// branches of a condition, TypeScript writes overload signatures before the
// implementation, Python a property's getter and setter. Such definitions
// share a qualified name and a kind; naming them is no ambiguity, and every
// answer about the name covers them all (DESIGN §6a, TOOLS.md symbol_get:
// "every candidate when the target depends on build tags"). Genuinely
// different symbols with the same name (overloads in Java, C#, Kotlin and
// C++, same-named symbols of different packages) stay ambiguous.

// Variant is one definition of a name that has several.
type Variant struct {
	ID       protocol.SymbolID `json:"symbol_id"`
	Location protocol.Location `json:"location"`
	Build    string            `json:"build,omitempty"`
	// Apart says what a variant declared apart is (DeclaredApart): a
	// header's "declaration" or a source file's "definition".
	Apart string `json:"apart,omitempty"`
}

// VariantOf describes v, one of the variants of r's name.
func VariantOf(r, v *Resolved) Variant {
	out := Variant{ID: v.ID(), Location: v.Ref().Location, Build: BuildOf(v)}
	if v.Row.QName != r.Row.QName { // declared in a header, defined in a source file
		out.Apart = "definition"
		if isHeader(v.File) {
			out.Apart = "declaration"
		}
	}
	return out
}

// Label is how a variant is told from the others: its build, what it is
// when declared apart, or none.
func (v Variant) Label() string {
	return cmp.Or(v.Build, v.Apart)
}

// Variants lists the other definitions of r's name when it has variants
// (see above), in the order of their locations; nil when it has none.
func (e *Engine) Variants(ctx context.Context, r *Resolved) ([]*Resolved, error) {
	rows, err := e.Store().SymbolsByQName(ctx, r.Row.QName)
	if err != nil {
		return nil, err
	}
	if len(rows) < 2 {
		apart, err := e.declaredApart(ctx, r) // a prototype in a header, the definition in a source file
		if err != nil || len(apart) == 0 {
			return nil, err
		}
		return loadEach(ctx, e, apart, func(r *Resolved) *Resolved { return r })
	}
	group, err := e.variantGroup(ctx, rows)
	if err != nil || group == nil {
		return nil, err
	}
	var out []*Resolved
	for _, v := range group {
		if v.Row.ID != r.Row.ID {
			out = append(out, v)
		}
	}
	if len(out) == len(group) {
		return nil, nil // r is not one of them (a row of another kind)
	}
	return out, nil
}

// VariantsOf describes the other definitions of r's name (Variants).
func (e *Engine) VariantsOf(ctx context.Context, r *Resolved) ([]Variant, error) {
	vs, err := e.Variants(ctx, r)
	if err != nil {
		return nil, err
	}
	out := make([]Variant, 0, len(vs))
	for _, v := range vs {
		out = append(out, VariantOf(r, v))
	}
	return out, nil
}

// variantGroup loads rows and returns them when they are the variants of
// one name, the primary one first (primaryFirst); nil when they are not:
// several qualified names or kinds (in Go type-like kinds may differ: a
// struct under one build, an alias under another), a language whose
// same-named members are overloads, definitions in several files outside
// Go, Go's blank and init names (any number of each per package, each its
// own).
func (e *Engine) variantGroup(ctx context.Context, rows []store.SymbolRow) ([]*Resolved, error) {
	if len(rows) < 2 {
		return nil, nil
	}
	sameKind := true
	for _, r := range rows[1:] {
		if r.QName != rows[0].QName {
			return nil, nil
		}
		if r.Kind != rows[0].Kind {
			if !lang.DefKind(r.Kind).IsTypeLike() || !lang.DefKind(rows[0].Kind).IsTypeLike() {
				return nil, nil
			}
			sameKind = false // a struct under one build, an alias under another (Go)
		}
	}
	group, err := loadEach(ctx, e, rows, func(r *Resolved) *Resolved { return r }) // without vanished files
	if err != nil {
		return nil, err
	}
	if len(group) < 2 {
		return nil, nil
	}
	language := group[0].File.Lang
	l := lang.Of(language)
	parts := partsOfOneType(l, group)
	for _, r := range group[1:] {
		if r.File.Lang != language || l.Builds == nil && r.File.ID != group[0].File.ID && !parts {
			return nil, nil
		}
	}
	switch {
	case l.Overloads && !parts:
		return nil, nil
	case l.Builds == nil && !sameKind:
		return nil, nil
	case l.Repeatable(rows[0].Name):
		return nil, nil
	}
	primaryFirst(group)
	return group, nil
}

// partsOfOneType reports whether a group of definitions are the parts of
// one type, each declared with the language's PartialTypes modifier.
func partsOfOneType(l *lang.Language, group []*Resolved) bool {
	if l.PartialTypes == "" {
		return false
	}
	for _, r := range group {
		if r.Def == nil || !lang.DefKind(r.Row.Kind).IsTypeLike() || !slices.Contains(strings.Fields(r.Def.Signature), l.PartialTypes) {
			return false
		}
	}
	return true
}

// primaryFirst orders variants with the one that stands for the name
// first: in Go the one the default build compiles (linux/amd64 with cgo,
// no custom tags), then the least constrained; elsewhere the first
// declaration. The rest follow by location.
func primaryFirst(vs []*Resolved) {
	slices.SortFunc(vs, func(a, b *Resolved) int {
		if builds := lang.Of(a.File.Lang).Builds; builds != nil {
			da, db := inDefaultBuild(builds, a), inDefaultBuild(builds, b)
			if da != db {
				if da {
					return -1
				}
				return 1
			}
			if c := cmp.Compare(len(BuildOf(a)), len(BuildOf(b))); c != 0 {
				return c
			}
		}
		if na, nb := namedAfter(a), namedAfter(b); na != nb {
			if na {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(a.File.Path, b.File.Path), cmp.Compare(a.Row.DefIdx, b.Row.DefIdx))
	})
}

// namedAfter reports whether a definition's file is named after it
// (Form1.cs for the part of Form1 there, not Form1.Designer.cs).
func namedAfter(r *Resolved) bool {
	base := path.Base(r.File.Path)
	return strings.TrimSuffix(base, path.Ext(base)) == r.Row.Name
}

// BuildOf says under which build a symbol's file compiles: for Go, the
// GOOS/GOARCH (and _test) its file name implies and its //go:build
// expression; "" when it has no constraint.
func BuildOf(r *Resolved) string {
	var tags string
	if b := lang.Of(r.File.Lang).Builds; b != nil {
		tags = strings.Join(b.PathTags(r.File.Path), " && ")
	}
	switch {
	case r.Facts == nil || r.Facts.Build == "" || r.Facts.Build == tags:
		return tags
	case tags == "":
		return r.Facts.Build
	}
	return tags + " && " + r.Facts.Build
}

// inDefaultBuild reports whether a symbol's file is compiled by its
// language's default build.
func inDefaultBuild(b *lang.Builds, r *Resolved) bool {
	build := ""
	if r.Facts != nil {
		build = r.Facts.Build
	}
	return b.InDefault(r.File.Path, build)
}

// SameScopeDeclarations are the other definitions of r's name in its
// scope of its file (the same parent): in TypeScript the declarations it
// merges into one symbol (an interface and a const), and overloads, a
// getter and its setter.
func (e *Engine) SameScopeDeclarations(ctx context.Context, r *Resolved) ([]store.SymbolRow, error) {
	rows, err := e.SymbolsByQName(ctx, r.Row.QName)
	if err != nil {
		return nil, err
	}
	var out []store.SymbolRow
	for _, o := range rows {
		if o.ID != r.Row.ID && o.FileID == r.Row.FileID && o.Parent == r.Row.Parent && o.Name == r.Row.Name {
			out = append(out, o)
		}
	}
	return out, nil
}

// mergedDeclarations are the ids of SameScopeDeclarations where r's
// language merges them into one symbol: each is searched by its own
// meaning, but the import or export of the name brings in all of them.
// nil for none.
func (e *Engine) mergedDeclarations(ctx context.Context, r *Resolved) (map[int64]bool, error) {
	if !lang.Of(r.File.Lang).MergesDeclarations {
		return nil, nil
	}
	rows, err := e.SameScopeDeclarations(ctx, r)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	out := make(map[int64]bool, len(rows))
	for _, o := range rows {
		out[o.ID] = true
	}
	return out, nil
}
