package index

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/zeebo/xxh3"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/scan"
	"github.com/cairnhq/cairn/internal/store"
)

// ReconcileOptions controls one reconcile.
type ReconcileOptions struct {
	Full     bool           // re-read every file and rebuild cross-file facts
	Rehash   bool           // re-read and hash every file even if its stat data is unchanged
	Progress func(Progress) // called from the reconciling goroutine; may be nil
}

// progress is o.Progress, or a function that ignores the reports when the
// caller wants none.
func (o ReconcileOptions) progress() func(Progress) {
	if o.Progress == nil {
		return func(Progress) {}
	}
	return o.Progress
}

// Progress reports long work (protocol.Progress: adapters show it).
type Progress = protocol.Progress

// Stats describes what a reconcile did.
type Stats struct {
	Epoch        int64
	Changed      bool
	Files        int
	Added        int
	Modified     int
	Deleted      int
	Renamed      int
	Parsed       int      // blobs parsed (content never seen before)
	Prestored    int      // of them, parsed by Prestore while the write that made them ran
	Reused       int      // blobs found in the shared store
	BytesParsed  int64    // bytes of the parsed blobs
	ParseErrors  int      // files with syntax errors (still searchable)
	Capped       []string // files whose facts stop at the extractor's bounds (lang.Limits), in path order
	Failed       []string
	Symbols      int
	Relinked     int
	Proven       bool // nothing changed, proven by stat calls without listing the tree (tree.go)
	TimingMS     map[string]int64
	SkippedFiles map[string]int
	// GitFailed says why git could not list the files (the scan walked
	// the directory instead); empty when it could.
	GitFailed string
}

// job is one file to (re)consider.
type job struct {
	entry  scan.Entry
	old    *store.FileRow
	hash   store.Hash
	norm   store.Hash
	gitOID string
	lang   *lang.Language
	status store.BlobStatus
	blobID int64
	facts  []byte // encoded facts when parsed in this batch (dropped once stored when the batch keeps too many: budget.go)
	parsed bool   // parsed in this batch
	// prestored: parsed by Prestore, beside the write that made it
	prestored bool
	surf      []store.SurfaceData
	names     []string // names its facts mention (the blob's name postings, mentions.go)
	text      []byte   // content for the lexical tier until the blob is written
	pkg       string
	err       error
	failure   string // why extraction failed (the file stays searchable)
	same      bool   // content unchanged, only stat data moved
	skipped   bool   // vanished or unreadable while reading
}

// timer accumulates wall time per phase.
type timer struct {
	mu sync.Mutex // guards ms
	ms map[string]int64
}

func (t *timer) add(phase string, d time.Duration) {
	t.mu.Lock()
	t.ms[phase] += d.Milliseconds()
	t.mu.Unlock()
}

// timed runs one phase and adds its time when it succeeds.
func (t *timer) timed(ctx context.Context, phase string, run func(context.Context) error) error {
	start := time.Now()
	if err := run(ctx); err != nil {
		return err
	}
	t.add(phase, time.Since(start))
	return nil
}

// Reconcile brings the index up to date with the files on disk. Every changed
// batch commits in one worktree transaction and gets a new epoch.
func (ix *Index) Reconcile(ctx context.Context, o ReconcileOptions) (*Stats, error) {
	if !ix.Writable() {
		return nil, fmt.Errorf("index: reconcile needs the writer lock (owned by pid %d)", ix.Owner())
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	defer ix.reconciles.Add(1)
	defer ix.budget().limitHeap()()
	progress := o.progress()
	tm := &timer{ms: map[string]int64{}}
	st := &Stats{TimingMS: tm.ms}
	start := time.Now()
	defer func() { tm.ms["total"] = time.Since(start).Milliseconds() }()

	t0 := time.Now()
	progress(Progress{Phase: "scan"})
	ix.matcher = ix.matcher.Current(ix.paths.Root, ix.cfg.Index.Exclude)
	meta, err := ix.ownerMeta(ctx)
	if err != nil {
		return nil, err
	}
	prevEpoch, _ := strconv.ParseInt(meta["epoch"], 10, 64)
	trip := ix.tripwire()
	prevTrip := meta["tripwire"]
	full := o.Full || needsFull(meta)
	rehash := full || o.Rehash || trip != prevTrip
	if !rehash && !derivePending(meta) {
		// Nothing changed since the last scan, proven by stat calls alone:
		// the same answer as the early return below, without listing.
		if res, ok := ix.verifyTree(ctx, meta, trip); ok {
			st.SkippedFiles, st.Files, st.Epoch, st.Proven = res.Skipped, len(res.Files), prevEpoch, true
			tm.add("scan", time.Since(t0))
			return st, nil
		}
	}
	sc, tree, err := scan.Record(ctx, ix.scanOptions())
	if err != nil {
		return nil, fmt.Errorf("index: scan: %w", err)
	}
	st.SkippedFiles = sc.Skipped
	st.GitFailed = sc.GitFailed
	old, err := ix.fileRows(ctx)
	if err != nil {
		return nil, err
	}
	tm.add("scan", time.Since(t0))

	jobs, deleted := changedFiles(old, sc.Files, rehash)
	st.Files = len(sc.Files)
	prevMissing := meta["missing_tracked"]
	if len(jobs) == 0 && len(deleted) == 0 && !full && trip == prevTrip && prevMissing == strconv.Itoa(sc.MissingTracked) && !derivePending(meta) {
		st.Epoch = prevEpoch
		ix.saveTree(tree, meta, trip, old)
		return st, nil
	}

	if err := ix.process(ctx, jobs, full, st, tm, progress); err != nil {
		return nil, err
	}
	st.Epoch = prevEpoch + 1
	if err := ix.commit(ctx, batchIn{old: old, jobs: jobs, deleted: deleted, full: full, missingTracked: sc.MissingTracked, trip: trip}, st, tm, progress); err != nil {
		ix.files = nil // the cache may be ahead of the database
		ix.dropTree()
		return nil, err
	}
	if meta, err := ix.ownerMeta(ctx); err == nil && ix.files != nil {
		ix.saveTree(tree, meta, trip, ix.files)
	} else {
		ix.dropTree()
	}
	if full {
		debug.FreeOSMemory() // a full build allocates a lot once; give it back
	}
	ix.maybeCollectGarbage(ctx)
	return st, nil
}

// changedFiles compares a scan with the files the index holds: a job for
// each file that is new or whose stat data moved (every file when rehash),
// and the files the scan no longer finds.
func changedFiles(old []store.FileRow, scanned []scan.Entry, rehash bool) (jobs []*job, deleted []*store.FileRow) {
	oldBy := make(map[string]*store.FileRow, len(old))
	for i := range old {
		oldBy[old[i].Path] = &old[i]
	}
	seen := make(map[string]bool, len(scanned))
	for _, e := range scanned {
		seen[e.Path] = true
		of := oldBy[e.Path]
		if of != nil && !rehash && sameStat(of, e) {
			continue
		}
		jobs = append(jobs, &job{entry: e, old: of})
	}
	for i := range old {
		if !seen[old[i].Path] {
			deleted = append(deleted, &old[i])
		}
	}
	return jobs, deleted
}

// sameStat reports whether a file's stat data is what the index recorded:
// then its content is taken as unchanged without reading it. The inode change
// time catches an in-place rewrite that keeps size and mtime (a tool that
// restores mtime, or two writes within the file system's time granularity).
func sameStat(of *store.FileRow, e scan.Entry) bool {
	return of.Size == e.Size && of.MtimeNS == e.MtimeNS && of.CtimeNS == e.CtimeNS && of.Inode == e.Inode
}

// tripwire summarises HEAD and .git/index so a checkout or reset forces rehashing.
func (ix *Index) tripwire() string {
	if !ix.paths.IsGit || ix.paths.GitDir == "" {
		return ""
	}
	head, _ := os.ReadFile(filepath.Join(ix.paths.GitDir, "HEAD"))
	var b strings.Builder
	b.Write(bytes.TrimSpace(head))
	if ref, ok := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: "); ok {
		if v, err := os.ReadFile(filepath.Join(ix.paths.GitDir, ref)); err == nil {
			b.WriteString(" " + strings.TrimSpace(string(v)))
		} else if v, err := os.ReadFile(filepath.Join(ix.paths.GitCommon, ref)); err == nil {
			b.WriteString(" " + strings.TrimSpace(string(v)))
		}
	}
	if st, err := os.Stat(filepath.Join(ix.paths.GitDir, "index")); err == nil {
		fmt.Fprintf(&b, " %d %d", st.Size(), st.ModTime().UnixNano())
	}
	return b.String()
}

// process reads, hashes and (when the content is new) parses the jobs, and
// writes new blobs to the shared store in batches: parsers (parseAll) feed
// a collector (batchParsed) that hands batches to a writer (storeBatches)
// running beside it, so parsing goes on while a batch is written.
func (ix *Index) process(ctx context.Context, jobs []*job, full bool, st *Stats, tm *timer, progress func(Progress)) error {
	if len(jobs) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	parsed := ix.parseAll(ctx, jobs, full, tm)
	batches := make(chan []*job, 1)
	writeErr := make(chan error, 1)
	go func() { writeErr <- ix.storeBatches(ctx, cancel, batches, tm) }()
	ix.batchParsed(parsed, batches, len(jobs), progress)
	if err := <-writeErr; err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	tally(jobs, st)
	return nil
}

// parseAll prepares the jobs on one worker per CPU (or as configured), each
// with its own extractor, and sends each job on the channel it returns once
// done; the channel closes when every worker has finished.
func (ix *Index) parseAll(ctx context.Context, jobs []*job, full bool, tm *timer) <-chan *job {
	workers := ix.cfg.Index.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	in := make(chan *job)
	out := make(chan *job, 64)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := lang.NewExtractor()
			defer x.Close()
			find := ix.blobFinder(ctx)
			for j := range in {
				ix.prepare(ctx, x, find, j, full, tm)
				select {
				case out <- j:
				case <-ctx.Done():
				}
			}
		}()
	}
	go func() {
		defer close(in)
		for _, j := range jobs {
			select {
			case in <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(out) }()
	return out
}

// batchParsed collects the parsed jobs whose blobs are new into batches for
// the writer, and reports progress; it closes batches when parsed closes.
// A batch is flushed at about 16 MB (less under a small memory budget: a
// batch being written, one waiting and one filling are held at once), and
// a few hundred files (a write's) go in quarters, so that storing overlaps
// the parse of the rest.
func (ix *Index) batchParsed(parsed <-chan *job, batches chan<- []*job, total int, progress func(Progress)) {
	defer close(batches)
	budget := min(max(ix.budget().bytes/32, 4<<20), 16<<20)
	chunk := 4096
	if total <= 1024 {
		chunk = max(16, (total+3)/4)
	}
	var batch []*job
	var batchBytes int64
	done := 0
	for j := range parsed {
		done++
		if done%256 == 0 || done == total {
			progress(Progress{Phase: "parse", Done: done, Total: total})
		}
		if j.err != nil || j.skipped || j.same || j.blobID != 0 {
			continue
		}
		batch = append(batch, j)
		batchBytes += int64(len(j.text)) + int64(len(j.facts))
		if len(batch) >= chunk || batchBytes >= budget {
			batches <- batch
			batch, batchBytes = nil, 0
		}
	}
	if len(batch) > 0 {
		batches <- batch
	}
}

// storeBatches writes the batches' new blobs to the shared store, blobs
// first, until batches closes. After a failure it cancels the parse and
// drains the rest, and returns the failure.
func (ix *Index) storeBatches(ctx context.Context, cancel func(), batches <-chan []*job, tm *timer) error {
	now := time.Now().Unix()
	keep := ix.budget().keptFacts
	var err error
	var kept int64 // bytes of encoded facts the batch keeps for its commit
	for batch := range batches {
		if err != nil {
			continue // drain after a failure
		}
		t := time.Now()
		rows := make([]store.BlobRow, len(batch))
		for i, j := range batch {
			rows[i] = j.blobRow()
		}
		var ids []int64
		if ids, err = ix.db().InsertBlobs(ctx, rows, now); err != nil {
			cancel()
			continue
		}
		for i, j := range batch {
			j.blobID = ids[i]
			j.text, j.surf, j.names = nil, nil, nil
			// Past the budget's share, the commit reads the facts
			// back from the store instead of holding every file's.
			if kept += int64(len(j.facts)); kept > keep {
				j.facts = nil
			}
		}
		tm.add("store", time.Since(t))
		// What the parsers freed since the last batch goes back to the
		// system rather than stay in the C heap beside the budget.
		lang.TrimCHeap()
	}
	return err
}

// tally counts the jobs' outcomes into the reconcile's stats.
func tally(jobs []*job, st *Stats) {
	for _, j := range jobs {
		switch {
		case j.err != nil:
			st.Failed = append(st.Failed, j.entry.Path+": "+j.err.Error())
		case j.failure != "":
			st.Failed = append(st.Failed, j.entry.Path+": "+j.failure)
		case j.parsed:
			st.Parsed++
			st.BytesParsed += j.entry.Size
			if j.prestored {
				st.Prestored++
			}
		}
		switch j.status {
		case store.BlobParseErrors:
			st.ParseErrors++
		case store.BlobCapped:
			st.Capped = append(st.Capped, j.entry.Path)
		}
	}
}

// blobFinder returns a lookup of existing blobs for one worker.
func (ix *Index) blobFinder(ctx context.Context) func(store.BlobKey) int64 {
	return func(k store.BlobKey) int64 {
		m, err := ix.db().FindBlobs(ctx, []store.BlobKey{k})
		if err != nil {
			return 0
		}
		return m[k]
	}
}

func langName(l *lang.Language) string {
	if l == nil {
		return ""
	}
	return l.Name
}

// prepare reads one file, hashes it and parses it when its content is new.
func (ix *Index) prepare(ctx context.Context, x *lang.Extractor, find func(store.BlobKey) int64, j *job, full bool, tm *timer) {
	t := time.Now()
	fullPath := filepath.Join(ix.paths.Root, filepath.FromSlash(j.entry.Path))
	j.lang = lang.ForPath(j.entry.Path)
	if j.entry.Size > ix.cfg.Index.MaxFileBytes {
		j.status = store.BlobTooLarge
		j.hash, j.gitOID = hashLarge(fullPath, j.entry)
		j.norm = j.hash
		j.lang = nil
		j.finishUnchanged(full)
		if !j.same {
			j.blobID = find(store.BlobKey{Hash: j.hash, Lang: "", XVer: extractorVersion})
		}
		tm.add("read", time.Since(t))
		return
	}
	data, err := os.ReadFile(fullPath)
	if err != nil {
		j.skipped = true
		tm.add("read", time.Since(t))
		return
	}
	j.entry.Size = int64(len(data))
	j.lang = lang.ForFile(j.entry.Path, data)
	j.hash = store.Hash(xxh3.Hash128(data).Bytes())
	j.norm = normHash(data)
	j.gitOID = gitBlobOID(data, j.entry, fullPath)
	binary := scan.IsBinary(data)
	switch {
	case binary:
		j.status, j.lang = store.BlobBinary, nil
	case j.lang == nil:
		j.status = store.BlobText
	}
	tm.add("read", time.Since(t))
	j.finishUnchanged(full)
	if j.same {
		return
	}
	key := store.BlobKey{Hash: j.hash, Lang: langName(j.lang), XVer: extractorVersion}
	if id := find(key); id != 0 {
		j.blobID = id
		if j.lang != nil {
			ix.reuse(ctx, j, id)
		}
		return
	}
	if !binary {
		j.text = data
	}
	if j.lang == nil {
		return
	}
	if ix.takePreparsed(key, j, data, tm) {
		j.prestored = true
		return
	}
	j.extract(x, data, tm)
}

// extract parses a job's content (in a language) and encodes what its blob
// keeps: facts, surfaces and name postings.
func (j *job) extract(x *lang.Extractor, data []byte, tm *timer) {
	t := time.Now()
	facts, err := extractSafely(x, j.lang, data)
	tm.add("parse", time.Since(t))
	if err != nil {
		// The file stays searchable; the failure shows in its status and the stats.
		j.status = store.BlobFailed
		j.failure = err.Error()
		return
	}
	j.status = parseStatus(facts)
	j.pkg = facts.Package
	t = time.Now()
	j.facts, j.parsed = lang.Encode(facts), true
	j.surf = encodeSurfaces(facts.Surfaces)
	j.names = mentions(facts)
	tm.add("encode", time.Since(t))
}

// blobRow is the blob store's row of a job's new content.
func (j *job) blobRow() store.BlobRow {
	return store.BlobRow{Key: store.BlobKey{Hash: j.hash, Lang: langName(j.lang), XVer: extractorVersion},
		Size: j.entry.Size, Status: j.status, Facts: j.facts, Text: j.text, Surfaces: j.surf, Names: j.names}
}

// encodeSurfaces packs surfaces per kind for the blob store.
func encodeSurfaces(all []lang.Surface) []store.SurfaceData {
	if len(all) == 0 {
		return nil
	}
	byKind := map[lang.SurfaceKind][]lang.Surface{}
	for _, s := range all {
		byKind[s.Kind] = append(byKind[s.Kind], s)
	}
	out := make([]store.SurfaceData, 0, len(byKind))
	for _, k := range lang.SurfaceKinds() {
		if list := byKind[k]; len(list) > 0 {
			out = append(out, store.SurfaceData{Kind: uint8(k), Data: lang.EncodeSurfaces(list)})
		}
	}
	return out
}

// extractSafely turns a panic in a grammar or hook into an error: one bad file
// must not stop the index.
func extractSafely(x *lang.Extractor, l *lang.Language, data []byte) (f *lang.Facts, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("extractor panic: %v", r)
		}
	}()
	return x.Extract(l, data)
}

func (j *job) finishUnchanged(full bool) {
	if j.old != nil && !full && j.old.Hash == j.hash && j.old.Lang == langName(j.lang) {
		j.same = true
		j.blobID = j.old.BlobID
		j.pkg = j.old.Pkg
		j.status = j.old.Status
	}
}

// reuse takes what a job needs from a blob already in the store (parsed by
// another worktree or an earlier build): the package clause and the parse
// state its facts record. Facts are missing only when extraction failed.
func (ix *Index) reuse(ctx context.Context, j *job, blobID int64) {
	f, err := ix.Facts(ctx, blobID)
	if err != nil {
		return
	}
	if f == nil {
		j.status = store.BlobFailed
		return
	}
	j.status = parseStatus(f)
	j.pkg = f.Package
}

// parseStatus is the status of content whose facts were extracted.
func parseStatus(f *lang.Facts) store.BlobStatus {
	switch {
	case f.ParseErrors > 0:
		return store.BlobParseErrors
	case f.Limits != 0:
		return store.BlobCapped
	}
	return store.BlobParsed
}

// normHash hashes content with CRLF normalised to LF (change detection only).
func normHash(data []byte) store.Hash {
	if bytes.IndexByte(data, '\r') < 0 {
		return store.Hash(xxh3.Hash128(data).Bytes())
	}
	return store.Hash(xxh3.Hash128(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))).Bytes())
}

// gitBlobOID is the object id git gives the file (a symlink's blob is its target text).
func gitBlobOID(data []byte, e scan.Entry, full string) string {
	if e.Link {
		target, err := os.Readlink(full)
		if err != nil {
			return ""
		}
		data = []byte(target)
	}
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(data))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// hashLarge hashes a file over the size cap without holding it in memory.
func hashLarge(full string, e scan.Entry) (store.Hash, string) {
	f, err := os.Open(full)
	if err != nil {
		return store.Hash{}, ""
	}
	defer f.Close()
	x := xxh3.New()
	g := sha1.New()
	fmt.Fprintf(g, "blob %d\x00", e.Size)
	io.Copy(io.MultiWriter(x, g), f)
	return store.Hash(x.Sum128().Bytes()), hex.EncodeToString(g.Sum(nil))
}

// fileRows returns the file table, from memory when this process wrote it last
// (it holds the writer lock, so nobody else changed it).
func (ix *Index) fileRows(ctx context.Context) ([]store.FileRow, error) {
	if ix.files != nil {
		return ix.files, nil
	}
	rows, err := ix.db().Files(ctx)
	if err != nil {
		return nil, err
	}
	ix.files = rows
	return rows, nil
}

// extractorVersion is the version of the facts this build extracts
// (lang.ExtractorVersion); a variable so that a test can play an upgrade.
var extractorVersion = lang.ExtractorVersion

// needsFull reports whether every file must be read and derived again: no
// build yet; the worktree tables were emptied (full_pending: the blob store
// was rebuilt); or the index holds facts of another extractor version (Cairn
// was upgraded), which unchanged files would otherwise keep.
func needsFull(meta map[string]string) bool {
	epoch, _ := strconv.ParseInt(meta["epoch"], 10, 64)
	return epoch == 0 || meta["full_pending"] == "1" || meta["extractor_version"] != strconv.Itoa(extractorVersion)
}

// ReconcilePaths brings the index up to date for the given repo paths only:
// the fast path for a file watcher that knows what changed. A path that names
// a directory stands for every file below it (listed as a full scan would list
// them), and a path that is no file any more for every indexed file below it:
// a new, removed or moved directory costs its own subtree, not a scan of the
// whole tree. A HEAD or .git/index change falls back to a full Reconcile.
func (ix *Index) ReconcilePaths(ctx context.Context, paths []string, o ReconcileOptions) (*Stats, error) {
	if !ix.Writable() {
		return nil, fmt.Errorf("index: reconcile needs the writer lock (owned by pid %d)", ix.Owner())
	}
	defer ix.reconciles.Add(1)
	ix.mu.Lock()
	meta, err := ix.ownerMeta(ctx)
	if err != nil {
		ix.mu.Unlock()
		return nil, err
	}
	prevTrip := meta["tripwire"]
	prevEpoch, _ := strconv.ParseInt(meta["epoch"], 10, 64)
	trip := ix.tripwire()
	if trip != prevTrip || needsFull(meta) {
		ix.mu.Unlock()
		return ix.Reconcile(ctx, o)
	}
	defer ix.mu.Unlock()
	progress := o.progress()
	tm := &timer{ms: map[string]int64{}}
	st := &Stats{TimingMS: tm.ms, Epoch: prevEpoch}
	start := time.Now()
	defer func() { tm.ms["total"] = time.Since(start).Milliseconds() }()
	old, err := ix.fileRows(ctx)
	if err != nil {
		return nil, err
	}
	oldBy := make(map[string]*store.FileRow, len(old))
	for i := range old {
		oldBy[old[i].Path] = &old[i]
	}
	ix.matcher = ix.matcher.Current(ix.paths.Root, ix.cfg.Index.Exclude)
	opts := scan.Options{Paths: ix.paths, Exclude: ix.cfg.Index.Exclude, Matcher: ix.matcher}
	var jobs []*job
	var deleted []*store.FileRow
	seen := map[string]bool{}
	consider := func(e scan.Entry, why string) {
		if seen[e.Path] {
			return
		}
		seen[e.Path] = true
		of := oldBy[e.Path]
		switch {
		case why != "" && of != nil:
			deleted = append(deleted, of)
		case why != "":
		case of != nil && sameStat(of, e):
		default:
			jobs = append(jobs, &job{entry: e, old: of})
		}
	}
	var byPath []string // the indexed paths in order, made when a directory needs them
	for _, p := range paths {
		e, why := scan.One(ctx, opts, p)
		if why == "directory" {
			// A new (or moved-in) directory: the files below it, listed by
			// the same policy as a full scan, and nothing else.
			sub := opts
			sub.Under = p
			sc, err := scan.Scan(ctx, sub)
			if err != nil {
				return nil, fmt.Errorf("index: scan %s: %w", p, err)
			}
			for _, f := range sc.Files {
				consider(f, "")
			}
		}
		if why != "" {
			// No file at p: what the index holds below it and the scan
			// above did not list is gone (a directory removed or moved away).
			if byPath == nil {
				byPath = sortedPaths(oldBy)
			}
			for i := sort.SearchStrings(byPath, p+"/"); i < len(byPath) && strings.HasPrefix(byPath[i], p+"/"); i++ {
				consider(scan.Entry{Path: byPath[i]}, "gone")
			}
		}
		consider(e, why)
	}
	st.Files = len(old) - len(deleted)
	if len(jobs) == 0 && len(deleted) == 0 {
		return st, nil
	}
	if err := ix.process(ctx, jobs, false, st, tm, progress); err != nil {
		return nil, err
	}
	m, _ := strconv.Atoi(meta["missing_tracked"])
	st.Epoch = prevEpoch + 1
	if err := ix.commit(ctx, batchIn{old: old, jobs: jobs, deleted: deleted, missingTracked: m, trip: trip}, st, tm, progress); err != nil {
		ix.files = nil
		return nil, err
	}
	return st, nil
}

// sortedPaths returns the keys of a map in order.
func sortedPaths[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for p := range m {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Pending counts the files whose stat data differs from the index (added,
// changed or deleted on disk) without reading or indexing them: what a
// reconcile would look at. status reports it rather than claiming freshness.
func (ix *Index) Pending(ctx context.Context) (int, error) {
	sc, err := scan.Scan(ctx, scan.Options{Paths: ix.paths, Exclude: ix.cfg.Index.Exclude})
	if err != nil {
		return 0, fmt.Errorf("index: scan: %w", err)
	}
	rows, err := ix.db().Files(ctx)
	if err != nil {
		return 0, err
	}
	old := make(map[string]*store.FileRow, len(rows))
	for i := range rows {
		old[rows[i].Path] = &rows[i]
	}
	n := 0
	for _, e := range sc.Files {
		of := old[e.Path]
		if of == nil || !sameStat(of, e) {
			n++
		}
		delete(old, e.Path)
	}
	return n + len(old), nil
}
