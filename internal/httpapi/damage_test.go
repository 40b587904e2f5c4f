package httpapi_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
)

func inode(t *testing.T, path string) uint64 {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Sys().(*syscall.Stat_t).Ino
}

// An error whose message merely contains "malformed" (a symbol of that name,
// a bad cursor) is not damage: nothing is deleted and every later call answers.
func TestErrorsThatSayMalformedKeepTheStore(t *testing.T) {
	ts, svc := start(t, token, service.Options{Serve: true})
	testenv.WaitReady(t, svc)
	p := svc.Paths()
	before := []uint64{inode(t, p.IndexPath), inode(t, p.BlobPath)}

	if r := do(t, ts, "POST", "/api/v1/tools/symbol_get", `{"symbol":"malformed"}`, auth()); r.status != 404 || errCode(r) != "NOT_FOUND" {
		t.Fatalf("symbol_get malformed: %d %v", r.status, r.body)
	}
	if r := do(t, ts, "POST", "/api/v1/tools/search", `{"query":"NewServer","cursor":"!!"}`, auth()); r.status != 400 || errCode(r) != "INVALID_ARGUMENT" {
		t.Fatalf("search with a malformed cursor: %d %v", r.status, r.body)
	}
	for i := 0; i < 3; i++ {
		r := do(t, ts, "POST", "/api/v1/tools/search", `{"query":"NewServer"}`, auth())
		if r.status != 200 || r.body["answer"] == "" {
			t.Fatalf("search after the errors: %d %v", r.status, r.body)
		}
	}
	if r := do(t, ts, "GET", "/ready", "", auth()); r.status != 200 {
		t.Fatalf("/ready: %d %v", r.status, r.body)
	}
	after := []uint64{inode(t, p.IndexPath), inode(t, p.BlobPath)}
	if before[0] != after[0] || before[1] != after[1] {
		t.Fatalf("a database was recreated: inodes %v -> %v", before, after)
	}
	if _, err := os.Stat(p.IndexPath + ".damaged"); err == nil {
		t.Fatal("the index was moved aside")
	}
}

// Damage found while a server runs is repaired in the background: calls wait
// (bounded) or answer INDEX_UNAVAILABLE, /ready is 503 meanwhile, and once it
// is repaired every call answers from the new store (no "database is closed").
func TestServerRepairsDamageAndSwapsTheStore(t *testing.T) {
	ts, svc := start(t, token, service.Options{Serve: true})
	testenv.WaitReady(t, svc)
	p := svc.Paths()
	// Garbage over the middle of the worktree index, as a disk tool would write it.
	f, err := os.OpenFile(p.IndexPath, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := f.Stat()
	f.WriteAt([]byte("this is not a page of a database, it is damage"), st.Size()/2)
	f.Close()

	deadline := time.Now().Add(time.Minute)
	for {
		r := do(t, ts, "POST", "/api/v1/tools/search", `{"query":"NewServer"}`, auth())
		if r.status == 200 {
			if data, _ := r.body["data"].(map[string]any); data == nil {
				t.Fatalf("search: %v", r.body)
			}
			break
		}
		if errCode(r) != "INDEX_UNAVAILABLE" || r.status != 503 {
			t.Fatalf("search while repairing: %d %v", r.status, r.body)
		}
		if rr := do(t, ts, "GET", "/ready", "", auth()); rr.status != 503 {
			t.Fatalf("/ready while repairing: %d %v", rr.status, rr.body)
		}
		if time.Now().After(deadline) {
			t.Fatal("the index was not repaired within a minute")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := os.Stat(p.IndexPath + ".damaged"); err != nil {
		t.Fatalf("the damaged index was not moved aside: %v", err)
	}
	for _, call := range []struct{ tool, body string }{
		{"symbol_get", `{"symbol":"server.NewServer"}`},
		{"refs_find", `{"symbol":"server.NewServer"}`},
		{"search", `{"query":"Start","mode":"symbol"}`},
		{"status", `{}`},
	} {
		if r := do(t, ts, "POST", "/api/v1/tools/"+call.tool, call.body, auth()); r.status != 200 {
			t.Fatalf("%s after the repair: %d %v", call.tool, r.status, r.body)
		}
	}
	if r := do(t, ts, "GET", "/ready", "", auth()); r.status != 200 {
		t.Fatalf("/ready after the repair: %d %v", r.status, r.body)
	}
	if _, err := os.Stat(filepath.Join(p.StateDir, "index.db")); err != nil {
		t.Fatal(err)
	}
}
