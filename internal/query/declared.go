package query

import (
	"context"
	"path"
	"slices"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/store"
)

// DeclaredApart lists the other declarations of a function whose language
// declares in headers what source files define (lang.Language.Headers: a C
// prototype in a.h, the definition in a.c; a C++ method declared in its
// class, defined out of it): under one local qualified name, with as many
// parameters of the same types, they are one function, of which a header
// holds at least one. nil for any other symbol.
func (e *Engine) DeclaredApart(ctx context.Context, row store.SymbolRow) ([]store.SymbolRow, error) {
	if !callable(row.Kind) {
		return nil, nil
	}
	if f, ok, err := e.FileRowByID(ctx, row.FileID); err != nil || !ok || len(lang.Of(f.Lang).Headers) == 0 {
		return nil, err // most languages: nothing to load
	}
	self, err := e.Load(ctx, row)
	if err != nil || self == nil {
		return nil, err
	}
	return e.declaredApart(ctx, self)
}

// declaredApart is DeclaredApart for a loaded symbol, whose file and
// definition are at hand.
func (e *Engine) declaredApart(ctx context.Context, self *Resolved) ([]store.SymbolRow, error) {
	row, f := self.Row, self.File
	if self.Def == nil || !callable(row.Kind) || len(lang.Of(f.Lang).Headers) == 0 {
		return nil, nil
	}
	params, ok := lang.SignatureParameters(self.Def.Signature, row.Name)
	if !ok {
		return nil, nil
	}
	named, err := e.Store().SymbolsByName(ctx, row.Name)
	if err != nil {
		return nil, err
	}
	local := localQName(row.QName)
	var out []store.SymbolRow
	headers := isHeader(f)
	for _, o := range named {
		if o.ID == row.ID || o.Kind != row.Kind || localQName(o.QName) != local || o.FileID == row.FileID {
			continue
		}
		r, err := e.Load(ctx, o)
		if err != nil {
			return nil, err
		}
		if r == nil || r.Def == nil || len(lang.Of(r.File.Lang).Headers) == 0 {
			continue
		}
		if p, ok := lang.SignatureParameters(r.Def.Signature, o.Name); ok && sameParameters(params, p) {
			out = append(out, o)
			headers = headers || isHeader(r.File)
		}
	}
	if !headers {
		return nil, nil // definitions in source files alone: static functions of their own
	}
	return out, nil
}

// callable reports whether a symbol of this kind has a body to declare apart.
func callable(kind uint8) bool {
	switch lang.DefKind(kind) {
	case lang.KindFunction, lang.KindMethod, lang.KindConstructor:
		return true
	}
	return false
}

// isHeader reports whether a file is a header of its language.
func isHeader(f store.FileRow) bool {
	return slices.Contains(lang.Of(f.Lang).Headers, path.Ext(f.Path))
}

// sameParameters reports whether two parameter lists of one function take
// the same types, whatever they name them (a prototype may name none).
func sameParameters(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		ta, tb := parameterType(a[i]), parameterType(b[i])
		na, nb := normalParameter(a[i]), normalParameter(b[i])
		if ta != tb && na != tb && ta != nb {
			return false
		}
	}
	return true
}

// normalParameter is a parameter without its default value, its white
// space folded and none beside * and &.
func normalParameter(p string) string {
	if i := strings.IndexByte(p, '='); i >= 0 {
		p = p[:i]
	}
	p = strings.Join(strings.Fields(p), " ")
	return strings.NewReplacer(" *", "*", "* ", "*", " &", "&", "& ", "&").Replace(p)
}

// parameterType is a parameter without the name it declares: its last
// word when something precedes it (const Slice& key is const Slice&).
func parameterType(p string) string {
	p = normalParameter(p)
	end := len(p)
	for end > 0 && isWordByte(p[end-1]) {
		end--
	}
	if end == 0 || end == len(p) {
		return p
	}
	return strings.TrimSpace(p[:end])
}

// oneFunction settles a name whose candidates are one function declared
// apart (DeclaredApart): its definition in a source file stands for it
// (the first by path when several platforms' files define it).
func (e *Engine) oneFunction(ctx context.Context, rows []store.SymbolRow) (store.SymbolRow, bool, error) {
	apart, err := e.DeclaredApart(ctx, rows[0])
	if err != nil || len(apart) != len(rows)-1 {
		return store.SymbolRow{}, false, err
	}
	for _, r := range rows[1:] {
		if !slices.ContainsFunc(apart, func(a store.SymbolRow) bool { return a.ID == r.ID }) {
			return store.SymbolRow{}, false, nil
		}
	}
	group, err := loadEach(ctx, e, rows, func(r *Resolved) *Resolved { return r })
	if err != nil || len(group) == 0 {
		return store.SymbolRow{}, false, err
	}
	slices.SortFunc(group, func(a, b *Resolved) int {
		if ha, hb := isHeader(a.File), isHeader(b.File); ha != hb {
			if hb {
				return -1
			}
			return 1
		}
		return strings.Compare(a.File.Path, b.File.Path)
	})
	return group[0].Row, true, nil
}
