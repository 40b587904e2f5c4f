package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"github.com/cairnhq/cairn/internal/change"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/tools"
)

// impactBench times impact_analyze, in-process through the tool registry
// (so the response budget and its truncations are part of what is timed), on
// the n most referenced symbols of the corpus. The first call builds the
// per-epoch views (reverse references, reverse imports) and is reported on
// its own; the rest are warm, as in a server. With results set it writes its
// section of RESULTS.md.
func impactBench(ctx context.Context, name, repo, state string, n, rounds int, results, edit string) error {
	ix, err := openCurrent(ctx, repo, state)
	if err != nil {
		return err
	}
	defer ix.Close()
	env := toolEnv(ix)

	// The most referenced symbols: what "widely used" means here.
	counts := map[int64]int{}
	db, release := ix.Acquire()
	defer release()
	if err := db.AllLinks(ctx, func(_ int64, data []byte) error {
		links, err := index.DecodeLinks(data)
		if err != nil {
			return nil
		}
		for _, l := range links {
			if l.Target != 0 { // 0: a name outside the repository
				counts[l.Target]++
			}
		}
		return nil
	}); err != nil {
		return err
	}
	ids := make([]int64, 0, len(counts))
	for id := range counts {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		if counts[ids[i]] != counts[ids[j]] {
			return counts[ids[i]] > counts[ids[j]]
		}
		return ids[i] < ids[j]
	})
	if len(ids) > n {
		ids = ids[:n]
	}
	call := func(id int64) (*protocol.Envelope, time.Duration) {
		args, _ := json.Marshal(map[string]any{"symbol": protocol.NewSymbolID(id)})
		t := time.Now()
		env := tools.Invoke(ctx, env, "impact_analyze", args)
		return env, time.Since(t)
	}
	type row struct {
		QName       string  `json:"qualified_name"`
		Refs        int     `json:"links"`
		P50         float64 `json:"p50_ms"`
		Chars       int     `json:"chars"`
		Truncations int     `json:"truncations"`
		Answer      string  `json:"answer"`
	}
	first := time.Duration(0)
	var all []time.Duration
	var rows []row
	for k, id := range ids {
		envl, d := call(id)
		if k == 0 {
			first = d
		}
		if envl.Error != nil {
			return fmt.Errorf("impact_analyze %s: %s", protocol.NewSymbolID(id), envl.Error.Message)
		}
		b, _ := json.Marshal(envl.Data)
		var ds []time.Duration
		for r := 0; r < rounds; r++ {
			_, d := call(id)
			ds = append(ds, d)
		}
		all = append(all, ds...)
		res := envl.Data.(*change.ImpactResult)
		rows = append(rows, row{QName: res.Target.Symbol.QName, Refs: counts[id], P50: percentiles(ds).P50, Chars: len(b),
			Truncations: len(envl.Provenance.Truncations), Answer: envl.Answer})
	}
	out := map[string]any{"corpus": name, "first_call_ms": float64(first.Microseconds()) / 1000, "warm": percentiles(all), "symbols": rows,
		"budget_chars": tools.CharsBudget.Default}
	if edit != "" {
		after, err := impactAfterEdit(ctx, ix, repo, edit, rounds, func() (d time.Duration) {
			pprof.Do(ctx, pprof.Labels("op", "impact_after_edit"), func(context.Context) { _, d = call(ids[0]) })
			return d
		})
		if err != nil {
			return err
		}
		out["after_edit"] = after
		// How the views of each new epoch were made: updated from the
		// previous epoch's (updates) or built again (misses - updates).
		out["view_cache"] = env.Changes.Stats()
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		return err
	}
	if results == "" {
		return nil
	}
	var b strings.Builder
	b.WriteString("<!-- impact:begin -->\n## Impact analysis (in-process)\n\n")
	fmt.Fprintf(&b, "`impact_analyze` through the tool registry (response budget %d characters, lists cut to fit with truncations recorded) on the %d most referenced symbols of %s, %d warm runs each. The first call of an epoch builds the reverse-reference and reverse-import views: %.0f ms. Warm: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms.\n\n",
		tools.CharsBudget.Default, len(rows), name, rounds, float64(first.Microseconds())/1000, percentiles(all).P50, percentiles(all).P90, percentiles(all).P99)
	b.WriteString("| symbol | links to it | p50 | response chars | truncations |\n|---|---:|---:|---:|---:|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %d | %.2f ms | %d | %d |\n", r.QName, r.Refs, r.P50, r.Chars, r.Truncations)
	}
	b.WriteString("<!-- impact:end -->\n")
	old, _ := os.ReadFile(results)
	s := string(old)
	if i, j := strings.Index(s, "<!-- impact:begin -->"), strings.Index(s, "<!-- impact:end -->"); i >= 0 && j > i {
		s = s[:i] + b.String() + strings.TrimPrefix(s[j+len("<!-- impact:end -->"):], "\n")
	} else {
		s = strings.TrimRight(s, "\n") + "\n\n" + b.String()
	}
	return os.WriteFile(results, []byte(s), 0o644)
}

// impactAfterEdit times the first impact_analyze call of an epoch: edit
// (a body-only change appended to the file), reconcile it in-process as the
// owner does, then call once; rounds times, then the file is restored.
func impactAfterEdit(ctx context.Context, ix *index.Index, repo, edit string, rounds int, call func() time.Duration) (Percentiles, error) {
	full := filepath.Join(repo, edit)
	orig, err := os.ReadFile(full)
	if err != nil {
		return Percentiles{}, err
	}
	defer func() {
		os.WriteFile(full, orig, 0o644)
		ix.Reconcile(ctx, index.ReconcileOptions{})
	}()
	var ds []time.Duration
	for i := 0; i < rounds; i++ {
		os.WriteFile(full, append(append([]byte{}, orig...), []byte(fmt.Sprintf("\n// impact %d %d\n", i, time.Now().UnixNano()))...), 0o644)
		if _, err := ix.ReconcilePaths(ctx, []string{edit}, index.ReconcileOptions{}); err != nil {
			return Percentiles{}, err
		}
		ds = append(ds, call())
	}
	return percentiles(ds), nil
}
