package semantic_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/index"
	_ "github.com/cairnhq/cairn/internal/lang/all"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/semantic"
	"github.com/cairnhq/cairn/internal/store"
	"github.com/cairnhq/cairn/internal/testenv"
)

type env struct {
	root, state string
	ix          *index.Index
	eng         *query.Engine
	pins        []func() // stores pinned by db, released on close
	// snapRelease ends the snapshot q last took (one at a time: each holds
	// a connection of the store's small pool).
	snapRelease func()
}

// q is the query engine over a snapshot of the index as it is now; it
// ends the previous one.
func (e *env) q() *query.Engine {
	if e.snapRelease != nil {
		e.snapRelease()
	}
	eng, release, err := e.eng.Snapshot(context.Background())
	if err != nil {
		panic(err)
	}
	e.snapRelease = release
	return eng
}

// db pins the index's current store until the env closes.
func (e *env) db() *store.DB {
	db, release := e.ix.Acquire()
	e.pins = append(e.pins, release)
	return db
}

// openRepo makes a git repository of the fixture and an index over it.
func openRepo(t testing.TB) *env {
	t.Helper()
	return openFixture(t, "fixture")
}

// openFixture makes a git repository of the semantic fixture name
// (testenv.SemanticFiles) and an index over it.
func openFixture(t testing.TB, name string) *env {
	t.Helper()
	testenv.Isolate(t)
	e := &env{root: testenv.Repo(t, testenv.SemanticFiles(t, name)), state: filepath.Join(t.TempDir(), "state")}
	e.open(t)
	t.Cleanup(func() { e.close() })
	return e
}

func (e *env) open(t testing.TB) {
	t.Helper()
	ctx := context.Background()
	paths, err := config.Locate(ctx, e.root, e.state)
	if err != nil {
		t.Fatal(err)
	}
	e.ix, err = index.Open(ctx, paths, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	e.eng = query.New(e.ix)
	e.reconcile(t)
}

func (e *env) close() {
	if e.snapRelease != nil {
		e.snapRelease()
		e.snapRelease = nil
	}
	for _, release := range e.pins {
		release()
	}
	e.pins = nil
	if e.ix != nil {
		e.ix.Close()
		e.ix = nil
	}
}

func (e *env) reconcile(t testing.TB) {
	t.Helper()
	if _, err := e.ix.Reconcile(context.Background(), index.ReconcileOptions{}); err != nil {
		t.Fatal(err)
	}
}

func (e *env) importFixture(t testing.TB, head string) *semantic.ImportStats {
	t.Helper()
	p := testenv.SemanticIndex(t, "fixture")
	st, err := semantic.Import(context.Background(), e.ix, semantic.ImportOptions{Path: p, Key: "scip:fixture", Source: p,
		Head: head, HeadKnown: head != ""})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// pos finds the 1-based line and column of the n-th (0-based) occurrence of
// needle in a fixture file, plus offset bytes.
func pos(t testing.TB, root, path, needle string, n, offset int) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(b), "\n") {
		from := 0
		for {
			j := strings.Index(line[from:], needle)
			if j < 0 {
				break
			}
			if n == 0 {
				return fmt.Sprintf("%s:%d:%d", path, i+1, from+j+offset+1)
			}
			n--
			from += j + 1
		}
	}
	t.Fatalf("%q not found in %s", needle, path)
	return ""
}

func locs(res *query.RefsResult, tier string) []string {
	var out []string
	for _, l := range res.Locations {
		if tier == "" || l.Tier == tier {
			out = append(out, fmt.Sprintf("%s:%d:%d", l.Path, l.Line, l.Col))
		}
	}
	sort.Strings(out)
	return out
}

func refs(t testing.TB, e *env, name string, p query.RefsParams) *query.RefsResult {
	t.Helper()
	ctx := context.Background()
	r, err := e.q().Resolve(ctx, name)
	if err != nil {
		t.Fatalf("resolve %s: %v", name, err)
	}
	if p.Limit == 0 {
		p.Limit = 500
	}
	res, err := e.q().Refs(ctx, r, p)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func equal(a, b []string) bool {
	return strings.Join(a, ",") == strings.Join(b, ",")
}

// The import maps every SCIP definition of the fixture to its Cairn symbol,
// and references answer from the semantic layer: the method calls on values
// syntax cannot type (anchored) become precise or are ruled out.
func TestImportAndPreciseRefs(t *testing.T) {
	e := openRepo(t)
	st := e.importFixture(t, "")
	if st.Documents != 3 || st.Usable != 3 {
		t.Fatalf("documents %d, usable %d; want 3 and 3 (%+v)", st.Documents, st.Usable, st)
	}
	// Every definition Cairn knows is mapped; scip-go also defines the
	// packages, which Cairn has no symbol for.
	if st.Mapped < 10 || st.Unmapped != 3 {
		t.Errorf("mapped %d, unmapped %d (%v); want >= 10 and 3 (the packages)", st.Mapped, st.Unmapped, st.UnmappedEx)
	}
	syn := refs(t, e, "a.Store.Get", query.RefsParams{Layer: query.LayerSyntactic, Anchored: true})
	// s := a.New() and c := newCache() take the types of the calls' results,
	// so s.Get links to Store.Get and c.Get to Cache.Get; g.Get stays a candidate.
	if syn.AnchoredTotal != 1 {
		t.Errorf("syntactic anchored candidates %d, want 1 (g.Get)", syn.AnchoredTotal)
	}
	// Store.Get: its definition, s.Get, and g.Get, a call of the interface
	// method it implements (as gopls counts it: via the related symbol).
	sem := refs(t, e, "a.Store.Get", query.RefsParams{})
	gGet := pos(t, e.root, "b/b.go", "g.Get", 0, 2)
	want := []string{pos(t, e.root, "a/a.go", "Get(k string) int {", 0, 0), pos(t, e.root, "b/b.go", "s.Get", 0, 2), gGet}
	sort.Strings(want)
	if got := locs(sem, "precise"); !equal(got, want) || len(sem.Locations) != 3 {
		t.Errorf("precise refs %v (all %v), want %v", got, locs(sem, ""), want)
	}
	if sem.Semantic.State != "used" || sem.AnchoredTotal != 0 || sem.Semantic.RejectedAnchored != 0 || len(sem.Semantic.Related) != 1 {
		t.Errorf("semantic use %+v, anchored %d; want used, 0 anchored, 0 rejected, 1 related", sem.Semantic, sem.AnchoredTotal)
	}
	for _, l := range sem.Locations {
		if l.Layer != query.LayerSemantic {
			t.Errorf("%v: layer %s", l.Location, l.Layer)
		}
		if via := fmt.Sprintf("%s:%d:%d", l.Path, l.Line, l.Col) == gGet; via != strings.HasSuffix(l.Via, "Getter#Get.") {
			t.Errorf("%v: via %q", l.Location, l.Via)
		}
	}
	// The interface method: its declaration and g.Get, plus the calls of
	// the methods implementing it (s.Get, c.Get), not their declarations.
	iface := refs(t, e, "a.Getter.Get", query.RefsParams{})
	if got := locs(iface, "precise"); len(got) != 4 || !strings.Contains(strings.Join(got, " "), gGet) {
		t.Errorf("Getter.Get refs %v", got)
	}
}

// A SCIP symbol string names a symbol, and a position resolves through the
// semantic layer (go to definition on a method call syntax cannot type).
func TestSCIPNamesAndPositions(t *testing.T) {
	e := openRepo(t)
	e.importFixture(t, "")
	ctx := context.Background()
	r, err := e.q().Resolve(ctx, "scip-go gomod example.com/fix v0.0.0 `example.com/fix/a`/Store#Get().")
	if err != nil {
		t.Fatal(err)
	}
	if r.Ref().QName != "example.com/fix/a.Store.Get" {
		t.Errorf("SCIP symbol resolved to %s", r.Ref().QName)
	}
	// A SCIP symbol of a version no index has still resolves by its names.
	r, err = e.q().Resolve(ctx, "scip-go gomod example.com/fix v9 `example.com/fix/a`/New().")
	if err != nil || r.Ref().QName != "example.com/fix/a.New" {
		t.Errorf("unknown SCIP symbol: %v %v", r, err)
	}
	// c.Get(...) in b.go is Cache.Get.
	p := pos(t, e.root, "b/b.go", "c.Get", 0, 2)
	var line, col int
	fmt.Sscanf(p[strings.Index(p, ":")+1:], "%d:%d", &line, &col)
	r, err = e.q().At(ctx, e.root, "b/b.go", line, col, false)
	if err != nil {
		t.Fatal(err)
	}
	if r.Ref().QName != "example.com/fix/b.Cache.Get" {
		t.Errorf("at %s: %s", p, r.Ref().QName)
	}
	card, err := e.q().Card(ctx, r, query.CardLimits{Members: 20, Calls: 20})
	if err != nil {
		t.Fatal(err)
	}
	if card.Layer != query.LayerSemantic || card.Tier != "precise" || len(card.SCIPSymbols) != 1 {
		t.Errorf("card layer %s tier %s symbols %v", card.Layer, card.Tier, card.SCIPSymbols)
	}
	var rels []string
	for _, rel := range card.Relations {
		rels = append(rels, rel.Kind+" "+rel.Target+" "+rel.Layer)
	}
	if !strings.Contains(strings.Join(rels, ";"), "implements example.com/fix/a.Getter.Get semantic") {
		t.Errorf("Cache.Get relations %v, want it to implement Getter.Get", rels)
	}
	// Search hits say their layer.
	res, err := e.q().Search(ctx, query.SearchParams{Query: "Store", Mode: "symbol", Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 || res.Hits[0].Layer != query.LayerSemantic || res.Hits[0].Tier != "precise" {
		t.Errorf("search hits %+v", res.Hits)
	}
}

// A file edited after the semantic index answers from syntactic facts, and
// the answer says so; the other files keep their precise references.
func TestChangedFileFallsBackToSyntax(t *testing.T) {
	e := openRepo(t)
	e.importFixture(t, "")
	b := filepath.Join(e.root, "b", "b.go")
	data, _ := os.ReadFile(b)
	if err := os.WriteFile(b, append([]byte("// edited: every line moves down\n"), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	e.reconcile(t)
	res := refs(t, e, "a.Store.Put", query.RefsParams{Anchored: true})
	if res.Semantic.State != "partial" || res.Semantic.FallbackTotal != 1 || res.Semantic.Fallback[0].Path != "b/b.go" ||
		res.Semantic.Fallback[0].Reason != "changed since the semantic index" {
		t.Fatalf("semantic use %+v", res.Semantic)
	}
	for _, l := range res.Locations {
		switch l.Path {
		case "b/b.go":
			if l.Layer != query.LayerSyntactic || l.Tier == "precise" {
				t.Errorf("b/b.go changed but %v is %s/%s", l.Location, l.Layer, l.Tier)
			}
			if want := pos(t, e.root, "b/b.go", "s.Put", 0, 2); fmt.Sprintf("%s:%d:%d", l.Path, l.Line, l.Col) != want {
				t.Errorf("b/b.go location %v, want the current position %s", l.Location, want)
			}
		default:
			if l.Tier != "precise" {
				t.Errorf("%v is %s, want precise", l.Location, l.Tier)
			}
		}
	}
	// A symbol defined in the changed file: its card comes from syntax.
	r, err := e.q().Resolve(context.Background(), "b.Cache")
	if err != nil {
		t.Fatal(err)
	}
	card, err := e.q().Card(context.Background(), r, query.CardLimits{Members: 20, Calls: 20})
	if err != nil {
		t.Fatal(err)
	}
	if card.Layer != query.LayerSyntactic || card.Tier != "proven" {
		t.Errorf("card of a changed file: layer %s tier %s", card.Layer, card.Tier)
	}
	fr, err := e.q().SemanticFreshness(context.Background())
	if err != nil || len(fr) != 1 || fr[0].Changed != 1 || fr[0].Usable != 2 || !fr[0].Stale {
		t.Errorf("freshness %+v %v", fr, err)
	}
}

// HEAD moving past the indexed commit is reported with the commits behind.
func TestHeadMovedIsReported(t *testing.T) {
	e := openRepo(t)
	st, err := e.ix.State(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	e.importFixture(t, st.Head)
	fr, err := e.q().SemanticFreshness(context.Background())
	if err != nil || len(fr) != 1 || fr[0].Stale || fr[0].StaleAgainstHd {
		t.Fatalf("fresh import reported stale: %+v %v", fr, err)
	}
	c := filepath.Join(e.root, "c", "c.go")
	data, _ := os.ReadFile(c)
	os.WriteFile(c, append(data, []byte("\n// more\n")...), 0o644)
	testenv.Git(t, e.root, "commit", "-qam", "edit c")
	testenv.Git(t, e.root, "commit", "-q", "--allow-empty", "-m", "empty")
	e.reconcile(t)
	fr, err = e.q().SemanticFreshness(context.Background())
	if err != nil || len(fr) != 1 {
		t.Fatal(fr, err)
	}
	if !fr[0].StaleAgainstHd || fr[0].CommitsBehind != 2 || fr[0].Changed != 1 || !strings.Contains(fr[0].Warning, "2 commits behind HEAD") {
		t.Errorf("freshness after two commits: %+v", fr[0])
	}
	res := refs(t, e, "a.New", query.RefsParams{})
	for _, l := range res.Locations {
		if l.Path == "c/c.go" && l.Layer == query.LayerSemantic {
			t.Errorf("c/c.go changed at HEAD but answered from the semantic layer: %v", l.Location)
		}
	}
}

// Importing the same index again replaces it.
func TestReimportReplaces(t *testing.T) {
	e := openRepo(t)
	e.importFixture(t, "")
	first, err := e.db().SemCounts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	e.importFixture(t, "")
	second, _ := e.db().SemCounts(context.Background())
	if fmt.Sprint(first) != fmt.Sprint(second) || first["sem_index"] != 1 {
		t.Errorf("counts after the first import %v, after the second %v", first, second)
	}
}

// The union merge lists both layers and where they disagree.
func TestUnionMerge(t *testing.T) {
	e := openRepo(t)
	e.importFixture(t, "")
	res := refs(t, e, "a.Store.Get", query.RefsParams{Merge: query.MergeUnion, Anchored: true})
	// s.Get (strong: s := a.New()) and g.Get (anchored, via the interface
	// method) are found by both layers; c.Get links to Cache.Get, so nothing
	// is syntactic only.
	var both, synOnly int
	for _, l := range res.Locations {
		switch {
		case l.Layer == query.LayerSemantic && (l.Also == "anchored" || l.Also == "strong"):
			both++
		case l.Layer == query.LayerSyntactic:
			synOnly++
		}
	}
	if both != 2 || synOnly != 0 {
		t.Errorf("union: %d found by both, %d syntactic only; want 2 (s.Get, g.Get) and 0: %+v", both, synOnly, res.Locations)
	}
}
