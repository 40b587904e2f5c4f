package service_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
	"github.com/cairnhq/cairn/internal/tools"
)

func data[T any](t *testing.T, env *protocol.Envelope) T {
	t.Helper()
	if env.Error != nil {
		t.Fatalf("error %s: %s", env.Error.Code, env.Error.Message)
	}
	var v T
	b, _ := json.Marshal(env.Data)
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// needScipGo fails the test when the real scip-go is not on PATH: the
// tests that run it must not pass without it.
func needScipGo(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("scip-go"); err != nil {
		t.Fatalf("scip-go is not on PATH: run `make tools` (go install github.com/scip-code/scip-go/cmd/scip-go@v0.2.9): %v", err)
	}
}

// index_ensure {semantic: true} runs the real scip-go (installed by `make
// tools`; the test fails without it) and imports its output; refs_find then
// answers from the semantic layer and says so in every fact and in the
// provenance; an edit falls back to syntax for that file, said too.
func TestSemanticJobWithScipGo(t *testing.T) {
	needScipGo(t)
	paths, cfg := newRepo(t, testenv.SemanticFiles(t, "fixture"))
	s := mustOpen(t, paths, cfg, service.Options{})
	defer s.Close()
	out := data[tools.IndexOut](t, call(t, s, "index_ensure", map[string]any{"semantic": true, "wait": true, "timeout_ms": 120000}))
	if out.Semantic == nil || len(out.Semantic.Jobs) != 1 || out.Semantic.Jobs[0].Status != "completed" {
		t.Fatalf("semantic jobs: %+v", out.Semantic)
	}
	if d := out.Semantic.Detected; len(d) != 1 || d[0].Indexer != "scip-go" || !d[0].Installed {
		t.Errorf("detected %+v", d)
	}
	env := call(t, s, "refs_find", map[string]any{"symbol": "a.Store.Get"})
	res := data[query.RefsResult](t, env)
	if len(res.Locations) != 3 || res.Semantic.State != "used" {
		t.Fatalf("refs %+v semantic %+v", res.Locations, res.Semantic)
	}
	for _, l := range res.Locations {
		if l.Tier != "precise" || l.Layer != "semantic" {
			t.Errorf("%+v", l)
		}
	}
	if p := env.Provenance; strings.Join(p.Layers, ",") != "semantic" || p.Completeness.Score != 1 {
		t.Errorf("provenance %+v", p)
	}
	card := data[query.SymbolCard](t, call(t, s, "symbol_get", map[string]any{"symbol": res.Semantic.Symbols[0]}))
	if card.QName != "example.com/fix/a.Store.Get" || card.Layer != "semantic" || card.Tier != "precise" {
		t.Errorf("card by SCIP symbol: %s %s %s", card.QName, card.Layer, card.Tier)
	}
	// Edit b.go: its references come from syntax now, and the answer says so.
	b := filepath.Join(paths.Root, "b", "b.go")
	src, _ := os.ReadFile(b)
	os.WriteFile(b, append([]byte("// edited\n"), src...), 0o644)
	env = call(t, s, "refs_find", map[string]any{"symbol": "a.Store.Put"})
	res = data[query.RefsResult](t, env)
	if res.Semantic.State != "partial" || len(res.Semantic.Fallback) != 1 || res.Semantic.Fallback[0].Path != "b/b.go" {
		t.Fatalf("after the edit: %+v", res.Semantic)
	}
	if !strings.Contains(strings.Join(env.Provenance.Warnings, "\n"), "b/b.go") || env.Provenance.Completeness.Score >= 1 {
		t.Errorf("provenance after the edit: %+v", env.Provenance)
	}
	st := data[tools.StatusOut](t, call(t, s, "status", map[string]any{}))
	if len(st.Semantic.Indexes) != 1 || st.Semantic.Indexes[0].Changed != 1 || st.Semantic.Indexes[0].Tool != "scip-go" {
		t.Errorf("status semantic %+v", st.Semantic)
	}
}

// Another process asks the serving owner to run the semantic jobs; the owner
// runs them in the background and the asking process follows them in the
// job table. A .scip file named in semantic.scip_paths is imported too.
func TestClientAsksOwnerForSemanticJobs(t *testing.T) {
	needScipGo(t)
	paths, cfg := newRepo(t, testenv.SemanticFiles(t, "fixture"))
	scip := testenv.SemanticIndex(t, "fixture")
	cfg.Semantic.SCIPPaths = []string{scip}
	owner := mustOpen(t, paths, cfg, service.Options{Serve: true})
	defer owner.Close()
	testenv.WaitReady(t, owner)
	client := mustOpen(t, paths, cfg, service.Options{})
	defer client.Close()
	if client.Owner() {
		t.Fatal("the client took the writer lock")
	}
	// Without waiting: the jobs are queued or running in the owner.
	out := data[tools.IndexOut](t, call(t, client, "index_ensure", map[string]any{"semantic": true}))
	if out.Semantic == nil || len(out.Semantic.Jobs) != 2 {
		t.Fatalf("semantic: %+v", out.Semantic)
	}
	out = data[tools.IndexOut](t, call(t, client, "index_ensure", map[string]any{"semantic": true, "wait": true, "timeout_ms": 120000}))
	if j := out.Semantic.Jobs; len(j) != 2 || j[0].Status != "completed" || j[1].Status != "completed" || j[1].Indexer != "scip-file" {
		t.Fatalf("jobs after waiting: %+v", j)
	}
	st := data[tools.StatusOut](t, call(t, client, "status", map[string]any{}))
	if len(st.Semantic.Indexes) != 2 {
		t.Errorf("indexes: %+v", st.Semantic.Indexes)
	}
	res := data[query.RefsResult](t, call(t, client, "refs_find", map[string]any{"symbol": "a.Getter.Get"}))
	if res.Semantic.State != "used" {
		t.Errorf("client refs: %+v", res.Semantic)
	}
}

// With semantic.auto_refresh a serving owner re-runs the indexer when a file
// the semantic index covers changes, and the file answers precisely again.
func TestAutoRefresh(t *testing.T) {
	needScipGo(t)
	paths, cfg := newRepo(t, testenv.SemanticFiles(t, "fixture"))
	cfg.Semantic.AutoRefresh = true
	s := mustOpen(t, paths, cfg, service.Options{Serve: true})
	defer s.Close()
	out := data[tools.IndexOut](t, call(t, s, "index_ensure", map[string]any{"semantic": true, "wait": true, "timeout_ms": 120000}))
	if j := out.Semantic.Jobs; len(j) != 1 || j[0].Status != "completed" {
		t.Fatalf("jobs %+v", j)
	}
	b := filepath.Join(paths.Root, "b", "b.go")
	src, _ := os.ReadFile(b)
	os.WriteFile(b, append([]byte("// edited\n"), src...), 0o644)
	deadline := time.Now().Add(time.Minute)
	for {
		// The watcher may see the write in two steps (truncate, then
		// content): wait until no job is queued or running any more.
		st := data[tools.StatusOut](t, call(t, s, "status", map[string]any{}))
		active := false
		for _, j := range st.Semantic.Jobs {
			active = active || j.Status == "queued" || j.Status == "running"
		}
		if j := st.Semantic.Jobs; !active && len(j) > 1 && j[0].Trigger == "file_changed" && j[0].Status == "completed" {
			if sc := j[0].Scope; len(sc) != 1 || sc[0] != "b/b.go" {
				t.Errorf("scope %v", sc)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no refresh after the edit: %+v", st.Semantic.Jobs)
		}
		time.Sleep(100 * time.Millisecond)
	}
	res := data[query.RefsResult](t, call(t, s, "refs_find", map[string]any{"symbol": "a.Store.Put"}))
	if res.Semantic.State != "used" {
		st := data[tools.StatusOut](t, call(t, s, "status", map[string]any{}))
		for _, j := range st.Semantic.Jobs {
			t.Logf("job %d %s %s %v: %s", j.ID, j.Trigger, j.Status, j.Scope, j.Stats)
		}
		t.Errorf("after the refresh: %+v", res.Semantic)
	}
}
