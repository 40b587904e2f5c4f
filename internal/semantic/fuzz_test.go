package semantic_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/semantic"
)

// FuzzImport imports mutated SCIP indexes (seeded with the fixture's real
// one) into an indexed repository: the import fails with an error or
// succeeds, never panics, and the repository's queries answer afterwards.
func FuzzImport(f *testing.F) {
	seed, err := os.ReadFile(filepath.Join("testdata", "fixture.scip"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	f.Add([]byte{})
	f.Add([]byte("not a scip index"))
	e := openRepo(f)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "fuzz.scip")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		later := time.Now().Add(time.Hour) // newer than the files: trusted for all of them
		os.Chtimes(p, later, later)
		semantic.Import(context.Background(), e.ix, semantic.ImportOptions{Path: p, Key: "scip:fuzz", Source: p})
		if _, err := e.q().Search(context.Background(), query.SearchParams{Query: "Store", Mode: "symbol", Limit: 5}); err != nil {
			t.Fatalf("search after importing %d bytes: %v", len(data), err)
		}
	})
}
