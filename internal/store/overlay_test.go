package store

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// dump is what the reads of an index return, for comparing an overlay with
// a standalone index of the same state.
func dump(t *testing.T, r *Reader) string {
	t.Helper()
	ctx := context.Background()
	var b strings.Builder
	put := func(what string, v any, err error) {
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		fmt.Fprintf(&b, "%s: %+v\n", what, v)
	}
	files, err := r.Files(ctx)
	put("files", files, err)
	syms, err := r.AllSymbols(ctx)
	put("symbols", syms, err)
	var ids, fileIDs []int64
	for _, f := range files {
		fileIDs = append(fileIDs, f.ID)
		link, err := r.Link(ctx, f.ID)
		put("link "+f.Path, string(link), err)
		imp, err := r.Imports(ctx, f.ID)
		put("imports "+f.Path, string(imp), err)
		of, err := r.SymbolsOfFile(ctx, f.ID)
		put("symbols of "+f.Path, of, err)
	}
	for _, s := range syms {
		ids = append(ids, s.ID)
		byName, err := r.SymbolsByName(ctx, s.Name)
		put("by name "+s.Name, byName, err)
		byQ, err := r.SymbolsByQName(ctx, s.QName)
		put("by qname "+s.QName, byQ, err)
		to, err := r.EdgesTo(ctx, s.ID, 0, 1, 2, 3)
		put(fmt.Sprint("edges to ", s.ID), to, err)
		from, err := r.EdgesFrom(ctx, s.FileID, s.ID, 0, 1, 2, 3)
		put(fmt.Sprint("edges from ", s.ID), from, err)
		members, err := r.SymbolsByParent(ctx, s.ID, 100)
		put(fmt.Sprint("members of ", s.ID), members, err)
		def, err := r.FilesDefining(ctx, strings.ToUpper(s.Name), true)
		put("defining "+s.Name, def, err)
		byID, ok, err := r.SymbolByID(ctx, s.ID)
		put(fmt.Sprint("symbol ", s.ID, ok), byID, err)
		qn, err := r.FilesByQNames(ctx, []string{s.QName})
		put("files by qname "+s.QName, qn, err)
	}
	byIDs, err := r.SymbolsByIDs(ctx, append(ids, 424242))
	put("by ids", byIDs, err)
	ofFiles, err := r.SymbolsOfFiles(ctx, fileIDs)
	put("of files", ofFiles, err)
	for _, sub := range []string{"alp", "al", "BETA", "gam", "new", "e"} {
		q := SymbolSearch{Sub: sub, KindWeight: map[uint8]int{kFunction: 20, kClass: 25}, ExactBonus: 100, Limit: 50}
		found, scores, err := r.SearchSymbols(ctx, q)
		put("search "+sub, fmt.Sprint(found, scores), err)
		n, err := r.CountSymbols(ctx, q, 100)
		put("count "+sub, n, err)
	}
	edges, err := r.AllEdges(ctx, 0, 1, 2, 3)
	put("edges", edges, err)
	imps, err := r.AllImports(ctx)
	put("all imports", imps, err)
	var links []string
	err = r.AllLinks(ctx, func(id int64, data []byte) error { links = append(links, fmt.Sprint(id, string(data))); return nil })
	put("all links", links, err)
	sf, err := r.SymbolFiles(ctx)
	put("symbol files", sf, err)
	fl, st, n, err := r.Counts(ctx)
	put("counts", fmt.Sprint(fl, st, n), err)
	pre, err := r.SymbolsByQNamePrefix(ctx, "b.", 100)
	put("prefix", pre, err)
	return b.String()
}

func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(data)
}

// An overlay over a baseline answers every read as a standalone index of
// the same state does, after each kind of write, and never changes the
// baseline file.
func TestOverlayAnswersAsStandalone(t *testing.T) {
	ctx := context.Background()
	f, over, twin, base := overlayTwin(t)
	baseSum := fileSum(t, base)
	if over.Baseline() != base || twin.Baseline() != "" {
		t.Fatalf("baselines: overlay %q, twin %q; want %q and none", over.Baseline(), twin.Baseline(), base)
	}
	if n := column[int64](t, over, `SELECT count(*) FROM main.symbol`); n[0] != 0 {
		t.Fatalf("a new overlay holds %d symbols of its own", n[0])
	}
	check := func(step string) {
		t.Helper()
		if diff := cmp.Diff(dump(t, &twin.Reader), dump(t, &over.Reader)); diff != "" {
			t.Fatalf("%s: overlay answers differ from the standalone index (-standalone +overlay):\n%s", step, diff)
		}
		if fileSum(t, base) != baseSum {
			t.Fatalf("%s: the baseline file changed", step)
		}
	}
	check("seeded")

	// The same batches on both: an edit (a symbol renamed, links and edges
	// replaced), an added file with a new name, a deleted file, a symbol id
	// that moves to another file.
	both := func(step string, fn func(tx *Tx) error) {
		t.Helper()
		commit(t, twin, fn)
		commit(t, over, fn)
		check(step)
	}
	both("edit", func(tx *Tx) error {
		if err := tx.DeleteSymbols([]int64{symAlphabet}); err != nil {
			return err
		}
		if err := tx.PutSymbols([]SymbolRow{{ID: 201, FileID: f.file["a/alpha.go"], DefIdx: 1, Name: "alphabetic", QName: "example.com/a.alphabetic", Kind: kFunction, Visibility: vPrivate, ModuleID: f.mod[""], Version: 13}}); err != nil {
			return err
		}
		if err := tx.SetLink(f.file["a/alpha.go"], []byte("links of alpha 2"), nil); err != nil {
			return err
		}
		return tx.SetEdges(f.file["a/alpha.go"], []EdgeRow{{Src: 201, Dst: symAlpha, Kind: 0, Tier: 1, Count: 3, Line: 5, Col: 20}}, false)
	})
	var added int64
	both("add", func(tx *Tx) error {
		id, err := tx.PutFile(fileRow("c/new.go", alphaSrc, "go", f.blob["alpha"], f.mod[""], 4))
		if err != nil {
			return err
		}
		added = id
		if err := tx.PutSymbols([]SymbolRow{{ID: 301, FileID: id, DefIdx: 0, Name: "NewThing", QName: "example.com/c.NewThing", Kind: kFunction, Visibility: vPublic, ModuleID: f.mod[""], Version: 31}}); err != nil {
			return err
		}
		if err := tx.SetLink(id, []byte("links of new"), []byte("imports of new")); err != nil {
			return err
		}
		return tx.SetEdges(id, []EdgeRow{{Src: 301, Dst: symBeta, Kind: 2, Tier: 2, Count: 1, Line: 1, Col: 1}}, false)
	})
	both("delete", func(tx *Tx) error { return tx.DeleteFile(f.file["b/beta.py"]) })
	both("move", func(tx *Tx) error {
		// symCopyAlpha now defined by the new file: it leaves a/copy.go.
		return tx.PutSymbols([]SymbolRow{{ID: symCopyAlpha, FileID: added, DefIdx: 1, Name: "Alpha", QName: "example.com/a.Alpha", Kind: kFunction, Visibility: vPublic, ModuleID: f.mod[""], Version: 11}})
	})
	both("readd", func(tx *Tx) error {
		// A file added after a deletion may get the deleted file's id.
		id, err := tx.PutFile(fileRow("d/again.py", betaSrc, "python", f.blob["beta"], f.mod["b"], 5))
		if err != nil {
			return err
		}
		return tx.PutSymbols([]SymbolRow{{ID: 401, FileID: id, DefIdx: 0, Name: "again", QName: "d.again", Kind: kFunction, Visibility: vPublic, ModuleID: f.mod["b"], Version: 41}})
	})

	// An export writes a standalone index with the same answers.
	exported := filepath.Join(t.TempDir(), "export")
	if err := os.MkdirAll(exported, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := over.SnapshotTo(ctx, filepath.Join(exported, "index.db"), filepath.Join(exported, "blobs.db")); err != nil {
		t.Fatal(err)
	}
	if got := baselineOf(ctx, filepath.Join(exported, "index.db")); got != "" {
		t.Fatalf("the exported index names baseline %q", got)
	}
	if err := reseal(filepath.Join(exported, "index.db")); err != nil {
		t.Fatal(err)
	}
	exp := mustOpen(t, Options{IndexPath: filepath.Join(exported, "index.db"), BlobPath: f.opts.BlobPath})
	if diff := cmp.Diff(dump(t, &twin.Reader), dump(t, &exp.Reader)); diff != "" {
		t.Fatalf("export differs (-standalone +export):\n%s", diff)
	}

	// A full rebuild makes the overlay standalone: the next open attaches nothing.
	both("rebuild", func(tx *Tx) error {
		if err := tx.ClearSymbols(); err != nil {
			return err
		}
		return tx.PutSymbols([]SymbolRow{{ID: 501, FileID: f.file["a/alpha.go"], DefIdx: 0, Name: "Alpha", QName: "example.com/a.Alpha", Kind: kFunction, Visibility: vPublic, ModuleID: f.mod[""], Version: 11},
			{ID: 502, FileID: f.file["a/alpha.go"], DefIdx: 1, Name: "Rebuilt", QName: "example.com/a.Rebuilt", Kind: kFunction, Visibility: vPublic, ModuleID: f.mod[""], Version: 11}})
	})
	reopenStandalone(t, f, over, twin, "after a rebuild")
}

// reopenStandalone closes an overlay, opens its index again and checks that
// it is standalone now, with the answers of its standalone twin.
func reopenStandalone(t *testing.T, f *fixture, over, twin *DB, step string) {
	t.Helper()
	over.Close()
	again := mustOpen(t, f.opts)
	if again.Baseline() != "" {
		t.Fatalf("%s the index still names baseline %q", step, again.Baseline())
	}
	if diff := cmp.Diff(dump(t, &twin.Reader), dump(t, &again.Reader)); diff != "" {
		t.Fatalf("%s (-standalone +reopened):\n%s", step, diff)
	}
}

// The hot reads keep their indexes through the views.
func TestOverlayQueryPlans(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.db.Close()
	if _, err := makeBaseline(ctx, f.opts.IndexPath, f.opts.BlobPath); err != nil {
		t.Fatal(err)
	}
	db := mustOpen(t, f.opts)
	for _, c := range []struct{ q, want string }{
		{`SELECT ` + symbolCols + ` FROM symbol WHERE name = ? ORDER BY qname, id`, "symbol_name"},
		{`SELECT ` + symbolCols + ` FROM symbol WHERE qname = ? ORDER BY id`, "symbol_qname"},
		{`SELECT ` + symbolCols + ` FROM symbol WHERE id = ?`, "INTEGER PRIMARY KEY"},
		{`SELECT ` + symbolCols + ` FROM symbol WHERE file_id = ? ORDER BY def_idx`, "symbol_file"},
		{`SELECT file_id, src, dst, kind, tier, count, line, col FROM edge WHERE dst = ? AND kind IN (?, ?) ORDER BY src, file_id, kind`, "edge_dst"},
		{`SELECT file_id, src, dst, kind, tier, count, line, col FROM edge WHERE file_id = ? AND src = ? AND kind IN (?) ORDER BY dst, kind`, "PRIMARY KEY"},
		{`SELECT data FROM link WHERE file_id = ?`, "INTEGER PRIMARY KEY"},
		{`WITH sname_match(id) AS MATERIALIZED (SELECT rowid FROM main.sname_fts WHERE name LIKE ? UNION ALL SELECT rowid FROM base.sname_fts WHERE name LIKE ?)
			SELECT s.id FROM symbol s WHERE s.name_id IN (SELECT id FROM sname_match)`, "symbol_name_id"},
	} {
		rows, err := db.sql.QueryContext(ctx, `EXPLAIN QUERY PLAN `+c.q, 1, 2, 3, 4)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, notused int
			var detail string
			rows.Scan(&id, &parent, &notused, &detail)
			plan = append(plan, detail)
		}
		rows.Close()
		text := strings.Join(plan, "\n")
		// Both the overlay's table and the baseline's are searched by the index.
		if strings.Count(text, c.want) < 2 || strings.Contains(text, "SCAN symbol") || strings.Contains(text, "SCAN edge") || strings.Contains(text, "SCAN link") {
			t.Errorf("%s\nplan:\n%s\nwant %s used on both sides", c.q, text, c.want)
		}
	}
}

// overlayTwin makes the fixture's index an overlay over a new baseline and
// returns it with a standalone twin of the same state.
func overlayTwin(t *testing.T) (f *fixture, over, twin *DB, base string) {
	t.Helper()
	f = newFixture(t)
	f.db.Close()
	twinOpts := Options{IndexPath: filepath.Join(t.TempDir(), "index.db"), BlobPath: f.opts.BlobPath}
	if err := copyDB(f.opts.IndexPath, twinOpts.IndexPath); err != nil {
		t.Fatal(err)
	}
	if err := reseal(twinOpts.IndexPath); err != nil {
		t.Fatal(err)
	}
	base, err := makeBaseline(context.Background(), f.opts.IndexPath, f.opts.BlobPath)
	if err != nil {
		t.Fatal(err)
	}
	return f, mustOpen(t, f.opts), mustOpen(t, twinOpts), base
}

// An overlay that replaced more than a quarter of its files is standalone
// when next opened, with the same answers.
func TestOverlayOutgrown(t *testing.T) {
	f, over, twin, _ := overlayTwin(t)
	relink := func(tx *Tx) error {
		for _, p := range []string{"a/alpha.go", "b/beta.py"} {
			if err := tx.SetLink(f.file[p], []byte("relinked "+p), nil); err != nil {
				return err
			}
		}
		return nil
	}
	commit(t, twin, relink)
	commit(t, over, relink)
	reopenStandalone(t, f, over, twin, "with 2 of 5 files replaced,")
}

// A baseline changed outside Cairn condemns the overlay over it: Check
// reports its worktree index as damaged, and the next open starts that
// index afresh, standalone, without writing the baseline.
func TestOverlayDamagedBaseline(t *testing.T) {
	f, over, _, base := overlayTwin(t)
	if d := over.Check(); d != nil {
		t.Fatalf("a sound baseline reported as %v", d)
	}
	if err := os.Chmod(base, 0o600); err != nil {
		t.Fatal(err)
	}
	fh, err := os.OpenFile(base, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	fh.Write([]byte("damage"))
	fh.Close()
	damaged := fileSum(t, base)
	d := over.Check()
	if d == nil || d.DB != "main" || !strings.Contains(d.Reason, "baseline") {
		t.Fatalf("Check after the baseline changed: %v, want damage of the worktree index naming its baseline", d)
	}
	over.Close()
	again := mustOpen(t, f.opts)
	if again.Baseline() != "" || !strings.Contains(strings.Join(again.Warnings, "\n"), "baseline") {
		t.Fatalf("reopened: baseline %q, warnings %q; want a standalone index and a warning", again.Baseline(), again.Warnings)
	}
	if files, err := again.Files(context.Background()); err != nil || len(files) != 0 {
		t.Fatalf("reopened index has %d files (%v), want a fresh one", len(files), err)
	}
	if fileSum(t, base) != damaged {
		t.Fatal("opening the worktree wrote the baseline")
	}
}
