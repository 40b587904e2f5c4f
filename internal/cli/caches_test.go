package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
	"github.com/cairnhq/cairn/internal/tools"
)

// TestStatusShowsServerCaches: while a server owns the index, status
// --verbose run beside it shows the server's caches with their hits and
// misses; with no server it shows none.
func TestStatusShowsServerCaches(t *testing.T) {
	testenv.Isolate(t)
	repo := testenv.Repo(t, testenv.Demo)
	state := filepath.Join(t.TempDir(), "state")
	status := func() string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := Run(context.Background(), []string{"status", "--verbose", "--repo", repo, "--state-dir", state}, &stdout, &stderr); code != 0 {
			t.Fatalf("status: exit %d\n%s", code, stderr.String())
		}
		return stdout.String()
	}
	if out := status(); regexp.MustCompile(`(?m)^  cache `).MatchString(out) {
		t.Fatalf("status without a server shows caches:\n%s", out)
	}

	svc := testenv.OpenIn(t, repo, state, config.Default(), service.Options{Serve: true})
	ctx := context.Background()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if st, _ := svc.State(); st == "ready" || time.Now().After(deadline) {
			break
		}
	}
	for range 3 {
		if env := tools.Invoke(ctx, svc.Env(), "symbol_get", json.RawMessage(`{"symbol": "server.NewServer"}`)); env.Error != nil {
			t.Fatalf("symbol_get: %s", env.Error.Message)
		}
	}
	out := status()
	if !regexp.MustCompile(`(?m)^  cache +query +2 hits +1 misses +66\.7% hit rate$`).MatchString(out) {
		t.Errorf("status --verbose beside a server that answered one call from its cache twice:\n%s", out)
	}
}
