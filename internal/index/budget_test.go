package index_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/testenv"
)

// chainCorpus generates a Go module of pkgs packages that reach into the
// package before them in every way the Go linker follows: types and their
// fields and methods, functions' result types, package-level variables
// initialised by calls, embedded types, keyed literals and call chains;
// and a name defined twice in a package (files for two platforms), which
// disambiguates the later file's symbol.
func chainCorpus(pkgs, files int) map[string]string {
	out := map[string]string{"go.mod": "module example.com/chain\n\ngo 1.22\n"}
	for p := range pkgs {
		for f := range files {
			var b strings.Builder
			fmt.Fprintf(&b, "package p%d\n\n", p)
			if p > 0 {
				fmt.Fprintf(&b, "import prev \"example.com/chain/p%d\"\n\n", p-1)
			}
			t := fmt.Sprintf("T%d", f)
			fmt.Fprintf(&b, "type %s struct {\n\tName string\n\tNext *%s\n", t, t)
			if p > 0 {
				fmt.Fprintf(&b, "\tprev.%s\n\tPrev *prev.%s\n", t, t)
			}
			fmt.Fprintf(&b, "}\n\nfunc (x *%s) Self() *%s { return x }\n\n", t, t)
			fmt.Fprintf(&b, "func New%s() *%s { return &%s{Name: \"%s\"} }\n\n", t, t, t, t)
			fmt.Fprintf(&b, "var Default%s = New%s()\n\n", t, t)
			fmt.Fprintf(&b, "func Use%s() string {\n\tx := New%s().Self().Next\n\ty := Default%s.Self()\n", t, t, t)
			if p > 0 {
				fmt.Fprintf(&b, "\tz := prev.New%s().Self()\n\tw := prev.Default%s.Next.Self()\n\t_ = x.Prev.Self().Name + y.Prev.Name + w.Name\n\treturn z.Name + x.Self().Name\n}\n", t, t)
			} else {
				fmt.Fprintf(&b, "\treturn x.Name + y.Self().Name\n}\n")
			}
			out[fmt.Sprintf("p%d/f%d.go", p, f)] = b.String()
		}
		for _, platform := range []string{"linux", "windows"} {
			out[fmt.Sprintf("p%d/platform_%s.go", p, platform)] = fmt.Sprintf("package p%d\n\nfunc Platform() string { return %q }\n\nfunc Describe() string { return Platform() + NewT0().Name }\n", p, platform)
		}
	}
	return out
}

// indexContents lists what a full index holds: every symbol row, every
// file's links and import edges, and every call and type edge.
func indexContents(t *testing.T, ix *index.Index) []string {
	t.Helper()
	ctx := context.Background()
	db, release := ix.Acquire()
	defer release()
	syms, err := db.AllSymbols(ctx)
	if err != nil {
		t.Fatal(err)
	}
	files, err := db.Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range syms {
		out = append(out, fmt.Sprintf("symbol %+v", s))
	}
	edges, err := db.AllEdges(ctx, 0, 1, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range edges {
		out = append(out, fmt.Sprintf("edge %+v", e))
	}
	for _, f := range files {
		links, err := db.Link(ctx, f.ID)
		if err != nil {
			t.Fatal(err)
		}
		imports, err := db.Imports(ctx, f.ID)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("file %s %d links %x imports %x", f.Path, f.ID, links, imports))
	}
	return out
}

// A full index under a small memory budget, where the linker reads the
// batch's symbols back from the store and forgets the packages it loaded
// many times over, holds exactly what an index with the default budget
// holds: the same symbols, links and edges.
func TestBudgetedFullIndexEqualsUnbounded(t *testing.T) {
	dir, unbounded := repo(t, chainCorpus(24, 6))
	reconcile(t, unbounded)
	want := indexContents(t, unbounded)

	cfg := config.Default()
	cfg.Index.MemoryMB = 1 // the Go linker keeps 256 symbols: it forgets every few files
	paths, err := config.Locate(context.Background(), dir, filepath.Join(t.TempDir(), "budgeted"))
	if err != nil {
		t.Fatal(err)
	}
	budgeted, err := index.Open(context.Background(), paths, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer budgeted.Close()
	reconcile(t, budgeted)
	got := indexContents(t, budgeted)

	links, edges, dups := 0, 0, 0
	for _, s := range want {
		switch {
		case strings.HasPrefix(s, "edge "):
			edges++
		case strings.HasPrefix(s, "file ") && !strings.Contains(s, " links  "):
			links++
		case strings.Contains(s, "QName:example.com/chain/p3.Platform "):
			dups++
		}
	}
	if links < 24*6 || edges < 24*6*3 || dups != 2 {
		t.Fatalf("the corpus does not exercise the linker: %d files with links, %d edges, %d symbols for p3.Platform", links, edges, dups)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("a budgeted full index differs from an unbounded one (-unbounded +budgeted):\n%s", diff)
	}
	// Both indexes relink after a change the same way too.
	testenv.WriteFile(t, dir, "p5/f0.go", chainCorpus(24, 6)["p5/f0.go"]+"\nfunc Extra() string { return NewT1().Self().Name }\n")
	reconcile(t, unbounded)
	reconcile(t, budgeted)
	if diff := cmp.Diff(indexContents(t, unbounded), indexContents(t, budgeted)); diff != "" {
		t.Errorf("after a change, the budgeted index differs from the unbounded one (-unbounded +budgeted):\n%s", diff)
	}
}
