package index

import (
	"math"
	"runtime/debug"

	"github.com/cairnhq/cairn/internal/store"
)

// memoryBudget is how a reconcile spends the configured memory budget
// (index.memory_mb): the Go heap (a half), SQLite's page caches (a
// thirty-second per connection, half for the index (shared by an overlay
// and its baseline) and half for the attached blob store, which costs
// twice that: SQLite's allocator rounds
// each cached page's buffer up to a power of two; a quarter for the pool)
// and the part of the database files they map (an eighth) add up to seven
// eighths of it,
// leaving the rest to the parsers' C heaps (one tree-sitter parser per
// worker, trimmed after each batch of blobs: lang.TrimCHeap) and SQLite's
// own allocations.
type memoryBudget struct {
	bytes int64 // the whole budget
	// keptFacts bounds the encoded facts a batch keeps in memory between
	// parsing and its commit (a sixteenth, inside the Go heap's share);
	// past it the commit reads them back from the blob store. A full build
	// of kubernetes encodes about 100 MB.
	keptFacts int64
	// factsKept bounds the decoded facts a store keeps in memory for
	// requests (a 128th: 8 MB at the default). It counts bytes, not
	// files: the facts of a large file decode to tens of kilobytes, of a
	// generated one to megabytes, so a count of files let a server's
	// memory swing with the files its last calls touched; bounded in
	// bytes the cache is full after a warm-up and stays that size.
	factsKept int64
	// goHeap is the Go heap's soft limit while a reconcile runs: the
	// collector works harder near it instead of letting the heap double
	// its live size.
	goHeap int64
	// cacheKiB is the page cache of each database of a SQLite connection
	// (the index and the attached blob store each have one, as PRAGMA
	// cache_size counts it: half what it holds), mmapBytes the part of the
	// database files each maps (resident pages count too).
	cacheKiB  int
	mmapBytes int64
	// linkSymbols is how many symbols a language's linker keeps loaded
	// from one file to the next (lang.Resolver.KeepSymbols), at about 384
	// bytes each (the symbol, its entry in its package's map and in the
	// map by id): a sixteenth of the budget. Past it the linker forgets
	// them and loads again what the next file needs. The default budget
	// keeps a whole kubernetes (about 110,000 symbols) loaded.
	linkSymbols int
	// sortOnDisk keeps SQLite's sorts in temporary files: below the
	// default budget, the index builds after a full build would
	// otherwise sort in memory beside everything else.
	sortOnDisk bool
	// A server (serving) maps no files, and its connections share the
	// page cache one connection gets otherwise (each has a MaxConns-th of
	// it, for the index and the blob store): a long-running process fills
	// that bound once, instead of a cache and a mapping of the files per
	// connection, which its resident set counts once per connection.
	serving bool
}

// budget derives the shares from the configuration. The default budget
// (1024 MB) gives a connection 32 MB of page caches (64 MB resident) and a
// 128 MB map, and sorts in memory.
func (ix *Index) budget() memoryBudget {
	mb := int64(ix.cfg.Index.MemoryMB)
	if mb <= 0 {
		mb = 1024
	}
	b := memoryBudget{bytes: mb << 20}
	b.keptFacts = b.bytes / 16
	b.factsKept = max(b.bytes/128, 1<<20)
	b.goHeap = b.bytes / 2
	b.cacheKiB = int(min(max(mb*1024/64, 1024), 32768))
	b.mmapBytes = min(max(b.bytes/8, 4<<20), 256<<20)
	b.linkSymbols = int(b.bytes / 16 / 384)
	b.sortOnDisk = mb < 1024
	if ix.serving {
		b.serving = true
		b.cacheKiB = max(b.cacheKiB/store.MaxConns, 1024)
	}
	return b
}

// limitHeap lowers the Go heap's soft limit to the budget's share until
// the returned function restores it (a limit already lower stays).
func (b memoryBudget) limitHeap() (restore func()) {
	prev := debug.SetMemoryLimit(-1)
	if prev != math.MaxInt64 && prev <= b.goHeap {
		return func() {}
	}
	debug.SetMemoryLimit(b.goHeap)
	return func() { debug.SetMemoryLimit(prev) }
}
