package cli

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/ledger"
	"github.com/cairnhq/cairn/internal/obs"
)

// zipText is every file of a zip, concatenated.
func zipText(t *testing.T, path string) (string, []string) {
	t.Helper()
	z, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	var all strings.Builder
	var names []string
	for _, f := range z.File {
		names = append(names, f.Name)
		r, _ := f.Open()
		b, _ := io.ReadAll(r)
		r.Close()
		all.Write(b)
	}
	return all.String(), names
}

// TestDiagAnonymized: a bundle holds the recent errors and the log; with
// privacy: anonymized no symbol name, path or source text gets in.
func TestDiagAnonymized(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, "cache"))
	repo := t.TempDir()
	os.WriteFile(filepath.Join(repo, "widget.go"), []byte("package w\n\n// ZanzibarWidget is secret source.\nfunc ZanzibarWidget() {}\n"), 0o644)
	state := filepath.Join(t.TempDir(), "state")
	os.MkdirAll(filepath.Join(state, "logs"), 0o700)
	l, _, err := ledger.Open(ledger.Path(state), ledger.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l.Append(ledger.Operation{RequestID: "req_1", Time: time.Now(), Type: "symbol_get", ErrorCode: "NOT_FOUND", ErrorMessage: `no symbol named "ZanzibarWidgetX"`})
	l.Close()
	os.WriteFile(obs.LogFile(state), []byte(`{"ts":"2026-01-01T00:00:00Z","level":"warn","event":"call","tool":"symbol_get","outcome":"NOT_FOUND","error":"no symbol named ZanzibarWidgetX"}`+"\n"+
		`{"ts":"2026-01-01T00:00:01Z","level":"info","event":"reindexed widget.go ZanzibarWidget"}`+"\n"), 0o600)

	run := func(privacy string) (string, []string) {
		t.Setenv("CAIRN__PRIVACY", privacy)
		out := filepath.Join(t.TempDir(), "bundle.zip")
		var stdout, stderr bytes.Buffer
		if code := Run(context.Background(), []string{"diag", "--repo", repo, "--state-dir", state, "--out", out}, &stdout, &stderr); code != 0 {
			t.Fatalf("diag (%s): exit %d\n%s", privacy, code, stderr.String())
		}
		return zipText(t, out)
	}
	text, names := run("normal")
	for _, want := range []string{"config.yaml", "doctor.json", "status.json", "recent_errors.json", "log_tail.jsonl", "version.json"} {
		if !strings.Contains(strings.Join(names, " "), want) {
			t.Errorf("bundle lacks %s: %v", want, names)
		}
	}
	if !strings.Contains(text, "ZanzibarWidgetX") || !strings.Contains(text, "NOT_FOUND") {
		t.Errorf("a normal bundle lacks the error's message")
	}
	if tok, err := os.ReadFile(filepath.Join(state, "token")); err == nil && len(tok) > 0 && strings.Contains(text, strings.TrimSpace(string(tok))) {
		t.Errorf("the bundle holds the server token")
	}
	text, _ = run("anonymized")
	if strings.Contains(text, "Zanzibar") || strings.Contains(text, "secret source") {
		t.Errorf("an anonymized bundle names a symbol or holds source:\n%s", text)
	}
	if !strings.Contains(text, "NOT_FOUND") || !strings.Contains(text, `"tool":"symbol_get"`) {
		t.Errorf("an anonymized bundle lost the error codes")
	}
}
