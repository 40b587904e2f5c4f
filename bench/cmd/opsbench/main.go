// Command opsbench measures what the operational layer (task accounting,
// metrics, the ledger, the call log) adds to a tool call: the same calls
// through the registry with and without a Monitor, in interleaved rounds
// so that drift of a shared machine hits both sides alike. It writes its
// section of bench/RESULTS.md.
//
//	go run ./bench/cmd/opsbench -results bench/RESULTS.md
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	resultsmd "github.com/cairnhq/cairn/bench/results"
	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/obs"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/task"
	"github.com/cairnhq/cairn/internal/tools"
)

func main() {
	rounds := flag.Int("rounds", 41, "interleaved rounds")
	perRound := flag.Int("n", 200, "calls per side per round")
	results := flag.String("results", "", "RESULTS.md to update (empty: print only)")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the rounds here")
	flag.Parse()
	ctx := context.Background()
	work, err := os.MkdirTemp("", "opsbench-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(work)
	repo := filepath.Join(work, "repo")
	makeRepo(repo)
	paths, err := config.Locate(ctx, repo, filepath.Join(work, "state"))
	if err != nil {
		log.Fatal(err)
	}
	cfg := config.Default()
	// Serve: true runs the watcher, so a call's freshness check is what a
	// server does; the Monitor of B is made by hand below.
	svc, err := service.Open(ctx, paths, cfg, service.Options{Serve: true})
	if err != nil {
		log.Fatal(err)
	}
	defer svc.Close()
	envA := *svc.Env()
	envA.Ops = nil
	// The Monitor's cost on a computed answer (cachebench measures the caches).
	envA.Answers = nil
	logf, _ := os.Create(filepath.Join(work, "calls.log"))
	defer logf.Close()
	logger := slog.New(slog.NewJSONHandler(logf, nil))
	m, warnings := obs.Open(ctx, obs.Options{StateDir: filepath.Join(work, "opsstate"), Logger: logger,
		TaskDefaults: task.Limits{MaxMutations: 10, MaxTestRuns: 10, MaxReadBytes: 1 << 20, MaxDurationS: 3600}})
	defer m.Close()
	if m.Ledger() == nil {
		log.Fatalf("no ledger: %v", warnings)
	}
	envB := envA
	envB.Ops = m
	cctx := obs.WithClient(ctx, obs.Client{ID: "bench", Transport: "stdio", Session: true})
	if _, err := m.OpenTask(cctx, m.Tasks().Defaults(), "", 0); err != nil {
		log.Fatal(err)
	}
	for i := 0; i < 50; i++ { // the first index, then warm caches
		if env := tools.Invoke(cctx, &envA, "search", json.RawMessage(`{"query":"Handler"}`)); env.Error != nil && i == 49 {
			log.Fatalf("search: %s", env.Error.Message)
		}
	}
	calls := []struct{ tool, args string }{
		{"reset_budget", `{}`},
		{"search", `{"query":"Route","limit":5}`},
	}
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			log.Fatal(err)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	var rows []string
	for _, c := range calls {
		var diffs, as, bs []float64
		for r := 0; r < *rounds; r++ {
			a, b := 0.0, 0.0
			if r%2 == 0 {
				a = batch(cctx, &envA, c.tool, c.args, *perRound)
				b = batch(cctx, &envB, c.tool, c.args, *perRound)
			} else {
				b = batch(cctx, &envB, c.tool, c.args, *perRound)
				a = batch(cctx, &envA, c.tool, c.args, *perRound)
			}
			as, bs, diffs = append(as, a), append(bs, b), append(diffs, b-a)
		}
		d := median(diffs)
		lo, hi := quantile(diffs, 0.25), quantile(diffs, 0.75)
		rows = append(rows, fmt.Sprintf("| `%s` | %.3f ms | %.3f ms | **%+.3f ms** | %+.3f … %+.3f ms |", c.tool, median(as), median(bs), d, lo, hi))
		fmt.Fprintf(os.Stderr, "%s: without %.4f ms, with %.4f ms, added %+.4f ms (IQR %+.4f … %+.4f)\n", c.tool, median(as), median(bs), d, lo, hi)
	}
	// What reading the numbers costs: one /metrics scrape (the registry
	// gathered and encoded) and one dashboard read, each made about once a
	// second, not per call.
	scrape, dash := readCosts(m, 51)
	fmt.Fprintf(os.Stderr, "scrape %.3f ms, dashboard read %.3f ms\n", scrape, dash)
	m.Ledger().Flush()
	tot, _ := m.Ledger().Totals(ctx)
	dropped := m.Ledger().Dropped()
	section := fmt.Sprintf(`<!-- ops:begin -->
## Operational overhead per call (`+"`make opsbench`"+`)

What task accounting, Prometheus metrics, the ledger and the call log add to a tool call: the same call through the registry with and without the Monitor, in %d interleaved rounds of %d calls per side (the order alternates each round), in one process on a small generated repository, inside an open task (the costliest case: every call updates the task's counters and meta). The figure is the median over rounds of (with − without), per call; the interquartile range shows the noise of the shared machine. Target: at most 0.1 ms. Machine: %d cores, %s; %s.

| tool | without | with | added | IQR of added |
|---|---:|---:|---:|---:|
%s

Reading the numbers is paid per read, not per call: after the run, one `+"`/metrics`"+` scrape (gather and encode) takes %.3f ms and one read of the dashboard's data (`+"`/api/v1/dashboard`"+`, without the status it embeds) %.3f ms, medians of 51; the dashboard page reads once a second.

The ledger recorded %d operations in the run (%d dropped: its writer batches them in the background, so a call never waits for SQLite).
<!-- ops:end -->
`, *rounds, *perRound, runtime.NumCPU(), runtime.Version(), time.Now().UTC().Format("2006-01-02"), strings.Join(rows, "\n"), scrape, dash, tot.Operations, dropped)
	if *results == "" {
		fmt.Print(section)
		return
	}
	if err := resultsmd.Replace(*results, "ops", section); err != nil {
		log.Fatal(err)
	}

}

// readCosts times n /metrics scrapes and n dashboard reads; medians in ms.
func readCosts(m *obs.Monitor, n int) (scrape, dash float64) {
	var ss, ds []float64
	for i := 0; i < n; i++ {
		t0 := time.Now()
		rec := httptest.NewRecorder()
		m.Metrics().Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
		if rec.Code != 200 {
			log.Fatalf("/metrics: %d", rec.Code)
		}
		t1 := time.Now()
		b, err := json.Marshal(m.Dashboard(obs.OpFilter{}))
		if err != nil || len(b) == 0 {
			log.Fatalf("dashboard: %v", err)
		}
		ss, ds = append(ss, ms(t1.Sub(t0))), append(ds, ms(time.Since(t1)))
	}
	return median(ss), median(ds)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// batch runs n calls and returns the mean per call in ms.
func batch(ctx context.Context, env *tools.Env, tool, args string, n int) float64 {
	start := time.Now()
	for i := 0; i < n; i++ {
		if e := tools.Invoke(ctx, env, tool, json.RawMessage(args)); e.Error != nil {
			log.Fatalf("%s: %s", tool, e.Error.Message)
		}
	}
	return float64(time.Since(start).Microseconds()) / 1000 / float64(n)
}

func median(xs []float64) float64 { return quantile(xs, 0.5) }

func quantile(xs []float64, q float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[int(q*float64(len(s)-1))]
}

// makeRepo writes a small Go module into dir and commits it.
func makeRepo(dir string) {
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/bench\n\ngo 1.22\n"), 0o644)
	for i := 0; i < 20; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "package routes\n\n")
		for j := 0; j < 40; j++ {
			fmt.Fprintf(&b, "// Handler%d_%d serves a Route.\nfunc Handler%d_%d(c Config) Route { return Route{Path: %q} }\n\n", i, j, i, j, fmt.Sprint(i, "/", j))
		}
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("r%02d.go", i)), []byte(b.String()), 0o644)
	}
	os.WriteFile(filepath.Join(dir, "types.go"), []byte("package routes\n\ntype Config struct{}\n\ntype Route struct{ Path string }\n"), 0o644)
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.email=b@b", "-c", "user.name=b", "commit", "-qm", "init"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			log.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}
