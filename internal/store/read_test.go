package store

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestFileReads(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	all, err := f.db.Files(ctx)
	same(t, "Files", f.paths, paths(all), err)
	want := fileRow("a/alpha.go", alphaSrc, "go", f.blob["alpha"], f.mod[""], 1)
	want.ID, want.Pkg = f.file["a/alpha.go"], "a"
	got, ok, err := f.db.FileByPath(ctx, "a/alpha.go")
	if err != nil || !ok {
		t.Fatalf("FileByPath: %v %v", ok, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("FileByPath (-want +got):\n%s", diff)
	}
	got, ok, err = f.db.FileByID(ctx, want.ID)
	if err != nil || !ok {
		t.Fatalf("FileByID: %v %v", ok, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("FileByID (-want +got):\n%s", diff)
	}
	if _, ok, err := f.db.FileByPath(ctx, "a/missing.go"); ok || err != nil {
		t.Errorf("FileByPath of a missing path: %v %v", ok, err)
	}
	if _, ok, err := f.db.FileByID(ctx, 9999); ok || err != nil {
		t.Errorf("FileByID of a missing id: %v %v", ok, err)
	}
	byIDs, err := f.db.FilesByIDs(ctx, []int64{f.file["b/beta.py"], 9999, f.file["README.md"]})
	if err != nil {
		t.Fatal(err)
	}
	gotPaths := paths(byIDs)
	slices.Sort(gotPaths)
	if diff := cmp.Diff([]string{"README.md", "b/beta.py"}, gotPaths); diff != "" {
		t.Errorf("FilesByIDs skips missing ids (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		prefix string
		want   []string
	}{
		{"", f.paths},
		{"a/", []string{"a/alpha.go", "a/copy.go"}},
		{"a/c", []string{"a/copy.go"}},
		{"b", []string{"b/beta.py"}},
		{"c/", []string{}},
	} {
		rows, err := f.db.FilesUnder(ctx, tc.prefix)
		same(t, fmt.Sprintf("FilesUnder(%q)", tc.prefix), tc.want, paths(rows), err)
	}
}

func TestBlobReads(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	for _, tc := range []struct {
		blob        int64
		facts, text []byte
	}{
		{f.blob["alpha"], []byte("facts of alpha"), []byte(alphaSrc)},
		{f.blob["beta"], []byte("facts of beta"), []byte(betaSrc)},
		{f.blob["readme"], nil, []byte(readmeSrc)},
		{f.blob["png"], nil, nil},
		{9999, nil, nil},
	} {
		facts, err := f.db.BlobFacts(ctx, tc.blob)
		same(t, fmt.Sprintf("BlobFacts(%d)", tc.blob), tc.facts, facts, err)
		text, err := f.db.BlobText(ctx, tc.blob)
		same(t, fmt.Sprintf("BlobText(%d)", tc.blob), tc.text, text, err)
	}
	// Inserting the same keys again is idempotent: the same ids, no new rows.
	again := insertBlobs(t, f.db, 200, blobRow(betaSrc, "python", BlobParseErrors, []byte("other facts")), blobRow(alphaSrc, "go", BlobParsed, nil))
	if diff := cmp.Diff([]int64{f.blob["beta"], f.blob["alpha"]}, again); diff != "" {
		t.Errorf("InsertBlobs of existing keys (-want +got):\n%s", diff)
	}
	if facts, _ := f.db.BlobFacts(ctx, f.blob["beta"]); string(facts) != "facts of beta" {
		t.Errorf("a second insert replaced the facts: %q", facts)
	}
	// The same bytes for another language or extractor version are another blob.
	other := blobRow(alphaSrc, "go", BlobParsed, nil)
	other.Key.XVer = 2
	found, err := f.db.FindBlobs(ctx, []BlobKey{blobRow(alphaSrc, "go", 0, nil).Key, other.Key, blobRow(alphaSrc, "text", 0, nil).Key})
	same(t, "FindBlobs", map[BlobKey]int64{blobRow(alphaSrc, "go", 0, nil).Key: f.blob["alpha"]}, found, err)
}

func TestSurfaces(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	row := func(path, language, blob, data string) SurfaceRow {
		return SurfaceRow{FileID: f.file[path], Path: path, Lang: language, BlobID: f.blob[blob], Data: []byte(data)}
	}
	for _, tc := range []struct {
		kind uint8
		want []SurfaceRow
	}{
		{0, []SurfaceRow{row("a/alpha.go", "go", "alpha", "routes of alpha"), row("a/copy.go", "go", "alpha", "routes of alpha"), row("b/beta.py", "python", "beta", "routes of beta")}},
		{2, []SurfaceRow{row("a/alpha.go", "go", "alpha", "tables of alpha"), row("a/copy.go", "go", "alpha", "tables of alpha")}},
		{5, nil},
	} {
		got, err := f.db.Surfaces(ctx, tc.kind)
		same(t, fmt.Sprintf("Surfaces(%d)", tc.kind), tc.want, got, err)
	}
}

func TestLinksAndImports(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	for path, want := range map[string][]byte{
		"a/alpha.go": []byte("links of alpha"),
		"a/copy.go":  []byte("links of copy"),
		"b/beta.py":  {}, // imports only
		"README.md":  nil,
	} {
		got, err := f.db.Link(ctx, f.file[path])
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" || (want == nil && got != nil) {
			t.Errorf("Link(%s) = %q, want %q", path, got, want)
		}
	}
	imports, err := f.db.AllImports(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantImports := map[int64][]byte{f.file["a/alpha.go"]: []byte("imports of alpha"), f.file["b/beta.py"]: []byte("imports of beta")}
	if diff := cmp.Diff(wantImports, imports); diff != "" {
		t.Errorf("AllImports (-want +got):\n%s", diff)
	}
	for _, path := range []string{"a/alpha.go", "a/copy.go", "b/beta.py"} {
		got, err := f.db.Imports(ctx, f.file[path])
		if err != nil {
			t.Fatalf("Imports(%s): %v", path, err)
		}
		if want := wantImports[f.file[path]]; string(got) != string(want) || (want == nil) != (got == nil) {
			t.Errorf("Imports(%s) = %q, want %q", path, got, want)
		}
	}
	links := map[int64]string{}
	if err := f.db.AllLinks(ctx, func(id int64, data []byte) error { links[id] = string(data); return nil }); err != nil {
		t.Fatal(err)
	}
	wantLinks := map[int64]string{f.file["a/alpha.go"]: "links of alpha", f.file["a/copy.go"]: "links of copy"}
	if diff := cmp.Diff(wantLinks, links); diff != "" {
		t.Errorf("AllLinks skips files without links (-want +got):\n%s", diff)
	}
	stop := errStop{}
	if err := f.db.AllLinks(ctx, func(int64, []byte) error { return stop }); err != stop {
		t.Errorf("AllLinks does not return its callback's error: %v", err)
	}
	// Both nil deletes the row.
	commit(t, f.db, func(tx *Tx) error { return tx.SetLink(f.file["a/alpha.go"], nil, nil) })
	if got, err := f.db.Link(ctx, f.file["a/alpha.go"]); got != nil || err != nil {
		t.Errorf("Link after deleting it: %q %v", got, err)
	}
}

type errStop struct{}

func (errStop) Error() string { return "stop" }

func TestModules(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	mods, err := f.db.Modules(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []ModuleRow{
		{ID: f.mod[""], Root: "", Name: "example.com/a", Kind: "go", Manifest: "go.mod", Deps: []string{"example.com/dep"}},
		{ID: f.mod["b"], Root: "b", Name: "b", Kind: "python", Manifest: "b/pyproject.toml", Deps: []string{}, Detached: true},
	}
	if diff := cmp.Diff(want, mods); diff != "" {
		t.Errorf("Modules (-want +got):\n%s", diff)
	}
	// Replacing keeps the id of an unchanged (root, kind) and drops the rest.
	var ids map[[2]string]int64
	commit(t, f.db, func(tx *Tx) error {
		ids, err = tx.ReplaceModules([]ModuleRow{{Root: "", Name: "example.com/renamed", Kind: "go", Manifest: "go.mod"}, {Root: "c", Name: "c", Kind: "rust", Manifest: "c/Cargo.toml"}})
		return err
	})
	if ids[[2]string{"", "go"}] != f.mod[""] {
		t.Errorf("the root module changed id: %d, was %d", ids[[2]string{"", "go"}], f.mod[""])
	}
	mods, err = f.db.Modules(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want = []ModuleRow{
		{ID: f.mod[""], Root: "", Name: "example.com/renamed", Kind: "go", Manifest: "go.mod", Deps: []string{}},
		{ID: ids[[2]string{"c", "rust"}], Root: "c", Name: "c", Kind: "rust", Manifest: "c/Cargo.toml", Deps: []string{}},
	}
	if diff := cmp.Diff(want, mods); diff != "" {
		t.Errorf("Modules after a replace (-want +got):\n%s", diff)
	}
}

// A deps column the store did not write is a broken invariant: under test
// the read panics where it found it, rather than answering without deps.
func TestModulesBrokenDeps(t *testing.T) {
	f := newFixture(t)
	if _, err := f.db.sql.Exec(`UPDATE module SET deps = 'not json' WHERE root = 'b'`); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if r := fmt.Sprint(recover()); !strings.Contains(r, "bug: store: module") || !strings.Contains(r, "not json") {
			t.Errorf("recover() = %s, want the broken invariant reported", r)
		}
	}()
	f.db.Modules(context.Background())
	t.Error("Modules read a deps column it cannot decode without a report")
}

func TestSymbolReads(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	run, ok, err := f.db.SymbolByID(ctx, symBetaRun)
	if err != nil || !ok {
		t.Fatalf("SymbolByID: %v %v", ok, err)
	}
	wantRun := SymbolRow{ID: symBetaRun, FileID: f.file["b/beta.py"], DefIdx: 1, Name: "run", QName: "b.Beta.run", Kind: kMethod,
		Visibility: vPublic, ModuleID: f.mod["b"], Parent: symBeta, Version: 22}
	if diff := cmp.Diff(wantRun, run); diff != "" {
		t.Errorf("SymbolByID (-want +got):\n%s", diff)
	}
	if _, ok, err := f.db.SymbolByID(ctx, 9999); ok || err != nil {
		t.Errorf("SymbolByID of a missing id: %v %v", ok, err)
	}
	lists := []struct {
		name string
		read func() ([]SymbolRow, error)
		want []int64
	}{
		{"ByName Alpha", func() ([]SymbolRow, error) { return f.db.SymbolsByName(ctx, "Alpha") }, []int64{symAlpha, symCopyAlpha}},
		{"ByName is exact", func() ([]SymbolRow, error) { return f.db.SymbolsByName(ctx, "alpha") }, []int64{}},
		{"ByQName", func() ([]SymbolRow, error) { return f.db.SymbolsByQName(ctx, "example.com/a.Alpha") }, []int64{symAlpha, symCopyAlpha}},
		{"OfFile in definition order", func() ([]SymbolRow, error) { return f.db.SymbolsOfFile(ctx, f.file["b/beta.py"]) }, []int64{symBeta, symBetaRun, symBetaGamma}},
		{"OfFiles by file, then definition", func() ([]SymbolRow, error) {
			return f.db.SymbolsOfFiles(ctx, []int64{f.file["a/copy.go"], f.file["a/alpha.go"]})
		}, []int64{symAlpha, symAlphabet, symCopyAlpha, symBetaxgamma}},
		{"OfFiles of none", func() ([]SymbolRow, error) { return f.db.SymbolsOfFiles(ctx, nil) }, []int64{}},
		{"ByParent", func() ([]SymbolRow, error) { return f.db.SymbolsByParent(ctx, symBeta, 10) }, []int64{symBetaRun}},
		{"ByParent of a leaf", func() ([]SymbolRow, error) { return f.db.SymbolsByParent(ctx, symBetaRun, 10) }, []int64{}},
		{"ByQNamePrefix", func() ([]SymbolRow, error) { return f.db.SymbolsByQNamePrefix(ctx, "b.Beta", 10) }, []int64{symBeta, symBetaRun}},
		{"ByQNamePrefix of members", func() ([]SymbolRow, error) { return f.db.SymbolsByQNamePrefix(ctx, "b.Beta.", 10) }, []int64{symBetaRun}},
		{"ByQNamePrefix limited", func() ([]SymbolRow, error) { return f.db.SymbolsByQNamePrefix(ctx, "b.", 2) }, []int64{symBeta, symBetaRun}},
	}
	for _, l := range lists {
		rows, err := l.read()
		if err != nil {
			t.Fatalf("%s: %v", l.name, err)
		}
		if diff := cmp.Diff(l.want, symbolIDs(rows)); diff != "" {
			t.Errorf("Symbols%s (-want +got):\n%s", l.name, diff)
		}
	}
	unordered := []struct {
		name string
		read func() ([]SymbolRow, error)
		want []int64
	}{
		{"ByIDs skips missing ids", func() ([]SymbolRow, error) { return f.db.SymbolsByIDs(ctx, []int64{symBeta, 9999, symAlpha}) }, []int64{symAlpha, symBeta}},
		{"AllSymbols", func() ([]SymbolRow, error) { return f.db.AllSymbols(ctx) },
			[]int64{symAlpha, symAlphabet, symCopyAlpha, symBetaGamma, symBeta, symBetaRun, symBetaxgamma}},
	}
	for _, l := range unordered {
		rows, err := l.read()
		if err != nil {
			t.Fatalf("%s: %v", l.name, err)
		}
		got := symbolIDs(rows)
		slices.Sort(got)
		if diff := cmp.Diff(l.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", l.name, diff)
		}
	}
	if n, err := f.db.SymbolCount(ctx); n != 7 || err != nil {
		t.Errorf("SymbolCount = %d, %v", n, err)
	}
	if n, err := f.db.CountSymbolsByParent(ctx, symBeta); n != 1 || err != nil {
		t.Errorf("CountSymbolsByParent = %d, %v", n, err)
	}
	for name, want := range map[string]bool{"run": true, "Run": false, "beta_gamma": true, "beta": false} {
		if got, err := f.db.NameDefined(ctx, name); got != want || err != nil {
			t.Errorf("NameDefined(%q) = %v, %v", name, got, err)
		}
	}
	owners, err := f.db.SymbolFiles(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if owners[symBetaxgamma] != f.file["a/copy.go"] || owners[symBetaRun] != f.file["b/beta.py"] || len(owners) != 7 {
		t.Errorf("SymbolFiles = %v", owners)
	}
}

func TestFilesDefining(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	ids := func(paths ...string) map[int64]bool {
		out := map[int64]bool{}
		for _, p := range paths {
			out[f.file[p]] = true
		}
		return out
	}
	for _, tc := range []struct {
		name string
		fold bool
		want map[int64]bool
	}{
		{"Alpha", false, ids("a/alpha.go", "a/copy.go")},
		{"alpha", false, ids()},
		{"alpha", true, ids("a/alpha.go", "a/copy.go")},
		{"RUN", true, ids("b/beta.py")},
		{"RUN", false, ids()},
		// '_' is a LIKE wildcard: betaxgamma (a/copy.go) must not match.
		{"BETA_GAMMA", true, ids("b/beta.py")},
		{"Betaxgamma", true, ids("a/copy.go")},
		{"al", true, ids()},
	} {
		got, err := f.db.FilesDefining(ctx, tc.name, tc.fold)
		same(t, fmt.Sprintf("FilesDefining(%q, %v)", tc.name, tc.fold), tc.want, got, err)
	}
	byQ, err := f.db.FilesByQNames(ctx, []string{"example.com/a.Alpha", "b.Beta", "no.such"})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range byQ {
		slices.Sort(v)
	}
	wantQ := map[string][]int64{"example.com/a.Alpha": {f.file["a/alpha.go"], f.file["a/copy.go"]}, "b.Beta": {f.file["b/beta.py"]}}
	slices.Sort(wantQ["example.com/a.Alpha"])
	if diff := cmp.Diff(wantQ, byQ); diff != "" {
		t.Errorf("FilesByQNames (-want +got):\n%s", diff)
	}
}

func TestCounts(t *testing.T) {
	f := newFixture(t)
	files, statuses, symbols, err := f.db.Counts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]int{"go": 2, "python": 1, "": 2}, files); diff != "" {
		t.Errorf("files per language (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[BlobStatus]int{BlobParsed: 2, BlobParseErrors: 1, BlobText: 1, BlobBinary: 1}, statuses); diff != "" {
		t.Errorf("files per status (-want +got):\n%s", diff)
	}
	if symbols != 7 {
		t.Errorf("symbols = %d", symbols)
	}
}

// The symbol search ranks by exact name, kind and visibility, then shorter
// names, qualified names and ids; it matches substrings ignoring case, with
// '_' and '%' taken literally.
func TestSearchSymbols(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	weights := SymbolSearch{
		KindWeight: map[uint8]int{kFunction: 20, kClass: 25, kMethod: 15, kVariable: 5},
		VisWeight:  map[uint8]int{vPublic: 30, vPrivate: 10},
		ExactBonus: 100,
		Limit:      10,
	}
	for _, tc := range []struct {
		sub    string
		kinds  []uint8
		limit  int
		ids    []int64
		scores []int
		count  int
	}{
		{sub: "alpha", ids: []int64{symAlpha, symCopyAlpha, symAlphabet}, scores: []int{150, 150, 30}, count: 3},
		{sub: "ALPHA", ids: []int64{symAlpha, symCopyAlpha, symAlphabet}, scores: []int{150, 150, 30}, count: 3},
		{sub: "alpha", limit: 1, ids: []int64{symAlpha}, scores: []int{150}, count: 3},
		{sub: "beta", ids: []int64{symBeta, symBetaGamma, symBetaxgamma}, scores: []int{155, 50, 35}, count: 3},
		{sub: "beta", kinds: []uint8{kFunction, kMethod}, ids: []int64{symBetaGamma}, scores: []int{50}, count: 1},
		{sub: "a_g", ids: []int64{symBetaGamma}, scores: []int{50}, count: 1},
		{sub: "axg", ids: []int64{symBetaxgamma}, scores: []int{35}, count: 1},
		{sub: "ta%g", ids: []int64{}, count: 0},
		// Under three characters the trigram index cannot help: a scan.
		{sub: "ru", ids: []int64{symBetaRun}, scores: []int{45}, count: 1},
		{sub: "a", kinds: []uint8{kClass}, ids: []int64{symBeta}, scores: []int{55}, count: 1},
		{sub: "zzz", ids: []int64{}, count: 0},
	} {
		q := weights
		q.Sub, q.Kinds = tc.sub, tc.kinds
		if tc.limit > 0 {
			q.Limit = tc.limit
		}
		rows, scores, err := f.db.SearchSymbols(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.ids, symbolIDs(rows)); diff != "" {
			t.Errorf("SearchSymbols(%q, kinds %v) (-want +got):\n%s", tc.sub, tc.kinds, diff)
		}
		if diff := cmp.Diff(tc.scores, scores); diff != "" {
			t.Errorf("SearchSymbols(%q) scores (-want +got):\n%s", tc.sub, diff)
		}
		n, err := f.db.CountSymbols(ctx, q, 100)
		if err != nil || n != tc.count {
			t.Errorf("CountSymbols(%q) = %d, %v; want %d", tc.sub, n, err, tc.count)
		}
	}
	if n, err := f.db.CountSymbols(ctx, SymbolSearch{Sub: "a"}, 2); n != 2 || err != nil {
		t.Errorf("CountSymbols stops at its limit: %d, %v", n, err)
	}
}

// Names added in a later batch, and names of symbols deleted and added
// again, stay searchable (the trigram index of names is filled at commit).
func TestSearchSymbolsAcrossBatches(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	commit(t, f.db, func(tx *Tx) error {
		if err := tx.DeleteSymbolsOf(f.file["a/alpha.go"]); err != nil {
			return err
		}
		return tx.PutSymbols([]SymbolRow{
			{ID: 201, FileID: f.file["a/alpha.go"], Name: "Alpha", QName: "example.com/a.Alpha", Kind: kFunction},
			{ID: 202, FileID: f.file["a/alpha.go"], DefIdx: 1, Name: "Omega", QName: "example.com/a.Omega", Kind: kFunction},
		})
	})
	// An abandoned batch leaves neither its symbols nor its names behind.
	tx, err := f.db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.PutSymbols([]SymbolRow{{ID: 301, FileID: f.file["a/alpha.go"], Name: "Omicron", QName: "example.com/a.Omicron"}}); err != nil {
		t.Fatal(err)
	}
	tx.Rollback()
	for sub, want := range map[string][]int64{"alpha": {symCopyAlpha, 201}, "omega": {202}, "omicron": {}} {
		rows, _, err := f.db.SearchSymbols(ctx, SymbolSearch{Sub: sub, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		got := symbolIDs(rows)
		slices.Sort(got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("SearchSymbols(%q) (-want +got):\n%s", sub, diff)
		}
	}
}

func TestTextCandidates(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	searchable := []string{"README.md", "a/alpha.go", "a/copy.go", "b/beta.py"}
	for _, tc := range []struct {
		pattern       string
		caseSensitive bool
		limit         int
		want          []string
	}{
		{"", false, 100, searchable},
		{"", false, 2, searchable[:2]},
		{GlobLiteral("Alpha"), true, 100, []string{"README.md", "a/alpha.go", "a/copy.go"}},
		{GlobLiteral("alphabet"), true, 100, []string{"a/alpha.go", "a/copy.go"}},
		{GlobLiteral("ALPHABET"), true, 100, []string{}},
		{LikeLiteral("ALPHABET"), false, 100, []string{"a/alpha.go", "a/copy.go"}},
		// GLOB's special characters are literal in a GlobLiteral.
		{GlobLiteral("[glob] *"), true, 100, []string{"README.md"}},
		{GlobLiteral("a?d"), true, 100, []string{}},
		{LikeLiteral("50% off"), false, 100, []string{"README.md"}},
	} {
		hits, err := f.db.TextCandidates(ctx, tc.pattern, tc.caseSensitive, tc.limit)
		same(t, fmt.Sprintf("TextCandidates(%q, %v, %d)", tc.pattern, tc.caseSensitive, tc.limit), tc.want, hitPaths(hits), err)
	}
	for _, tc := range []struct {
		lit  string
		want []string
	}{
		{"alpha", []string{"README.md", "a/alpha.go", "a/copy.go"}},
		{"def run", []string{"b/beta.py"}},
		{"zzzz", []string{}},
		{"ab", searchable}, // too short for trigrams: every searchable file
	} {
		hits, err := f.db.TrigramCandidates(ctx, tc.lit)
		same(t, fmt.Sprintf("TrigramCandidates(%q)", tc.lit), tc.want, hitPaths(hits), err)
	}
	hits, err := f.db.TrigramCandidates(ctx, "Beta")
	if err != nil {
		t.Fatal(err)
	}
	want := []TextHit{
		{FileID: f.file["README.md"], Path: "README.md", BlobID: f.blob["readme"], Lang: ""},
		{FileID: f.file["b/beta.py"], Path: "b/beta.py", BlobID: f.blob["beta"], Lang: "python"},
	}
	if diff := cmp.Diff(want, hits); diff != "" {
		t.Errorf("TrigramCandidates rows (-want +got):\n%s", diff)
	}
}

// A literal finds the documents that hold it, whatever its letters: the
// trigram index and the query agree on case folding (FTS5 folds both),
// also for letters that Go lowers and FTS5 does not.
func TestTrigramCandidatesFolding(t *testing.T) {
	ctx := context.Background()
	db, _ := openTemp(t)
	docs := map[string]string{
		"ascii.txt":    "call NewServer here",
		"turkish.txt":  "şehir İstanbul",
		"georgian.txt": "ᲐᲑᲒ mtavruli",
		"cherokee.txt": "ᏣᎳᎩ syllabary",
		"greek.txt":    "ΣΟΦΙΑ",
	}
	names := slices.Sorted(maps.Keys(docs))
	var rows []BlobRow
	for _, name := range names {
		rows = append(rows, blobRow(docs[name], "", BlobText, nil))
	}
	ids := insertBlobs(t, db, 1, rows...)
	commit(t, db, func(tx *Tx) error {
		for i, name := range names {
			if _, err := tx.PutFile(fileRow(name, docs[name], "", ids[i], 0, 1)); err != nil {
				return err
			}
		}
		return nil
	})
	for lit, want := range map[string][]string{
		"NewServer": {"ascii.txt"},
		"newserver": {"ascii.txt"},
		"İstanbul":  {"turkish.txt"},
		"ᲐᲑᲒ":       {"georgian.txt"},
		"ᏣᎳᎩ":       {"cherokee.txt"},
		"ΣΟΦΙΑ":     {"greek.txt"},
		"σοφια":     {"greek.txt"},
		// No indexed text holds a NUL, and FTS5's query syntax cannot
		// quote one: its trigrams are left out (callers verify anyway).
		"Server\x00x":  {"ascii.txt"},
		"\x00\x00\x00": names,
	} {
		hits, err := db.TrigramCandidates(ctx, lit)
		same(t, fmt.Sprintf("TrigramCandidates(%q)", lit), want, hitPaths(hits), err)
	}
}

func TestPatterns(t *testing.T) {
	long := "abcdefghijklmnopqrstuvwxyz"
	var spread []string
	for i := 0; i < maxTrigrams; i++ {
		j := i * (len(long) - 3) / (maxTrigrams - 1)
		spread = append(spread, `"`+long[j:j+3]+`"`)
	}
	for _, tc := range []struct{ lit, want string }{
		{"", ""},
		{"ab", ""},
		{"abc", `"abc"`},
		{"ABCd", `"ABC" AND "BCd"`}, // FTS5 folds the terms as it folded the documents
		{"aaaa", `"aaa"`},
		{`a"b`, `"a""b"`},
		{"äöüß", `"äöü" AND "öüß"`},
		{long, strings.Join(spread, " AND ")},
	} {
		if got := TrigramQuery(tc.lit); got != tc.want {
			t.Errorf("TrigramQuery(%q) = %s, want %s", tc.lit, got, tc.want)
		}
	}
	for lit, want := range map[string]string{"": "**", "a*b?c[d]": "*a[*]b[?]c[[]d]*", "ü": "*ü*"} {
		if got := GlobLiteral(lit); got != want {
			t.Errorf("GlobLiteral(%q) = %s, want %s", lit, got, want)
		}
	}
	for lit, want := range map[string]string{"": "%%", "50%_x": "%50__x%"} {
		if got := LikeLiteral(lit); got != want {
			t.Errorf("LikeLiteral(%q) = %s, want %s", lit, got, want)
		}
	}
}

func TestEdges(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	alpha, cp, beta := f.file["a/alpha.go"], f.file["a/copy.go"], f.file["b/beta.py"]
	for _, tc := range []struct {
		name string
		read func() ([]EdgeRow, error)
		want []EdgeRow
	}{
		{"callers of Alpha", func() ([]EdgeRow, error) { return f.db.EdgesTo(ctx, symAlpha, 0) },
			[]EdgeRow{{FileID: alpha, Src: symAlphabet, Dst: symAlpha, Kind: 0, Tier: 1, Count: 1, Line: 5, Col: 20}}},
		{"callers and subtypes of Alpha", func() ([]EdgeRow, error) { return f.db.EdgesTo(ctx, symAlpha, 0, 1) },
			[]EdgeRow{{FileID: alpha, Src: symAlphabet, Dst: symAlpha, Kind: 0, Tier: 1, Count: 1, Line: 5, Col: 20},
				{FileID: beta, Src: symBeta, Dst: symAlpha, Kind: 1, Tier: 3, Count: 1, Line: 1, Col: 7}}},
		{"callers of beta_gamma by source", func() ([]EdgeRow, error) { return f.db.EdgesTo(ctx, symBetaGamma, 0) },
			[]EdgeRow{{FileID: alpha, Src: symAlpha, Dst: symBetaGamma, Kind: 0, Tier: 2, Count: 2, Line: 3, Col: 18},
				{FileID: cp, Src: symCopyAlpha, Dst: symBetaGamma, Kind: 0, Tier: 2, Count: 1, Line: 3, Col: 18}}},
		{"callees of Alpha", func() ([]EdgeRow, error) { return f.db.EdgesFrom(ctx, alpha, symAlpha, 0) },
			[]EdgeRow{{FileID: alpha, Src: symAlpha, Dst: symBetaGamma, Kind: 0, Tier: 2, Count: 2, Line: 3, Col: 18}}},
		{"callees of Alpha in another file", func() ([]EdgeRow, error) { return f.db.EdgesFrom(ctx, cp, symAlpha, 0) }, nil},
		{"supertypes of Beta", func() ([]EdgeRow, error) { return f.db.EdgesFrom(ctx, beta, symBeta, 1, 2, 3) },
			[]EdgeRow{{FileID: beta, Src: symBeta, Dst: symAlpha, Kind: 1, Tier: 3, Count: 1, Line: 1, Col: 7}}},
		{"all calls", func() ([]EdgeRow, error) { return f.db.AllEdges(ctx, 0) },
			[]EdgeRow{{FileID: alpha, Src: symAlpha, Dst: symBetaGamma, Kind: 0, Tier: 2, Count: 2, Line: 3, Col: 18},
				{FileID: alpha, Src: symAlphabet, Dst: symAlpha, Kind: 0, Tier: 1, Count: 1, Line: 5, Col: 20},
				{FileID: cp, Src: symCopyAlpha, Dst: symBetaGamma, Kind: 0, Tier: 2, Count: 1, Line: 3, Col: 18}}},
	} {
		got, err := tc.read()
		same(t, tc.name, tc.want, got, err)
	}
}

// An alias and a tombstone exclude each other; ClearRedirect forgets both.
func TestRedirects(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	type state struct {
		Alias     *Alias
		Tombstone *Tombstone
	}
	read := func(id int64) state {
		t.Helper()
		var s state
		a, ok, err := f.db.AliasOf(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			s.Alias = &a
		}
		ts, ok, err := f.db.TombstoneOf(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			s.Tombstone = &ts
		}
		return s
	}
	alias := Alias{OldID: 90, NewID: symAlpha, Reason: "renamed", Confidence: 0.9, OldQName: "example.com/a.Alfa", Epoch: 2}
	tomb := Tombstone{ID: 91, QName: "b.Gone", Kind: kFunction, Path: "b/gone.py", Epoch: 3}
	steps := []struct {
		name   string
		change func(tx *Tx) error
		want90 state
		want91 state
	}{
		{"as written", nil, state{Alias: &alias}, state{Tombstone: &tomb}},
		{"the aliased id is deleted", func(tx *Tx) error {
			return tx.PutTombstone(Tombstone{ID: 90, QName: "example.com/a.Alfa", Kind: kFunction, Path: "a/alpha.go", Epoch: 4})
		}, state{Tombstone: &Tombstone{ID: 90, QName: "example.com/a.Alfa", Kind: kFunction, Path: "a/alpha.go", Epoch: 4}}, state{Tombstone: &tomb}},
		{"the deleted id comes back as another", func(tx *Tx) error {
			return tx.PutAlias(Alias{OldID: 91, NewID: symBeta, Reason: "moved", Confidence: 1, OldQName: "b.Gone", Epoch: 5})
		}, state{Tombstone: &Tombstone{ID: 90, QName: "example.com/a.Alfa", Kind: kFunction, Path: "a/alpha.go", Epoch: 4}},
			state{Alias: &Alias{OldID: 91, NewID: symBeta, Reason: "moved", Confidence: 1, OldQName: "b.Gone", Epoch: 5}}},
		{"both exist again", func(tx *Tx) error {
			if err := tx.ClearRedirect(90); err != nil {
				return err
			}
			return tx.ClearRedirect(91)
		}, state{}, state{}},
	}
	for _, s := range steps {
		if s.change != nil {
			commit(t, f.db, s.change)
		}
		if diff := cmp.Diff(s.want90, read(90)); diff != "" {
			t.Errorf("%s: id 90 (-want +got):\n%s", s.name, diff)
		}
		if diff := cmp.Diff(s.want91, read(91)); diff != "" {
			t.Errorf("%s: id 91 (-want +got):\n%s", s.name, diff)
		}
	}
}

func TestFilesAtEpoch(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	alpha := FileRow{Path: "a/alpha.go", BlobID: f.blob["alpha"], Lang: "go"}
	beta := FileRow{Path: "b/beta.py", BlobID: f.blob["beta"], Lang: "python"}
	readme := FileRow{Path: "README.md", BlobID: f.blob["readme"]}
	for _, tc := range []struct {
		epoch int64
		want  []FileRow
	}{
		{0, nil},
		{1, []FileRow{alpha, beta}},
		{2, []FileRow{readme, alpha}}, // b/beta.py deleted at 2
		{3, []FileRow{readme, alpha, beta}},
		{99, []FileRow{readme, alpha, beta}},
	} {
		got, err := f.db.FilesAtEpoch(ctx, tc.epoch)
		same(t, fmt.Sprintf("FilesAtEpoch(%d)", tc.epoch), tc.want, got, err)
	}
}

func TestMeta(t *testing.T) {
	f := newFixture(t)
	for key, want := range map[string]string{"epoch": "3", "schema_version": strconv.Itoa(IndexSchemaVersion), "missing": ""} {
		if got, err := f.db.Meta(key); got != want || err != nil {
			t.Errorf("Meta(%q) = %q, %v; want %q", key, got, err, want)
		}
	}
	commit(t, f.db, func(tx *Tx) error { return tx.SetMeta("epoch", "4") })
	if got, _ := f.db.Meta("epoch"); got != "4" {
		t.Errorf("Meta after SetMeta = %q", got)
	}
}
