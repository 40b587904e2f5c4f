// Package testenv builds what tests run against: real git repositories in
// temporary directories, with their own Cairn state dir, and the process
// environment that keeps a user's configuration and caches out of them.
// Its files, git and environment helpers are those of testenv/testtree,
// which the packages it builds on use in their own tests. Only tests
// import it.
package testenv

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv/testtree"
)

// Isolate points HOME, the XDG directories and git's configuration at
// temporary directories for the rest of the test, so no user file leaks in
// (testtree.Isolate).
func Isolate(t testing.TB) {
	t.Helper()
	testtree.Isolate(t)
}

// Demo is a small Go module used by the adapter tests: a server package with
// a constructor, a method and a call from main.
var Demo = map[string]string{
	"go.mod": "module example.com/demo\n\ngo 1.22\n",
	"main.go": `package main

import "example.com/demo/server"

// main starts the demo server.
func main() {
	s := server.NewServer(":8080")
	s.Start()
}
`,
	"server/server.go": `package server

// Server serves the demo.
type Server struct {
	Addr string
}

// NewServer makes a Server listening on addr.
func NewServer(addr string) *Server {
	return &Server{Addr: addr}
}

// Start runs the server.
func (s *Server) Start() error {
	return listen(s.Addr)
}

func listen(addr string) error { return nil }
`,
}

// Tree writes files (repo paths to contents) into a new temporary directory,
// not a git repository, and returns it.
func Tree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	testtree.Write(t, dir, files)
	return dir
}

// ReadTree reads every file below dir, by slash-separated path relative to
// dir: what Tree would write again.
func ReadTree(t testing.TB, dir string) map[string]string {
	t.Helper()
	return testtree.Read(t, dir)
}

// Repo writes files into a new git repository (one commit) and returns its root.
func Repo(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := Tree(t, files)
	Git(t, dir, "init", "-q")
	Commit(t, dir, "init")
	return dir
}

// Commit commits every change of the worktree at dir. A fixed date makes the
// commit id, and so the history on symbol cards, the same on every run.
func Commit(t testing.TB, dir, msg string) {
	t.Helper()
	Git(t, dir, "add", "-A")
	cmd := exec.Command("git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", msg)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2024-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2024-01-01T00:00:00Z")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git commit: %v\n%s", err, out)
	}
}

// Git runs git in dir and fails the test when it fails.
func Git(t testing.TB, dir string, args ...string) {
	t.Helper()
	testtree.Git(t, dir, args...)
}

// Open starts a service for the repository at root with its state in a
// temporary directory; it is closed when the test ends.
func Open(t testing.TB, root string, opts service.Options) *service.Service {
	t.Helper()
	cfg, err := config.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	return OpenConfig(t, root, cfg, opts)
}

// OpenConfig is Open with an explicit configuration.
func OpenConfig(t testing.TB, root string, cfg config.Config, opts service.Options) *service.Service {
	t.Helper()
	return OpenIn(t, root, filepath.Join(t.TempDir(), "state"), cfg, opts)
}

// OpenIn is OpenConfig with a given state dir: two services opened in the
// same one behave like two processes on one repository (the first owns the
// index, the second asks it).
func OpenIn(t testing.TB, root, stateDir string, cfg config.Config, opts service.Options) *service.Service {
	t.Helper()
	ctx := context.Background()
	paths, err := config.Locate(ctx, root, stateDir)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := service.Open(ctx, paths, cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	return svc
}

// WaitReady waits (up to a minute) until the service's first index is built.
func WaitReady(t testing.TB, svc *service.Service) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if ok, _ := svc.Ready(); ok {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	st, reason := svc.State()
	t.Fatalf("the index did not become ready: %s (%s)", st, reason)
}

// Index is an index over a test repository, opened without a service: what
// the tests of the query engines read through.
type Index struct {
	Root string
	ix   *index.Index
	base *query.Engine
}

// OpenIndex indexes a new git repository of files (one commit), with the
// default configuration; it is closed when the test ends.
func OpenIndex(t testing.TB, files map[string]string) *Index {
	t.Helper()
	Isolate(t)
	root := Repo(t, files)
	ctx := context.Background()
	var ix *index.Index
	paths, err := config.Locate(ctx, root, filepath.Join(t.TempDir(), "state"))
	if err == nil {
		ix, err = index.Open(ctx, paths, config.Default())
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return &Index{Root: root, ix: ix, base: query.New(ix)}
}

// Index is the index itself, for the tests of the index package.
func (x *Index) Index() *index.Index { return x.ix }

// Engine indexes what changed in the tree and returns the query engine over
// a snapshot of the index as it is then (released when the test ends).
func (x *Index) Engine(t testing.TB) *query.Engine {
	t.Helper()
	eng, release := x.EngineReleased(t)
	t.Cleanup(release)
	return eng
}

// EngineReleased is Engine for a test that takes more snapshots than the
// store has connections: it releases each itself.
func (x *Index) EngineReleased(t testing.TB) (*query.Engine, func()) {
	t.Helper()
	ctx := context.Background()
	if _, err := x.ix.Reconcile(ctx, index.ReconcileOptions{}); err != nil {
		t.Fatal(err)
	}
	eng, release, err := x.base.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return eng, release
}

// Write replaces (or adds) a file of the tree, without committing it.
func (x *Index) Write(t testing.TB, p, content string) {
	t.Helper()
	WriteFile(t, x.Root, p, content)
}

// WriteFile writes a file at the repo path p below dir, making its
// directories.
func WriteFile(t testing.TB, dir, p, content string) {
	t.Helper()
	testtree.WriteFile(t, dir, p, content)
}

// WithoutEpochs drops, from a decoded JSON answer, the fields that count
// index generations (a rebuilt index, or another worktree's, counts on
// from where it was): two indexes of one tree may differ in them without
// either being wrong.
func WithoutEpochs(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if k == "file_epoch" || k == "epoch" || k == "cursor" {
				delete(x, k)
				continue
			}
			x[k] = WithoutEpochs(e)
		}
	case []any:
		for i, e := range x {
			x[i] = WithoutEpochs(e)
		}
	}
	return v
}
