package index

import (
	"context"
	"crypto/sha256"
	"sort"
	"sync"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/scan"
	"github.com/cairnhq/cairn/internal/store"
)

// OverlayInput is a file a workspace or a request holds instead of the
// indexed one.
type OverlayInput struct {
	Path    string
	Content []byte // nil when Deleted
	Deleted bool
	// ID is the pseudo file id (< 0) the file's symbol rows carry.
	ID int64
}

// OverlayFile is an overlay file as the index would see it: its language,
// facts, symbol rows and the links of its references. Symbol ids are the
// index's own (they depend on the module, the unit and the definition's
// path, not on the content), so a symbol edited in an overlay keeps its id.
type OverlayFile struct {
	Lang  string
	Facts *lang.Facts // nil for a file no language reads
	Rows  []store.SymbolRow
	Links map[int]Link // by index into Facts.Refs
	// Imports are its resolved, classified import edges; Module is the
	// module owning it (0: none); Status is what the index would record of
	// its content (parsed, text or binary).
	Imports []ImportEdge
	Module  int64
	Status  store.BlobStatus
}

// overlayFacts caches the facts of overlay contents by content hash and
// language: each content is extracted once per process.
var overlayFacts = struct {
	sync.Mutex // guards m
	m          map[[32]byte]*lang.Facts
}{m: map[[32]byte]*lang.Facts{}}

// maxOverlayFacts bounds the cache; past it the cache starts again.
const maxOverlayFacts = 4096

func overlayFactsOf(l *lang.Language, content []byte) (*lang.Facts, error) {
	key := sha256.Sum256(append([]byte(l.Name+"\x00"), content...))
	overlayFacts.Lock()
	facts, ok := overlayFacts.m[key]
	overlayFacts.Unlock()
	if ok {
		return facts, nil
	}
	x := lang.NewExtractor()
	defer x.Close()
	facts, err := extractSafely(x, l, content)
	if err != nil {
		return nil, err
	}
	overlayFacts.Lock()
	if len(overlayFacts.m) >= maxOverlayFacts {
		overlayFacts.m = map[[32]byte]*lang.Facts{}
	}
	overlayFacts.m[key] = facts
	overlayFacts.Unlock()
	return facts, nil
}

// Overlay derives overlay files as a reconcile would if the working tree
// held them: facts, symbols within the snapshot's modules, and links
// against the snapshot's files with the overlay in place (its deletions
// gone, its files replacing theirs). What the index derived for other files
// (their links, edges, the semantic layer) stays the baseline's.
func (s *Snapshot) Overlay(ctx context.Context, in []OverlayInput) (map[string]*OverlayFile, error) {
	out := map[string]*OverlayFile{}
	mrows, err := s.Store().Modules(ctx)
	if err != nil {
		return nil, err
	}
	mods := make([]Module, len(mrows))
	for i, m := range mrows {
		mods[i] = Module{ID: m.ID, Root: m.Root, Name: m.Name, Kind: m.Kind, Manifest: m.Manifest, Deps: m.Deps, Workspace: m.Workspace, Detached: m.Detached}
	}
	rows, err := s.Store().Files(ctx)
	if err != nil {
		return nil, err
	}
	held := map[string]*OverlayInput{}
	for i := range in {
		held[in[i].Path] = &in[i]
	}
	var infos []*fileInfo
	facts := map[int64]*lang.Facts{}
	lk := newLinker(nil, s.Store().SymbolsOfFiles,
		func(ctx context.Context, f *fileInfo) (*lang.Facts, error) {
			if f.id < 0 {
				return facts[f.id], nil
			}
			return s.Facts(ctx, f.blobID)
		})
	for _, r := range rows {
		if held[r.Path] != nil {
			lk.deleted[r.ID] = true
			continue
		}
		infos = append(infos, &fileInfo{id: r.ID, path: r.Path, lang: r.Lang, pkg: r.Pkg, blobID: r.BlobID, status: r.Status})
	}
	var mine []*fileInfo
	modByRoot := byRoot(mods)
	for _, o := range in {
		of := &OverlayFile{Links: map[int]Link{}}
		out[o.Path] = of
		if o.Deleted {
			continue
		}
		l := lang.ForFile(o.Path, o.Content)
		switch {
		case scan.IsBinary(o.Content):
			of.Status = store.BlobBinary
		case l == nil:
			of.Status = store.BlobText
		}
		of.Module = moduleOf(modByRoot, o.Path, "").ID
		if l == nil || scan.IsBinary(o.Content) {
			continue
		}
		f, err := overlayFactsOf(l, o.Content)
		if err != nil {
			return nil, err
		}
		of.Lang, of.Facts, of.Status = l.Name, f, store.BlobParsed
		of.Module = moduleOf(modByRoot, o.Path, l.Name).ID
		fi := &fileInfo{id: o.ID, path: o.Path, lang: l.Name, pkg: f.Package, status: store.BlobParsed}
		facts[o.ID] = f
		infos = append(infos, fi)
		mine = append(mine, fi)
	}
	sort.Slice(infos, func(i, j int) bool { return infos[i].path < infos[j].path })
	w := newWorld(s.ix.paths.Root, mods, infos)
	lk.w = w
	for _, fi := range mine {
		of := out[fi.path]
		of.Rows = fileSymbols(w, fi, of.Facts, nil)
		lk.batch[fi.id] = of.Rows
	}
	for _, fi := range mine {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		of := out[fi.path]
		for _, l := range lk.link(ctx, fi, of.Facts, of.Rows) {
			of.Links[l.Ref] = l
		}
		of.Imports = lk.importEdges(ctx, fi, of.Facts)
	}
	return out, nil
}

// Edges derives the file's call and type edges from its links, as the index
// would store them for a file of this id.
func (f *OverlayFile) Edges(fileID int64) []store.EdgeRow {
	if f == nil || f.Facts == nil {
		return nil
	}
	links := make([]Link, 0, len(f.Links))
	for _, l := range f.Links {
		links = append(links, l)
	}
	sort.Slice(links, func(i, j int) bool { return links[i].Ref < links[j].Ref })
	out := fileEdges(f.Facts, f.Rows, links)
	for i := range out {
		out[i].FileID = fileID
	}
	return out
}
