package index

import (
	"context"
	"sort"
	"strconv"
	"time"

	"github.com/zeebo/xxh3"

	"github.com/cairnhq/cairn/internal/gitx"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/store"
)

// relinkAllAbove is how many changed symbol names make relinking every file
// cheaper than finding the files that mention them.
const relinkAllAbove = 64

// commit writes one batch to the worktree index in a single transaction: file
// rows, modules, symbols of changed files, links of every file whose resolution
// may have changed, and the new epoch.
func (ix *Index) commit(ctx context.Context, old []store.FileRow, jobs []*job, deleted []*store.FileRow, full bool,
	missingTracked int, trip string, st *Stats, tm *timer, progress func(Progress)) error {
	if err := ix.claimBlobs(ctx, jobs, full, st, tm, progress); err != nil {
		return err
	}
	t := time.Now()
	rows := make(map[string]*store.FileRow, len(old)+len(jobs))
	for i := range old {
		r := old[i]
		rows[r.Path] = &r
	}
	for _, d := range deleted {
		delete(rows, d.Path)
	}
	encoded := map[int64][]byte{} // facts parsed in this batch, by blob id
	changed := map[string]bool{}  // paths whose content (blob) changed or is new
	var statOnly []*store.FileRow
	for _, j := range jobs {
		switch {
		case j.skipped:
			if j.old != nil { // vanished while reading: gone
				deleted = append(deleted, j.old)
				delete(rows, j.entry.Path)
			}
			continue
		case j.same:
			r := *j.old
			r.Size, r.MtimeNS, r.CtimeNS, r.Inode = j.entry.Size, j.entry.MtimeNS, j.entry.CtimeNS, j.entry.Inode
			rows[r.Path] = &r
			statOnly = append(statOnly, &r)
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
		rows[r.Path] = r
		changed[r.Path] = true
		if j.facts != nil {
			encoded[j.blobID] = j.facts
		}
	}
	st.Deleted = len(deleted)
	st.Renamed = countRenames(deleted, rows, changed)
	st.Added -= st.Renamed
	st.Deleted -= st.Renamed

	paths := make([]string, 0, len(rows))
	for p := range rows {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	mods := detectModules(ix.paths.Root, paths)
	oldMods, err := ix.db().Modules(ctx)
	if err != nil {
		return err
	}
	modulesChanged := !sameModules(oldMods, mods)

	tx, err := ix.db().Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	modIDs, err := tx.ReplaceModules(toModuleRows(mods))
	if err != nil {
		return err
	}
	for i := range mods {
		mods[i].ID = modIDs[[2]string{mods[i].Root, mods[i].Kind}]
	}
	modByRoot := byRoot(mods)
	for _, d := range deleted {
		if err := tx.DeleteFile(d.ID); err != nil {
			return err
		}
	}
	if err := recordHistory(tx, jobs, deleted, st.Epoch); err != nil {
		return err
	}
	for _, r := range statOnly {
		if err := tx.SetFileStat(r.ID, r.Size, r.MtimeNS, r.CtimeNS, r.Inode); err != nil {
			return err
		}
	}
	infos := make([]*fileInfo, 0, len(paths))
	for _, p := range paths {
		r := rows[p]
		modID := moduleOf(modByRoot, p, r.Lang).ID
		if changed[p] {
			r.ModuleID = modID
			id, err := tx.PutFile(*r)
			if err != nil {
				return err
			}
			r.ID = id
		} else if r.ModuleID != modID {
			r.ModuleID = modID
			if err := tx.SetFileModule(r.ID, modID); err != nil {
				return err
			}
		}
		infos = append(infos, &fileInfo{id: r.ID, path: p, lang: r.Lang, pkg: r.Pkg, blobID: r.BlobID, status: r.Status})
	}
	tm.add("files", time.Since(t))

	// Symbols of changed files (every file when identities may have moved).
	t = time.Now()
	w := newWorld(ix.paths.Root, mods, infos)
	resymbol := map[int64]*fileInfo{}
	for _, f := range infos {
		if (full || modulesChanged || changed[f.path]) && f.lang != "" {
			resymbol[f.id] = f
		}
	}
	factsOf := func(f *fileInfo) (*lang.Facts, error) {
		if data, ok := encoded[f.blobID]; ok {
			return lang.Decode(data)
		}
		return ix.Facts(ctx, f.blobID)
	}
	var oldSyms []store.SymbolRow
	if !full && !modulesChanged {
		var ids []int64
		for id := range resymbol {
			ids = append(ids, id)
		}
		for _, d := range deleted {
			ids = append(ids, d.ID)
		}
		if oldSyms, err = ix.db().SymbolsOfFiles(ctx, ids); err != nil {
			return err
		}
	}
	if full || modulesChanged {
		if err := tx.ClearSymbols(); err != nil {
			return err
		}
		if err := tx.DropSymbolIndexes(); err != nil {
			return err
		}
	}
	oldByFile := map[int64][]store.SymbolRow{}
	for _, r := range oldSyms {
		oldByFile[r.FileID] = append(oldByFile[r.FileID], r)
	}
	lk := newLinker(ctx, ix.db(), w)
	lk.facts = factsOf
	for _, d := range deleted {
		lk.deleted[d.ID] = true
	}
	firstDef := map[string]string{} // Go qualified name -> first path defining it in this batch
	byID := map[int64]string{}
	for _, f := range infos {
		byID[f.id] = f.path
	}
	ordered := make([]*fileInfo, 0, len(resymbol))
	for _, f := range resymbol {
		ordered = append(ordered, f)
	}
	sort.Slice(ordered, func(i, j int) bool { return ordered[i].path < ordered[j].path })
	for n, f := range ordered {
		if n%512 == 0 {
			progress(Progress{Phase: "symbols", Done: n, Total: len(ordered)})
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		facts, err := factsOf(f)
		if err != nil {
			return err
		}
		var earlier func(string, int64) bool
		if f.lang == "go" {
			// Definitions this file already had keep their decision (a plain id
			// means no earlier duplicate); only new names ask the database.
			prev := map[string][]int64{}
			for _, r := range oldByFile[f.id] {
				prev[r.QName] = append(prev[r.QName], r.ID)
			}
			var fresh []string
			if !full && !modulesChanged {
				for _, qn := range goQNames(w, f, facts) {
					if _, ok := prev[qn]; !ok {
						fresh = append(fresh, qn)
					}
				}
			}
			stored := map[string][]int64{}
			if len(fresh) > 0 {
				if stored, err = ix.db().FilesByQNames(ctx, fresh); err != nil {
					return err
				}
			}
			earlier = func(qn string, plain int64) bool {
				if p, ok := firstDef[qn]; ok && p != f.path {
					return p < f.path
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
					if p := byID[id]; p != "" && p < f.path && !resymbolHas(resymbol, id) {
						return true
					}
				}
				return false
			}
		}
		syms := fileSymbols(w, f, facts, earlier)
		if f.lang == "go" {
			for _, s := range syms {
				if _, ok := firstDef[s.QName]; !ok {
					firstDef[s.QName] = f.path
				}
			}
		}
		lk.batch[f.id] = syms
		if full || modulesChanged {
			if err := tx.PutSymbols(syms); err != nil {
				return err
			}
			st.Symbols += len(syms)
			continue
		}
		// Write only what changed: a body edit usually changes no symbol row.
		gone, changedRows := diffSymbols(oldByFile[f.id], syms)
		if err := tx.DeleteSymbols(gone); err != nil {
			return err
		}
		if err := tx.PutSymbols(changedRows); err != nil {
			return err
		}
		st.Symbols += len(changedRows)
	}
	if full || modulesChanged {
		if err := tx.CreateSymbolIndexes(); err != nil {
			return err
		}
	}
	tm.add("symbols", time.Since(t))

	if !full && !modulesChanged {
		oldBlob, oldPath := map[int64]int64{}, map[int64]string{}
		for i := range old {
			oldBlob[old[i].ID], oldPath[old[i].ID] = old[i].BlobID, old[i].Path
		}
		nowFacts := func(fileID int64) *lang.Facts {
			f := resymbol[fileID]
			if f == nil {
				return nil
			}
			facts, _ := factsOf(f)
			return facts
		}
		pathOf := func(fileID int64) string {
			if p, ok := oldPath[fileID]; ok {
				return p
			}
			return byID[fileID]
		}
		if err := ix.recordIdentity(ctx, tx, oldSyms, oldBlob, lk.batch, nowFacts, pathOf, st.Epoch); err != nil {
			return err
		}
	}

	// Links: changed files, plus files that mention a name whose symbols changed.
	t = time.Now()
	relink := map[int64]*fileInfo{}
	for id, f := range resymbol {
		relink[id] = f
	}
	if full || modulesChanged {
		for _, f := range infos {
			relink[f.id] = f
		}
	} else {
		names := changedNames(oldSyms, lk.batch)
		if len(names) > relinkAllAbove {
			for _, f := range infos {
				relink[f.id] = f
			}
		} else {
			for _, n := range names {
				hits, err := ix.db().TextCandidates(ctx, store.GlobLiteral(n), true, 1<<30)
				if err != nil {
					return err
				}
				for _, h := range hits {
					if f := w.files[h.Path]; f != nil && f.lang != "" {
						relink[f.id] = f
					}
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
	rebuild := full || modulesChanged // the edge table was cleared with the symbols
	if rebuild {
		if err := tx.DropEdgeIndexes(); err != nil {
			return err
		}
	}
	for n, f := range order {
		if n%512 == 0 {
			progress(Progress{Phase: "link", Done: n, Total: len(order)})
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		facts, err := factsOf(f)
		if err != nil {
			return err
		}
		own, ok := lk.batch[f.id]
		if !ok {
			if own, err = ix.db().SymbolsOfFile(ctx, f.id); err != nil {
				return err
			}
		}
		links := lk.link(f, facts, own)
		var data, imports []byte
		if len(links) > 0 {
			data = EncodeLinks(links)
		}
		if edges := lk.importEdges(f, facts); len(edges) > 0 {
			imports = EncodeImports(edges)
		}
		if err := tx.SetLink(f.id, data, imports); err != nil {
			return err
		}
		if err := tx.SetEdges(f.id, fileEdges(facts, own, links), rebuild); err != nil {
			return err
		}
	}
	if rebuild {
		if err := tx.CreateEdgeIndexes(); err != nil {
			return err
		}
	}
	st.Relinked = len(order)
	tm.add("link", time.Since(t))

	t = time.Now()
	progress(Progress{Phase: "commit"})
	meta, err := ix.writeState(ctx, tx, rows, missingTracked, trip, st)
	if err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		ix.meta = nil
		return err
	}
	ix.setOwnerMeta(meta)
	ix.files = make([]store.FileRow, 0, len(rows))
	for _, p := range paths {
		ix.files = append(ix.files, *rows[p])
	}
	st.Changed = true
	ix.db().RegisterWorktree(ctx, time.Now().Unix())
	tm.add("commit", time.Since(t))
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

// goQNames lists the qualified names a Go file's definitions get.
func goQNames(w *world, f *fileInfo, facts *lang.Facts) []string {
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
// its ids, but the files importing its types resolve differently).
func changedNames(old []store.SymbolRow, now map[int64][]store.SymbolRow) []string {
	type named struct{ name, qname string }
	before := map[int64]named{}
	for _, s := range old {
		before[s.ID] = named{s.Name, s.QName}
	}
	after := map[int64]named{}
	for _, rows := range now {
		for _, s := range rows {
			after[s.ID] = named{s.Name, s.QName}
		}
	}
	names := map[string]bool{}
	for id, n := range before {
		if a, ok := after[id]; !ok || a.qname != n.qname {
			names[n.name] = true
		}
	}
	for id, n := range after {
		if _, ok := before[id]; !ok {
			names[n.name] = true
		}
	}
	return sortedPaths(names)
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
		"epoch":           strconv.FormatInt(st.Epoch, 10),
		"tripwire":        trip,
		"head":            head,
		"branch":          branch,
		"dirty":           dirtyStr,
		"repo_state_id":   "rs_" + hexString(stateID[:12]),
		"files":           strconv.Itoa(len(rows)),
		"missing_tracked": strconv.Itoa(missingTracked),
		"indexed_at":      time.Now().UTC().Format(time.RFC3339),
		"full_pending":    "0",
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
	if err == nil {
		for _, e := range entries {
			tree[e.Path] = e.OID
		}
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
	if _, err := ix.db().CollectGarbage(ctx, now, grace); err != nil {
		return
	}
	tx, err := ix.db().Begin(ctx)
	if err != nil {
		return
	}
	tx.SetMeta("gc_at", strconv.FormatInt(now, 10))
	if tx.Commit() == nil {
		ix.setOwnerMeta(map[string]string{"gc_at": strconv.FormatInt(now, 10)})
	}
}
