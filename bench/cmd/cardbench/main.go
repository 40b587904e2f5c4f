// Command cardbench measures the spec cards on a generated repository: 500
// cards, 2,000 Go files and 10,000 code entities, with typed relations
// between the cards and @see links from the code. It times the full build
// (and the card derivation inside it), card_get, card_search, card_subgraph
// (2 hops), card_impact (depth 3) through the tool registry, and one-file
// incremental updates of a code file and of a card file, then writes its
// section of bench/RESULTS.md.
//
//	go run ./bench/cmd/cardbench [-dir DIR] [-results bench/RESULTS.md]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/tools"
)

const (
	packages     = 100
	filesPerPkg  = 20
	funcsPerFile = 5
	areas        = 10
	cardsPerArea = 50
	nKeywords    = 20
	nTags        = 10
)

func main() {
	dir := flag.String("dir", "", "where to generate the repository (default: a temporary directory)")
	results := flag.String("results", "", "write the section of this markdown file")
	runs := flag.Int("runs", 200, "runs per query")
	flag.Parse()
	if p := os.Getenv("CAIRN_CPUPROFILE"); p != "" {
		f, err := os.Create(p)
		if err == nil {
			pprof.StartCPUProfile(f)
			defer pprof.StopCPUProfile()
		}
	}
	if err := run(*dir, *results, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "cardbench:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

func cardKey(i int) string { return fmt.Sprintf("area%d/card%03d", i/cardsPerArea, i%cardsPerArea) }

// generate writes the repository and returns how many @see links it holds.
func generate(root string) (int, error) {
	write := func(p, s string) error {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		return os.WriteFile(full, []byte(s), 0o644)
	}
	if err := write("go.mod", "module example.com/bench\n\ngo 1.22\n"); err != nil {
		return 0, err
	}
	rng := rand.New(rand.NewSource(1))
	var kw, tg strings.Builder
	kw.WriteString("keywords:\n")
	for i := range nKeywords {
		fmt.Fprintf(&kw, "  term%02d: keyword %d\n", i, i)
	}
	tg.WriteString("tags:\n")
	for i := range nTags {
		fmt.Fprintf(&tg, "  group%d: \"\"\n", i)
	}
	if err := write(".cairn/cards/keywords.yaml", kw.String()); err != nil {
		return 0, err
	}
	if err := write(".cairn/cards/tags.yaml", tg.String()); err != nil {
		return 0, err
	}
	nCards := areas * cardsPerArea
	statuses := []string{"draft", "accepted", "implementing", "implemented", "implemented"}
	for i := range nCards {
		var b strings.Builder
		fmt.Fprintf(&b, "---\nkey: %s\nsummary: Requirement %d of area %d\nstatus: %s\n", cardKey(i), i, i/cardsPerArea, statuses[i%len(statuses)])
		fmt.Fprintf(&b, "tags:\n  - group%d\nkeywords:\n  - term%02d\n  - term%02d\n", i%nTags, i%nKeywords, (i*7+3)%nKeywords)
		if i > 0 {
			b.WriteString("relations:\n")
			for _, t := range []int{rng.Intn(i), rng.Intn(i)} {
				fmt.Fprintf(&b, "  - type: depends-on\n    target: %s\n", cardKey(t))
			}
			fmt.Fprintf(&b, "  - type: related\n    target: %s\n", cardKey(rng.Intn(nCards)))
		}
		fmt.Fprintf(&b, "---\nThe system shall handle case %d: widget%04d flows through stage %d and is audited.\n", i, i, i%13)
		if err := write(".cairn/cards/"+cardKey(i)+".card.md", b.String()); err != nil {
			return 0, err
		}
	}
	links := 0
	for p := range packages {
		for f := range filesPerPkg {
			var b strings.Builder
			next := (p + 1) % packages
			fmt.Fprintf(&b, "package pkg%03d\n\nimport \"example.com/bench/pkg%03d\"\n\n", p, next)
			n := p*filesPerPkg + f
			if n%10 == 0 {
				fmt.Fprintf(&b, "// @see %s\nvar _ = 0\n\n", cardKey((n*3)%nCards))
				links++
			}
			for k := range funcsPerFile {
				id := n*funcsPerFile + k
				fmt.Fprintf(&b, "// F%d_%d is function %d.\n", f, k, id)
				if k == 0 || k == 3 {
					fmt.Fprintf(&b, "// @see %s\n", cardKey(id%nCards))
					links++
				}
				fmt.Fprintf(&b, "func F%d_%d() int {\n", f, k)
				if k+1 < funcsPerFile {
					fmt.Fprintf(&b, "\treturn F%d_%d() + pkg%03d.F%d_%d()\n}\n\n", f, k+1, next, f, k)
				} else {
					fmt.Fprintf(&b, "\treturn pkg%03d.F%d_%d()\n}\n\n", next, f, 0)
				}
			}
			if err := write(fmt.Sprintf("pkg%03d/f%02d.go", p, f), b.String()); err != nil {
				return 0, err
			}
		}
	}
	return links, nil
}

type stat struct{ p50, p95, max float64 }

func summarize(ds []time.Duration) stat {
	ms := make([]float64, len(ds))
	for i, d := range ds {
		ms[i] = float64(d.Microseconds()) / 1000
	}
	sort.Float64s(ms)
	at := func(q float64) float64 { return ms[min(len(ms)-1, int(q*float64(len(ms))))] }
	return stat{at(0.5), at(0.95), ms[len(ms)-1]}
}

func run(dir, results string, runs int) error {
	ctx := context.Background()
	if dir == "" {
		d, err := os.MkdirTemp("", "cardbench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	root := filepath.Join(dir, "repo")
	os.RemoveAll(root)
	links, err := generate(root)
	if err != nil {
		return err
	}
	paths, err := config.Locate(ctx, root, filepath.Join(dir, "state"))
	if err != nil {
		return err
	}
	os.RemoveAll(paths.StateDir)
	if err := os.MkdirAll(paths.StateDir, 0o755); err != nil {
		return err
	}
	svc, err := service.Open(ctx, paths, config.Default(), service.Options{})
	if err != nil {
		return err
	}
	defer svc.Close()
	ix := svc.Env().Index
	t0 := time.Now()
	first, err := ix.Reconcile(ctx, index.ReconcileOptions{Full: true})
	if err != nil {
		return err
	}
	firstBuild := time.Since(t0)
	var rebuilds, derives []time.Duration
	for range 3 {
		t0 := time.Now()
		st, err := ix.Reconcile(ctx, index.ReconcileOptions{Full: true})
		if err != nil {
			return err
		}
		rebuilds = append(rebuilds, time.Since(t0))
		derives = append(derives, time.Duration(st.TimingMS["derive"])*time.Millisecond)
	}
	// Queries as a server answers them: the index is current, so no call
	// rescans the tree first.
	env := *svc.Env()
	env.Fresh = nil
	invoke := func(tool string, args map[string]any) (time.Duration, error) {
		raw, _ := json.Marshal(args)
		t0 := time.Now()
		e := tools.Invoke(ctx, &env, tool, raw)
		d := time.Since(t0)
		if e.Error != nil {
			return d, fmt.Errorf("%s %s: %s", tool, raw, e.Error.Message)
		}
		return d, nil
	}
	rng := rand.New(rand.NewSource(2))
	nCards := areas * cardsPerArea
	if _, err := invoke("card_get", map[string]any{"key": cardKey(0)}); err != nil { // the epoch's model
		return err
	}
	queries := []struct {
		name string
		tool string
		args func() map[string]any
	}{
		{"card_get", "card_get", func() map[string]any { return map[string]any{"key": cardKey(rng.Intn(nCards))} }},
		{"card_search (cards and code)", "card_search", func() map[string]any {
			return map[string]any{"query": fmt.Sprintf("widget%04d audited", rng.Intn(nCards))}
		}},
		{"card_subgraph (2 hops)", "card_subgraph", func() map[string]any {
			return map[string]any{"key": cardKey(rng.Intn(nCards)), "depth": 2}
		}},
		{"card_impact (depth 3)", "card_impact", func() map[string]any {
			return map[string]any{"key": cardKey(rng.Intn(nCards)), "depth": 3}
		}},
		{"card_verify (all rules)", "card_verify", func() map[string]any { return map[string]any{} }},
	}
	type row struct {
		name   string
		target string
		s      stat
	}
	targets := map[string]string{"card_get": "< 20 ms", "card_search (cards and code)": "< 30 ms", "card_subgraph (2 hops)": "< 50 ms",
		"card_impact (depth 3)": "< 100 ms", "card_verify (all rules)": "—"}
	var rows []row
	for _, q := range queries {
		var ds []time.Duration
		n := runs
		if q.tool == "card_verify" {
			n = 20
		}
		for range n {
			d, err := invoke(q.tool, q.args())
			if err != nil {
				return err
			}
			ds = append(ds, d)
		}
		rows = append(rows, row{q.name, targets[q.name], summarize(ds)})
	}
	// One-file incremental updates: the reconcile of one changed path (what
	// the watcher runs), then the first card_get of the new epoch, which
	// loads its card model.
	incr := func(p string, edit func(i int) string) (stat, stat, error) {
		var rec, read []time.Duration
		for i := range 21 {
			if err := os.WriteFile(filepath.Join(root, p), []byte(edit(i)), 0o644); err != nil {
				return stat{}, stat{}, err
			}
			t0 := time.Now()
			if _, err := ix.ReconcilePaths(ctx, []string{p}, index.ReconcileOptions{}); err != nil {
				return stat{}, stat{}, err
			}
			rec = append(rec, time.Since(t0))
			d, err := invoke("card_get", map[string]any{"key": cardKey(i)})
			if err != nil {
				return stat{}, stat{}, err
			}
			read = append(read, time.Since(t0))
			_ = d
		}
		return summarize(rec), summarize(read), nil
	}
	codePath := "pkg042/f07.go"
	codeRec, codeRead, err := incr(codePath, func(i int) string {
		return fmt.Sprintf("package pkg042\n\n// @see %s\nfunc Changed%d() int { return %d }\n", cardKey(i), i, i)
	})
	if err != nil {
		return err
	}
	cardPath := ".cairn/cards/" + cardKey(7) + ".card.md"
	cardRec, cardRead, err := incr(cardPath, func(i int) string {
		return fmt.Sprintf("---\nkey: %s\nsummary: Edited %d\nstatus: draft\nrelations:\n  - type: depends-on\n    target: %s\n---\nEdited body %d.\n", cardKey(7), i, cardKey(i), i)
	})
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("<!-- cards:begin -->\n## Spec cards (in-process, `go run ./bench/cmd/cardbench`)\n\n")
	fmt.Fprintf(&b, "Generated repository: %d cards (2 depends-on and 1 related relation each, 2 keywords, 1 tag), %d Go files in %d packages, %d functions (%d symbols indexed, calls within files and across packages, one import per file), %d @see links. Machine: %d cores, %s; %s.\n\n",
		nCards, packages*filesPerPkg, packages, packages*filesPerPkg*funcsPerFile, first.Symbols, links, runtime.NumCPU(), runtime.Version(), time.Now().UTC().Format("2006-01-02"))
	rb, dv := summarize(rebuilds), summarize(derives)
	b.WriteString("| operation | target | p50 | p95 | max |\n|---|---:|---:|---:|---:|\n")
	fmt.Fprintf(&b, "| full build, first (parse %d files, index, derive cards) | < 10 s | %.0f ms | | |\n", first.Files, float64(firstBuild.Milliseconds()))
	fmt.Fprintf(&b, "| full rebuild (content already in the blob store; 3 runs) | < 10 s | %.0f ms | | %.0f ms |\n", rb.p50, rb.max)
	fmt.Fprintf(&b, "| of which the card derivation (cards, relations, registries, links) | | %.0f ms | | %.0f ms |\n", dv.p50, dv.max)
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s (%d runs) | %s | %.2f ms | %.2f ms | %.2f ms |\n", r.name, runs, r.target, r.s.p50, r.s.p95, r.s.max)
	}
	fmt.Fprintf(&b, "| one code file changed: reconcile (21 runs) | < 200 ms | %.1f ms | %.1f ms | %.1f ms |\n", codeRec.p50, codeRec.p95, codeRec.max)
	fmt.Fprintf(&b, "| one code file changed: reconcile + first card_get of the epoch | < 200 ms | %.1f ms | %.1f ms | %.1f ms |\n", codeRead.p50, codeRead.p95, codeRead.max)
	fmt.Fprintf(&b, "| one card file changed: reconcile (21 runs) | < 200 ms | %.1f ms | %.1f ms | %.1f ms |\n", cardRec.p50, cardRec.p95, cardRec.max)
	fmt.Fprintf(&b, "| one card file changed: reconcile + first card_get of the epoch | < 200 ms | %.1f ms | %.1f ms | %.1f ms |\n", cardRead.p50, cardRead.p95, cardRead.max)
	b.WriteString("\nQueries run through the tool registry (`tools.Invoke`: argument decoding, the snapshot, the envelope) as a server answers them, without the per-call rescan of a one-shot command; the first query of an epoch loads the card model (included in the incremental rows). card_verify runs 20 times.\n<!-- cards:end -->\n")
	fmt.Print(b.String())
	if results == "" {
		return nil
	}
	old, _ := os.ReadFile(results)
	s := string(old)
	if i, j := strings.Index(s, "<!-- cards:begin -->"), strings.Index(s, "<!-- cards:end -->"); i >= 0 && j > i {
		s = s[:i] + b.String() + strings.TrimPrefix(s[j+len("<!-- cards:end -->"):], "\n")
	} else {
		s = strings.TrimRight(s, "\n") + "\n\n" + b.String()
	}
	return os.WriteFile(results, []byte(s), 0o644)
}
