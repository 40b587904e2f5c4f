package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime/pprof"
	"sort"
	"strconv"
	"time"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/tools"
)

// renameRound is one plan and apply of the large rename.
type renameRound struct {
	PlanMS  int64 `json:"plan_ms"`
	ApplyMS int64 `json:"apply_ms"`
	// ApplyCPUMS is the CPU time of every thread during the apply: its
	// cost whatever else the machine runs.
	ApplyCPUMS int64            `json:"apply_cpu_ms"`
	Server     map[string]int64 `json:"server_timing_ms"` // the apply's meta timings
	Index      map[string]int64 `json:"index_timing_ms"`  // the index update's phases
	Edits      int              `json:"edits"`
	Files      int              `json:"files"`
	Relink     int              `json:"relinked"`
}

// renameBench plans and applies one rename (verify: none) rounds times
// in-process (the new name is newName with a suffix new in each round), as a server would, on a git work copy that is restored and
// reindexed after each round; it reports every round and the medians. With
// profile set, each apply is CPU-profiled into profile.N (and its
// allocations into profile.N.alloc), the plans and restores not. With serve,
// the repository is opened as `cairn mcp` opens it: its file watcher sees
// the apply's writes as it would in a server.
func renameBench(ctx context.Context, repo, state, symbol, newName string, rounds int, serve bool, profile string) error {
	paths, err := config.Locate(ctx, repo, state)
	if err != nil {
		return err
	}
	cfg, err := config.Load(paths.Root)
	if err != nil {
		return err
	}
	svc, err := service.Open(ctx, paths, cfg, service.Options{Serve: serve})
	if err != nil {
		return err
	}
	defer svc.Close()
	env := svc.Env()
	var last *index.Stats
	env.Reindex = func(ctx context.Context, p []string) []string {
		st, err := env.Index.ReconcilePaths(ctx, p, index.ReconcileOptions{})
		if err != nil {
			return []string{err.Error()}
		}
		last = st
		return nil
	}
	call := func(name string, args map[string]any) (map[string]any, map[string]int64, time.Duration, error) {
		raw, _ := json.Marshal(args)
		t := time.Now()
		e := tools.Invoke(ctx, env, name, raw)
		d := time.Since(t)
		if e.Error != nil {
			return nil, nil, d, fmt.Errorf("%s: %s", name, e.Error.Message)
		}
		var data map[string]any
		b, _ := json.Marshal(e.Data)
		json.Unmarshal(b, &data)
		return data, e.Meta.TimingMS, d, nil
	}
	restore := func() error {
		if out, err := exec.CommandContext(ctx, "git", "-C", repo, "checkout", "--", ".").CombinedOutput(); err != nil {
			return fmt.Errorf("git checkout: %v: %s", err, out)
		}
		_, _, _, err := call("index_ensure", map[string]any{})
		return err
	}
	if err := restore(); err != nil {
		return err
	}
	var all []renameRound
	for i := 0; i < rounds; i++ {
		var r renameRound
		// A name never used before: the written content is new to the
		// blob store, so the update parses it as the first apply of a
		// rename does.
		name := newName + strconv.FormatInt(time.Now().UnixNano()%(36*36*36*36*36), 36)
		plan, _, d, err := call("refactor_rename", map[string]any{"symbol": symbol, "new_name": name})
		if err != nil {
			return err
		}
		r.PlanMS = d.Milliseconds()
		if plan["status"] != "ready" {
			return fmt.Errorf("plan %s: %v", symbol, plan["status"])
		}
		if c, ok := plan["counts"].(map[string]any); ok {
			r.Edits = toInt(c["edits"])
			r.Files = toInt(c["files"])
		}
		var stop func()
		if profile != "" {
			f, err := os.Create(fmt.Sprintf("%s.%d", profile, i))
			if err != nil {
				return err
			}
			pprof.StartCPUProfile(f)
			stop = func() {
				pprof.StopCPUProfile()
				f.Close()
				if a, err := os.Create(fmt.Sprintf("%s.%d.alloc", profile, i)); err == nil {
					pprof.Lookup("allocs").WriteTo(a, 0)
					a.Close()
				}
			}
		}
		last = nil
		cpu := processCPU()
		_, timing, d, err := call("refactor_apply", map[string]any{"refactor_id": plan["refactor_id"], "verify": "none"})
		r.ApplyCPUMS = (processCPU() - cpu).Milliseconds()
		if stop != nil {
			stop()
		}
		if err != nil {
			return err
		}
		r.ApplyMS, r.Server = d.Milliseconds(), timing
		if last != nil {
			r.Index, r.Relink = last.TimingMS, last.Relinked
		}
		fmt.Fprintf(os.Stderr, "round %d: plan %d ms, apply %d ms (CPU %d ms) %v, index %v, relinked %d\n", i, r.PlanMS, r.ApplyMS, r.ApplyCPUMS, r.Server, r.Index, r.Relink)
		all = append(all, r)
		if err := restore(); err != nil {
			return err
		}
	}
	med := func(get func(renameRound) int64) int64 {
		v := make([]int64, len(all))
		for i, r := range all {
			v[i] = get(r)
		}
		sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
		return v[len(v)/2]
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]any{
		"symbol": symbol, "rounds": all,
		"median_plan_ms":      med(func(r renameRound) int64 { return r.PlanMS }),
		"median_apply_ms":     med(func(r renameRound) int64 { return r.ApplyMS }),
		"median_apply_cpu_ms": med(func(r renameRound) int64 { return r.ApplyCPUMS }),
		"median_write_ms":     med(func(r renameRound) int64 { return r.Server["apply"] }),
		"median_index_ms":     med(func(r renameRound) int64 { return r.Server["index"] }),
	})
}

func toInt(v any) int {
	f, _ := v.(float64)
	return int(f)
}
