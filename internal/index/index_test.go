package index_test

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	_ "github.com/cairnhq/cairn/internal/lang/all"
	"github.com/cairnhq/cairn/internal/testenv"
)

// repo writes files into a fresh git repository and opens its index.
func repo(t *testing.T, files map[string]string) (string, *index.Index) {
	t.Helper()
	x := testenv.OpenIndex(t, files)
	return x.Root, x.Index()
}

func reconcile(t *testing.T, ix *index.Index) *index.Stats {
	t.Helper()
	st, err := ix.Reconcile(context.Background(), index.ReconcileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// ids maps qualified names to symbol ids.
func ids(t *testing.T, ix *index.Index) map[string]int64 {
	t.Helper()
	db, release := ix.Acquire()
	defer release()
	rows, err := db.AllSymbols(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, r := range rows {
		out[r.QName] = r.ID
	}
	return out
}

// Symbol ids do not change when lines move, a file is reformatted or a
// definition moves to another file of the same Go package.
func TestIdentityStable(t *testing.T) {
	dir, ix := repo(t, map[string]string{
		"go.mod": "module example.com/id\n",
		"a.go":   "package id\n\ntype T struct{ X int }\n\nfunc (t T) M() int { return t.X }\n\nfunc F() {}\n",
		"b.py":   "class C:\n    def m(self):\n        return 1\n\ndef f():\n    pass\n",
		"c.ts":   "export class K {\n  run(): void {}\n}\nexport function g() {}\n",
	})
	reconcile(t, ix)
	before := ids(t, ix)
	if len(before) < 9 {
		t.Fatalf("too few symbols: %v", before)
	}
	testenv.WriteFile(t, dir, "a.go", "package id\n\n// F first now.\nfunc F() {\n}\n\n\n\ntype T struct {\n\tX int\n}\n")
	testenv.WriteFile(t, dir, "a2.go", "package id\n\nfunc (t T) M() int {\n\treturn t.X\n}\n")
	testenv.WriteFile(t, dir, "b.py", "\n\n# moved down\ndef f():\n    pass\n\nclass C:\n\n    def m(self):\n        return 1\n")
	testenv.WriteFile(t, dir, "c.ts", "export function g() {\n}\n\n\nexport class K {\n    run(): void {\n    }\n}\n")
	reconcile(t, ix)
	if diff := cmp.Diff(before, ids(t, ix)); diff != "" {
		t.Errorf("ids changed (-before +after):\n%s", diff)
	}
}

// Reconcile touches only what changed, counts renames, and bumps the epoch
// once per changed batch.
func TestReconcileChanges(t *testing.T) {
	dir, ix := repo(t, map[string]string{"go.mod": "module example.com/r\n", "a.go": "package r\nfunc A() {}\n", "b.go": "package r\nfunc B() {}\n"})
	st := reconcile(t, ix)
	if st.Epoch != 1 || st.Added != 3 || st.Parsed != 2 {
		t.Fatalf("first build: %+v", st)
	}
	if st := reconcile(t, ix); st.Changed || st.Epoch != 1 {
		t.Fatalf("nothing changed but: %+v", st)
	}
	os.Rename(filepath.Join(dir, "b.go"), filepath.Join(dir, "c.go"))
	testenv.WriteFile(t, dir, "a.go", "package r\nfunc A() { B() }\n")
	st = reconcile(t, ix)
	if st.Epoch != 2 || st.Renamed != 1 || st.Modified != 1 || st.Parsed != 1 {
		t.Fatalf("rename + edit: %+v", st)
	}
	// A checkout that restores the old content re-parses nothing (content-addressed).
	testenv.Git(t, dir, "checkout", "-q", "--", "a.go")
	st = reconcile(t, ix)
	if st.Parsed != 0 || st.Modified != 1 {
		t.Fatalf("restore: %+v", st)
	}
}

// A second process that cannot take the writer lock reads the last epoch.
func TestSecondProcessReads(t *testing.T) {
	_, ix := repo(t, map[string]string{"go.mod": "module example.com/l\n", "a.go": "package l\nfunc A() {}\n"})
	reconcile(t, ix)
	other, err := index.Open(context.Background(), ix.Paths(), config.Default())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if other.Writable() {
		t.Fatal("second opener took the writer lock")
	}
	if _, err := other.Reconcile(context.Background(), index.ReconcileOptions{}); err == nil {
		t.Fatal("a reader reconciled")
	}
	st, err := other.State(context.Background())
	if err != nil || st.Epoch != 1 {
		t.Fatalf("reader state %+v %v", st, err)
	}
}

// Garbage collection keeps blobs any worktree references and removes the rest
// once their grace period passed.
func TestGarbageCollection(t *testing.T) {
	dir, ix := repo(t, map[string]string{"go.mod": "module example.com/g\n", "a.go": "package g\nfunc A() {}\n"})
	reconcile(t, ix)
	testenv.WriteFile(t, dir, "a.go", "package g\nfunc A2() {}\n")
	reconcile(t, ix)
	ctx := context.Background()
	db, release := ix.Acquire()
	res, err := db.CollectGarbage(ctx, 1<<40, 0)
	release()
	if err != nil {
		t.Fatal(err)
	}
	if res.Removed != 1 || res.Kept != 2 {
		t.Fatalf("gc: %+v (want the old a.go removed; go.mod and the new a.go kept)", res)
	}
}

func TestLinkCodec(t *testing.T) {
	in := []index.Link{{Ref: 0, Tier: index.TierProven, Target: 42}, {Ref: 7, Tier: index.TierStrong, Target: -3}, {Ref: 900, Tier: index.TierStrong, Target: 1 << 62},
		{Ref: 901, Tier: index.TierStrong, Target: 5, Runs: true}}
	out, err := index.DecodeLinks(index.EncodeLinks(in))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(in, out); diff != "" {
		t.Fatal(diff)
	}
	if _, err := index.DecodeLinks([]byte{5, 1}); err == nil {
		t.Fatal("corrupt links decoded")
	}
}

// A language's Ecosystem is its manifest family, as module kinds name it.
func TestEcosystem(t *testing.T) {
	want := map[string]string{
		"go": "go", "python": "python", "rust": "rust", "ruby": "ruby", "php": "php",
		"typescript": "javascript", "tsx": "javascript", "javascript": "javascript",
		"java": "jvm", "kotlin": "jvm", "csharp": "dotnet",
		"c": "", "cpp": "", "json": "", "markdown": "", "nosuchlanguage": "",
	}
	for language, family := range want {
		if got := lang.Of(language).Ecosystem; got != family {
			t.Errorf("Ecosystem of %q = %q, want %q", language, got, family)
		}
	}
}

// TestExternalTestPackageNames: a Go external test package (package x_test)
// shares its directory with package x but is a package of its own, so its
// definitions are named under the import path with _test.
func TestExternalTestPackageNames(t *testing.T) {
	_, ix := repo(t, map[string]string{
		"go.mod":          "module example.com/ext\n",
		"pkg/pkg.go":      "package pkg\n\nfunc Helper() {}\n",
		"pkg/ext_test.go": "package pkg_test\n\nfunc Helper() {}\n",
		"pkg/pkg_test.go": "package pkg\n\nfunc inside() {}\n",
	})
	reconcile(t, ix)
	got := ids(t, ix)
	for _, qn := range []string{"example.com/ext/pkg.Helper", "example.com/ext/pkg_test.Helper", "example.com/ext/pkg.inside"} {
		if _, ok := got[qn]; !ok {
			t.Errorf("no symbol %s among %v", qn, slices.Sorted(maps.Keys(got)))
		}
	}
}

// TestUpgradeReadsFilesAgain: an index built by another extractor version
// reads every file again on its next reconcile, though none changed (an
// upgrade of Cairn that extracts more must not leave the old facts of
// unchanged files), and only once.
func TestUpgradeReadsFilesAgain(t *testing.T) {
	_, ix := repo(t, map[string]string{"go.mod": "module m\n", "a.go": "package m\n\nfunc A() {}\n", "b.go": "package m\n\nfunc B() { A() }\n"})
	first := reconcile(t, ix)
	if first.Parsed != 2 {
		t.Fatalf("first build parsed %d files, want 2", first.Parsed)
	}
	if st := reconcile(t, ix); st.Parsed != 0 || st.Epoch != first.Epoch {
		t.Fatalf("unchanged tree: parsed %d, epoch %d; want 0 at epoch %d", st.Parsed, st.Epoch, first.Epoch)
	}
	defer index.SetExtractorVersion(lang.ExtractorVersion + 1)()
	st := reconcile(t, ix)
	if st.Parsed != 2 || st.Epoch != first.Epoch+1 {
		t.Fatalf("after an upgrade: parsed %d, epoch %d; want 2 at epoch %d", st.Parsed, st.Epoch, first.Epoch+1)
	}
	if st := reconcile(t, ix); st.Parsed != 0 || st.Epoch != first.Epoch+1 {
		t.Fatalf("after the upgrade's build: parsed %d, epoch %d; want 0 at epoch %d", st.Parsed, st.Epoch, first.Epoch+1)
	}
}
