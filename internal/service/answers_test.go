package service_test

import (
	"testing"

	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
)

// TestAnswerCacheFollowsSemanticImport: importing a semantic index changes
// neither a file nor the epoch, yet it changes the answers; a server's
// cached answer from before the import is not served after it.
func TestAnswerCacheFollowsSemanticImport(t *testing.T) {
	paths, cfg := newRepo(t, testenv.SemanticFiles(t, "fixture"))
	scip := testenv.SemanticIndex(t, "fixture")
	s := testenv.OpenIn(t, paths.Root, paths.StateDir, cfg, service.Options{Serve: true})
	testenv.WaitReady(t, s)
	hit := func(env *protocol.Envelope) bool { _, ok := env.Meta.TimingMS["cache"]; return ok }
	refs := map[string]any{"symbol": "a.Getter.Get"}
	before := call(t, s, "refs_find", refs)
	again := call(t, s, "refs_find", refs)
	if hit(before) || !hit(again) {
		t.Fatalf("before the import: hits %v, %v; want a miss then a hit", hit(before), hit(again))
	}
	if st := data[query.RefsResult](t, again).Semantic.State; st == "used" {
		t.Fatalf("semantic state %q before any import", st)
	}
	if env := call(t, s, "index_ensure", map[string]any{"scip": scip, "wait": true, "timeout_ms": 60000}); env.Error != nil {
		t.Fatalf("import: %s", env.Error.Message)
	}
	after := call(t, s, "refs_find", refs)
	if hit(after) || before.Provenance.Epoch != after.Provenance.Epoch {
		t.Fatalf("after the import: hit %v, epoch %d then %d", hit(after), before.Provenance.Epoch, after.Provenance.Epoch)
	}
	if st := data[query.RefsResult](t, after).Semantic.State; st != "used" {
		t.Errorf("semantic state after the import: %q", st)
	}
	if !hit(call(t, s, "refs_find", refs)) {
		t.Error("the answer after the import was not kept")
	}
}
