package renamebench

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// MoveOutcome is what became of one move.
type MoveOutcome struct {
	From    string `json:"from"`
	To      string `json:"to"`
	Status  string `json:"status"` // applied, needs_decision, blocked, refused, error
	Reason  string `json:"reason,omitempty"`
	Files   int    `json:"files_moved"`
	Edits   int    `json:"edits"`
	PlanMS  int64  `json:"plan_ms"`
	ApplyMS int64  `json:"apply_ms,omitempty"`
	Build   *Check `json:"build,omitempty"`
}

// moveTargets draws the moves: Go, every package directory of the module
// (but its root and testdata) renamed beside itself; TypeScript and Python,
// n source files moved into a new sibling directory.
func moveTargets(w *Work, lang string, n int, seed uint64, corpus string) ([]MoveOutcome, error) {
	var cands []MoveOutcome
	switch lang {
	case "py":
		var err error
		if cands, err = pyMoveCandidates(w.Dir); err != nil {
			return nil, err
		}
	case "go":
		pkgs, err := goList(w.Dir, w.Env)
		if err != nil {
			return nil, err
		}
		for _, p := range pkgs {
			rel, _ := filepath.Rel(w.Dir, p.Dir)
			rel = filepath.ToSlash(rel)
			if rel == "." || strings.Contains(rel, "testdata") || p.Name == "main" {
				continue
			}
			cands = append(cands, MoveOutcome{From: rel, To: rel + "rb"})
		}
	default:
		err := filepath.WalkDir(filepath.Join(w.Dir, "src"), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".ts") || strings.HasSuffix(p, ".d.ts") || d.Name() == "index.ts" {
				return nil
			}
			rel, _ := filepath.Rel(w.Dir, p)
			rel = filepath.ToSlash(rel)
			cands = append(cands, MoveOutcome{From: rel, To: path.Join(path.Dir(rel), "moved", path.Base(rel))})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].From < cands[j].From })
	h := fnv.New64a()
	h.Write([]byte(corpus + "/move"))
	r := rand.New(rand.NewPCG(seed, h.Sum64()))
	r.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	if len(cands) > n {
		cands = cands[:n]
	}
	return cands, nil
}

// RunMoves plans and applies moves with Cairn (the syntactic index: moves
// rest on imports, which syntax resolves), and builds after each.
func RunMoves(ctx context.Context, c Config, lang string, n int) (*Result, error) {
	res := &Result{Corpus: c.Corpus, Lang: lang, Seed: c.Seed, TimingMS: map[string]int64{}}
	if err := c.Work.Restore(ctx); err != nil {
		return nil, err
	}
	moves, err := moveTargets(c.Work, lang, n, c.Seed, c.Corpus)
	if err != nil {
		return nil, err
	}
	var base map[string]int
	if lang == "ts" {
		if base, _, err = c.Work.TSC(ctx); err != nil {
			return nil, err
		}
	}
	st := filepath.Join(c.State, c.Corpus+"-move")
	os.RemoveAll(st)
	cr := &Cairn{Bin: c.Cairn, Repo: c.Work.Dir, State: st, Env: c.Work.Env}
	if err := cr.CLI(ctx, "index"); err != nil {
		return nil, err
	}
	if err := cr.Start(ctx); err != nil {
		return nil, err
	}
	defer cr.Close()
	for i := range moves {
		m := &moves[i]
		if err := c.Work.Restore(ctx); err != nil {
			return nil, err
		}
		if _, err := cr.Call(ctx, "index_ensure", map[string]any{}); err != nil {
			return nil, err
		}
		env, err := cr.Call(ctx, "refactor_move", map[string]any{"from": m.From, "to": m.To})
		if err != nil {
			return nil, err
		}
		m.PlanMS = env.Wall.Milliseconds()
		if env.Error != nil {
			m.Status, m.Reason = "refused", env.Reason()+": "+env.Error.Message
			c.Log("move %s -> %s: %s", m.From, m.To, m.Reason)
			continue
		}
		p, err := DecodePlan(env)
		if err != nil {
			return nil, err
		}
		m.Edits = p.Counts.Edits
		if p.Status != "ready" {
			m.Status, m.Reason = p.Status, p.Reason
			continue
		}
		env, err = cr.Call(ctx, "refactor_apply", map[string]any{"refactor_id": p.ID, "verify": "none"})
		if err != nil {
			return nil, err
		}
		m.ApplyMS = env.Wall.Milliseconds()
		if env.Error != nil {
			m.Status, m.Reason = "error", env.Reason()+": "+env.Error.Message
			continue
		}
		m.Status = "applied"
		got, gone, err := c.Work.Changed(ctx)
		if err != nil {
			return nil, err
		}
		m.Files = len(gone)
		var check Check
		switch lang {
		case "go":
			var paths []string
			for p := range got {
				paths = append(paths, p)
			}
			check = c.Work.GoCheck(ctx, []string{"./..."}, c.Work.GoPackages(paths))
		case "py":
			check = c.Work.pyCheck(ctx, got, *m)
		default:
			check = c.Work.tsCheck(ctx, base)
		}
		m.Build = &check
		c.Log("move %d/%d %s -> %s: %d files, %d edits, builds: %v", i+1, len(moves), m.From, m.To, m.Files, m.Edits, check.OK)
		res.Moves = moves[:i+1]
		write(c.Out, res)
	}
	if err := c.Work.Restore(ctx); err != nil {
		return nil, err
	}
	res.Moves = moves
	return res, write(c.Out, res)
}

// ScaleResult times one large rename.
type ScaleResult struct {
	Symbol string `json:"symbol"`
	Layer  string `json:"layer"`
	Edits  int    `json:"edits"`
	Files  int    `json:"files"`
	Status string `json:"status"`
	// PlanMS and ApplyMS are the MCP calls' wall times (refactor_rename,
	// refactor_apply with verify: none); ServerMS what the server measured.
	PlanMS   int64            `json:"plan_ms"`
	ApplyMS  int64            `json:"apply_ms"`
	ServerMS map[string]int64 `json:"server_timing_ms"`
	// PlanRunMS and ApplyRunMS are the server's own times of the two calls
	// (in process, without the transport).
	PlanRunMS  int64 `json:"plan_run_ms"`
	ApplyRunMS int64 `json:"apply_run_ms"`
	// VerifyMS are verify: build's times on a dry run: first, then again
	// with the build cache warm.
	VerifyMS []int64 `json:"verify_ms"`
	// VerifyError is why verify did not finish (its deadline), if so.
	VerifyError string `json:"verify_error,omitempty"`
	Build       *Check `json:"build,omitempty"`
}

// RunScale renames a symbol with many references in each layer, timing the
// plan and the apply without verify, then verify alone (dry runs).
func RunScale(ctx context.Context, c Config, symbol string) (*Result, error) {
	res := &Result{Corpus: c.Corpus, Lang: "go", TimingMS: map[string]int64{}}
	if err := c.Work.Restore(ctx); err != nil {
		return nil, err
	}
	sessions, stop, err := c.sessions(ctx, res)
	if err != nil {
		return nil, err
	}
	defer stop()
	name := symbol[strings.LastIndexByte(symbol, '.')+1:]
	var all []ScaleResult
	for i, ss := range sessions {
		// One server watches the work copy while a layer is measured: the
		// other would reindex the written files beside the apply.
		for j, other := range sessions {
			if j != i {
				other.C.Close()
			}
		}
		if i > 0 {
			if err := ss.C.Start(ctx); err != nil {
				return nil, err
			}
		}
		sr := ScaleResult{Symbol: symbol, Layer: ss.Layer}
		if ss.Layer == "semantic" {
			// what the server answers from, just before the measure
			env, err := ss.C.Call(ctx, "status", map[string]any{})
			if err != nil {
				return nil, err
			}
			if stale, err := SemanticStale(env); err != nil || stale != "" {
				return nil, fmt.Errorf("scale %s: the semantic layer does not cover the work copy: %s%v", symbol, stale, err)
			}
		}
		rename := func() (*Plan, error) {
			env, err := ss.C.Call(ctx, "refactor_rename", map[string]any{"symbol": symbol, "new_name": name + "Rb"})
			if err != nil {
				return nil, err
			}
			if env.Error != nil {
				return nil, fmt.Errorf("rename %s: %s", symbol, env.Error.Message)
			}
			sr.PlanMS, sr.PlanRunMS = env.Wall.Milliseconds(), env.Meta.TimingMS["run"]
			return DecodePlan(env)
		}
		p, err := rename()
		if err != nil {
			return nil, err
		}
		sr.Edits, sr.Files, sr.Status = p.Counts.Edits, p.Counts.Files, p.Status
		if p.Status == "ready" {
			// Verify is timed on the first layer only: the change and
			// the build are the same in the other.
			for i := 0; i < 2 && len(all) == 0 && sr.VerifyError == ""; i++ {
				env, err := ss.C.Call(ctx, "refactor_apply", map[string]any{"refactor_id": p.ID, "verify": "build", "dry_run": true, "timeout_ms": 900000})
				if err != nil {
					return nil, err
				}
				if env.Error != nil {
					// a verify that cannot finish is reported, and the
					// apply is still timed
					sr.VerifyError = env.Error.Message
					c.Log("scale %s (%s): verify: %s", symbol, ss.Layer, env.Error.Message)
					break
				}
				sr.VerifyMS = append(sr.VerifyMS, env.Meta.TimingMS["verify"])
			}
			env, err := ss.C.Call(ctx, "refactor_apply", map[string]any{"refactor_id": p.ID, "verify": "none"})
			if err != nil {
				return nil, err
			}
			if env.Error != nil {
				return nil, fmt.Errorf("apply %s: %s", symbol, env.Error.Message)
			}
			sr.ApplyMS, sr.ServerMS, sr.ApplyRunMS = env.Wall.Milliseconds(), env.Meta.TimingMS, env.Meta.TimingMS["run"]
			if len(all) > 0 && all[0].Build != nil && all[0].Edits == sr.Edits && all[0].Files == sr.Files {
				sr.Build = all[0].Build // the same rename: the same build
			} else {
				t := time.Now()
				check := c.Work.GoCheck(ctx, []string{"./..."}, nil)
				check.MS = time.Since(t).Milliseconds()
				sr.Build = &check
			}
		}
		c.Log("scale %s (%s): %s, %d edits in %d files, plan %d ms, apply %d ms, verify %v ms", symbol, ss.Layer, sr.Status, sr.Edits, sr.Files, sr.PlanMS, sr.ApplyMS, sr.VerifyMS)
		all = append(all, sr)
		res.Scale = all
		write(c.Out, res)
		if err := c.Work.Restore(ctx); err != nil {
			return nil, err
		}
		ss.C.Call(ctx, "index_ensure", map[string]any{})
	}
	res.Scale = all
	return res, write(c.Out, res)
}
