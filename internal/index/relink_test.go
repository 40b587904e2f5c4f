package index_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/testenv"
)

// linkTargets lists every resolved reference of the index as
// "path ref -> qualified name (tier)", so that two indexes can be compared
// whatever their symbol ids.
func linkTargets(t *testing.T, ix *index.Index) []string {
	t.Helper()
	ctx := context.Background()
	snap, err := ix.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Release()
	qname := map[int64]string{}
	for q, id := range ids(t, ix) {
		qname[id] = q
	}
	files, err := snap.Store().Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		data, err := snap.Store().Link(ctx, f.ID)
		if err != nil {
			t.Fatal(err)
		}
		links, err := index.DecodeLinks(data)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range links {
			out = append(out, fmt.Sprintf("%s %d -> %s (%v)", f.Path, l.Ref, qname[l.Target], l.Tier))
		}
	}
	sort.Strings(out)
	return out
}

// sameLinksAsClean reports where the links of ix, updated incrementally,
// differ from those of a clean index of dir, and returns them.
func sameLinksAsClean(t *testing.T, dir string, ix *index.Index) []string {
	t.Helper()
	got := linkTargets(t, ix)
	paths, err := config.Locate(context.Background(), dir, filepath.Join(t.TempDir(), "clean"))
	if err != nil {
		t.Fatal(err)
	}
	clean, err := index.Open(context.Background(), paths, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	defer clean.Close()
	reconcile(t, clean)
	if diff := cmp.Diff(linkTargets(t, clean), got); diff != "" {
		t.Errorf("links differ from a clean index (-clean +incremental):\n%s", diff)
	}
	return got
}

// relinkAfter indexes a repository of files, writes edits over it and
// reconciles again; it returns the repository, its index and the stats of
// the second reconcile.
func relinkAfter(t *testing.T, files, edits map[string]string) (string, *index.Index, *index.Stats) {
	t.Helper()
	dir, ix := repo(t, files)
	reconcile(t, ix)
	for p, c := range edits {
		testenv.WriteFile(t, dir, p, c)
	}
	return dir, ix, reconcile(t, ix)
}

// After a rename, the files that use the old or new name, or a member of
// the renamed type, are linked again and agree with a clean index; a file
// that holds the name only inside a longer word (NewConfigured) is left as
// it was.
func TestRelinkAfterRename(t *testing.T) {
	dir, ix, st := relinkAfter(t, map[string]string{
		"go.mod":       "module example.com/rl\n",
		"a/config.go":  "package a\n\ntype Config struct{ Host string }\n\nfunc NewConfig() *Config { return &Config{} }\n",
		"b/uses.go":    "package b\n\nimport \"example.com/rl/a\"\n\nfunc F() string {\n\tc := a.NewConfig()\n\treturn c.Host\n}\n\nfunc G(c *a.Config) string { return c.Host }\n",
		"c/other.go":   "package c\n\n// NewConfigured has the renamed name only inside a longer word.\nfunc NewConfigured() int { return 1 }\n",
		"d/host.go":    "package d\n\ntype Server struct{ Host string }\n\nfunc H(s Server) string { return s.Host }\n",
		"e/unused.go":  "package e\n\nfunc E() int { return 2 }\n",
		"a/helpers.go": "package a\n\nfunc Default() *Config { return NewConfig() }\n",
	}, map[string]string{
		"a/config.go":  "package a\n\ntype Settings struct{ Host string }\n\nfunc NewConfig() *Settings { return &Settings{} }\n",
		"b/uses.go":    "package b\n\nimport \"example.com/rl/a\"\n\nfunc F() string {\n\tc := a.NewConfig()\n\treturn c.Host\n}\n\nfunc G(c *a.Settings) string { return c.Host }\n",
		"a/helpers.go": "package a\n\nfunc Default() *Settings { return NewConfig() }\n",
	})
	// the three changed files, and d/host.go for the member name Host;
	// not c/other.go (Config only inside NewConfigured) nor e/unused.go
	if st.Relinked != 4 {
		t.Errorf("relinked %d files, want 4 (the changed ones and d/host.go)", st.Relinked)
	}
	if got := sameLinksAsClean(t, dir, ix); len(got) == 0 {
		t.Fatal("no links at all")
	}
}

// A file that names a changed symbol only where no reference of it does (an
// import under an alias, here) is linked again too: its name postings hold
// every name its facts mention, not only its references' names. The file is
// not edited, yet its alias no longer resolves after the rename.
func TestRelinkFindsNamesOutsideReferences(t *testing.T) {
	dir, ix, st := relinkAfter(t, map[string]string{
		"Cargo.toml":    "[package]\nname = \"rl\"\nversion = \"0.1.0\"\n",
		"src/lib.rs":    "pub mod config;\npub mod uses;\npub mod other;\n",
		"src/config.rs": "pub struct Config;\n",
		"src/uses.rs":   "use crate::config::Config as Cfg;\n\npub fn take(_c: Cfg) {}\n",
		"src/other.rs":  "pub fn other() -> i32 {\n    1\n}\n",
	}, map[string]string{"src/config.rs": "pub struct Settings;\n"})
	// config.rs, and uses.rs for its import of Config; not other.rs
	if st.Relinked != 2 {
		t.Errorf("relinked %d files, want 2 (config.rs and uses.rs)", st.Relinked)
	}
	if got := sameLinksAsClean(t, dir, ix); len(got) != 0 {
		t.Errorf("uses.rs still links its alias after Config was renamed: %v", got)
	}
}

// Linking reads the stored symbols of the relinked files' packages ahead of
// the linker; what it links with them equals a clean index, whichever of
// the two read a package first (here p's files are relinked, and p is
// also the package b imports).
func TestRelinkReadAheadAgreesWithClean(t *testing.T) {
	files := map[string]string{
		"go.mod":      "module example.com/ra\n",
		"a/config.go": "package a\n\ntype Config struct{ Host string }\n",
		"b/b.go":      "package b\n\nimport \"example.com/ra/p\"\n\nfunc B() string { return p.Use1(nil) + p.Use2(nil) }\n",
	}
	for i := 1; i <= 4; i++ {
		// each calls the helper of the next file: resolved through p's symbols
		files[fmt.Sprintf("p/use%d.go", i)] = fmt.Sprintf("package p\n\nimport \"example.com/ra/a\"\n\nfunc Use%d(c *a.Config) string { return c.Host + Helper%d() }\n\nfunc Helper%d() string { return \"\" }\n", i, i%4+1, i)
	}
	dir, ix, st := relinkAfter(t, files, map[string]string{"a/config.go": "package a\n\ntype Settings struct{ Host string }\n"})
	if st.Relinked != 5 { // a/config.go and the four files of p (b uses neither name)
		t.Errorf("relinked %d files, want 5", st.Relinked)
	}
	if got := sameLinksAsClean(t, dir, ix); len(got) == 0 {
		t.Fatal("no links at all")
	}
}

// Contents handed to Prestore before they are written are parsed beside the
// write: the reconcile after the write takes their facts instead of parsing
// them, and the index it builds (symbols, links) equals a clean one.
func TestPrestoredWriteAgreesWithClean(t *testing.T) {
	dir, ix := repo(t, map[string]string{
		"go.mod":       "module example.com/ps\n",
		"a/config.go":  "package a\n\ntype Config struct{ Host string }\n\nfunc NewConfig() *Config { return &Config{} }\n",
		"a/helpers.go": "package a\n\nfunc Default() *Config { return NewConfig() }\n",
		"b/uses.go":    "package b\n\nimport \"example.com/ps/a\"\n\nfunc G(c *a.Config) string { return c.Host }\n",
		"notes.txt":    "ps\n",
	})
	reconcile(t, ix)
	next := map[string]string{
		"a/config.go":  "package a\n\ntype Settings struct{ Host string }\n\nfunc NewConfig() *Settings { return &Settings{} }\n",
		"a/helpers.go": "package a\n\nfunc Default() *Settings { return NewConfig() }\n",
		"b/uses.go":    "package b\n\nimport \"example.com/ps/a\"\n\nfunc G(c *a.Settings) string { return c.Host }\n",
		"notes.txt":    "ps, with Settings\n", // no language: left to the reconcile
	}
	files := map[string][]byte{}
	var paths []string
	for p, c := range next {
		files[p] = []byte(c)
		paths = append(paths, p)
	}
	ix.Prestore(files)
	for p, c := range next {
		testenv.WriteFile(t, dir, p, c)
	}
	st, err := ix.ReconcilePaths(context.Background(), paths, index.ReconcileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Modified != 4 || st.Parsed != 3 || st.Prestored != 3 {
		t.Errorf("modified %d files, parsed %d, %d of them by Prestore: want 4 modified and the 3 Go files parsed by Prestore (the text has no parse)", st.Modified, st.Parsed, st.Prestored)
	}
	sameLinksAsClean(t, dir, ix)
	got := ids(t, ix)
	if _, ok := got["example.com/ps/a.Settings"]; !ok {
		t.Errorf("no symbol a.Settings after the write: %v", got)
	}
	if _, ok := got["example.com/ps/a.Config"]; ok {
		t.Error("a.Config is still a symbol after the write")
	}
}
