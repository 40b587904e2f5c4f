package index

import (
	"testing"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/lang"
)

// TestFactsKeptAreBoundedInBytes: the decoded facts a store keeps for
// requests stay within the budget's bytes however many files are read,
// and the facts of one large file take the room of many small ones (a
// bound by a count of files let a server's memory follow the sizes of the
// files its last calls touched).
func TestFactsKeptAreBoundedInBytes(t *testing.T) {
	cfg := config.Default()
	cfg.Index.MemoryMB = 256
	b := (&Index{cfg: cfg}).budget()
	if b.factsKept != 2<<20 {
		t.Fatalf("factsKept at 256 MB = %d bytes, want 2 MiB", b.factsKept)
	}
	h := newHandle(nil, b.factsKept)
	encoded := func(refs int) []byte {
		f := &lang.Facts{Names: []string{"name"}, Refs: make([]lang.Ref, refs)}
		return lang.Encode(f)
	}
	small, large, huge := encoded(100), encoded(20_000), encoded(200_000)
	read := func(data []byte) func() ([]byte, error) { return func() ([]byte, error) { return data, nil } }
	for id := range int64(2000) {
		if _, err := h.factsFrom(id, read(small)); err != nil {
			t.Fatal(err)
		}
	}
	full := h.facts.Stats()
	if full.Bytes > b.factsKept || full.Bytes < b.factsKept*9/10 {
		t.Fatalf("after 2000 small files the cache holds %d bytes in %d entries; want close to %d", full.Bytes, full.Entries, b.factsKept)
	}
	if _, err := h.factsFrom(-1, read(large)); err != nil {
		t.Fatal(err)
	}
	after := h.facts.Stats()
	if after.Bytes > b.factsKept || after.Entries >= full.Entries {
		t.Fatalf("after a large file (%d bytes encoded): %d bytes in %d entries (was %d in %d); want within %d and fewer entries",
			len(large), after.Bytes, after.Entries, full.Bytes, full.Entries, b.factsKept)
	}
	// A file whose facts outgrow the whole cache is decoded for its
	// request and not kept.
	f, err := h.factsFrom(-2, read(huge))
	if err != nil || len(f.Refs) != 200_000 {
		t.Fatalf("the huge file's facts: %v", err)
	}
	if s := h.facts.Stats(); s.Bytes != after.Bytes || s.Entries != after.Entries {
		t.Fatalf("a file larger than the cache was kept: %d bytes in %d entries", s.Bytes, s.Entries)
	}
	t.Logf("%d small entries, %d after one large", full.Entries, after.Entries)
}
