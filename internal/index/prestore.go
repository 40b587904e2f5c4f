package index

import (
	"runtime"
	"sync"
	"time"

	"github.com/zeebo/xxh3"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/scan"
	"github.com/cairnhq/cairn/internal/store"
)

// preparsed is a content Prestore parses (or parsed) ahead of its reconcile.
type preparsed struct {
	done  chan struct{} // closed when j holds the extraction's outcome
	j     *job
	since time.Time
}

// prestores holds the contents handed to Prestore until a reconcile takes
// them, by blob key.
type prestores struct {
	mu sync.Mutex
	m  map[store.BlobKey]*preparsed
}

// preparsedFor drops contents no reconcile took within this long (their
// write failed, or an ignored file was written).
const preparsedFor = time.Minute

// Prestore parses the contents a write is about to put on disk (repo path →
// new content), beside the write: the write mostly waits for the disk, and
// the reconcile that follows it takes the parsed facts instead of parsing
// the files after the write. It only uses the CPU (no store connection),
// never waits, and a content nobody takes is dropped after preparsedFor.
// Only the owner of the index parses; elsewhere Prestore does nothing.
func (ix *Index) Prestore(files map[string][]byte) {
	if len(files) == 0 || !ix.Writable() {
		return
	}
	now := time.Now()
	var todo []*preparsed
	ix.pre.mu.Lock()
	if ix.pre.m == nil {
		ix.pre.m = map[store.BlobKey]*preparsed{}
	}
	for k, p := range ix.pre.m {
		if now.Sub(p.since) > preparsedFor {
			delete(ix.pre.m, k)
		}
	}
	for p, data := range files {
		if int64(len(data)) > ix.cfg.Index.MaxFileBytes || scan.IsBinary(data) {
			continue
		}
		l := lang.ForFile(p, data)
		if l == nil {
			continue
		}
		j := &job{entry: scan.Entry{Path: p, Size: int64(len(data))}, lang: l, hash: store.Hash(xxh3.Hash128(data).Bytes()), text: data}
		k := store.BlobKey{Hash: j.hash, Lang: l.Name, XVer: extractorVersion}
		if _, ok := ix.pre.m[k]; ok {
			continue
		}
		pp := &preparsed{done: make(chan struct{}), j: j, since: now}
		ix.pre.m[k] = pp
		todo = append(todo, pp)
	}
	ix.pre.mu.Unlock()
	if len(todo) == 0 {
		return
	}
	workers := ix.cfg.Index.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	next := make(chan *preparsed, len(todo))
	for _, pp := range todo {
		next <- pp
	}
	close(next)
	tm := &timer{ms: map[string]int64{}}
	for w := 0; w < min(workers, len(todo)); w++ {
		go func() {
			x := lang.NewExtractor()
			defer x.Close()
			for pp := range next {
				pp.j.extract(x, pp.j.text, tm)
				close(pp.done)
			}
		}()
	}
}

// takePreparsed fills j, whose content is data, from what Prestore parsed
// of the same content, waiting for the parse when it is under way; false
// when Prestore was not handed the content.
func (ix *Index) takePreparsed(key store.BlobKey, j *job, data []byte, tm *timer) bool {
	ix.pre.mu.Lock()
	pp := ix.pre.m[key]
	delete(ix.pre.m, key)
	ix.pre.mu.Unlock()
	if pp == nil {
		return false
	}
	t := time.Now()
	<-pp.done
	tm.add("prestore_wait", time.Since(t))
	j.text = data
	j.status, j.pkg, j.failure = pp.j.status, pp.j.pkg, pp.j.failure
	j.facts, j.parsed, j.surf, j.names = pp.j.facts, pp.j.parsed, pp.j.surf, pp.j.names
	return true
}
