package refactor

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/graph"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
)

// A Rust method declared in an impl Trait for Type block implements the
// trait's method of its name: renaming one without the other breaks the
// build. The index ties the two when it resolves the trait and Type is
// declared in the impl's file; checkRustTraits refuses the renames where it
// did not: a member of an impl of a trait outside the repository
// (fmt::Display's fmt), or an impl the index did not tie to the repository's
// trait.

// checkRustTraits refuses the rename of a Rust override family whose top is
// a member of a trait impl (the trait's method was not found) or a trait
// method implemented in an impl that the family does not hold.
func (env *Env) checkRustTraits(ctx context.Context, card *query.SymbolCard, r *query.Resolved, f graph.Family, tops []*query.Resolved) error {
	if r.File.Lang != "rust" {
		return nil
	}
	if len(tops) == 0 {
		tops = []*query.Resolved{r} // a method of a type the file does not declare has no family
	}
	for _, t := range tops {
		if trait := env.implTrait(t); trait != "" {
			return &errs.Error{Kind: errs.Precondition,
				Msg: fmt.Sprintf("cannot rename %s: %s implements %s of trait %s, which is declared outside the repository or reached in a way this index does not resolve, so a rename cannot change it with the implementation",
					card.QName, who(t, r), t.Row.Name, trait),
				Details: map[string]any{"reason": "external_family", "external": trait + "::" + t.Row.Name},
				Fixes:   []string{"keep the name: the trait fixes it", "or rename the trait's method and its implementations by hand"}}
		}
		if !traitMember(t) {
			continue
		}
		untied, err := env.untiedImpls(ctx, t, r, f)
		if err != nil {
			return err
		}
		if len(untied) > 0 {
			return &errs.Error{Kind: errs.Precondition,
				Msg: fmt.Sprintf("cannot rename %s: %s is implemented in impl blocks this index does not tie to the trait (an impl of a type declared in another file): %s",
					card.QName, who(t, r), strings.Join(untied, ", ")),
				Details: map[string]any{"reason": "untied_impls", "impls": untied},
				Fixes:   []string{"rename the trait's method and each implementation by hand (write_source)"}}
		}
	}
	return nil
}

// traitMember reports whether o is declared in a trait.
func traitMember(o *query.Resolved) bool {
	if o.Def == nil || o.Facts == nil || o.Def.Parent < 0 || int(o.Def.Parent) >= len(o.Facts.Defs) {
		return false
	}
	return o.Facts.Defs[o.Def.Parent].Kind == lang.KindInterface
}

// untiedImpls lists the Rust methods of t's name and arity declared in an
// impl of a trait of t's trait's name that the family f of r does not hold
// and that the index ties to no trait at all.
func (env *Env) untiedImpls(ctx context.Context, t, r *query.Resolved, f graph.Family) ([]string, error) {
	trait := t.Facts.Defs[t.Def.Parent].Name
	held := map[int64]bool{r.Row.ID: true, t.Row.ID: true}
	for _, m := range f.Methods {
		held[m.ID] = true
	}
	rows, err := env.Engine.SymbolsByName(ctx, t.Row.Name)
	if err != nil {
		return nil, err
	}
	arity := lang.ArityOf(t.Def.Signature, t.Row.Name)
	var out []string
	for _, row := range rows {
		if held[row.ID] || row.Kind != t.Row.Kind {
			continue
		}
		o, err := env.Engine.Load(ctx, row)
		if err != nil {
			return nil, err
		}
		if o == nil || o.Def == nil || o.File.Lang != "rust" || lang.ArityOf(o.Def.Signature, o.Row.Name) != arity {
			continue
		}
		if w := env.implTrait(o); w == "" || baseName(w) != trait {
			continue
		}
		// an impl the index ties to a trait implements another trait of
		// the name (ast::Visitor and hir::Visitor)
		if own, err := graph.OverrideFamily(ctx, env.Engine, o); err != nil {
			return nil, err
		} else if len(own.Methods) > 0 {
			continue
		}
		out = append(out, describeAt(o.Row.QName, o))
	}
	return out, nil
}

// implTrait is the trait, as written, of the impl block that declares the
// Rust method o ("fmt::Display" for impl fmt::Display for Foo), or "" when
// o is declared in no impl of a trait.
func (env *Env) implTrait(o *query.Resolved) string {
	if o.File.Lang != "rust" || o.Def == nil || o.Facts == nil {
		return ""
	}
	block := enclosingScope(o.Facts, o.Def.Span)
	if block.Start == block.End {
		return ""
	}
	data, ok := env.read(o.File.Path)
	if !ok {
		return ""
	}
	starts := lang.LineStarts(data)
	a := offset(starts, len(data), int(block.Start.Line), int(block.Start.Col))
	b := offset(starts, len(data), int(o.Def.Span.Start.Line), int(o.Def.Span.Start.Col))
	if a < 0 || b < a {
		return ""
	}
	header, _, found := strings.Cut(string(data[a:b]), "{")
	if !found {
		return ""
	}
	return implHeaderTrait(header)
}

// enclosingScope is the innermost scope of f that holds span and is larger
// than it (for a method of an impl, the impl block); empty when none.
func enclosingScope(f *lang.Facts, span lang.Span) lang.Span {
	var best lang.Span
	for _, s := range f.Scopes {
		if s.Span == span || !s.Span.Contains(span.Start) || !s.Span.Contains(span.End) {
			continue
		}
		if best.Start == best.End || best.Contains(s.Span.Start) {
			best = s.Span
		}
	}
	return best
}

// implHeaderTrait reads the trait out of an impl header: "impl<T: Clone>
// fmt::Display for Foo<T>" is "fmt::Display", "unsafe impl Send for Foo"
// "Send"; "" for an inherent impl (impl Foo) or anything but an impl.
func implHeaderTrait(header string) string {
	h := strings.Join(strings.Fields(header), " ")
	h = strings.TrimSpace(strings.TrimPrefix(h, "unsafe"))
	rest, ok := strings.CutPrefix(h, "impl")
	if !ok || rest == "" || (rest[0] != '<' && rest[0] != ' ') {
		return ""
	}
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(rest, "<") {
		end := lang.ClosingBracket(rest, 0)
		if end < 0 {
			return ""
		}
		rest = rest[end+1:]
	}
	i := lang.TopLevel(rest, func(i int) bool { return strings.HasPrefix(rest[i:], " for ") })
	if i < 0 {
		return ""
	}
	trait := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest[:i]), "!"))
	if j := strings.IndexByte(trait, '<'); j >= 0 {
		trait = trait[:j]
	}
	return strings.Join(strings.Fields(trait), "")
}

// rustShorthands rewrites the edits of a Rust field rename that land on a
// shorthand (Counter { n }, let Counter { ref n } = c): the token names the
// field and a local, so the new field is spelled apart from the local,
// Counter { count: n }, and the local keeps its name.
func (env *Env) rustShorthands(card *query.SymbolCard, p *Plan, old, name string) {
	if card.Language != "rust" || card.Kind != lang.KindField.String() {
		return
	}
	spell := func(edits []Edit) {
		for i := range edits {
			if e := &edits[i]; e.Kind == "reference" && e.Old == old {
				env.spellShorthand(e, name)
			}
		}
	}
	spell(p.Edits)
	for i := range p.Groups {
		spell(p.Groups[i].Edits)
	}
}

// spellShorthand makes e, the rename of a field's name, name: old when
// the token is a shorthand: between { or , and , or }, after the pattern
// modifiers ref and mut if any.
func (env *Env) spellShorthand(e *Edit, name string) {
	data, ok := env.read(e.Path)
	if !ok {
		return
	}
	starts := lang.LineStarts(data)
	at := offset(starts, len(data), e.Line, e.Col)
	end := at + len(e.Old)
	if at < 0 || end > len(data) || string(data[at:end]) != e.Old {
		return
	}
	start := at
	for {
		before := strings.TrimRight(string(data[:start]), " \t")
		word := before[len(strings.TrimRight(before, "abcdefghijklmnopqrstuvwxyz")):]
		if word != "ref" && word != "mut" {
			break
		}
		start = len(before) - len(word)
	}
	prev := strings.TrimRight(string(data[:start]), " \t\r\n")
	next := strings.TrimLeft(string(data[end:]), " \t\r\n")
	if prev == "" || next == "" || !strings.ContainsRune("{,", rune(prev[len(prev)-1])) || !strings.ContainsRune(",}", rune(next[0])) {
		return
	}
	if bytes.IndexByte(data[start:at], '\n') >= 0 {
		return
	}
	e.Col -= at - start
	e.Old = string(data[start:end])
	e.New = name + ": " + e.Old
}
