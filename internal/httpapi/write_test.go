package httpapi_test

import (
	"encoding/json"
	"testing"

	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
)

// Writes over REST against a serving owner (whose watcher sees the same
// changes): the write answers at a new epoch, the next search finds what it
// wrote, a stale hash is a 409 CONFLICT, a secret a 403, and edit_undo takes
// the write back.
func TestWriteOverREST(t *testing.T) {
	ts, svc := start(t, token, service.Options{Serve: true})
	testenv.WaitReady(t, svc)
	post := func(tool string, args any) reply {
		t.Helper()
		b, _ := json.Marshal(args)
		return do(t, ts, "POST", "/api/v1/tools/"+tool, string(b), auth())
	}
	epoch := func(r reply) float64 {
		p, _ := r.body["provenance"].(map[string]any)
		n, _ := p["epoch"].(float64)
		return n
	}
	read := post("read_source", map[string]any{"path": "main.go"})
	data, _ := read.body["data"].(map[string]any)
	sum, _ := data["file_sha256"].(string)
	if sum == "" {
		t.Fatalf("no file_sha256: %v", read.body)
	}
	w := post("write_source", map[string]any{"edits": []map[string]any{
		{"path": "extra/extra.go", "action": "create", "content": "package extra\n\n// Brandnew is new.\nfunc Brandnew() {}\n"},
		{"path": "main.go", "action": "update", "expected_sha256": sum,
			"spans": []map[string]any{{"start_line": 6, "expected": "\ts := server.NewServer(\":8080\")", "new_text": "\ts := server.NewServer(\":9090\")"}}},
	}})
	if w.status != 200 {
		t.Fatalf("write: %d %v", w.status, w.body["error"])
	}
	if epoch(w) <= epoch(read) {
		t.Errorf("write answered at epoch %v, the read before at %v", epoch(w), epoch(read))
	}
	s := post("search", map[string]any{"query": "Brandnew", "mode": "definitions"})
	if hits, _ := s.body["data"].(map[string]any)["total"].(float64); s.status != 200 || hits != 1 {
		t.Errorf("search after the write: %d %v", s.status, s.body["answer"])
	}
	if r := post("write_source", map[string]any{"edits": []map[string]any{{"path": "main.go", "action": "delete", "expected_sha256": sum}}}); r.status != 409 || errCode(r) != "CONFLICT" {
		t.Errorf("stale hash: %d %v", r.status, r.body["error"])
	}
	if r := post("write_source", map[string]any{"edits": []map[string]any{{"path": ".env", "action": "create", "content": "K=v\n"}}}); r.status != 403 || errCode(r) != "PATH_REFUSED" {
		t.Errorf("secret: %d %v", r.status, r.body["error"])
	}
	if r := post("edit_undo", map[string]any{}); r.status != 200 {
		t.Fatalf("undo: %d %v", r.status, r.body["error"])
	}
	s = post("search", map[string]any{"query": "Brandnew", "mode": "definitions"})
	if hits, _ := s.body["data"].(map[string]any)["total"].(float64); hits != 0 {
		t.Errorf("search after the undo: %v", s.body["answer"])
	}
	if r := post("read_source", map[string]any{"path": "main.go"}); r.body["data"].(map[string]any)["file_sha256"] != sum {
		t.Errorf("main.go not restored: %v", r.body["data"])
	}
}
