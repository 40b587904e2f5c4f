package service_test

import (
	"context"
	"testing"

	"github.com/cairnhq/cairn/internal/mutate"
	"github.com/cairnhq/cairn/internal/service"
)

// A write updates the index before it answers: its provenance shows the
// next epoch and nothing on disk is left unindexed, in the process that
// owns the index and in one that asks the owner; a process left without an
// owner takes over.
func TestWriteUpdatesIndex(t *testing.T) {
	paths, cfg := newRepo(t, map[string]string{"go.mod": "module example.com/w\n", "a.go": "package w\n\nfunc First() {}\n"})
	ctx := context.Background()
	open := func() *service.Service {
		t.Helper()
		return mustOpen(t, paths, cfg, service.Options{})
	}
	owner := open()
	defer owner.Close()
	answer(t, call(t, owner, "index_ensure", nil))
	epoch := func(s *service.Service) int64 {
		st, err := s.Env().Index.State(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return st.Epoch
	}
	e0 := epoch(owner)
	write := func(s *service.Service, path, content string) int64 {
		t.Helper()
		env := call(t, s, "write_source", map[string]any{"edits": []mutate.FileEdit{{Path: path, Action: mutate.Create, Content: &content}}})
		answer(t, env)
		if len(env.Provenance.Warnings) > 0 {
			t.Errorf("warnings: %v", env.Provenance.Warnings)
		}
		if n, err := s.Env().Pending(ctx); err != nil || n != 0 {
			t.Errorf("%d changes not indexed after the write (%v)", n, err)
		}
		return env.Provenance.Epoch
	}
	if got := write(owner, "b.go", "package w\n\nfunc Second() {}\n"); got != e0+1 {
		t.Errorf("owner's write answered at epoch %d, want %d", got, e0+1)
	}
	client := open()
	defer client.Close()
	if client.Owner() {
		t.Fatal("the second service took the writer lock")
	}
	if got := write(client, "c.go", "package w\n\nfunc Third() {}\n"); got != e0+2 {
		t.Errorf("client's write answered at epoch %d, want %d", got, e0+2)
	}
	owner.Close()
	if got := write(client, "d.go", "package w\n\nfunc Fourth() {}\n"); got != e0+3 {
		t.Errorf("write after the owner left answered at epoch %d, want %d", got, e0+3)
	}
	if !client.Owner() {
		t.Error("the client did not take over")
	}
}
