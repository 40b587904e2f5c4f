package rust

import (
	"sort"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// A field name in a struct expression or pattern (Counter { n: 1 },
// let Counter { n: x } = c) is a field of the struct the expression names,
// as Counter::n would be; a shorthand (Counter { n }, let Counter { n } = c)
// names that field and a local of its name with one token.

// shorthand is a shorthand field: its name and the struct's path.
type shorthand struct{ name, q string }

// structFields reads struct expression or pattern n: the qualifier of each
// field name (into quals) and of each shorthand (into shorthands), the
// struct's path as written ("Counter", "geo::Point", "Self"); and, of a
// pattern, the locals it binds to fields ("Counter{n}" for Counter { n }
// and Counter { n: ref x }), which variantLocals types.
func structFields(v *lang.View, n int, quals map[lang.Pos]string, shorthands map[lang.Pos]shorthand, bound []variantBinding) []variantBinding {
	field, body := "type", n
	if v.Kind(n) == "struct_expression" {
		field, body = "name", langutil.Child(v, n, "body")
	}
	typ := langutil.Child(v, n, field)
	if typ < 0 || body < 0 {
		return bound
	}
	q := "Self"
	if v.Text(typ) != "Self" {
		if q = typePathOf(v, typ); q == "" {
			return bound
		}
	}
	for _, c := range langutil.Children(v, body) {
		switch v.Kind(c) {
		case "field_initializer":
			if f := langutil.Child(v, c, "field"); f >= 0 && v.Kind(f) == "field_identifier" {
				quals[v.Start(f)] = q
			}
		case "shorthand_field_initializer":
			if id := v.ChildOfKind(c, "identifier"); id >= 0 {
				shorthands[v.Start(id)] = shorthand{v.Text(id), q}
			}
		case "field_pattern":
			name := langutil.Child(v, c, "name")
			switch v.Kind(name) {
			case "field_identifier":
				quals[v.Start(name)] = q
				if id := boundName(v, langutil.Child(v, c, "pattern")); id >= 0 {
					bound = append(bound, variantBinding{local: v.Start(id), typ: q + "{" + v.Text(name) + "}"})
				}
			case "shorthand_field_identifier":
				shorthands[v.Start(name)] = shorthand{v.Text(name), q}
				bound = append(bound, variantBinding{local: v.Start(name), typ: q + "{" + v.Text(name) + "}"})
			}
		}
	}
	return bound
}

// addShorthandFields adds the field reference of each shorthand, beside
// the local that the same token reads or binds, qualified as quals are.
func (b *binder) addShorthandFields(shorthands map[lang.Pos]shorthand, names *lang.NameTable) {
	if len(shorthands) == 0 {
		return
	}
	f := b.f
	for pos, sh := range shorthands {
		r := lang.Ref{Name: names.ID(sh.name), Pos: pos, Role: lang.RoleRead,
			Enclosing: langutil.Enclosing(f, pos), Scope: langutil.InnermostScope(f, pos)}
		b.qualify(&r, sh.q, names)
		f.Refs = append(f.Refs, r)
	}
	sort.SliceStable(f.Refs, func(i, j int) bool { return f.Refs[i].Pos.Before(f.Refs[j].Pos) })
}
