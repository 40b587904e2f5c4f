package store

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// rowCounts counts the worktree rows that hang off files.
func rowCounts(t *testing.T, db *DB) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, table := range []string{"file", "symbol", "link", "edge"} {
		out[table] = column[int](t, db, `SELECT count(*) FROM `+table)[0]
	}
	return out
}

func TestPutFileUpdatesInPlace(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	changed := fileRow("a/alpha.go", betaSrc, "python", f.blob["beta"], f.mod["b"], 4)
	var id int64
	commit(t, f.db, func(tx *Tx) error {
		var err error
		id, err = tx.PutFile(changed)
		return err
	})
	if id != f.file["a/alpha.go"] {
		t.Fatalf("PutFile of an existing path gave id %d, want %d", id, f.file["a/alpha.go"])
	}
	changed.ID = id
	got, _, err := f.db.FileByPath(ctx, "a/alpha.go")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(changed, got); diff != "" {
		t.Errorf("after PutFile (-want +got):\n%s", diff)
	}
	commit(t, f.db, func(tx *Tx) error {
		if err := tx.SetFileStat(id, 1, 2, 3, 4); err != nil {
			return err
		}
		return tx.SetFileModule(id, f.mod[""])
	})
	changed.Size, changed.MtimeNS, changed.CtimeNS, changed.Inode, changed.ModuleID = 1, 2, 3, 4, f.mod[""]
	got, _, err = f.db.FileByID(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(changed, got); diff != "" {
		t.Errorf("after SetFileStat and SetFileModule (-want +got):\n%s", diff)
	}
}

// Deleting a file or clearing symbols takes exactly the rows that depend on them.
func TestDeletes(t *testing.T) {
	f0 := newFixture(t)
	all := rowCounts(t, f0.db) // file 5, symbol 7, link 3, edge 4
	if diff := cmp.Diff(map[string]int{"file": 5, "symbol": 7, "link": 3, "edge": 4}, all); diff != "" {
		t.Fatalf("fixture rows (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		name   string
		change func(f *fixture, tx *Tx) error
		want   map[string]int
	}{
		{"DeleteFile", func(f *fixture, tx *Tx) error { return tx.DeleteFile(f.file["a/alpha.go"]) },
			map[string]int{"file": 4, "symbol": 5, "link": 2, "edge": 2}},
		{"DeleteSymbolsOf", func(f *fixture, tx *Tx) error { return tx.DeleteSymbolsOf(f.file["b/beta.py"]) },
			map[string]int{"file": 5, "symbol": 4, "link": 3, "edge": 4}},
		{"DeleteSymbols", func(f *fixture, tx *Tx) error { return tx.DeleteSymbols([]int64{symAlpha, symBetaRun, 9999}) },
			map[string]int{"file": 5, "symbol": 5, "link": 3, "edge": 4}},
		{"ClearSymbols", func(f *fixture, tx *Tx) error { return tx.ClearSymbols() },
			map[string]int{"file": 5, "symbol": 0, "link": 0, "edge": 0}},
		{"SetEdges replaces a file's edges", func(f *fixture, tx *Tx) error {
			return tx.SetEdges(f.file["a/alpha.go"], []EdgeRow{{Src: symAlpha, Dst: symBeta, Kind: 0, Count: 1}}, false)
		}, map[string]int{"file": 5, "symbol": 7, "link": 3, "edge": 3}},
		{"SetEdges of a fresh table adds", func(f *fixture, tx *Tx) error {
			return tx.SetEdges(f.file["a/alpha.go"], []EdgeRow{{Src: symAlpha, Dst: symBeta, Kind: 0, Count: 1}}, true)
		}, map[string]int{"file": 5, "symbol": 7, "link": 3, "edge": 5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			commit(t, f.db, func(tx *Tx) error { return tc.change(f, tx) })
			if diff := cmp.Diff(tc.want, rowCounts(t, f.db)); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
		})
	}
}

// A full rebuild drops the secondary indexes and creates them at the end;
// the lookups that use them answer the same before and after.
func TestRebuildIndexes(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	indexes := func() []string {
		return column[string](t, f.db, `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('symbol', 'edge') AND sql IS NOT NULL ORDER BY name`)
	}
	before := indexes()
	if len(before) != 6 {
		t.Fatalf("indexes before: %v", before)
	}
	tx, err := f.db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.DropSymbolIndexes(); err != nil {
		t.Fatal(err)
	}
	if err := tx.DropEdgeIndexes(); err != nil {
		t.Fatal(err)
	}
	if err := tx.CreateSymbolIndexes(); err != nil {
		t.Fatal(err)
	}
	if err := tx.CreateEdgeIndexes(); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	tx.Rollback() // safe after Commit
	if diff := cmp.Diff(before, indexes()); diff != "" {
		t.Errorf("indexes after a rebuild (-want +got):\n%s", diff)
	}
	rows, err := f.db.SymbolsByName(ctx, "Alpha")
	if err != nil || len(rows) != 2 {
		t.Errorf("SymbolsByName after a rebuild: %v %v", symbolIDs(rows), err)
	}
	if err := f.db.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}

// TouchBlobs moves last_used forward, but leaves rows touched within the
// hour alone (to keep the write small).
func TestTouchBlobs(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t) // blobs written at 100
	lastUsed := func() []int64 {
		return column[int64](t, f.db, `SELECT last_used FROM blobs.blob WHERE id IN (?, ?) ORDER BY id`, f.blob["alpha"], f.blob["beta"])
	}
	for _, step := range []struct {
		now  int64
		want []int64
	}{
		{10000, []int64{10000, 100}},
		{10000 + 3599, []int64{10000, 100}},
		{10000 + 3601, []int64{13601, 100}},
	} {
		if err := f.db.TouchBlobs(ctx, []int64{f.blob["alpha"], 9999}, step.now); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(step.want, lastUsed()); diff != "" {
			t.Errorf("last_used after a touch at %d (-want +got):\n%s", step.now, diff)
		}
	}
	if err := f.db.TouchBlobs(ctx, nil, 99999); err != nil {
		t.Errorf("touching nothing: %v", err)
	}
	if got := lastUsed(); !slices.Equal(got, []int64{13601, 100}) {
		t.Errorf("touching nothing changed last_used: %v", got)
	}
}

// ClaimBlobs reports the blobs that no longer exist, and a blob claimed
// after the mark phase of a collection saw it unused survives the sweep.
func TestClaimBlobs(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t) // blobs written at 100
	missing, err := f.db.ClaimBlobs(ctx, []int64{f.blob["alpha"], 9999}, 500, 0)
	if err != nil || !slices.Equal(missing, []int64{9999}) {
		t.Fatalf("claim: missing %v, %v; want [9999]", missing, err)
	}
	sweep := func(cutoff int64) (removed int, err error) {
		err = f.db.write("blobs", func() (err error) {
			removed, err = f.db.deleteBlobs(ctx, []int64{f.blob["alpha"]}, cutoff)
			return err
		})
		return removed, err
	}
	// A sweep whose cutoff (400) is older than the claim (500) keeps alpha.
	removed, err := sweep(400)
	if err != nil || removed != 0 {
		t.Fatalf("sweep after the claim removed %d (%v), want 0", removed, err)
	}
	removed, err = sweep(600)
	if err != nil || removed != 1 {
		t.Fatalf("sweep past the claim removed %d (%v), want 1", removed, err)
	}
	if missing, err := f.db.ClaimBlobs(ctx, []int64{f.blob["alpha"]}, 700, 0); err != nil || !slices.Equal(missing, []int64{f.blob["alpha"]}) {
		t.Fatalf("claim after the sweep: missing %v (%v), want alpha", missing, err)
	}
}
