package refactor_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/refactor"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
)

// planRename plans renaming a.Foo over a fresh snapshot of the service's
// index (released before it returns: the store has few connections).
func planRename(t *testing.T, s *service.Service, behind bool) *refactor.Plan {
	t.Helper()
	ctx := context.Background()
	snap, err := s.Env().Index.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Release()
	env := &refactor.Env{Paths: s.Paths(), Engine: s.Env().Engine.On(snap), Snap: snap, Behind: behind,
		Store: refactor.NewStore(s.Paths().StateDir, nil, 0)}
	r, err := env.Engine.Resolve(ctx, "a.Foo")
	if err != nil {
		t.Fatal(err)
	}
	p, err := env.Rename(ctx, refactor.RenameRequest{Symbol: r, NewName: "Bar"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func states(p *refactor.Plan) map[string]string {
	out := map[string]string{}
	for _, f := range p.Witness.Files {
		out[f.Path] = f.Freshness + "/" + f.Certainty + "/" + f.Git
	}
	return out
}

// The gate's file states: clean and dirty files (the index holds their
// content; dirty ones differ from HEAD, tracked or not) let a plan be
// ready; a defining file changed on disk since it was indexed is stale
// and makes the files that refer to it pending_check; an index known to
// lag makes every current file pending_check.
func TestGateStates(t *testing.T) {
	testenv.Isolate(t)
	root := testenv.Repo(t, map[string]string{
		"go.mod": "module example.com/g\n\ngo 1.22\n",
		"a/a.go": "package a\n\nfunc Foo() int { return 1 }\n",
		"b/b.go": "package b\n\nimport \"example.com/g/a\"\n\nfunc B() int { return a.Foo() }\n",
		"c/c.go": "package c\n\nimport \"example.com/g/a\"\n\nfunc C() int { return a.Foo() }\n",
		"README": "x\n",
	})
	s := testenv.Open(t, root, service.Options{})
	testenv.WriteFile(t, root, "b/b.go", "package b\n\nimport \"example.com/g/a\"\n\n// B calls Foo.\nfunc B() int { return a.Foo() }\n")
	testenv.WriteFile(t, root, "d/d.go", "package d\n\nimport \"example.com/g/a\"\n\nfunc D() int { return a.Foo() }\n")
	invoke(t, s, "index_ensure", nil)

	p := planRename(t, s, false)
	want := map[string]string{"a/a.go": "clean/certain/clean", "b/b.go": "dirty/certain/modified", "c/c.go": "clean/certain/clean", "d/d.go": "dirty/certain/untracked"}
	if diff := cmp.Diff(want, states(p)); diff != "" || p.Status != refactor.StatusReady {
		t.Errorf("status %s, states (-want +got):\n%s", p.Status, diff)
	}

	p = planRename(t, s, true)
	if p.Status != refactor.StatusBlocked || states(p)["c/c.go"] != "pending_check/certain/clean" || !cmp.Equal(p.Witness.Failed, []string{"index_behind", "files_not_fresh"}) {
		t.Errorf("index behind: status %s, states %v, failed %v", p.Status, states(p), p.Witness.Failed)
	}

	testenv.WriteFile(t, root, "a/a.go", "package a\n\nfunc Foo() int { return 2 }\n") // not reindexed
	p = planRename(t, s, false)
	want = map[string]string{"a/a.go": "stale/certain/", "b/b.go": "pending_check/certain/modified", "c/c.go": "pending_check/certain/clean", "d/d.go": "pending_check/certain/untracked"}
	if diff := cmp.Diff(want, states(p)); diff != "" || p.Status != refactor.StatusBlocked {
		t.Errorf("status %s, states (-want +got):\n%s", p.Status, diff)
	}
	var a refactor.FileCheck
	for _, f := range p.Witness.Files {
		if f.Path == "a/a.go" {
			a = f
		}
	}
	if a.IndexedHash == "" || a.DiskHash == "" || a.IndexedHash == a.DiskHash || a.Epoch == 0 {
		t.Errorf("witness of the stale file: %+v", a)
	}
	if len(p.Witness.Refresh) == 0 || p.Witness.Refresh[0].Tool != "index_ensure" {
		t.Errorf("refresh = %+v", p.Witness.Refresh)
	}
}
