package golang

import (
	"context"
	"strings"
	"testing"

	"github.com/cairnhq/cairn/internal/lang"
)

// repo is a few Go packages extracted for real and looked up by qualified
// name, as the index serves them to a checker (lang.TypeSource).
type repo struct {
	decls []*lang.TypeDecl // by ID - 1
	texts map[*lang.Facts][]byte
}

func newRepo(t *testing.T, pkgs map[string]string) *repo {
	t.Helper()
	x := lang.NewExtractor()
	defer x.Close()
	r := &repo{texts: map[*lang.Facts][]byte{}}
	for path, src := range pkgs {
		f, err := x.Extract(Language, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		r.texts[f] = []byte(src)
		for i := range f.Defs {
			d := &f.Defs[i]
			r.decls = append(r.decls, &lang.TypeDecl{ID: int64(len(r.decls) + 1), QName: path + "." + d.Path, Kind: d.Kind, Lang: "go", Facts: f, Def: d})
		}
	}
	return r
}

func (r *repo) Decl(_ context.Context, id int64) (*lang.TypeDecl, error) { return r.decls[id-1], nil }

func (r *repo) Named(_ context.Context, qname string) ([]*lang.TypeDecl, error) {
	var out []*lang.TypeDecl
	for _, d := range r.decls {
		if d.QName == qname {
			out = append(out, d)
		}
	}
	return out, nil
}

// Owner is a member's parent definition, or the type its qualified name
// names (a method declared apart from its type).
func (r *repo) Owner(ctx context.Context, id int64) (int64, bool, error) {
	d := r.decls[id-1]
	for _, o := range r.decls {
		if o.Facts == d.Facts && d.Def.Parent >= 0 && o.Def == &d.Facts.Defs[d.Def.Parent] {
			return o.ID, true, nil
		}
	}
	if ds, _ := r.Named(ctx, qualifier(d.QName)); len(ds) > 0 {
		return ds[0].ID, true, nil
	}
	return 0, false, nil
}

func (r *repo) Source(_ context.Context, d *lang.TypeDecl) (string, error) {
	text := r.texts[d.Facts]
	lines := lang.LineStarts(text)
	at := func(p lang.Pos) int { return lines[p.Line-1] + int(p.Col) - 1 }
	return string(text[at(d.Def.Span.Start):at(d.Def.Span.End)]), nil
}

func (r *repo) id(t *testing.T, qname string) int64 {
	t.Helper()
	ds, _ := r.Named(context.Background(), qname)
	if len(ds) != 1 {
		t.Fatalf("%s: %d declarations", qname, len(ds))
	}
	return ds[0].ID
}

// members are the methods declared for a type (by qualified name prefix),
// and those promoted from an embedded generic type with its bindings.
func (r *repo) members(t *testing.T, typ string, embedded string, bind lang.TypeBindings) *lang.MemberSet {
	ms := &lang.MemberSet{Members: map[string]lang.Member{}}
	add := func(owner, via string, b lang.TypeBindings) {
		for _, d := range r.decls {
			if name, ok := strings.CutPrefix(d.QName, owner+"."); ok && d.Kind == lang.KindMethod {
				ms.Members[name] = lang.Member{ID: d.ID, Kind: d.Kind, Via: via, Bindings: b}
			}
		}
	}
	add(typ, "", nil)
	if embedded != "" {
		add(embedded, embedded, bind)
	}
	return ms
}

var checkerRepo = map[string]string{
	"example.com/api": `package api

import (
	ctx "context"
	"io"
)

type Runner interface {
	Run(c ctx.Context, r io.Reader) error
}

type private interface {
	run()
}

type IntLister interface {
	List() []int
}
`,
	"example.com/impl": `package impl

import (
	"context"
	"io"
)

type C = context.Context

type Good struct{}

func (g *Good) Run(c C, r io.Reader) error { return nil }

type Bad struct{}

func (b Bad) Run(c context.Context, r io.Writer) error { return nil }

type Vague struct{}

func (v Vague) Run(c ctxt.Context, r io.Reader) error { return nil }

type Other struct{}

func (o Other) run() {}

type Base[T any] struct{}

func (b Base[T]) List() []T { return nil }

type Ints struct{ Base[int] }

type Strs struct{ Base[string] }
`,
	"example.com/two": `package two

import (
	"context"
	"example.com/vendored/io"
	"io"
)

type Either struct{}

func (e Either) Run(c context.Context, r io.Reader) error { return nil }
`,
}

// TestSatisfies: Go's checker compares signatures as written, through
// import names and aliases, and says what it cannot read.
func TestSatisfies(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t, checkerRepo)
	k := newChecker(r)
	iface := func(name string) (*lang.MemberSet, []string) {
		ms := r.members(t, "example.com/api."+name, "", nil)
		var names []string
		for n := range ms.Members {
			names = append(names, n)
		}
		return ms, names
	}
	for _, tc := range []struct {
		iface, typ string
		want       lang.Satisfaction
	}{
		{"Runner", "Good", lang.Satisfaction{Verdict: lang.VerdictYes, Pointer: true}},
		{"Runner", "Bad", lang.Satisfaction{Verdict: lang.VerdictNo}},
		{"Runner", "Vague", lang.Satisfaction{Verdict: lang.VerdictUndecided, Why: "ctxt.Context (no import binds ctxt)"}},
		// An unexported method counts only in the interface's package.
		{"private", "Other", lang.Satisfaction{Verdict: lang.VerdictNo}},
		// Two imports may bind io.
		{"Runner", "two.Either", lang.Satisfaction{Verdict: lang.VerdictUndecided, Why: "io.Reader (no import binds io)"}},
	} {
		ims, names := iface(tc.iface)
		typ := "example.com/impl." + tc.typ
		if pkg, name, ok := strings.Cut(tc.typ, "."); ok {
			typ = "example.com/" + pkg + "." + name
		}
		got, err := k.Satisfies(ctx, ims, r.members(t, typ, "", nil), names)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("%s satisfies %s: %+v, want %+v", tc.typ, tc.iface, got, tc.want)
		}
	}
}

// TestEmbedBindings: a type embedding a generic type binds its type
// parameters, so that Ints (Base[int]) has List() []int and Strs does not.
func TestEmbedBindings(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t, checkerRepo)
	k := newChecker(r)
	base := "example.com/impl.Base"
	ims := r.members(t, "example.com/api.IntLister", "", nil)
	for typ, want := range map[string]lang.Verdict{"Ints": lang.VerdictYes, "Strs": lang.VerdictNo} {
		written := "Base[int]"
		if typ == "Strs" {
			written = "Base[string]"
		}
		b, err := k.EmbedBindings(ctx, r.id(t, "example.com/impl."+typ), written, r.id(t, base))
		if err != nil {
			t.Fatal(err)
		}
		if bt, ok := b[base+".T"].(*gtype); !ok || bt.kind != "named" {
			t.Fatalf("%s: bindings %v", typ, b)
		}
		got, err := k.Satisfies(ctx, ims, r.members(t, "example.com/impl."+typ, base, b), []string{"List"})
		if err != nil {
			t.Fatal(err)
		}
		if got.Verdict != want {
			t.Errorf("%s satisfies IntLister: %v, want %v", typ, got.Verdict, want)
		}
	}
	if b, err := k.EmbedBindings(ctx, r.id(t, "example.com/impl.Ints"), "Base", r.id(t, base)); err != nil || b != nil {
		t.Errorf("no type arguments: bindings %v, %v", b, err)
	}
}
