package change

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// DiffParams selects the two states semantic_diff compares.
type DiffParams struct {
	Base   string   // git revision or epoch:N (default HEAD)
	Target string   // git revision, epoch:M, or "" for the working tree (the index)
	Paths  []string // only these paths (files or directories)
	Limit  int
	Offset int
	// Impact enriches the changes of the page with their blast radius (only
	// when the target is the indexed working tree).
	Impact bool
}

// DiffSide describes one compared state.
type DiffSide struct {
	Spec   string `json:"spec"`             // as requested
	Kind   string `json:"kind"`             // git, worktree, epoch
	Commit string `json:"commit,omitempty"` // the commit a git revision names
	Epoch  int64  `json:"epoch,omitempty"`
}

// ChangeImpact is the blast radius of one change.
type ChangeImpact struct {
	ReferenceCount int            `json:"reference_count"`
	RefTiers       map[string]int `json:"ref_tiers"`
	// ReferenceBasis: ref_links (references resolved to the symbol),
	// name_only (a removed symbol: references by name that no longer resolve).
	ReferenceBasis   string   `json:"reference_basis"`
	ReferencingFiles []string `json:"referencing_files"`
	// ImportingFiles import the changed file (or its package) or reference
	// its definitions.
	ImportingFiles []string `json:"importing_files"`
	ImportingTotal int      `json:"importing_total"`
	AffectedTests  []string `json:"affected_test_files"`
	Confidence     string   `json:"confidence"` // high, low
}

// StructuralChange is one definition that changed.
type StructuralChange struct {
	Path          string        `json:"path"`
	Kind          string        `json:"kind"`
	Name          string        `json:"name"`
	QName         string        `json:"qualified_name"` // lexical path in the file, a.g. Server.Handle
	Change        string        `json:"change"`         // added, removed, signature_changed, body_changed, renamed, moved
	Severity      string        `json:"structural_severity"`
	Why           string        `json:"why,omitempty"` // why breaking
	Risk          string        `json:"behavior_change_risk"`
	Visibility    string        `json:"visibility"`
	SymbolID      string        `json:"symbol_id,omitempty"`
	OldSignature  string        `json:"old_signature,omitempty"`
	NewSignature  string        `json:"new_signature,omitempty"`
	OldName       string        `json:"old_name,omitempty"`
	OldPath       string        `json:"old_path,omitempty"`
	Line          int           `json:"start_line"`
	EndLine       int           `json:"end_line"`
	LinesChanged  int           `json:"lines_changed,omitempty"`
	DeltaTags     []string      `json:"delta_tags"`
	ChangePreview []string      `json:"change_preview,omitempty"`
	Container     string        `json:"container,omitempty"`
	Impact        *ChangeImpact `json:"impact,omitempty"`

	old, new *defOcc // the definitions compared (nil when absent)
}

// FileChangeInfo is a changed file.
type FileChangeInfo struct {
	Path     string `json:"path"`
	Status   string `json:"status"`   // added, modified, deleted
	Category string `json:"category"` // prod, test, build, config, docs
	Language string `json:"language,omitempty"`
}

// DiffResult is semantic_diff's payload.
type DiffResult struct {
	Summary         string             `json:"summary"`
	BreakingSummary string             `json:"breaking_summary,omitempty"`
	Base            DiffSide           `json:"base"`
	Target          DiffSide           `json:"target"`
	FilesChanged    int                `json:"files_changed"`
	FilesAnalyzed   int                `json:"files_analyzed"`
	Counts          map[string]int     `json:"counts"` // by change
	Breaking        int                `json:"breaking"`
	Total           int                `json:"total"`
	Changes         []StructuralChange `json:"structural_changes"`
	NonStructural   []FileChangeInfo   `json:"non_structural_changes"`
	NonStructTotal  int                `json:"non_structural_total"`
	AgenticHint     string             `json:"agentic_hint"`
	ImpactBasis     string             `json:"impact_basis"`
	More            bool               `json:"-"`
	NextOffset      int                `json:"-"`
	// Parsed and Reused count revision contents parsed for this diff and
	// found in the blob store.
	Parsed int `json:"contents_parsed"`
	Reused int `json:"contents_reused"`
	// Unavailable lists files of an epoch whose contents the blob store no
	// longer holds (collected after index.gc_grace_hours).
	Unavailable []string `json:"unavailable_files,omitempty"`
	// Files changed lists every changed file (for affected tests).
	Files []FileChangeInfo `json:"-"`
}

const maxNonStructural = 50

// snapFile is a file of a compared state.
type snapFile struct {
	oid    string // git blob id ('' unknown)
	blobID int64  // blob of the index (0 when only in git)
	lang   string
}

type snapshot struct {
	side  DiffSide
	files map[string]snapFile
}

// fileSide is one file of one state, loaded.
type fileSide struct {
	path  string
	lang  string
	facts *lang.Facts
	text  []byte
	blob  int64
	kids  map[int32]bool // defs that have children
}

// defOcc is a definition in one state.
type defOcc struct {
	f      *fileSide
	idx    int
	def    *lang.Def
	unit   string
	public string // public, private, internal, unknown, test, internal-package
}

// Diff compares two states of the repository definition by definition.
func Diff(ctx context.Context, e *query.Engine, c *Cache, p DiffParams) (*DiffResult, error) {
	a := &analysis{Engine: e, cache: c}
	if p.Base == "" {
		p.Base = "HEAD"
	}
	base, err := a.snapshot(ctx, p.Base)
	if err != nil {
		return nil, err
	}
	target, err := a.snapshot(ctx, p.Target)
	if err != nil {
		return nil, err
	}
	if (base.side.Kind == "epoch") != (target.side.Kind == "epoch") && target.side.Kind != "worktree" {
		return nil, errs.E(errs.InvalidArgument, "compare epochs with epochs (or an epoch with the working tree), and git revisions with git revisions")
	}
	if base.side.Kind == "worktree" {
		return nil, errs.E(errs.InvalidArgument, "the base must be a git revision or an epoch; the working tree is the default target")
	}
	res := &DiffResult{Base: base.side, Target: target.side, Counts: map[string]int{}, Changes: []StructuralChange{},
		NonStructural: []FileChangeInfo{}}
	changed := changedPaths(base, target, p.Paths)
	if base.side.Kind == "git" && target.side.Kind == "worktree" {
		// A tracked file missing from the index but present on disk is left
		// out by the ignore rules or the size cap: not a deletion.
		root := a.Index().Paths().Root
		kept := changed[:0]
		for _, c := range changed {
			if _, inTarget := target.files[c]; !inTarget && exists(root, c) {
				continue
			}
			kept = append(kept, c)
		}
		changed = kept
	}
	res.FilesChanged = len(changed)
	olds, news, err := a.loadSides(ctx, base, target, changed, res)
	if err != nil {
		return nil, err
	}
	var oldDefs, newDefs []*defOcc
	for _, path := range changed {
		o, n := olds[path], news[path]
		status := "modified"
		switch {
		case o == nil:
			status = "added"
		case n == nil:
			status = "deleted"
		}
		language := ""
		if n != nil {
			language = n.lang
		} else if o != nil {
			language = o.lang
		}
		info := FileChangeInfo{Path: path, Status: status, Category: fileCategory(path, language), Language: language}
		res.Files = append(res.Files, info)
		if !structural(o) && !structural(n) {
			res.NonStructTotal++
			if len(res.NonStructural) < maxNonStructural {
				res.NonStructural = append(res.NonStructural, info)
			}
			continue
		}
		res.FilesAnalyzed++
		oldDefs = append(oldDefs, occurrences(o)...)
		newDefs = append(newDefs, occurrences(n)...)
	}
	changes := matchDefs(oldDefs, newDefs)
	sort.Slice(changes, func(i, j int) bool {
		a, b := changes[i], changes[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.QName != b.QName {
			return a.QName < b.QName
		}
		return a.Change < b.Change
	})
	for _, c := range changes {
		res.Counts[c.Change]++
		if c.Severity == "breaking" {
			res.Breaking++
		}
	}
	res.Total = len(changes)
	res.Summary = diffSummary(res)
	res.BreakingSummary = breakingSummary(changes)
	page := changes
	if p.Offset < len(page) {
		page = page[p.Offset:]
	} else {
		page = nil
	}
	if p.Limit > 0 && len(page) > p.Limit {
		page, res.More = page[:p.Limit], true
	}
	res.NextOffset = p.Offset + len(page)
	res.Changes = append(res.Changes, page...)
	for k := range res.Changes {
		a.linesChanged(ctx, &res.Changes[k])
	}
	res.ImpactBasis = "not computed"
	var tests []string
	if target.side.Kind == "worktree" {
		if p.Impact {
			res.ImpactBasis = "the index (the working tree)"
			if err := a.enrich(ctx, res); err != nil {
				return nil, err
			}
		}
		tests = a.hintTests(ctx, res)
	} else if p.Impact {
		res.ImpactBasis = "not computed: the blast radius is measured on the index, which holds the working tree, not " + target.side.Spec
	}
	res.AgenticHint = agenticHint(res, changes, tests)
	return res, nil
}

// snapshot lists the files of one state.
func (a *analysis) snapshot(ctx context.Context, spec string) (*snapshot, error) {
	root := a.Index().Paths().Root
	switch {
	case spec == "" || spec == "WORKTREE" || spec == "worktree":
		files, err := a.Store().Files(ctx)
		if err != nil {
			return nil, err
		}
		st, _ := a.Index().State(ctx)
		s := &snapshot{side: DiffSide{Spec: "working tree", Kind: "worktree", Epoch: st.Epoch}, files: make(map[string]snapFile, len(files))}
		for _, f := range files {
			s.files[f.Path] = snapFile{oid: f.GitOID, blobID: f.BlobID, lang: f.Lang}
		}
		return s, nil
	case strings.HasPrefix(spec, "epoch:"):
		n, err := strconv.ParseInt(strings.TrimPrefix(spec, "epoch:"), 10, 64)
		if err != nil || n < 1 {
			return nil, errs.E(errs.InvalidArgument, "bad epoch %q (want epoch:N, N >= 1)", spec)
		}
		files, err := a.Store().FilesAtEpoch(ctx, n)
		if err != nil {
			return nil, err
		}
		st, _ := a.Index().State(ctx)
		if n > st.Epoch {
			return nil, &errs.Error{Kind: errs.NotFound, Msg: fmt.Sprintf("epoch %d is in the future (the index is at epoch %d)", n, st.Epoch)}
		}
		if len(files) == 0 {
			return nil, &errs.Error{Kind: errs.NotFound, Msg: fmt.Sprintf("no record of epoch %d (history starts when the index was built)", n),
				Fixes: []string{"cairn status"}}
		}
		s := &snapshot{side: DiffSide{Spec: spec, Kind: "epoch", Epoch: n}, files: make(map[string]snapFile, len(files))}
		for _, f := range files {
			s.files[f.Path] = snapFile{blobID: f.BlobID, lang: f.Lang}
		}
		return s, nil
	}
	if !a.Index().Paths().IsGit {
		return nil, &errs.Error{Kind: errs.Precondition, Msg: "not a git repository: compare epochs (epoch:N) instead"}
	}
	commit, err := gitx.ResolveCommit(ctx, root, spec)
	if err != nil {
		if errors.Is(err, gitx.ErrNoRef) {
			return nil, &errs.Error{Kind: errs.NotFound, Msg: fmt.Sprintf("%q does not name a commit", spec), Fixes: []string{"git tag", "git log --oneline"}}
		}
		return nil, err
	}
	entries, err := gitx.LsTree(ctx, root, commit)
	if err != nil {
		return nil, err
	}
	excluded := a.Index().PathFilter()
	s := &snapshot{side: DiffSide{Spec: spec, Kind: "git", Commit: commit}, files: make(map[string]snapFile, len(entries))}
	for _, en := range entries {
		if en.Mode == "120000" || excluded(en.Path) {
			continue
		}
		s.files[en.Path] = snapFile{oid: en.OID}
	}
	return s, nil
}

// changedPaths lists the paths whose content differs, in order.
func changedPaths(a, b *snapshot, only []string) []string {
	in := func(p string) bool {
		if len(only) == 0 {
			return true
		}
		for _, o := range only {
			o = strings.TrimSuffix(o, "/")
			if p == o || strings.HasPrefix(p, o+"/") || o == "" || o == "." {
				return true
			}
		}
		return false
	}
	same := func(x, y snapFile) bool {
		if x.oid != "" && y.oid != "" {
			return x.oid == y.oid
		}
		return x.blobID != 0 && x.blobID == y.blobID
	}
	var out []string
	for p, x := range a.files {
		if y, ok := b.files[p]; (!ok || !same(x, y)) && in(p) {
			out = append(out, p)
		}
	}
	for p := range b.files {
		if _, ok := a.files[p]; !ok && in(p) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// loadSides loads the facts (and text) of the changed files on both sides:
// from the index when it holds the content, else from git through the
// content-addressed blob store.
func (a *analysis) loadSides(ctx context.Context, base, target *snapshot, changed []string, res *DiffResult) (map[string]*fileSide, map[string]*fileSide, error) {
	olds, news := map[string]*fileSide{}, map[string]*fileSide{}
	type want struct {
		path string
		into map[string]*fileSide
	}
	byOID := map[string][]want{}
	parser := a.Index().NewContentParser()
	defer parser.Close(context.WithoutCancel(ctx))
	load := func(s *snapshot, into map[string]*fileSide) error {
		for _, p := range changed {
			f, ok := s.files[p]
			if !ok {
				continue
			}
			if f.blobID != 0 {
				facts, err := a.Index().Facts(ctx, f.blobID)
				if err != nil {
					return err
				}
				if facts == nil && f.lang != "" && s.side.Kind == "epoch" {
					if l := lang.ByName(f.lang); l != nil && l.Grammar != nil {
						res.Unavailable = append(res.Unavailable, p)
					}
				}
				into[p] = &fileSide{path: p, lang: f.lang, facts: facts, blob: f.blobID}
				continue
			}
			byOID[f.oid] = append(byOID[f.oid], want{p, into})
		}
		return nil
	}
	if err := load(base, olds); err != nil {
		return nil, nil, err
	}
	if err := load(target, news); err != nil {
		return nil, nil, err
	}
	oids := make([]string, 0, len(byOID))
	for o := range byOID {
		oids = append(oids, o)
	}
	sort.Strings(oids)
	maxBytes := a.Index().Config().Index.MaxFileBytes
	err := gitx.ReadBlobs(ctx, a.Index().Paths().Root, oids, maxBytes, func(oid string, size int64, data []byte) error {
		for _, w := range byOID[oid] {
			fs := &fileSide{path: w.path}
			if data != nil {
				facts, language, err := parser.Facts(ctx, w.path, data)
				if err != nil {
					return err
				}
				fs.facts, fs.lang, fs.text = facts, language, append([]byte(nil), data...)
			}
			w.into[w.path] = fs
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("query: read revision files: %w", err)
	}
	res.Parsed, res.Reused = parser.Parsed, parser.Reused
	return olds, news, nil
}

// structural reports whether a file side has definitions worth comparing
// (code with a grammar; data files' outlines are not API).
func structural(f *fileSide) bool {
	if f == nil || f.facts == nil || f.lang == "" {
		return false
	}
	l := lang.ByName(f.lang)
	return l != nil && l.Grammar != nil
}

// occurrences lists a file's definitions with their identity keys.
func occurrences(f *fileSide) []*defOcc {
	if !structural(f) {
		return nil
	}
	f.kids = map[int32]bool{}
	for _, d := range f.facts.Defs {
		if d.Parent >= 0 {
			f.kids[d.Parent] = true
		}
	}
	unit := index.UnitKey(f.path, f.lang, f.facts)
	out := make([]*defOcc, 0, len(f.facts.Defs))
	for i := range f.facts.Defs {
		d := &f.facts.Defs[i]
		out = append(out, &defOcc{f: f, idx: i, def: d, unit: unit, public: visibilityOf(f, i)})
	}
	return out
}

// visibilityOf says whether a definition is API: public itself and in every
// enclosing definition, outside test files and Go internal/ or main packages.
func visibilityOf(f *fileSide, i int) string {
	if TestFileKind(f.path, f.lang) != "" {
		return "test"
	}
	if f.lang == "go" {
		if strings.Contains("/"+f.path, "/internal/") {
			return "internal-package"
		}
		if f.facts.Package == "main" {
			return "main-package"
		}
	}
	vis := lang.VisPublic
	for at := int32(i); at >= 0; at = f.facts.Defs[at].Parent {
		d := f.facts.Defs[at]
		switch d.Visibility {
		case lang.VisPrivate, lang.VisInternal:
			return d.Visibility.String()
		case lang.VisUnknown:
			vis = lang.VisUnknown
		}
		if f.lang == "go" && d.Receiver != "" {
			if r := d.Receiver; r != "" && !(r[0] >= 'A' && r[0] <= 'Z') {
				return "private" // a method of an unexported type
			}
		}
	}
	return vis.String()
}

func (o *defOcc) key() string {
	return o.unit + "\x00" + o.def.Kind.String() + "\x00" + o.def.Path + "\x00" + strconv.Itoa(int(o.def.Dup))
}

// matchDefs pairs the definitions of both states: by identity (unit, kind,
// lexical path), then the rest by fingerprint (kind + body) as renames.
func matchDefs(olds, news []*defOcc) []StructuralChange {
	index := func(list []*defOcc) map[string]*defOcc {
		m := map[string]*defOcc{}
		dup := map[string]bool{}
		for _, o := range list {
			k := o.key()
			if _, ok := m[k]; ok {
				dup[k] = true
			}
			m[k] = o
		}
		// Build-tag variants define the same name in several files of a
		// package: those pair by file.
		for k := range dup {
			delete(m, k)
		}
		for _, o := range list {
			if dup[o.key()] {
				m[o.key()+"\x00"+o.f.path] = o
			}
		}
		return m
	}
	om, nm := index(olds), index(news)
	var out []StructuralChange
	var removed, added []*defOcc
	keys := make([]string, 0, len(om))
	for k := range om {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		o := om[k]
		n, ok := nm[k]
		if !ok {
			removed = append(removed, o)
			continue
		}
		if c, changed := compareDefs(o, n); changed {
			out = append(out, c)
		}
	}
	keys = keys[:0]
	for k := range nm {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, ok := om[k]; !ok {
			added = append(added, nm[k])
		}
	}
	// Renames: a unique 1:1 match of kind and body fingerprint (the
	// fingerprint leaves out the definition's own name).
	type fp struct {
		kind lang.DefKind
		body uint64
	}
	rm, ad := map[fp][]*defOcc{}, map[fp][]*defOcc{}
	for _, o := range removed {
		if o.def.BodyHash != 0 {
			rm[fp{o.def.Kind, o.def.BodyHash}] = append(rm[fp{o.def.Kind, o.def.BodyHash}], o)
		}
	}
	for _, n := range added {
		if n.def.BodyHash != 0 {
			ad[fp{n.def.Kind, n.def.BodyHash}] = append(ad[fp{n.def.Kind, n.def.BodyHash}], n)
		}
	}
	paired := map[*defOcc]bool{}
	for k, os := range rm {
		if ns := ad[k]; len(os) == 1 && len(ns) == 1 {
			o, n := os[0], ns[0]
			paired[o], paired[n] = true, true
			c := newChange(n, "renamed")
			c.old = o
			c.OldName, c.OldSignature, c.NewSignature = o.def.Path, sig(o.def), sig(n.def)
			if o.f.path != n.f.path {
				c.OldPath = o.f.path
			}
			c.DeltaTags = []string{"symbol_renamed"}
			if o.def.Path == n.def.Path {
				c.Change = "moved"
				c.DeltaTags = []string{"symbol_moved"}
			}
			out = append(out, c)
		}
	}
	for _, o := range removed {
		if !paired[o] {
			c := newChange(o, "removed")
			c.OldSignature = sig(o.def)
			c.DeltaTags = []string{"symbol_removed"}
			out = append(out, c)
		}
	}
	for _, n := range added {
		if !paired[n] {
			c := newChange(n, "added")
			c.NewSignature = sig(n.def)
			c.DeltaTags = []string{"symbol_added"}
			out = append(out, c)
		}
	}
	out = dropExplainedContainers(out)
	for i := range out {
		classifyChange(&out[i])
	}
	return out
}

func sig(d *lang.Def) string { return lang.CollapseSpace(d.Signature) }

// goReceiver matches a Go method's receiver name: not part of its API.
var goReceiver = regexp.MustCompile(`^func \(\s*[A-Za-z_][A-Za-z0-9_]*\s+`)

// apiSignature is the part of a signature that callers depend on: a Go
// method's receiver name is left out, and a variable's or constant's
// initialiser is its value, not its signature.
func apiSignature(o *defOcc) (api, value string) {
	s := sig(o.def)
	if o.f.lang == "go" {
		s = goReceiver.ReplaceAllString(s, "func (")
	}
	switch o.def.Kind {
	case lang.KindVariable, lang.KindConstant, lang.KindField, lang.KindProperty, lang.KindEnumMember:
		if i := topLevelAssign(s); i >= 0 {
			return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:])
		}
	}
	return s, ""
}

// topLevelAssign finds an initialiser's "=" outside brackets (not ==, <=, =>).
func topLevelAssign(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}', '>':
			if depth > 0 {
				depth--
			}
		case '=':
			if depth == 0 && (i+1 >= len(s) || s[i+1] != '=' && s[i+1] != '>') && (i == 0 || !strings.ContainsRune("=!<>:+-*/", rune(s[i-1]))) {
				return i
			}
		}
	}
	return -1
}

func newChange(o *defOcc, change string) StructuralChange {
	c := StructuralChange{Path: o.f.path, Kind: o.def.Kind.String(), Name: o.def.Name, QName: o.def.Path, Change: change,
		Visibility: o.public, Line: int(o.def.Span.Start.Line), EndLine: int(o.def.Span.End.Line)}
	if o.def.Parent >= 0 {
		c.Container = o.f.facts.Defs[o.def.Parent].Path
	} else if o.def.Receiver != "" {
		c.Container = o.def.Receiver
	}
	if change == "removed" {
		c.old = o
	} else {
		c.new = o
	}
	return c
}

// compareDefs reports how a definition present in both states changed.
func compareDefs(o, n *defOcc) (StructuralChange, bool) {
	os, ns := sig(o.def), sig(n.def)
	oa, ov := apiSignature(o)
	na, nv := apiSignature(n)
	moved := o.f.path != n.f.path
	if os == ns && o.def.BodyHash == n.def.BodyHash {
		if !moved {
			return StructuralChange{}, false
		}
		c := newChange(n, "moved")
		c.old, c.OldPath, c.DeltaTags = o, o.f.path, []string{"symbol_moved"}
		return c, true
	}
	c := newChange(n, "body_changed")
	c.old = o
	if moved {
		c.OldPath = o.f.path
	}
	switch {
	case oa != na:
		c.Change = "signature_changed"
		c.OldSignature, c.NewSignature = os, ns
		c.DeltaTags = signatureTags(o.def, n.def)
	case ov != nv:
		c.OldSignature, c.NewSignature = os, ns
		c.DeltaTags = []string{"value_changed"}
	case os != ns:
		c.OldSignature, c.NewSignature = os, ns
		c.DeltaTags = []string{"signature_text_changed"} // a.g. a receiver or parameter renamed
	default:
		c.DeltaTags = []string{}
	}
	if moved {
		c.DeltaTags = append(c.DeltaTags, "symbol_moved")
	}
	return c, true
}

// signatureTags says which part of a signature changed.
func signatureTags(o, n *lang.Def) []string {
	op, or := splitSignature(sig(o), o.Name)
	np, nr := splitSignature(sig(n), n.Name)
	var tags []string
	if op != np {
		tags = append(tags, "parameters_changed")
	}
	if or != nr {
		tags = append(tags, "return_type_changed")
	}
	if len(tags) == 0 {
		tags = append(tags, "signature_changed")
	}
	return tags
}

// splitSignature finds the parameter list after the name and what follows it.
func splitSignature(s, name string) (params, rest string) {
	i := strings.Index(s, name+"(")
	if i < 0 {
		i = strings.Index(s, name)
		if i < 0 {
			return s, ""
		}
	}
	s = s[i+len(name):]
	open := strings.IndexByte(s, '(')
	if open < 0 {
		return "", s
	}
	depth := 0
	for j := open; j < len(s); j++ {
		switch s[j] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return s[open : j+1], strings.TrimSpace(s[j+1:])
			}
		}
	}
	return s[open:], ""
}

// dropExplainedContainers removes body changes of types whose members
// changed: the members' own entries say what changed.
func dropExplainedContainers(cs []StructuralChange) []StructuralChange {
	inner := map[string]bool{}
	for _, c := range cs {
		if c.Container != "" {
			inner[c.Path+"\x00"+c.Container] = true
		}
	}
	out := cs[:0]
	for _, c := range cs {
		if c.Change == "body_changed" && c.new != nil && c.new.f.kids[int32(c.new.idx)] && inner[c.Path+"\x00"+c.QName] {
			continue
		}
		out = append(out, c)
	}
	return out
}

// classifyChange sets structural severity and behaviour-change risk.
func classifyChange(c *StructuralChange) {
	public := c.Visibility == "public" || c.Visibility == "unknown"
	oldPublic := public
	if c.old != nil {
		oldPublic = c.old.public == "public" || c.old.public == "unknown"
	}
	c.Severity = "non_breaking"
	why := func(s string) {
		c.Severity, c.Why = "breaking", s
		if c.Visibility == "unknown" || (c.old != nil && c.old.public == "unknown") {
			c.Why += " (visibility unknown: treated as public)"
		}
	}
	switch c.Change {
	case "removed":
		if oldPublic {
			why("public " + c.Kind + " removed")
		}
	case "signature_changed":
		if oldPublic {
			why("public " + c.Kind + " signature changed")
		}
	case "renamed":
		if oldPublic {
			why("public " + c.Kind + " renamed: the old name is gone")
		}
	case "moved":
		if oldPublic && c.old != nil && c.new != nil && c.old.unit != c.new.unit {
			why("public " + c.Kind + " moved to another package or module")
		}
	case "added":
		if public && c.new != nil && c.new.def.Parent >= 0 && c.new.f.facts.Defs[c.new.def.Parent].Kind == lang.KindInterface &&
			c.new.def.Kind != lang.KindInterface {
			why("member added to a public interface: its implementations must add it")
		}
	}
	switch c.Change {
	case "removed", "signature_changed":
		c.Risk = "high"
	case "renamed":
		c.Risk = "medium"
	case "added", "moved":
		c.Risk = "low"
	default:
		c.Risk = "unknown"
	}
}

// linesChanged compares the lines of a definition in both states and sets
// lines_changed, the size tags and a short preview.
func (a *analysis) linesChanged(ctx context.Context, c *StructuralChange) {
	if c.old == nil || c.new == nil {
		return
	}
	ot, nt := a.sideText(ctx, c.old.f), a.sideText(ctx, c.new.f)
	if ot == nil || nt == nil {
		return
	}
	ol := spanLines(ot, c.old.def.Span)
	nl := spanLines(nt, c.new.def.Span)
	count := map[string]int{}
	for _, l := range ol {
		count[l]++
	}
	added := 0
	var preview []string
	for _, l := range nl {
		if count[l] > 0 {
			count[l]--
			continue
		}
		added++
		if len(preview) < 3 && l != "" {
			if len(l) > 120 {
				l = l[:120] + "…"
			}
			preview = append(preview, "+ "+l)
		}
	}
	removed := 0
	for _, n := range count {
		removed += n
	}
	c.LinesChanged = max(added, removed)
	c.ChangePreview = preview
	if c.Change == "body_changed" {
		switch {
		case c.LinesChanged <= 3:
			c.DeltaTags = append(c.DeltaTags, "minor_change")
			c.Risk = "low"
		case c.LinesChanged > 20:
			c.DeltaTags = append(c.DeltaTags, "major_change")
			c.Risk = "high"
		default:
			c.DeltaTags = append(c.DeltaTags, "body_logic_changed")
			c.Risk = "medium"
		}
	}
}

func (a *analysis) sideText(ctx context.Context, f *fileSide) []byte {
	if f.text == nil && f.blob != 0 {
		f.text, _ = a.Store().BlobText(ctx, f.blob)
	}
	return f.text
}

// spanLines returns the trimmed lines of a span.
func spanLines(text []byte, s lang.Span) []string {
	var out []string
	line := uint32(1)
	start := 0
	for i := 0; i <= len(text); i++ {
		if i == len(text) || text[i] == '\n' {
			if line >= s.Start.Line && line <= s.End.Line {
				out = append(out, strings.TrimSpace(string(text[start:i])))
			}
			line++
			start = i + 1
			if line > s.End.Line {
				break
			}
		}
	}
	return out
}

func diffSummary(r *DiffResult) string {
	if r.Total == 0 {
		return fmt.Sprintf("no structural changes in %d changed files", r.FilesChanged)
	}
	var parts []string
	for _, k := range []string{"added", "removed", "signature_changed", "body_changed", "renamed", "moved"} {
		if n := r.Counts[k]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, strings.ReplaceAll(k, "_", " ")))
		}
	}
	return strings.Join(parts, ", ")
}

func breakingSummary(cs []StructuralChange) string {
	var names []string
	n := 0
	for _, c := range cs {
		if c.Severity == "breaking" {
			n++
			if len(names) < 5 {
				names = append(names, c.QName)
			}
		}
	}
	if n == 0 {
		return ""
	}
	s := fmt.Sprintf("%d breaking changes: %s", n, strings.Join(names, ", "))
	if n > len(names) {
		s += ", …"
	}
	return s
}

// hintTests lists the tests the changed files reach (for the hint).
func (a *analysis) hintTests(ctx context.Context, r *DiffResult) []string {
	var files, deleted []string
	for _, f := range r.Files {
		if f.Status == "deleted" {
			deleted = append(deleted, f.Path)
		} else {
			files = append(files, f.Path)
		}
	}
	if len(files)+len(deleted) == 0 {
		return nil
	}
	aff, err := AffectedTests(ctx, a.Engine, a.cache, AffectedParams{Files: files, Deleted: deleted, Limit: 5})
	if err != nil {
		return nil
	}
	var out []string
	for _, t := range aff.Tests {
		out = append(out, t.Path)
	}
	if aff.Total > len(out) {
		out = append(out, fmt.Sprintf("… %d more", aff.Total-len(out)))
	}
	return out
}

// agenticHint orders what to look at first, from every change (not only the
// page): breaking changes by their reach, then renames, risky body changes,
// and the tests to run.
func agenticHint(r *DiffResult, all []StructuralChange, tests []string) string {
	if r.Total == 0 {
		if r.FilesChanged == 0 {
			return "Nothing changed between the two states."
		}
		return "No definitions changed; review the non-structural changes (configuration, data, docs) directly."
	}
	refs := map[string]int{}
	for _, c := range r.Changes {
		if c.Impact != nil {
			refs[c.Path+"#"+c.QName] = c.Impact.ReferenceCount
		}
	}
	var steps []string
	var breaking []StructuralChange
	for _, c := range all {
		if c.Severity == "breaking" {
			breaking = append(breaking, c)
		}
	}
	sort.SliceStable(breaking, func(i, j int) bool {
		return refs[breaking[i].Path+"#"+breaking[i].QName] > refs[breaking[j].Path+"#"+breaking[j].QName]
	})
	if len(breaking) > 0 {
		var names []string
		for _, c := range breaking {
			if len(names) == 4 {
				names = append(names, "…")
				break
			}
			s := c.QName + " (" + strings.ReplaceAll(c.Change, "_", " ")
			if n, ok := refs[c.Path+"#"+c.QName]; ok {
				s += fmt.Sprintf(", %d refs", n)
			}
			names = append(names, s+")")
		}
		steps = append(steps, fmt.Sprintf("%d breaking: check every caller of %s with impact_analyze or refs_find", len(breaking), strings.Join(names, ", ")))
	}
	var risky []string
	for _, c := range all {
		if c.Severity != "breaking" && (c.Change == "renamed" || c.Risk == "high") {
			if len(risky) < 4 {
				risky = append(risky, c.QName)
			}
		}
	}
	if len(risky) > 0 {
		steps = append(steps, "review the risky non-breaking changes: "+strings.Join(risky, ", "))
	}
	if n := r.Counts["body_changed"]; n > 0 {
		steps = append(steps, fmt.Sprintf("%d body changes keep their signatures: their behaviour is what tests must cover", n))
	}
	if len(tests) > 0 {
		steps = append(steps, "run the affected tests: "+strings.Join(tests, ", "))
	} else if r.Target.Kind == "worktree" {
		steps = append(steps, "no test reaches the changed files (affected_tests lists the gaps)")
	}
	if r.NonStructTotal > 0 {
		steps = append(steps, fmt.Sprintf("%d non-structural files changed (configuration, data, docs)", r.NonStructTotal))
	}
	var b strings.Builder
	for i, s := range steps {
		fmt.Fprintf(&b, "%d. %s. ", i+1, s)
	}
	return strings.TrimSpace(b.String())
}

// enrich adds the blast radius to the changes of the page.
func (a *analysis) enrich(ctx context.Context, r *DiffResult) error {
	g, err := a.depGraph(ctx)
	if err != nil {
		return err
	}
	ri, err := a.refIndex(ctx)
	if err != nil {
		return err
	}
	testsOf := map[string][]string{}
	fileTests := func(path string) []string {
		if t, ok := testsOf[path]; ok {
			return t
		}
		var out []string
		if aff, err := AffectedTests(ctx, a.Engine, a.cache, AffectedParams{Files: []string{path}, MaxDepth: 2, Limit: 10}); err == nil {
			for _, t := range aff.Tests {
				out = append(out, t.Path)
			}
		}
		if out == nil {
			out = []string{}
		}
		testsOf[path] = out
		return out
	}
	symsOf := map[int64][]store.SymbolRow{}
	for k := range r.Changes {
		c := &r.Changes[k]
		if ctx.Err() != nil {
			break
		}
		im := &ChangeImpact{RefTiers: map[string]int{}, ReferencingFiles: []string{}, ImportingFiles: []string{}, AffectedTests: []string{}}
		c.Impact = im
		path := c.Path
		if c.new == nil && c.old != nil {
			path = c.old.f.path
		}
		if i, ok := g.byPath[path]; ok {
			imps := g.importers(i)
			im.ImportingTotal = len(imps)
			for _, j := range imps {
				if len(im.ImportingFiles) < 10 {
					im.ImportingFiles = append(im.ImportingFiles, g.files[j].Path)
				}
			}
			sort.Strings(im.ImportingFiles)
			im.AffectedTests = fileTests(path)
		}
		if c.new != nil {
			i, ok := g.byPath[c.new.f.path]
			if !ok {
				continue
			}
			fid := g.files[i].ID
			if _, ok := symsOf[fid]; !ok {
				symsOf[fid], _ = a.Store().SymbolsOfFile(ctx, fid)
			}
			for _, s := range symsOf[fid] {
				if s.DefIdx != c.new.idx {
					continue
				}
				c.SymbolID = index.FormatID(s.ID)
				files := map[string]bool{}
				for _, fr := range ri.by[s.ID] {
					im.RefTiers["proven"] += int(fr.proven)
					im.RefTiers["strong"] += int(fr.strong)
					im.ReferenceCount += int(fr.proven + fr.strong)
					if j, ok := g.byID[fr.file]; ok {
						files[g.files[j].Path] = true
					}
				}
				im.ReferencingFiles = firstSorted(files, 10)
			}
			im.ReferenceBasis, im.Confidence = "ref_links", "high"
			if c.Change == "renamed" && c.old != nil {
				// Code still using the old name no longer resolves.
				n, files := a.danglingRefs(ctx, c.old.def.Name)
				im.RefTiers["anchored"] = n
				im.ReferenceCount += n
				im.ReferencingFiles = sortedUnique(append(im.ReferencingFiles, files...))
				im.ReferenceBasis, im.Confidence = "ref_links+old_name", "low"
			}
			continue
		}
		// A removed symbol: what still names it no longer resolves.
		n, files := a.danglingRefs(ctx, c.old.def.Name)
		im.RefTiers["anchored"] = n
		im.ReferenceCount = n
		im.ReferencingFiles = files
		im.ReferenceBasis, im.Confidence = "name_only", "low"
	}
	return nil
}

// danglingRefs counts unresolved references carrying a name (bounded).
func (a *analysis) danglingRefs(ctx context.Context, name string) (int, []string) {
	hits, err := a.Store().TextCandidates(ctx, store.GlobLiteral(name), true, 200)
	if err != nil {
		return 0, []string{}
	}
	n := 0
	files := map[string]bool{}
	for _, h := range hits {
		if h.Lang == "" || ctx.Err() != nil {
			continue
		}
		nf, err := a.NameFileOf(ctx, h.FileID, name)
		if err != nil || nf == nil {
			continue
		}
		for ri, ref := range nf.Facts.Refs {
			if int(ref.Name) != nf.NameID || ref.BindLocal >= 0 || ref.BindDef >= 0 {
				continue
			}
			if _, linked := nf.Links[ri]; linked {
				continue
			}
			n++
			files[nf.File.Path] = true
		}
	}
	return n, firstSorted(files, 10)
}

func firstSorted(set map[string]bool, n int) []string {
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// WorktreeChanges lists the files of the working tree (the index) that differ
// from a git revision: the default input of affected_tests.
func WorktreeChanges(ctx context.Context, e *query.Engine, rev string) (changed, deleted []string, err error) {
	a := &analysis{Engine: e}
	base, err := a.snapshot(ctx, rev)
	if err != nil {
		return nil, nil, err
	}
	target, err := a.snapshot(ctx, "")
	if err != nil {
		return nil, nil, err
	}
	root := a.Index().Paths().Root
	for _, p := range changedPaths(base, target, nil) {
		if _, ok := target.files[p]; ok {
			changed = append(changed, p)
		} else if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p))); err != nil {
			deleted = append(deleted, p)
		}
	}
	return changed, deleted, nil
}
