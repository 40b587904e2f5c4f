package store

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zeebo/xxh3"
)

// The fixture is a small worktree index over a real SQLite file: five paths
// (two of them holding the same content), symbols with parents and
// duplicate qualified names, links, import edges, call and type edges, an
// alias, a tombstone and three epochs of history.
type fixture struct {
	db    *DB
	opts  Options
	blob  map[string]int64 // blob id by content name
	file  map[string]int64 // file id by path
	mod   map[string]int64 // module id by root
	paths []string         // every path, sorted
}

// Contents of the fixture's blobs.
const (
	alphaSrc  = "package a\n\nfunc Alpha() {}\n\nfunc alphabet() {}\n"
	betaSrc   = "class Beta:\n    def run(self): pass\n\ndef beta_gamma(): pass\nbetaxgamma = 1\n"
	readmeSrc = "Alpha and Beta, with a [glob] * and 50% off.\n"
)

// Symbol ids of the fixture.
const (
	symAlpha      = 101 // a/alpha.go
	symAlphabet   = 102 // a/alpha.go
	symCopyAlpha  = 103 // a/copy.go, same content as a/alpha.go
	symBetaGamma  = 104
	symBeta       = 105
	symBetaRun    = 106 // member of Beta
	symBetaxgamma = 107 // a/copy.go: a name that LIKE's '_' wildcard confuses with beta_gamma
)

// Symbol kinds and visibilities of the fixture (the store knows them only as numbers).
const (
	kFunction, kClass, kMethod, kVariable = 1, 3, 2, 12
	vPublic, vPrivate                     = 1, 3
)

func hashOf(s string) Hash { return Hash(xxh3.Hash128([]byte(s)).Bytes()) }

// blobRow is a blob of a content with facts, text and surfaces as given.
func blobRow(content, language string, status BlobStatus, facts []byte, surfaces ...SurfaceData) BlobRow {
	r := BlobRow{Key: BlobKey{Hash: hashOf(content), Lang: language, XVer: 1}, Size: int64(len(content)), Status: status,
		Facts: facts, Surfaces: surfaces}
	if status != BlobBinary && status != BlobTooLarge {
		r.Text = []byte(content)
	}
	return r
}

// insertBlobs writes blobs and fails the test on error.
func insertBlobs(t *testing.T, db *DB, now int64, rows ...BlobRow) []int64 {
	t.Helper()
	ids, err := db.InsertBlobs(context.Background(), rows, now)
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// commit runs fn in one write transaction of the worktree index.
func commit(t *testing.T, db *DB, fn func(tx *Tx) error) {
	t.Helper()
	tx, err := db.Begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// fileRow is a file row of path holding blob id with content.
func fileRow(path, content, language string, blobID, moduleID, epoch int64) FileRow {
	return FileRow{Path: path, BlobID: blobID, Hash: hashOf(content), NormHash: hashOf(content), GitOID: "oid:" + path,
		Size: int64(len(content)), MtimeNS: 1000 + epoch, CtimeNS: 2000 + epoch, Inode: 7, Lang: language,
		Status: BlobParsed, ModuleID: moduleID, Epoch: epoch}
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	db, opts := openTemp(t)
	f := &fixture{db: db, opts: opts, blob: map[string]int64{}, file: map[string]int64{}, mod: map[string]int64{}}
	ids := insertBlobs(t, db, 100,
		blobRow(alphaSrc, "go", BlobParsed, []byte("facts of alpha"),
			SurfaceData{Kind: 0, Data: []byte("routes of alpha")}, SurfaceData{Kind: 2, Data: []byte("tables of alpha")}),
		blobRow(betaSrc, "python", BlobParseErrors, []byte("facts of beta"), SurfaceData{Kind: 0, Data: []byte("routes of beta")}),
		blobRow(readmeSrc, "", BlobText, nil),
		blobRow("\x89PNG\x00\x01", "", BlobBinary, nil),
	)
	for i, name := range []string{"alpha", "beta", "readme", "png"} {
		f.blob[name] = ids[i]
	}
	commit(t, db, func(tx *Tx) error {
		mods, err := tx.ReplaceModules([]ModuleRow{
			{Root: "", Name: "example.com/a", Kind: "go", Manifest: "go.mod", Deps: []string{"example.com/dep"}},
			{Root: "b", Name: "b", Kind: "python", Manifest: "b/pyproject.toml", Workspace: "", Detached: true},
		})
		if err != nil {
			return err
		}
		f.mod[""], f.mod["b"] = mods[[2]string{"", "go"}], mods[[2]string{"b", "python"}]
		readme := fileRow("README.md", readmeSrc, "", f.blob["readme"], f.mod[""], 2)
		readme.Status = BlobText
		png := fileRow("img.png", "\x89PNG\x00\x01", "", f.blob["png"], f.mod[""], 1)
		png.Status = BlobBinary
		beta := fileRow("b/beta.py", betaSrc, "python", f.blob["beta"], f.mod["b"], 3)
		beta.Status = BlobParseErrors
		alpha := fileRow("a/alpha.go", alphaSrc, "go", f.blob["alpha"], f.mod[""], 1)
		alpha.Pkg = "a"
		cp := fileRow("a/copy.go", alphaSrc, "go", f.blob["alpha"], f.mod[""], 1)
		cp.Pkg = "a"
		for _, r := range []FileRow{alpha, cp, beta, readme, png} {
			id, err := tx.PutFile(r)
			if err != nil {
				return err
			}
			f.file[r.Path] = id
		}
		f.paths = []string{"README.md", "a/alpha.go", "a/copy.go", "b/beta.py", "img.png"}
		err = tx.PutSymbols([]SymbolRow{
			{ID: symAlpha, FileID: f.file["a/alpha.go"], DefIdx: 0, Name: "Alpha", QName: "example.com/a.Alpha", Kind: kFunction, Visibility: vPublic, ModuleID: f.mod[""], Version: 11},
			{ID: symAlphabet, FileID: f.file["a/alpha.go"], DefIdx: 1, Name: "alphabet", QName: "example.com/a.alphabet", Kind: kFunction, Visibility: vPrivate, ModuleID: f.mod[""], Version: 12},
			{ID: symCopyAlpha, FileID: f.file["a/copy.go"], DefIdx: 0, Name: "Alpha", QName: "example.com/a.Alpha", Kind: kFunction, Visibility: vPublic, ModuleID: f.mod[""], Version: 11},
			{ID: symBeta, FileID: f.file["b/beta.py"], DefIdx: 0, Name: "Beta", QName: "b.Beta", Kind: kClass, Visibility: vPublic, ModuleID: f.mod["b"], Version: 21},
			{ID: symBetaRun, FileID: f.file["b/beta.py"], DefIdx: 1, Name: "run", QName: "b.Beta.run", Kind: kMethod, Visibility: vPublic, ModuleID: f.mod["b"], Parent: symBeta, Version: 22},
			{ID: symBetaGamma, FileID: f.file["b/beta.py"], DefIdx: 2, Name: "beta_gamma", QName: "b.beta_gamma", Kind: kFunction, Visibility: vPublic, ModuleID: f.mod["b"], Version: 23},
			{ID: symBetaxgamma, FileID: f.file["a/copy.go"], DefIdx: 1, Name: "betaxgamma", QName: "b.betaxgamma", Kind: kVariable, Visibility: vPublic, ModuleID: f.mod["b"], Version: 24},
		})
		if err != nil {
			return err
		}
		for _, l := range []struct {
			path          string
			data, imports []byte
		}{
			{"a/alpha.go", []byte("links of alpha"), []byte("imports of alpha")},
			{"a/copy.go", []byte("links of copy"), nil},
			{"b/beta.py", nil, []byte("imports of beta")},
		} {
			if err := tx.SetLink(f.file[l.path], l.data, l.imports); err != nil {
				return err
			}
		}
		if err := tx.SetEdges(f.file["a/alpha.go"], []EdgeRow{
			{Src: symAlpha, Dst: symBetaGamma, Kind: 0, Tier: 2, Count: 2, Line: 3, Col: 18},
			{Src: symAlphabet, Dst: symAlpha, Kind: 0, Tier: 1, Count: 1, Line: 5, Col: 20},
		}, false); err != nil {
			return err
		}
		if err := tx.SetEdges(f.file["a/copy.go"], []EdgeRow{{Src: symCopyAlpha, Dst: symBetaGamma, Kind: 0, Tier: 2, Count: 1, Line: 3, Col: 18}}, false); err != nil {
			return err
		}
		if err := tx.SetEdges(f.file["b/beta.py"], []EdgeRow{{Src: symBeta, Dst: symAlpha, Kind: 1, Tier: 3, Count: 1, Line: 1, Col: 7}}, false); err != nil {
			return err
		}
		if err := tx.PutAlias(Alias{OldID: 90, NewID: symAlpha, Reason: "renamed", Confidence: 0.9, OldQName: "example.com/a.Alfa", Epoch: 2}); err != nil {
			return err
		}
		if err := tx.PutTombstone(Tombstone{ID: 91, QName: "b.Gone", Kind: kFunction, Path: "b/gone.py", Epoch: 3}); err != nil {
			return err
		}
		for _, h := range []struct {
			epoch    int64
			path     string
			blob     int64
			language string
		}{
			{1, "a/alpha.go", f.blob["alpha"], "go"},
			{1, "b/beta.py", f.blob["beta"], "python"},
			{2, "b/beta.py", 0, ""},
			{2, "README.md", f.blob["readme"], ""},
			{3, "b/beta.py", f.blob["beta"], "python"},
		} {
			if err := tx.RecordHistory(h.epoch, h.path, h.blob, h.language); err != nil {
				return err
			}
		}
		if err := tx.SetMeta("full_pending", "0"); err != nil { // as a finished build leaves it
			return err
		}
		return tx.SetMeta("epoch", "3")
	})
	return f
}

// pluck returns one field of each row, in order (never nil, so that an
// empty result compares equal to an empty want).
func pluck[R, V any](rows []R, field func(R) V) []V {
	out := []V{}
	for _, r := range rows {
		out = append(out, field(r))
	}
	return out
}

func paths(rows []FileRow) []string { return pluck(rows, func(r FileRow) string { return r.Path }) }

func symbolIDs(rows []SymbolRow) []int64 { return pluck(rows, func(r SymbolRow) int64 { return r.ID }) }

func hitPaths(rows []TextHit) []string { return pluck(rows, func(r TextHit) string { return r.Path }) }

// column runs a query on the store's own connection and returns its one
// column, as another program reading the files would see it.
func column[V any](t *testing.T, db *DB, q string, args ...any) []V {
	t.Helper()
	rows, err := db.sql.Query(q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := []V{}
	for rows.Next() {
		var v V
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// same fails the test on err and reports how got differs from want.
func same[T any](t *testing.T, what string, want, got T, err error, opts ...cmp.Option) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if diff := cmp.Diff(want, got, opts...); diff != "" {
		t.Errorf("%s (-want +got):\n%s", what, diff)
	}
}
