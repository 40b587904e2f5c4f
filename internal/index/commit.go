package index

import (
	"context"
	"maps"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/zeebo/xxh3"

	"github.com/cairnhq/cairn/internal/gitx"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/store"
)

// relinkAllAbove is how many changed symbol names make relinking every file
// cheaper than finding the files that mention them.
const relinkAllAbove = 64

// batchIn is what a reconcile hands to commit: the file table before, the
// files read (jobs) and deleted, and what the new state records.
type batchIn struct {
	old            []store.FileRow
	jobs           []*job
	deleted        []*store.FileRow
	full           bool // derive every identity and link again
	missingTracked int
	trip           string
}

// batch is one reconcile batch on its way into the worktree index: what the
// phases of commit hand to each other.
type batch struct {
	ix       *Index
	in       batchIn
	st       *Stats
	tm       *timer
	progress func(Progress)

	tx       *store.Tx
	rows     map[string]*store.FileRow // the file table after the batch, by path
	paths    []string                  // its paths, sorted
	changed  map[string]bool           // paths whose content (blob) changed or is new
	statOnly []*store.FileRow          // same content, new stat data
	encoded  map[int64][]byte          // facts parsed in this batch, by blob id
	deleted  []*store.FileRow
	mods     []Module
	// rebuild: the modules changed or the batch is full, so every symbol,
	// identity and link is derived again.
	rebuild  bool
	infos    []*fileInfo
	byID     map[int64]string // file id -> path
	w        *world
	resymbol map[int64]*fileInfo // files whose symbols are derived again
	oldSyms  []store.SymbolRow   // their symbols before (none when rebuilding)
	lk       *linker
	ahead    *symbolsAhead // stored symbols read ahead of the linker (writeLinks)
	derived  string        // what derive recorded in the metadata (derive.go)
	// touched are the files whose row, symbols, references or imports the
	// batch wrote; added says it created a file row (the change log).
	touched map[int64]bool
	added   bool
}

// step is called before the nth of total files of a phase: every 512 files
// it reports progress and stops when the context is done.
func (b *batch) step(ctx context.Context, phase string, n, total int) error {
	if n%512 != 0 {
		return nil
	}
	b.progress(Progress{Phase: phase, Done: n, Total: total})
	return ctx.Err()
}

// commit writes one batch to the worktree index in a single transaction: file
// rows, modules, symbols of changed files, links of every file whose resolution
// may have changed, and the new epoch.
func (ix *Index) commit(ctx context.Context, in batchIn, st *Stats, tm *timer, progress func(Progress)) error {
	if err := ix.claimBlobs(ctx, in.jobs, in.full, st, tm, progress); err != nil {
		return err
	}
	b := &batch{ix: ix, in: in, st: st, tm: tm, progress: progress, touched: map[int64]bool{}}
	t := time.Now()
	b.planRows()
	modulesChanged, err := b.planModules(ctx)
	if err != nil {
		return err
	}
	b.rebuild = in.full || modulesChanged
	if b.tx, err = ix.db().Begin(ctx); err != nil {
		return err
	}
	defer b.tx.Rollback()
	if err := b.writeFiles(); err != nil {
		return err
	}
	tm.add("files", time.Since(t))
	if err := tm.timed(ctx, "symbols", b.writeSymbols); err != nil {
		return err
	}
	if !b.rebuild {
		if err := b.recordIdentities(ctx); err != nil {
			return err
		}
	}
	if err := tm.timed(ctx, "link", b.writeLinks); err != nil {
		return err
	}
	if err := tm.timed(ctx, "derive", b.derive); err != nil {
		return err
	}
	return tm.timed(ctx, "commit", func(ctx context.Context) error {
		progress(Progress{Phase: "commit"})
		return b.finish(ctx)
	})
}

// planRows works out the file table after the batch and what changed in it.
func (b *batch) planRows() {
	b.rows = make(map[string]*store.FileRow, len(b.in.old)+len(b.in.jobs))
	for i := range b.in.old {
		r := b.in.old[i]
		b.rows[r.Path] = &r
	}
	b.deleted = append([]*store.FileRow(nil), b.in.deleted...)
	for _, d := range b.deleted {
		delete(b.rows, d.Path)
	}
	b.encoded, b.changed = map[int64][]byte{}, map[string]bool{}
	st := b.st
	for _, j := range b.in.jobs {
		switch {
		case j.skipped:
			if j.old != nil { // vanished while reading: gone
				b.deleted = append(b.deleted, j.old)
				delete(b.rows, j.entry.Path)
			}
			continue
		case j.same:
			r := *j.old
			r.Size, r.MtimeNS, r.CtimeNS, r.Inode = j.entry.Size, j.entry.MtimeNS, j.entry.CtimeNS, j.entry.Inode
			b.rows[r.Path] = &r
			b.statOnly = append(b.statOnly, &r)
			continue
		}
		r := &store.FileRow{Path: j.entry.Path, BlobID: j.blobID, Hash: j.hash, NormHash: j.norm, GitOID: j.gitOID,
			Size: j.entry.Size, MtimeNS: j.entry.MtimeNS, CtimeNS: j.entry.CtimeNS, Inode: j.entry.Inode, Lang: langName(j.lang), Pkg: j.pkg,
			Status: j.status, Epoch: st.Epoch}
		if j.old != nil {
			r.ID = j.old.ID
			if j.old.NormHash != j.norm {
				st.Modified++
			}
		} else {
			st.Added++
		}
		b.rows[r.Path] = r
		b.changed[r.Path] = true
		if j.facts != nil {
			b.encoded[j.blobID] = j.facts
		}
	}
	st.Deleted = len(b.deleted)
	st.Renamed = countRenames(b.deleted, b.rows, b.changed)
	st.Added -= st.Renamed
	st.Deleted -= st.Renamed
	b.paths = make([]string, 0, len(b.rows))
	for p := range b.rows {
		b.paths = append(b.paths, p)
	}
	sort.Strings(b.paths)
}

// planModules detects the modules of the new file table and reports
// whether they differ from the stored ones.
func (b *batch) planModules(ctx context.Context) (bool, error) {
	b.mods = detectModules(b.ix.paths.Root, b.paths)
	oldMods, err := b.ix.db().Modules(ctx)
	if err != nil {
		return false, err
	}
	return !sameModules(oldMods, b.mods), nil
}

// writeFiles writes modules and file rows, and the history of the batch.
func (b *batch) writeFiles() error {
	tx := b.tx
	modIDs, err := tx.ReplaceModules(toModuleRows(b.mods))
	if err != nil {
		return err
	}
	for i := range b.mods {
		b.mods[i].ID = modIDs[[2]string{b.mods[i].Root, b.mods[i].Kind}]
	}
	modByRoot := byRoot(b.mods)
	for _, d := range b.deleted {
		if err := tx.DeleteFile(d.ID); err != nil {
			return err
		}
	}
	if err := recordHistory(tx, b.in.jobs, b.deleted, b.st.Epoch); err != nil {
		return err
	}
	for _, r := range b.statOnly {
		if err := tx.SetFileStat(r.ID, r.Size, r.MtimeNS, r.CtimeNS, r.Inode); err != nil {
			return err
		}
		b.touched[r.ID] = true
	}
	b.infos = make([]*fileInfo, 0, len(b.paths))
	b.byID = make(map[int64]string, len(b.paths))
	for _, p := range b.paths {
		r := b.rows[p]
		modID := moduleOf(modByRoot, p, r.Lang).ID
		if b.changed[p] {
			r.ModuleID = modID
			b.added = b.added || r.ID == 0
			id, err := tx.PutFile(*r)
			if err != nil {
				return err
			}
			r.ID = id
			b.touched[id] = true
		} else if r.ModuleID != modID {
			r.ModuleID = modID
			if err := tx.SetFileModule(r.ID, modID); err != nil {
				return err
			}
			b.touched[r.ID] = true
		}
		b.infos = append(b.infos, &fileInfo{id: r.ID, path: p, lang: r.Lang, pkg: r.Pkg, blobID: r.BlobID, status: r.Status})
		b.byID[r.ID] = p
	}
	return nil
}

// factsOf is a file's facts: parsed in this batch, or from the store. Both
// are decoded once and kept in the store's cache of decoded facts (blobs
// are immutable), so the phases of the batch that read a file's facts
// (symbols, identities, links) share one decoding.
func (b *batch) factsOf(ctx context.Context, f *fileInfo) (*lang.Facts, error) {
	if data, ok := b.encoded[f.blobID]; ok {
		return b.ix.decoded(f.blobID, data)
	}
	return b.ix.Facts(ctx, f.blobID)
}

// writeSymbols derives the symbols of changed files (of every file when
// identities may have moved) and writes what changed.
func (b *batch) writeSymbols(ctx context.Context) error {
	tx := b.tx
	b.w = newWorld(b.ix.paths.Root, b.mods, b.infos)
	b.resymbol = map[int64]*fileInfo{}
	for _, f := range b.infos {
		if (b.rebuild || b.changed[f.path]) && f.lang != "" {
			b.resymbol[f.id] = f
		}
	}
	if b.rebuild {
		if err := tx.ClearSymbols(); err != nil {
			return err
		}
		if err := tx.DropSymbolIndexes(); err != nil {
			return err
		}
	} else {
		ids := make([]int64, 0, len(b.resymbol)+len(b.deleted))
		for id := range b.resymbol {
			ids = append(ids, id)
		}
		for _, d := range b.deleted {
			ids = append(ids, d.ID)
		}
		var err error
		if b.oldSyms, err = b.ix.db().SymbolsOfFiles(ctx, ids); err != nil {
			return err
		}
	}
	oldByFile := map[int64][]store.SymbolRow{}
	for _, r := range b.oldSyms {
		oldByFile[r.FileID] = append(oldByFile[r.FileID], r)
	}
	db := b.ix.db()
	stored := func(ctx context.Context, ids []int64) ([]store.SymbolRow, error) {
		if rows, ok := b.ahead.take(ids); ok {
			return rows, nil
		}
		return db.SymbolsOfFiles(ctx, ids)
	}
	if b.rebuild {
		// A rebuild derives every file's symbols: the linker reads them
		// back from the transaction rather than hold them all.
		stored = func(ctx context.Context, ids []int64) ([]store.SymbolRow, error) {
			return symbolsInOrder(ctx, b.tx.Reader(), ids)
		}
	}
	b.lk = newLinker(b.w, stored, b.factsOf)
	b.lk.keep = b.ix.budget().linkSymbols
	for _, d := range b.deleted {
		b.lk.deleted[d.ID] = true
	}
	ordered := make([]*fileInfo, 0, len(b.resymbol))
	for _, f := range b.resymbol {
		ordered = append(ordered, f)
	}
	sort.Slice(ordered, func(i, j int) bool { return ordered[i].path < ordered[j].path })
	firstDef := definedEarlier{} // the qualified names of directory packages the batch defined so far
	for n, f := range ordered {
		if err := b.step(ctx, "symbols", n, len(ordered)); err != nil {
			return err
		}
		facts, err := b.factsOf(ctx, f)
		if err != nil {
			return err
		}
		var earlier func(string, int64) bool
		spansFiles := lang.Of(f.lang).Packages == lang.PackageDirectory
		if spansFiles {
			if earlier, err = b.earlierInPackage(ctx, f, facts, oldByFile[f.id], firstDef); err != nil {
				return err
			}
		}
		syms := fileSymbols(b.w, f, facts, earlier)
		if spansFiles {
			for _, s := range syms {
				firstDef.add(s.QName)
			}
		}
		if b.rebuild {
			if err := tx.PutSymbols(syms); err != nil {
				return err
			}
			b.st.Symbols += len(syms)
			continue
		}
		b.lk.batch[f.id] = syms
		// Write only what changed: a body edit usually changes no symbol row.
		gone, changedRows := diffSymbols(oldByFile[f.id], syms)
		if err := tx.DeleteSymbols(gone); err != nil {
			return err
		}
		if err := tx.PutSymbols(changedRows); err != nil {
			return err
		}
		b.st.Symbols += len(changedRows)
	}
	if b.rebuild {
		return tx.CreateSymbolIndexes()
	}
	return nil
}

// symbolsInOrder reads the symbols of files from r in the order of the
// files, each file's in definition order: the order in which the linker
// hands out the symbols a batch holds.
func symbolsInOrder(ctx context.Context, r *store.Reader, ids []int64) ([]store.SymbolRow, error) {
	rows, err := r.SymbolsOfFiles(ctx, ids)
	if err != nil || len(ids) < 2 {
		return rows, err
	}
	byFile := make(map[int64][]store.SymbolRow, len(ids))
	for _, s := range rows {
		byFile[s.FileID] = append(byFile[s.FileID], s)
	}
	out := make([]store.SymbolRow, 0, len(rows))
	for _, id := range ids {
		out = append(out, byFile[id]...)
	}
	return out, nil
}

// definedEarlier is the set of qualified names the files of a batch
// defined so far, by a 64-bit hash (as symbol ids are): a set of every
// name a rebuild defines would hold their strings.
type definedEarlier map[uint64]struct{}

func (d definedEarlier) add(qname string)      { d[xxh3.HashString(qname)] = struct{}{} }
func (d definedEarlier) has(qname string) bool { _, ok := d[xxh3.HashString(qname)]; return ok }

// earlierInPackage decides, for a file of a directory package (Go's, whose
// files share one unit), whether a qualified name it defines was defined
// earlier by another file (the later definition then gets a disambiguated
// id). Definitions the file already had keep their decision
// (a plain id means no earlier duplicate); only new names ask the store.
func (b *batch) earlierInPackage(ctx context.Context, f *fileInfo, facts *lang.Facts, own []store.SymbolRow, firstDef definedEarlier) (func(string, int64) bool, error) {
	prev := map[string][]int64{}
	for _, r := range own {
		prev[r.QName] = append(prev[r.QName], r.ID)
	}
	var fresh []string
	if !b.rebuild {
		for _, qn := range fileQNames(b.w, f, facts) {
			if _, ok := prev[qn]; !ok {
				fresh = append(fresh, qn)
			}
		}
	}
	stored := map[string][]int64{}
	if len(fresh) > 0 {
		var err error
		if stored, err = b.ix.db().FilesByQNames(ctx, fresh); err != nil {
			return nil, err
		}
	}
	return func(qn string, plain int64) bool {
		if firstDef.has(qn) { // by a file before this one in path order
			return true
		}
		if ids, ok := prev[qn]; ok {
			for _, id := range ids {
				if id == plain {
					return false
				}
			}
			return true
		}
		for _, id := range stored[qn] {
			if p := b.byID[id]; p != "" && p < f.path && !resymbolHas(b.resymbol, id) {
				return true
			}
		}
		return false
	}, nil
}

// recordIdentities gives vanished symbols aliases or tombstones.
func (b *batch) recordIdentities(ctx context.Context) error {
	oldBlob, oldPath := map[int64]int64{}, map[int64]string{}
	for _, r := range b.in.old {
		oldBlob[r.ID], oldPath[r.ID] = r.BlobID, r.Path
	}
	nowFacts := func(fileID int64) *lang.Facts {
		f := b.resymbol[fileID]
		if f == nil {
			return nil
		}
		facts, _ := b.factsOf(ctx, f)
		return facts
	}
	pathOf := func(fileID int64) string {
		if p, ok := oldPath[fileID]; ok {
			return p
		}
		return b.byID[fileID]
	}
	return b.ix.recordIdentity(ctx, b.tx, b.oldSyms, oldBlob, b.lk.batch, nowFacts, pathOf, b.st.Epoch)
}

// relinkSet is the files whose links are derived again: changed files, plus
// files that mention a name whose symbols changed (every file when
// rebuilding or when many names changed), in path order. A file's
// mentions are its blob's name postings (mentions.go), so finding them is
// one term lookup per name, reading no file's text or facts.
func (b *batch) relinkSet(ctx context.Context) ([]*fileInfo, error) {
	relink := map[int64]*fileInfo{}
	for id, f := range b.resymbol {
		relink[id] = f
	}
	var changed []string
	if !b.rebuild {
		var files map[int64]bool
		changed, files = changedNames(b.oldSyms, b.lk.batch)
		// a module's importers may use its default export under their
		// own name: they name the module's file in the import instead
		for id := range files {
			if f := b.w.files[b.byID[id]]; f != nil {
				if facts, err := b.factsOf(ctx, f); err == nil && facts != nil && facts.DefaultExport > 0 {
					changed = append(changed, lang.ModuleStem(f.path))
				}
			}
		}
	}
	if b.rebuild || len(changed) > relinkAllAbove {
		for _, f := range b.infos {
			relink[f.id] = f
		}
	} else {
		for _, n := range changed {
			hits, err := b.ix.db().NameCandidates(ctx, n)
			if err != nil {
				return nil, err
			}
			for _, h := range hits {
				if f := b.w.files[h.Path]; f != nil && relink[f.id] == nil {
					relink[f.id] = f
				}
			}
		}
	}
	order := make([]*fileInfo, 0, len(relink))
	for _, f := range relink {
		if f.lang != "" {
			order = append(order, f)
		}
	}
	sort.Slice(order, func(i, j int) bool { return order[i].path < order[j].path })
	return order, nil
}

// linkItem is one file of the relink set on its way through writeLinks.
type linkItem struct {
	f       *fileInfo
	facts   *lang.Facts
	own     []store.SymbolRow
	err     error
	links   []byte
	imports []byte
	edges   []store.EdgeRow
}

// writeLinks resolves the references, import edges and call and type edges
// of the relink set. Three stages overlap so that a second core works
// beside the linker, which is single-threaded: reading each file's facts
// and stored symbols ahead of it, linking, and writing each file's results
// to the transaction, in path order.
func (b *batch) writeLinks(ctx context.Context) error {
	order, err := b.relinkSet(ctx)
	if err != nil {
		return err
	}
	if b.rebuild { // the edge table was cleared with the symbols
		if err := b.tx.DropEdgeIndexes(); err != nil {
			return err
		}
	}
	b.ahead = &symbolsAhead{rows: map[int64][]store.SymbolRow{}, dirs: map[string]bool{}, asked: map[int64]bool{}}
	defer func() { b.ahead = nil }() // the last to run: after every stage has stopped
	var wg sync.WaitGroup
	defer wg.Wait() // deferred before cancel, so it runs after it: no stage outlives the call
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ready := make(chan *linkItem, 32)
	wg.Add(1)
	go func() {
		defer wg.Done()
		b.readAhead(ctx, order, ready)
	}()
	linked := make(chan *linkItem, 32)
	written := make(chan error, 1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		written <- b.writeLinked(linked, cancel)
	}()
	n := 0
	for it := range ready {
		if it.err != nil {
			err = it.err
			break
		}
		if err = b.step(ctx, "link", n, len(order)); err != nil {
			break
		}
		n++
		b.linkOne(ctx, it)
		linked <- it
	}
	close(linked)
	if werr := <-written; werr != nil {
		return werr // the first failure: reading stopped because of it
	}
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err // cancelled while reading ahead
	}
	if b.rebuild {
		if err := b.tx.CreateEdgeIndexes(); err != nil {
			return err
		}
	}
	b.st.Relinked = len(order)
	return nil
}

// readAhead is the first stage of writeLinks: it sends each file of order
// with its facts and its stored symbols, in order, and closes ready. It
// stops after the first item that carries an error, or when ctx is done.
func (b *batch) readAhead(ctx context.Context, order []*fileInfo, ready chan<- *linkItem) {
	defer close(ready)
	for _, f := range order {
		it := &linkItem{f: f}
		it.facts, it.err = b.factsOf(ctx, f)
		if it.err == nil {
			it.err = b.ahead.read(ctx, b, f)
		}
		if it.err == nil {
			it.own, it.err = b.ownSymbols(ctx, f)
		}
		select {
		case ready <- it:
		case <-ctx.Done():
			return
		}
		if it.err != nil {
			return
		}
	}
}

// ownSymbols are the symbols a file of the relink set defines: this
// batch's, else those the transaction or the store holds.
func (b *batch) ownSymbols(ctx context.Context, f *fileInfo) ([]store.SymbolRow, error) {
	if own, ok := b.lk.batch[f.id]; ok {
		return own, nil
	}
	if b.rebuild {
		return b.tx.Reader().SymbolsOfFile(ctx, f.id)
	}
	if own, ok := b.ahead.own(f.id); ok {
		return own, nil
	}
	return b.ix.db().SymbolsOfFile(ctx, f.id)
}

// linkOne is the middle stage of writeLinks: it links one file's
// references and import edges and derives its edges, encoded for the
// writer.
func (b *batch) linkOne(ctx context.Context, it *linkItem) {
	links := b.lk.link(ctx, it.f, it.facts, it.own)
	if len(links) > 0 {
		it.links = EncodeLinks(links)
	}
	if edges := b.lk.importEdges(ctx, it.f, it.facts); len(edges) > 0 {
		it.imports = EncodeImports(edges)
	}
	it.edges = fileEdges(it.facts, it.own, links)
	it.facts, it.own = nil, nil // the writer needs neither: let them go while it catches up
}

// writeLinked is the last stage of writeLinks: it writes each linked file's
// links, import edges and edges to the transaction, in order. After a
// failure it cancels the other stages and only drains; it returns the
// failure.
func (b *batch) writeLinked(linked <-chan *linkItem, cancel context.CancelFunc) error {
	var err error
	for it := range linked {
		if err != nil {
			continue
		}
		if err = b.tx.SetLink(it.f.id, it.links, it.imports); err == nil {
			b.touched[it.f.id] = true
			err = b.tx.SetEdges(it.f.id, it.edges, b.rebuild)
		}
		if err != nil {
			cancel()
		}
	}
	return err
}

// finish records the new state, commits, and keeps what this process now
// knows of the file table and the metadata.
func (b *batch) finish(ctx context.Context) error {
	ix := b.ix
	meta, err := ix.writeState(ctx, b.tx, b.rows, b.in.missingTracked, b.in.trip, b.st)
	if err != nil {
		return err
	}
	if err := b.tx.Commit(); err != nil {
		ix.meta = nil
		return err
	}
	ix.setOwnerMeta(meta)
	if b.derived != "" {
		ix.setOwnerMeta(map[string]string{derivedKey: b.derived})
	}
	ix.files = make([]store.FileRow, 0, len(b.rows))
	for _, p := range b.paths {
		ix.files = append(ix.files, *b.rows[p])
	}
	b.st.Changed = true
	ix.changes.record(epochChange{gen: ix.cur.Load().gen, epoch: b.st.Epoch, files: slices.Sorted(maps.Keys(b.touched)),
		structural: b.rebuild || b.added || len(b.deleted) > 0})
	// The batch is committed whatever happens here: a worktree that fails to
	// record that it was seen keeps its blobs through their grace period, and
	// the next batch records it again.
	_ = ix.db().RegisterWorktree(ctx, time.Now().Unix(), ix.paths.Root)
	return nil
}

// claimBlobs marks the blobs the batch's new file rows will reference as
// used, before they are committed, so that a collection in another worktree
// keeps them (it deletes only blobs unused since before its grace); the few
// it removed after this batch found them are parsed and stored again.
func (ix *Index) claimBlobs(ctx context.Context, jobs []*job, full bool, st *Stats, tm *timer, progress func(Progress)) error {
	var ids []int64
	for _, j := range jobs {
		if !j.skipped && !j.same && j.blobID != 0 {
			ids = append(ids, j.blobID)
		}
	}
	if ix.beforeClaim != nil {
		ix.beforeClaim()
	}
	grace := int64(ix.cfg.Index.GCGraceHours) * 3600
	missing, err := ix.db().ClaimBlobs(ctx, ids, time.Now().Unix(), min(grace, 3600))
	if err != nil || len(missing) == 0 {
		return err
	}
	gone := make(map[int64]bool, len(missing))
	for _, id := range missing {
		gone[id] = true
	}
	var redo []*job
	for _, j := range jobs {
		if !j.skipped && !j.same && gone[j.blobID] {
			j.blobID, j.facts = 0, nil
			redo = append(redo, j)
		}
	}
	return ix.process(ctx, redo, full, st, tm, progress)
}

// fileQNames lists the qualified names a file's definitions get.
func fileQNames(w *world, f *fileInfo, facts *lang.Facts) []string {
	if facts == nil {
		return nil
	}
	u := w.unitOf(f)
	out := make([]string, 0, len(facts.Defs))
	for _, d := range facts.Defs {
		out = append(out, u.qname(d.Path))
	}
	return out
}

// diffSymbols compares a file's stored symbols with its new ones: the ids to
// delete, and the rows to insert or replace.
func diffSymbols(old, now []store.SymbolRow) (gone []int64, changed []store.SymbolRow) {
	before := make(map[int64]store.SymbolRow, len(old))
	for _, r := range old {
		before[r.ID] = r
	}
	seen := make(map[int64]bool, len(now))
	for _, r := range now {
		seen[r.ID] = true
		if o, ok := before[r.ID]; !ok || o != r {
			changed = append(changed, r)
		}
	}
	for _, r := range old {
		if !seen[r.ID] {
			gone = append(gone, r.ID)
		}
	}
	return gone, changed
}

func resymbolHas(m map[int64]*fileInfo, id int64) bool {
	_, ok := m[id]
	return ok
}

// countRenames pairs deleted files with added files of equal content.
func countRenames(deleted []*store.FileRow, rows map[string]*store.FileRow, changed map[string]bool) int {
	gone := map[store.Hash]int{}
	for _, d := range deleted {
		gone[d.Hash]++
	}
	n := 0
	for p := range changed {
		r := rows[p]
		if r.ID == 0 && gone[r.Hash] > 0 {
			gone[r.Hash]--
			n++
		}
	}
	return n
}

func sameModules(old []store.ModuleRow, mods []Module) bool {
	if len(old) != len(mods) {
		return false
	}
	for i := range old {
		if old[i].Root != mods[i].Root || old[i].Name != mods[i].Name || old[i].Kind != mods[i].Kind || old[i].Detached != mods[i].Detached {
			return false
		}
	}
	return true
}

// changedNames lists the names of symbols that appeared or disappeared, or
// whose qualified name changed (a Java file that moved to another package keeps
// its ids, but the files importing its types resolve differently), and the
// files those symbols are in.
func changedNames(old []store.SymbolRow, now map[int64][]store.SymbolRow) ([]string, map[int64]bool) {
	type named struct {
		name, qname string
		kind        lang.DefKind
		file        int64
	}
	before := map[int64]named{}
	for _, s := range old {
		before[s.ID] = named{s.Name, s.QName, lang.DefKind(s.Kind), s.FileID}
	}
	after := map[int64]named{}
	for _, rows := range now {
		for _, s := range rows {
			after[s.ID] = named{s.Name, s.QName, lang.DefKind(s.Kind), s.FileID}
		}
	}
	names, files := map[string]bool{}, map[int64]bool{}
	changed := func(n named) {
		names[n.name] = true
		files[n.file] = true
		for _, a := range lang.AccessorNamesOf(n.name, n.kind) { // Kotlin's foo for Java's getFoo()
			names[a] = true
		}
	}
	for id, n := range before {
		if a, ok := after[id]; !ok || a.qname != n.qname {
			changed(n)
		}
	}
	for id, n := range after {
		if _, ok := before[id]; !ok {
			changed(n)
		}
	}
	return sortedPaths(names), files
}

// writeState records the epoch, HEAD, dirtiness and repo state id.
func (ix *Index) writeState(ctx context.Context, tx *store.Tx, rows map[string]*store.FileRow, missingTracked int, trip string, st *Stats) (map[string]string, error) {
	var head, branch string
	if ix.paths.IsGit {
		var ok bool
		if head, branch, ok = gitx.ReadHead(ix.paths.GitDir, ix.paths.GitCommon); !ok {
			head, branch = gitx.Head(ctx, ix.paths.Root)
		}
	}
	dirty := false
	if ix.paths.IsGit {
		tree := ix.headTreeFor(ctx, head)
		dirty = missingTracked > 0
		for p, r := range rows {
			if oid, ok := tree[p]; !ok || (r.GitOID != "" && oid != r.GitOID) {
				dirty = true
				break
			}
		}
	}
	var digest [16]byte
	paths := make([]string, 0, len(rows))
	for p := range rows {
		paths = append(paths, p)
	}
	for _, p := range paths {
		r := rows[p]
		h := xxh3.Hash128(append(append([]byte(p), 0), r.Hash[:]...)).Bytes()
		for i := range digest {
			digest[i] ^= h[i]
		}
	}
	stateID := xxh3.Hash128(append([]byte(head+"\x00"), digest[:]...)).Bytes()
	dirtyStr := "0"
	if dirty {
		dirtyStr = "1"
	}
	kv := map[string]string{
		"epoch":             strconv.FormatInt(st.Epoch, 10),
		"tripwire":          trip,
		"head":              head,
		"branch":            branch,
		"dirty":             dirtyStr,
		"repo_state_id":     "rs_" + hexString(stateID[:12]),
		"files":             strconv.Itoa(len(rows)),
		"missing_tracked":   strconv.Itoa(missingTracked),
		"indexed_at":        time.Now().UTC().Format(time.RFC3339),
		"full_pending":      "0",
		"extractor_version": strconv.Itoa(extractorVersion),
	}
	for k, v := range kv {
		if err := tx.SetMeta(k, v); err != nil {
			return nil, err
		}
	}
	return kv, nil
}

func hexString(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, len(b)*2)
	for i, c := range b {
		out[i*2], out[i*2+1] = digits[c>>4], digits[c&15]
	}
	return string(out)
}

// headTreeFor lists HEAD's blobs (path -> oid), cached per commit.
func (ix *Index) headTreeFor(ctx context.Context, head string) map[string]string {
	if head == "" {
		return map[string]string{}
	}
	if ix.headTreeCommit == head && ix.headTree != nil {
		return ix.headTree
	}
	entries, err := gitx.LsTree(ctx, ix.paths.Root, head)
	tree := make(map[string]string, len(entries))
	if err != nil {
		// git is missing or failed: the tree counts as dirty for now, and
		// the next reconcile asks git again rather than keep the failure.
		return tree
	}
	for _, e := range entries {
		tree[e.Path] = e.OID
	}
	ix.headTree, ix.headTreeCommit = tree, head
	return tree
}

// maybeCollectGarbage sweeps the blob store at most once a day.
func (ix *Index) maybeCollectGarbage(ctx context.Context) {
	meta, err := ix.ownerMeta(ctx)
	if err != nil {
		return
	}
	at, _ := strconv.ParseInt(meta["gc_at"], 10, 64)
	now := time.Now().Unix()
	if now-at < 24*3600 {
		return
	}
	grace := int64(ix.cfg.Index.GCGraceHours) * 3600
	if _, err := ix.collect(ctx, now, grace, false); err != nil {
		return
	}
	tx, err := ix.db().Begin(ctx)
	if err != nil {
		return
	}
	tx.SetMeta("gc_at", strconv.FormatInt(now, 10))
	if tx.Commit() == nil {
		ix.setOwnerMeta(gcStamp(now))
	}
}
