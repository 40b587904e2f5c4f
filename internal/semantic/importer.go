package semantic

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/scip-code/scip/bindings/go/scip"
	"github.com/zeebo/xxh3"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/store"
)

// ImportOptions says what to import and how far to trust it.
type ImportOptions struct {
	Path string // the .scip file
	Key  string // identity of the index: an import replaces the index with the same key
	// Root is the repo-relative project root to use when the index's own
	// project_root is not inside the repository (an index built elsewhere).
	Root      string
	Source    string // "job:<id>" or the .scip path, for provenance
	Head      string // the commit the indexer saw
	HeadKnown bool   // false: Head is HEAD at import time, not the indexer's
	// Before maps repo paths to their content hash when the indexer started
	// (jobs): a document whose file changed since is not used. Nil for a
	// user-supplied file, whose documents are checked against the file's
	// modification time instead.
	Before map[string]store.Hash
	// Progress reports phases: read, map, write (may be nil).
	Progress func(phase string, done, total int)
	// BeforeWrite runs right before the write transaction; an error abandons
	// the import (a job uses it to re-read HEAD and its own state).
	BeforeWrite func() error
	// ProgressEvery reports write progress every that many rows (default
	// 4096; tests use 1 to stop inside the transaction).
	ProgressEvery int
}

// ImportStats describes an import.
type ImportStats struct {
	IndexID      int64            `json:"index_id"`
	Tool         string           `json:"tool"`
	ToolVersion  string           `json:"tool_version"`
	Root         string           `json:"root"`
	Documents    int              `json:"documents"`
	Usable       int              `json:"usable_documents"`
	Unusable     map[string]int   `json:"unusable_documents"` // by state
	Occurrences  int              `json:"occurrences"`
	Locals       int              `json:"local_occurrences_skipped"`
	Symbols      int              `json:"symbols"`
	Relations    int              `json:"relationships"`
	Definitions  int              `json:"definitions_in_repo"`
	Mapped       int              `json:"definitions_mapped"` // SCIP definitions matched to a Cairn definition
	Unmapped     int              `json:"definitions_unmapped"`
	UnmappedEx   []string         `json:"unmapped_examples,omitempty"`
	Bytes        int64            `json:"bytes"`
	TimingMS     map[string]int64 `json:"timing_ms"`
	Warnings     []string         `json:"warnings,omitempty"`
	Encoding     string           `json:"position_encoding"`
	ProjectRoot  string           `json:"project_root_uri"`
	LanguageDocs map[string]int   `json:"languages"`
}

// symAcc gathers one symbol while reading.
type symAcc struct {
	symbol  string
	kind    int32
	display string
	defDoc  int64
	occs    []Occ
}

// defSite is a definition occurrence, for mapping to Cairn definitions.
type defSite struct {
	sym       int64
	line, col uint32
}

type docAcc struct {
	row  store.SemDocRow
	defs []defSite
}

type importer struct {
	ix       *index.Index
	db       *store.DB // pinned for the whole import
	o        ImportOptions
	root     string // repo root on disk
	prefix   string // repo-relative project root
	scipTime time.Time
	syms     map[int64]*symAcc
	rels     map[[2]int64]uint8
	docs     []*docAcc
	st       *ImportStats
}

// Import reads a SCIP index and writes it into the store as the semantic
// layer, in one transaction.
func Import(ctx context.Context, ix *index.Index, o ImportOptions) (*ImportStats, error) {
	if !ix.Writable() {
		return nil, fmt.Errorf("semantic: import needs the writer lock (owned by pid %d)", ix.Owner())
	}
	f, err := os.Open(o.Path)
	if err != nil {
		return nil, fmt.Errorf("semantic: %w", err) // the error names the path
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	db, release := ix.Acquire()
	defer release()
	im := &importer{ix: ix, db: db, o: o, root: ix.Paths().Root, scipTime: fi.ModTime(), syms: map[int64]*symAcc{},
		rels: map[[2]int64]uint8{}, st: &ImportStats{Unusable: map[string]int{}, TimingMS: map[string]int64{}, Bytes: fi.Size(),
			LanguageDocs: map[string]int{}}}
	progress := o.Progress
	if progress == nil {
		progress = func(string, int, int) {}
	}
	t := time.Now()
	sawMeta := false
	v := scip.IndexVisitor{
		VisitMetadata: func(_ context.Context, m *scip.Metadata) error {
			sawMeta = true
			return im.metadata(m)
		},
		VisitDocument: func(ctx context.Context, d *scip.Document) error {
			if !sawMeta {
				return fmt.Errorf("semantic: %s: a document comes before the metadata", o.Path)
			}
			if len(im.docs)%64 == 0 {
				progress("read", len(im.docs), 0)
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			return im.document(d)
		},
		VisitExternalSymbol: func(_ context.Context, si *scip.SymbolInformation) error {
			im.info(si, -1)
			return nil
		},
	}
	if err := checkFraming(f, fi.Size()); err != nil {
		return nil, fmt.Errorf("semantic: %s is not a valid SCIP index, nothing of it was imported: %w", o.Path, err)
	}
	if err := v.ParseStreaming(ctx, bufio.NewReaderSize(f, 1<<20)); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("semantic: read %s: %w", o.Path, err)
		}
		return nil, fmt.Errorf("semantic: %s is not a valid SCIP index, nothing of it was imported: %w", o.Path, err)
	}
	if !sawMeta {
		return nil, fmt.Errorf("semantic: %s has no metadata: not a SCIP index, nothing of it was imported", o.Path)
	}
	im.st.TimingMS["read"] = time.Since(t).Milliseconds()

	t = time.Now()
	mapRows, err := im.mapDefinitions(ctx, progress)
	if err != nil {
		return nil, err
	}
	im.st.TimingMS["map"] = time.Since(t).Milliseconds()

	t = time.Now()
	imp := im.rows(mapRows)
	im.st.TimingMS["pack"] = time.Since(t).Milliseconds()
	if o.BeforeWrite != nil {
		if err := o.BeforeWrite(); err != nil {
			return nil, err
		}
	}
	t = time.Now()
	imp.Progress = func(done, total int) { progress("write", done, total) }
	imp.ProgressEvery = o.ProgressEvery
	stats, _ := json.Marshal(im.st)
	imp.Index.Stats = string(stats)
	id, err := im.db.ReplaceSemantic(ctx, imp)
	if err != nil {
		return nil, err
	}
	im.st.IndexID = id
	im.st.TimingMS["write"] = time.Since(t).Milliseconds()
	return im.st, nil
}

func (im *importer) metadata(m *scip.Metadata) error {
	im.st.Tool = m.GetToolInfo().GetName()
	im.st.ToolVersion = m.GetToolInfo().GetVersion()
	im.st.ProjectRoot = m.GetProjectRoot()
	im.prefix = im.o.Root
	if u, err := url.Parse(m.GetProjectRoot()); err == nil && u.Scheme == "file" {
		abs := filepath.FromSlash(u.Path)
		if rel, err := filepath.Rel(im.root, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			im.prefix = filepath.ToSlash(rel)
		} else if real, err := filepath.EvalSymlinks(abs); err == nil {
			if rel, err := filepath.Rel(im.root, real); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				im.prefix = filepath.ToSlash(rel)
			} else {
				im.warnOutside()
			}
		} else {
			im.warnOutside()
		}
	}
	if im.prefix == "." {
		im.prefix = ""
	}
	im.st.Root = im.prefix
	return nil
}

func (im *importer) warnOutside() {
	im.st.Warnings = append(im.st.Warnings, fmt.Sprintf("the index's project root %s is not inside the repository; its documents are read as relative to %q",
		im.st.ProjectRoot, im.o.Root))
}

// info records a symbol's information (kind, display name, relationships).
func (im *importer) info(si *scip.SymbolInformation, doc int64) {
	if si.Symbol == "" || IsLocal(si.Symbol) {
		return
	}
	id := SymbolID(si.Symbol)
	a := im.sym(id, si.Symbol)
	if si.Kind != 0 {
		a.kind = int32(si.Kind)
	}
	if si.DisplayName != "" {
		a.display = si.DisplayName
	}
	for _, r := range si.Relationships {
		if r.Symbol == "" || IsLocal(r.Symbol) {
			continue
		}
		var k uint8
		if r.IsImplementation {
			k |= RelImplementation
		}
		if r.IsTypeDefinition {
			k |= RelTypeDefinition
		}
		if r.IsReference {
			k |= RelReference
		}
		// scip-go never sets is_reference, but Go's own find-references
		// (gopls) counts the methods related by interface satisfaction as
		// one family, as SCIP's is_reference says for other languages.
		// (scip-go names interface methods as terms, "I#M.", and concrete
		// ones as methods, "T#M().": a method implementing a member.)
		if r.IsImplementation && im.st.Tool == "scip-go" && isMethod(si.Symbol) && !strings.HasSuffix(r.Symbol, "#") {
			k |= RelReference
		}
		if r.IsDefinition {
			k |= RelDefinition
		}
		if k == 0 {
			continue
		}
		t := SymbolID(r.Symbol)
		im.sym(t, r.Symbol)
		im.rels[[2]int64{id, t}] |= k
	}
}

func (im *importer) sym(id int64, s string) *symAcc {
	a := im.syms[id]
	if a == nil {
		a = &symAcc{symbol: s, defDoc: -1}
		im.syms[id] = a
	}
	return a
}

// document converts one document: its path, content hash and state, and its
// occurrences in Cairn coordinates.
func (im *importer) document(d *scip.Document) error {
	rel := path.Clean(filepath.ToSlash(d.RelativePath))
	p := rel
	if im.prefix != "" {
		p = path.Join(im.prefix, rel)
	}
	if strings.HasPrefix(p, "../") || p == ".." || path.IsAbs(p) {
		// Generated files outside the tree (cgo output, test mains in the
		// build cache): nothing in the repository can use them.
		im.st.Documents++
		im.st.Unusable[DocOutsideRepository.String()]++
		return nil
	}
	ord := int64(len(im.docs))
	lang := strings.ToLower(d.Language)
	acc := &docAcc{row: store.SemDocRow{Ord: ord, Path: p, Lang: lang}}
	im.docs = append(im.docs, acc)
	im.st.Documents++
	im.st.LanguageDocs[lang]++
	if im.st.Encoding == "" {
		im.st.Encoding = d.PositionEncoding.String()
	}
	for _, si := range d.Symbols {
		im.info(si, ord)
	}
	state := DocUsable
	var content []byte
	full := filepath.Join(im.root, filepath.FromSlash(p))
	content, err := os.ReadFile(full)
	if err != nil {
		state = DocMissing
	}
	if state == DocUsable {
		h := store.Hash(xxh3.Hash128(content).Bytes())
		acc.row.Hash = h[:]
		switch {
		case im.o.Before != nil:
			// A file Cairn does not index (generated, ignored) has no
			// before-hash; nothing asks about it, so it stays usable.
			if before, ok := im.o.Before[p]; ok && before != h {
				state = DocChangedDuringRun
			}
		default:
			if st, err := os.Stat(full); err == nil && st.ModTime().After(im.scipTime) {
				state = DocNewerThanIndex
			}
		}
	}
	lines := newLineIndex(content, d.PositionEncoding, im.st.Tool)
	var occs []Occ
	checked, mismatched := 0, 0
	for _, o := range d.Occurrences {
		if o.Symbol == "" {
			continue
		}
		if IsLocal(o.Symbol) {
			im.st.Locals++
			continue
		}
		r, ok := o.SourceRange()
		if !ok {
			continue
		}
		id := SymbolID(o.Symbol)
		a := im.sym(id, o.Symbol)
		oc := Occ{Sym: id, Doc: ord, Roles: o.SymbolRoles}
		var okS, okE bool
		oc.Line, oc.Col, okS = lines.pos(r.Start.Line, r.Start.Character)
		oc.EndLine, oc.EndCol, okE = lines.pos(r.End.Line, r.End.Character)
		if content != nil && (!okS || !okE) && state == DocUsable {
			state = DocMismatch
		}
		if o.SymbolRoles&RoleDefinition != 0 {
			if a.defDoc < 0 {
				a.defDoc = ord
			}
			acc.defs = append(acc.defs, defSite{sym: id, line: oc.Line, col: oc.Col})
			if name := im.nameOf(a); name != "" && content != nil {
				checked++
				if !lines.hasName(oc, name) {
					mismatched++
				}
			}
		}
		occs = append(occs, oc)
		a.occs = append(a.occs, oc)
	}
	// Definitions that do not span their name mean other content than the
	// indexer saw. A few may differ legitimately (indexers disambiguate
	// same-named members with suffixes), so it takes a fifth of them.
	if state == DocUsable && mismatched > 0 && mismatched*5 >= checked {
		state = DocMismatch
	}
	im.st.Occurrences += len(occs)
	acc.row.State = uint8(state)
	acc.row.Occs = EncodeDocOccs(occs)
	if state == DocUsable {
		im.st.Usable++
	} else {
		im.st.Unusable[state.String()]++
	}
	return nil
}

// nameOf is the identifier a symbol's definition should span ("" when it is
// not a plain identifier, which skips the check).
func (im *importer) nameOf(a *symAcc) string {
	name := a.display
	if name == "" {
		name = lastDescriptorName(a.symbol)
	}
	if !isIdentifier(name) {
		return ""
	}
	return name
}

// mapDefinitions matches every SCIP definition in a usable document to the
// Cairn definition whose name starts at the same position in the same file.
func (im *importer) mapDefinitions(ctx context.Context, progress func(string, int, int)) ([]store.SemMapRow, error) {
	db := im.db
	files, err := db.Files(ctx)
	if err != nil {
		return nil, err
	}
	byPath := make(map[string]store.FileRow, len(files))
	for _, f := range files {
		byPath[f.Path] = f
	}
	var fileIDs []int64
	want := map[int64]*docAcc{}
	stale := 0
	for _, d := range im.docs {
		if len(d.defs) == 0 || DocState(d.row.State) != DocUsable {
			continue
		}
		f, ok := byPath[d.row.Path]
		if !ok {
			continue
		}
		if string(f.Hash[:]) != string(d.row.Hash) {
			stale++ // Cairn's index has not caught up with the file yet
			continue
		}
		fileIDs = append(fileIDs, f.ID)
		want[f.ID] = d
	}
	if stale > 0 {
		im.st.Warnings = append(im.st.Warnings, fmt.Sprintf("%d files changed since Cairn last indexed them; their definitions were not mapped", stale))
	}
	syms, err := db.SymbolsOfFiles(ctx, fileIDs)
	if err != nil {
		return nil, err
	}
	byFile := map[int64][]store.SymbolRow{}
	for _, s := range syms {
		byFile[s.FileID] = append(byFile[s.FileID], s)
	}
	var out []store.SemMapRow
	mappedSym := map[[2]int64]bool{}
	done := 0
	for _, fid := range fileIDs {
		if done%256 == 0 {
			progress("map", done, len(fileIDs))
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		done++
		d := want[fid]
		facts, err := im.ix.Facts(ctx, byPath[d.row.Path].BlobID)
		if err != nil {
			return nil, err
		}
		at := map[[2]uint32][]int64{}
		if facts != nil {
			for _, s := range byFile[fid] {
				if s.DefIdx < len(facts.Defs) {
					p := facts.Defs[s.DefIdx].NameSpan.Start
					k := [2]uint32{p.Line, p.Col}
					at[k] = append(at[k], s.ID)
				}
			}
		}
		for _, def := range d.defs {
			im.st.Definitions++
			ids := at[[2]uint32{def.line, def.col}]
			if len(ids) == 0 {
				im.st.Unmapped++
				if len(im.st.UnmappedEx) < 10 {
					im.st.UnmappedEx = append(im.st.UnmappedEx, fmt.Sprintf("%s:%d:%d %s", d.row.Path, def.line, def.col, im.syms[def.sym].symbol))
				}
				continue
			}
			im.st.Mapped++
			for _, id := range ids {
				if k := [2]int64{def.sym, id}; !mappedSym[k] {
					out = append(out, store.SemMapRow{Sym: def.sym, Cairn: id})
					mappedSym[k] = true
				}
			}
		}
	}
	return out, nil
}

// rows builds what the store writes.
func (im *importer) rows(mapRows []store.SemMapRow) *store.SemImport {
	imp := &store.SemImport{Index: store.SemIndexRow{Key: im.o.Key, Tool: im.st.Tool, ToolVersion: im.st.ToolVersion,
		Root: im.prefix, Source: im.o.Source, Head: im.o.Head, HeadKnown: im.o.HeadKnown, ImportedAt: time.Now().Unix()}}
	for _, d := range im.docs {
		imp.Docs = append(imp.Docs, d.row)
	}
	ids := make([]int64, 0, len(im.syms))
	for id := range im.syms {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	imp.Symbols = make([]store.SemSymbolRow, 0, len(ids))
	for _, id := range ids {
		a := im.syms[id]
		display := a.display
		if display == "" {
			display = lastDescriptorName(a.symbol)
		}
		imp.Symbols = append(imp.Symbols, store.SemSymbolRow{ID: id, Symbol: a.symbol, Kind: a.kind, Display: display,
			DefDoc: a.defDoc, Occs: EncodeSymbolOccs(a.occs)})
	}
	im.st.Symbols = len(imp.Symbols)
	for k, v := range im.rels {
		imp.Rels = append(imp.Rels, store.SemRelRow{Sym: k[0], Target: k[1], Kinds: v})
	}
	sort.Slice(imp.Rels, func(i, j int) bool {
		if imp.Rels[i].Sym != imp.Rels[j].Sym {
			return imp.Rels[i].Sym < imp.Rels[j].Sym
		}
		return imp.Rels[i].Target < imp.Rels[j].Target
	})
	im.st.Relations = len(imp.Rels)
	sort.Slice(mapRows, func(i, j int) bool {
		if mapRows[i].Sym != mapRows[j].Sym {
			return mapRows[i].Sym < mapRows[j].Sym
		}
		return mapRows[i].Cairn < mapRows[j].Cairn
	})
	imp.Map = mapRows
	return imp
}

// isMethod reports whether a SCIP symbol names a method (its last
// descriptor is a method: "...#Name().", possibly with a disambiguator).
func isMethod(symbol string) bool { return strings.HasSuffix(symbol, ").") }
