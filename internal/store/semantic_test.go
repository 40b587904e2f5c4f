package store

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// SCIP symbol ids (hashes of their symbol strings) of the semantic fixture.
const (
	semAlpha = 1001 // defined in a/alpha.go, mapped to Alpha in both Go files
	semBeta  = 1002 // defined in b/beta.py
	semRun   = 1003 // defined in b/beta.py, a member of Beta
	semExt   = 1004 // defined outside the repository
)

// semFixture is one SCIP index of the fixture's files under key.
func semFixture(key string) *SemImport {
	return &SemImport{
		Index: SemIndexRow{Key: key, Tool: "scip-go", ToolVersion: "v1", Root: ".", Source: "job:1", Head: "abc", HeadKnown: true,
			ImportedAt: 500, Stats: `{"docs":2}`},
		Docs: []SemDocRow{
			{Ord: 0, Path: "a/alpha.go", Lang: "go", Hash: hashOf(alphaSrc).bytes(), Occs: []byte("occurrences in alpha")},
			{Ord: 1, Path: "b/beta.py", Lang: "python", State: 2, Occs: []byte("occurrences in beta")},
		},
		Symbols: []SemSymbolRow{
			{ID: semAlpha, Symbol: "go . a Alpha().", Kind: 17, Display: "func Alpha()", DefDoc: 0, Occs: []byte("occurrences of Alpha")},
			{ID: semBeta, Symbol: "py . b Beta#", Kind: 7, Display: "class Beta", DefDoc: 1, Occs: []byte("occurrences of Beta")},
			{ID: semRun, Symbol: "py . b Beta#run().", Kind: 26, Display: "def run(self)", DefDoc: 1, Occs: []byte("occurrences of run")},
			{ID: semExt, Symbol: "go std fmt Println().", Kind: 17, DefDoc: -1},
		},
		Rels: []SemRelRow{{Sym: semRun, Target: semBeta, Kinds: 4}, {Sym: semAlpha, Target: semBeta, Kinds: 1}, {Sym: semAlpha, Target: semExt, Kinds: 4}},
		Map:  []SemMapRow{{Sym: semAlpha, Cairn: symAlpha}, {Sym: semAlpha, Cairn: symCopyAlpha}, {Sym: semBeta, Cairn: symBeta}},
	}
}

func (h Hash) bytes() []byte { return h[:] }

func importSemantic(t *testing.T, f *fixture, key string, importedAt int64) int64 {
	t.Helper()
	imp := semFixture(key)
	imp.Index.ImportedAt = importedAt
	id, err := f.db.ReplaceSemantic(context.Background(), imp)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestSemanticReads(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	gen0, err := f.db.SemGeneration(ctx)
	if err != nil {
		t.Fatal(err)
	}
	go1 := importSemantic(t, f, "scip-go:.", 500)
	py := importSemantic(t, f, "scip-python:b", 600)

	indexes, err := f.db.SemIndexes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantIndex := func(id int64, key string, at int64) SemIndexRow {
		x := semFixture(key).Index
		x.ID, x.ImportedAt = id, at
		return x
	}
	if diff := cmp.Diff([]SemIndexRow{wantIndex(go1, "scip-go:.", 500), wantIndex(py, "scip-python:b", 600)}, indexes); diff != "" {
		t.Errorf("SemIndexes (-want +got):\n%s", diff)
	}

	docs, err := f.db.SemDocs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var wantDocs []SemDocRow
	for _, idx := range []int64{go1, py} {
		for _, d := range semFixture("").Docs {
			d.Index, d.Occs = idx, nil
			wantDocs = append(wantDocs, d)
		}
	}
	if diff := cmp.Diff(wantDocs, docs, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("SemDocs (-want +got):\n%s", diff)
	}
	byPath, err := f.db.SemDocsByPath(ctx, "b/beta.py")
	if err != nil {
		t.Fatal(err)
	}
	d := semFixture("").Docs[1]
	wantByPath := []SemDocRow{d, d}
	wantByPath[0].Index, wantByPath[1].Index = go1, py
	if diff := cmp.Diff(wantByPath, byPath, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("SemDocsByPath (-want +got):\n%s", diff)
	}
	if none, err := f.db.SemDocsByPath(ctx, "c/none.go"); none != nil || err != nil {
		t.Errorf("SemDocsByPath of an unknown path: %v %v", none, err)
	}

	sym := func(idx int64, i int) SemSymbolRow {
		s := semFixture("").Symbols[i]
		s.Index = idx
		return s
	}
	symbols, err := f.db.SemSymbols(ctx, semAlpha)
	same(t, "SemSymbols", []SemSymbolRow{sym(go1, 0), sym(py, 0)}, symbols, err)
	ext, ok, err := f.db.SemSymbol(ctx, py, semExt)
	if err != nil || !ok {
		t.Fatalf("SemSymbol: %v %v", ok, err)
	}
	if diff := cmp.Diff(sym(py, 3), ext, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("SemSymbol (-want +got):\n%s", diff)
	}
	if _, ok, err := f.db.SemSymbol(ctx, py, 9999); ok || err != nil {
		t.Errorf("SemSymbol of an unknown id: %v %v", ok, err)
	}
	ofCairn, err := f.db.SemSymbolsOfCairn(ctx, symBeta)
	same(t, "SemSymbolsOfCairn", []SemSymbolRow{sym(go1, 1), sym(py, 1)}, ofCairn, err)
	cairn, err := f.db.SemCairnOf(ctx, go1, semAlpha)
	same(t, "SemCairnOf", []int64{symAlpha, symCopyAlpha}, cairn, err)
	mapped, err := f.db.SemMapped(ctx, []int64{symAlpha, symBeta, symBetaRun})
	same(t, "SemMapped", map[int64][2]int64{symAlpha: {go1, 0}, symBeta: {go1, 1}}, mapped, err)
	for _, tc := range []struct {
		sym     int64
		reverse bool
		limit   int
		want    []SemRelRow
	}{
		{semAlpha, false, 10, []SemRelRow{{Sym: semAlpha, Target: semBeta, Kinds: 1}, {Sym: semAlpha, Target: semExt, Kinds: 4}}},
		{semAlpha, false, 1, []SemRelRow{{Sym: semAlpha, Target: semBeta, Kinds: 1}}},
		{semBeta, true, 10, []SemRelRow{{Sym: semAlpha, Target: semBeta, Kinds: 1}, {Sym: semRun, Target: semBeta, Kinds: 4}}},
		{semBeta, false, 10, nil},
	} {
		rels, err := f.db.SemRels(ctx, go1, tc.sym, tc.reverse, tc.limit)
		same(t, fmt.Sprintf("SemRels(%d, reverse %v, limit %d)", tc.sym, tc.reverse, tc.limit), tc.want, rels, err)
	}
	counts, err := f.db.SemCounts(ctx)
	same(t, "SemCounts", map[string]int{"sem_index": 2, "sem_doc": 4, "sem_symbol": 8, "sem_rel": 6, "sem_map": 6}, counts, err)
	gen2, err := f.db.SemGeneration(ctx)
	if err != nil || gen2 == gen0 {
		t.Errorf("SemGeneration %q before and %q after two imports (%v)", gen0, gen2, err)
	}
}

// An import replaces the index of the same key whole, under a new id; a
// delete removes every row of it; the generation moves each time.
func TestSemanticReplaceAndDelete(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	first := importSemantic(t, f, "scip-go:.", 500)
	gen1, _ := f.db.SemGeneration(ctx)
	imp := semFixture("scip-go:.")
	imp.Symbols = imp.Symbols[:1]
	imp.Rels, imp.Map = nil, nil
	second, err := f.db.ReplaceSemantic(ctx, imp)
	if err != nil {
		t.Fatal(err)
	}
	if second <= first {
		t.Errorf("the replacement reused id %d (first %d): readers cache by the newest id", second, first)
	}
	gen2, _ := f.db.SemGeneration(ctx)
	counts, err := f.db.SemCounts(ctx)
	same(t, "after a replacement", map[string]int{"sem_index": 1, "sem_doc": 2, "sem_symbol": 1, "sem_rel": 0, "sem_map": 0}, counts, err)
	if err := f.db.DeleteSemantic(ctx, "scip-go:."); err != nil {
		t.Fatal(err)
	}
	if err := f.db.DeleteSemantic(ctx, "no such key"); err != nil {
		t.Errorf("deleting an unknown key: %v", err)
	}
	gen3, _ := f.db.SemGeneration(ctx)
	counts, err = f.db.SemCounts(ctx)
	same(t, "after a delete", map[string]int{"sem_index": 0, "sem_doc": 0, "sem_symbol": 0, "sem_rel": 0, "sem_map": 0}, counts, err)
	if gen1 == gen2 || gen2 == gen3 || gen1 == gen3 {
		t.Errorf("generations %q, %q, %q are not all different", gen1, gen2, gen3)
	}
}

// A large import is written in batches and reports progress; an import
// cancelled midway leaves the previous index whole.
func TestSemanticLargeImport(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	importSemantic(t, f, "scip-go:.", 500)
	big := semFixture("scip-go:.")
	for i := int64(0); i < 1000; i++ {
		big.Symbols = append(big.Symbols, SemSymbolRow{ID: 5000 + i, Symbol: "s", DefDoc: -1})
		big.Map = append(big.Map, SemMapRow{Sym: 5000 + i, Cairn: 7000 + i})
	}
	var progress [][2]int
	big.ProgressEvery = 300
	big.Progress = func(done, total int) { progress = append(progress, [2]int{done, total}) }
	id, err := f.db.ReplaceSemantic(ctx, big)
	if err != nil {
		t.Fatal(err)
	}
	total := 2 + 1004 + 3 + 1003
	if diff := cmp.Diff([][2]int{{300, total}, {600, total}, {900, total}, {1200, total}, {1500, total}, {1800, total}}, progress); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
	ids := make([]int64, 1000)
	for i := range ids {
		ids[i] = 7000 + int64(i)
	}
	mapped, err := f.db.SemMapped(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	if len(mapped) != 1000 || mapped[7999] != [2]int64{id, -1} {
		t.Errorf("SemMapped of 1000 ids: %d mapped, 7999 -> %v", len(mapped), mapped[7999])
	}

	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	again := semFixture("scip-go:.")
	again.Symbols = big.Symbols
	again.ProgressEvery = 100
	again.Progress = func(int, int) { cancel() }
	if _, err := f.db.ReplaceSemantic(cctx, again); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled import: %v", err)
	}
	indexes, err := f.db.SemIndexes(ctx)
	if err != nil || len(indexes) != 1 || indexes[0].ID != id {
		t.Fatalf("after a cancelled import: %+v %v", indexes, err)
	}
	counts, _ := f.db.SemCounts(ctx)
	if counts["sem_map"] != 1003 || counts["sem_symbol"] != 1004 {
		t.Errorf("a cancelled import changed the rows: %v", counts)
	}
}
