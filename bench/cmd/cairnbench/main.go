// Command cairnbench measures Cairn in-process on a corpus: query latencies over
// a fixed query set, incremental update times, and generates query sets. The
// shell driver bench/run.sh adds the anchors (ctags, cat, rg) and whole-process
// timings and writes bench/RESULTS.md.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"github.com/cairnhq/cairn/internal/change"
	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/index"
	_ "github.com/cairnhq/cairn/internal/lang/all"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
	"github.com/cairnhq/cairn/internal/tools"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: cairnbench genset|queries|lexical|clisearch|incremental|impact|graph|rename [flags]")
		os.Exit(2)
	}
	cmd, args := os.Args[1], os.Args[2:]
	fs := flag.NewFlagSet(cmd, flag.ExitOnError)
	repo := fs.String("repo", "", "corpus directory")
	state := fs.String("state", "", "state directory")
	set := fs.String("set", "", "query set file")
	n := fs.Int("n", 1000, "queries")
	files := fs.String("files", "", "incremental: comma-separated repo paths to edit; impact: the one file to edit before timing the first call of an epoch")
	rounds := fs.Int("rounds", 11, "incremental: rounds per file")
	name := fs.String("name", "", "run: corpus name")
	cairn := fs.String("cairn", "bin/cairn", "run: the cairn binary; clisearch: one or more, separated by commas")
	out := fs.String("out", "bench/out", "run/report: output directory")
	lexSet := fs.String("lexical", "", "run: lexical query set")
	results := fs.String("results", "bench/RESULTS.md", "report: markdown file to write")
	light := fs.Bool("light", false, "run: index only (language corpora)")
	scipPath := fs.String("scip", "", "semantic-import: the .scip file")
	impactResults := fs.String("impact-results", "", "impact: write the impact section of this markdown file")
	graphResults := fs.String("graph-results", "", "graph: write the call graph section of this markdown file")
	symbol := fs.String("symbol", "", "rename: the symbol to rename")
	newName := fs.String("new", "", "rename: its new name")
	serve := fs.Bool("serve", false, "rename: open the repository as a server does (background index, file watcher)")
	query := fs.String("query", "", "clisearch: the literal to search for")
	limit := fs.Int("limit", 20, "clisearch: results asked for, and ripgrep's lines")
	dump := fs.String("dump", "", "queries: write each name's references (JSON lines) to this file, to compare two builds; tiers: write each unresolved reference (path:line:col name, then its line) to this file")
	fs.Parse(args)
	ctx := context.Background()
	if p := os.Getenv("CAIRN_CPUPROFILE"); p != "" {
		f, _ := os.Create(p)
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	if p := os.Getenv("CAIRN_MEMPROFILE"); p != "" { // allocations of the whole run (go tool pprof -sample_index=alloc_space)
		defer func() {
			if f, err := os.Create(p); err == nil {
				pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
		}()
	}
	var err error
	switch cmd {
	case "genset":
		err = genset(ctx, *repo, *state, *n, *set)
	case "queries":
		err = queries(ctx, *repo, *state, *set, *dump)
	case "lexical":
		err = lexicalBench(ctx, *repo, *state, *set)
	case "clisearch":
		err = cliSearch(ctx, *repo, *state, *query, *limit, *rounds, buildList(*cairn))
	case "run":
		self, _ := os.Executable()
		os.MkdirAll(*out, 0o755)
		err = runCorpus(ctx, *name, *repo, *cairn, self, *out, *set, *lexSet, *files, *light)
	case "report":
		err = report(*out, *results)
	case "tiers":
		err = tiers(ctx, *repo, *state, *dump)
	case "constructors":
		err = constructors(ctx, *repo, *state)
	case "semantic-import":
		err = semanticImport(ctx, *repo, *state, *scipPath)
	case "incremental":
		err = incremental(ctx, *repo, *state, strings.Split(*files, ","), *rounds)
	case "impact":
		err = impactBench(ctx, *name, *repo, *state, *n, *rounds, *impactResults, *files)
	case "rename":
		err = renameBench(ctx, *repo, *state, *symbol, *newName, *rounds, *serve, os.Getenv("CAIRN_CPUPROFILE_RENAME"))
	case "graph":
		err = graphBench(ctx, *name, *repo, *state, *n, *rounds, *graphResults)
	default:
		err = fmt.Errorf("unknown command %s", cmd)
	}
	if err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "cairnbench:", err)
		os.Exit(1)
	}
}

func open(ctx context.Context, repo, state string) (*index.Index, error) {
	p, err := config.Locate(ctx, repo, state)
	if err != nil {
		return nil, err
	}
	return index.Open(ctx, p, config.Default())
}

// openCurrent opens the index and brings it up to date with the files.
func openCurrent(ctx context.Context, repo, state string) (*index.Index, error) {
	ix, err := open(ctx, repo, state)
	if err != nil {
		return nil, err
	}
	if _, err := ix.Reconcile(ctx, index.ReconcileOptions{}); err != nil {
		ix.Close()
		return nil, err
	}
	return ix, nil
}

// readIndex runs fn on the index brought up to date, holding its store.
func readIndex(ctx context.Context, repo, state string, fn func(ix *index.Index, db *store.DB) error) error {
	ix, err := openCurrent(ctx, repo, state)
	if err != nil {
		return err
	}
	defer ix.Close()
	db, release := ix.Acquire()
	defer release()
	return fn(ix, db)
}

// genset samples n symbol names deterministically (by hash of the name) and
// writes one per line: the query set the latency benchmarks replay.
func genset(ctx context.Context, repo, state string, n int, out string) error {
	return readIndex(ctx, repo, state, func(_ *index.Index, db *store.DB) error { return sampleNames(ctx, db, n, out) })
}

// sampleNames writes genset's query set from the symbols of db.
func sampleNames(ctx context.Context, db *store.DB, n int, out string) error {
	syms, err := db.AllSymbols(ctx)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	type cand struct {
		name string
		h    uint64
	}
	var cands []cand
	for _, s := range syms {
		if len(s.Name) < 4 || seen[s.Name] {
			continue
		}
		seen[s.Name] = true
		h := fnv.New64a()
		h.Write([]byte(s.Name))
		cands = append(cands, cand{s.Name, h.Sum64()})
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].h < cands[j].h })
	if len(cands) > n {
		cands = cands[:n]
	}
	var b strings.Builder
	for _, c := range cands {
		b.WriteString(c.name + "\n")
	}
	return os.WriteFile(out, []byte(b.String()), 0o644)
}

func readSet(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if t := strings.TrimSpace(sc.Text()); t != "" && !strings.HasPrefix(t, "#") {
			out = append(out, t)
		}
	}
	return out, sc.Err()
}

// Percentiles of a latency sample, in milliseconds.
type Percentiles struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50_ms"`
	P90 float64 `json:"p90_ms"`
	P99 float64 `json:"p99_ms"`
	Max float64 `json:"max_ms"`
}

func percentiles(ds []time.Duration) Percentiles {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	at := func(q float64) float64 {
		if len(ds) == 0 {
			return 0
		}
		i := int(q * float64(len(ds)-1))
		return float64(ds[i].Microseconds()) / 1000
	}
	return Percentiles{N: len(ds), P50: at(0.5), P90: at(0.9), P99: at(0.99), Max: at(1)}
}

// queries replays the set through symbol search, symbol lookup (resolve +
// card) and references, warm, in-process.
func queries(ctx context.Context, repo, state, set, dump string) error {
	names, err := readSet(set)
	if err != nil {
		return err
	}
	ix, err := openCurrent(ctx, repo, state)
	if err != nil {
		return err
	}
	defer ix.Close()
	// One snapshot for the run: the timings are of the queries alone.
	e, release, err := query.New(ix).Snapshot(ctx)
	if err != nil {
		return err
	}
	defer release()
	var search, lookup, refs, refsCPU []time.Duration
	ambiguous := 0
	runtime.LockOSThread() // threadCPU measures this goroutine's thread
	defer runtime.UnlockOSThread()
	for _, name := range names { // warm caches once
		e.Search(ctx, query.SearchParams{Query: name, Mode: "symbol", Limit: 20})
	}
	var dumped *json.Encoder
	if dump != "" {
		f, err := os.Create(dump)
		if err != nil {
			return err
		}
		defer f.Close()
		dumped = json.NewEncoder(f)
	}
	for _, name := range names {
		t := time.Now()
		if _, err := e.Search(ctx, query.SearchParams{Query: name, Mode: "symbol", Limit: 20}); err != nil {
			return err
		}
		search = append(search, time.Since(t))

		t = time.Now()
		r, err := e.Resolve(ctx, name)
		if err == nil {
			_, err = e.Card(ctx, r, query.CardLimits{Members: 20, Calls: 20})
		} else {
			ambiguous++ // ambiguous or not found: the lookup still answered (with candidates)
		}
		lookup = append(lookup, time.Since(t))
		if r == nil {
			continue
		}
		t, c := time.Now(), threadCPU()
		var res *query.RefsResult
		pprof.Do(ctx, pprof.Labels("op", "refs"), func(ctx context.Context) { // the profile's refs samples
			res, err = e.Refs(ctx, r, query.RefsParams{Limit: 50})
		})
		if err != nil {
			return err
		}
		refs = append(refs, time.Since(t))
		refsCPU = append(refsCPU, threadCPU()-c)
		if dumped != nil {
			dumped.Encode(map[string]any{"name": name, "refs": res})
			if os.Getenv("CAIRN_BENCH_VERBOSE") != "" {
				fmt.Fprintf(os.Stderr, "%s\t%.2f\t%d\n", name, float64(refs[len(refs)-1].Microseconds())/1000, res.Summary.Total+res.AnchoredTotal)
			}
		}
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]any{
		"symbol_search": percentiles(search), "symbol_lookup": percentiles(lookup), "refs": percentiles(refs), "refs_cpu": percentiles(refsCPU),
		"lookups_ambiguous_or_missing": ambiguous,
	})
}

// pageSize is the result count of the in-process lexical comparison: the
// first page of a search.
const pageSize = 20

// lexicalBench times literal and regex searches from a set of lines
// "literal<TAB>TEXT" or "regex<TAB>EXPR"; each query runs 5 times (first is
// warm-up), and so does the in-process anchor on the same files for the same
// result count: the standard library scanning the indexed files from disk
// until it has the first page's count of matches.
func lexicalBench(ctx context.Context, repo, state, set string) error {
	lines, err := readSet(set)
	if err != nil {
		return err
	}
	ix, err := open(ctx, repo, state)
	if err != nil {
		return err
	}
	defer ix.Close()
	// One snapshot for the run: the timings are of the queries alone.
	e, release, err := query.New(ix).Snapshot(ctx)
	if err != nil {
		return err
	}
	defer release()
	files, _, err := indexedFiles(ctx, repo, state)
	if err != nil {
		return err
	}
	anchor := scanAnchor{root: repo, files: files}
	runtime.LockOSThread() // threadCPU measures this goroutine's thread
	defer runtime.UnlockOSThread()
	out := map[string][]time.Duration{}
	perQuery := map[string]any{}
	var mismatches []string
	for _, l := range lines {
		kind, text, _ := strings.Cut(l, "\t")
		p := query.SearchParams{Query: text, Regex: kind == "regex", Limit: pageSize}
		var ours, theirs []time.Duration
		hits, found := 0, 0
		for i := 0; i < 5; i++ {
			t, cpu := time.Now(), threadCPU()
			var r *query.SearchResult
			pprof.Do(ctx, pprof.Labels("op", kind), func(ctx context.Context) { // the profile's samples of this kind
				r, err = e.Search(ctx, p)
			})
			if err != nil {
				return fmt.Errorf("%s: %w", l, err)
			}
			d := time.Since(t)
			if i > 0 {
				out[kind+"_cpu"] = append(out[kind+"_cpu"], threadCPU()-cpu)
			}
			t = time.Now()
			n, err := anchor.first(kind, text, pageSize)
			if err != nil {
				return fmt.Errorf("%s: anchor: %w", l, err)
			}
			if i > 0 {
				ours, theirs = append(ours, d), append(theirs, time.Since(t))
			}
			hits, found = len(r.Hits), n
		}
		if hits != found {
			mismatches = append(mismatches, fmt.Sprintf("%s: cairn %d, scan %d", l, hits, found))
		}
		out[kind] = append(out[kind], ours...)
		out["scan_"+kind] = append(out["scan_"+kind], theirs...)
		perQuery[l] = map[string]any{"cairn_p50_ms": percentiles(ours).P50, "scan_p50_ms": percentiles(theirs).P50, "results": hits}
	}
	res := map[string]any{"per_query": perQuery, "page": pageSize, "count_mismatches": mismatches}
	for k, v := range out {
		res[k] = percentiles(v)
	}
	return json.NewEncoder(os.Stdout).Encode(res)
}

// incremental edits each file (appends a comment line, then a new function),
// reconciles in-process, and restores it; reports per-file medians.
func incremental(ctx context.Context, repo, state string, files []string, rounds int) error {
	ix, err := openCurrent(ctx, repo, state)
	if err != nil {
		return err
	}
	defer ix.Close()
	if p := os.Getenv("CAIRN_CPUPROFILE_INCR"); p != "" { // profile the rounds only
		pf, _ := os.Create(p)
		pprof.StartCPUProfile(pf)
		defer pprof.StopCPUProfile()
	}
	res := map[string]any{}
	for _, f := range files {
		full := filepath.Join(repo, f)
		orig, err := os.ReadFile(full)
		if err != nil {
			return err
		}
		var body, api, scanned []time.Duration
		for i := 0; i < rounds; i++ {
			// a body-only edit, as a watcher reports it: no symbol appears or disappears
			os.WriteFile(full, append(append([]byte{}, orig...), []byte(fmt.Sprintf("\n// edit %d %d\n", i, time.Now().UnixNano()))...), 0o644)
			t := time.Now()
			st, err := ix.ReconcilePaths(ctx, []string{f}, index.ReconcileOptions{})
			if err != nil {
				return err
			}
			body = append(body, time.Since(t))
			if os.Getenv("CAIRN_BENCH_VERBOSE") != "" {
				fmt.Fprintln(os.Stderr, f, st.TimingMS)
			}
			// an API edit: a new exported function appears
			os.WriteFile(full, append(append([]byte{}, orig...), []byte(fmt.Sprintf("\nfunc CairnBenchAdded%d() {}\n// %d\n", i, time.Now().UnixNano()))...), 0o644)
			t = time.Now()
			if _, err := ix.ReconcilePaths(ctx, []string{f}, index.ReconcileOptions{}); err != nil {
				return err
			}
			api = append(api, time.Since(t))
			// the same body edit found by a stat scan of the whole tree (what a
			// CLI call without a running server pays)
			os.WriteFile(full, append(append([]byte{}, orig...), []byte(fmt.Sprintf("\n// scan %d %d\n", i, time.Now().UnixNano()))...), 0o644)
			t = time.Now()
			if _, err := ix.Reconcile(ctx, index.ReconcileOptions{}); err != nil {
				return err
			}
			scanned = append(scanned, time.Since(t))
		}
		os.WriteFile(full, orig, 0o644)
		if _, err := ix.Reconcile(ctx, index.ReconcileOptions{}); err != nil {
			return err
		}
		res[f] = map[string]any{"body_edit": percentiles(body), "new_symbol": percentiles(api), "full_scan": percentiles(scanned)}
	}
	return json.NewEncoder(os.Stdout).Encode(res)
}

// toolEnv is what the tool registry needs to answer on an open index, as a
// server would with the default configuration.
func toolEnv(ix *index.Index) *tools.Env {
	return &tools.Env{Index: ix, Engine: query.New(ix), Changes: change.NewCache(), Config: config.Default(), Paths: ix.Paths()}
}
