// Package e2e tests Cairn's agent transports from the outside: it builds the
// cairn binary and drives `cairn mcp` (stdio) and `cairn up` (streamable
// HTTP) with the official TypeScript MCP client, as an agent would:
// client.mjs for the transports and reads, writes.mjs for writes. The
// client's npm packages are installed by `make e2e-deps`; without node or the
// packages the tests fail unless CAIRN_SKIP_NODE=1.
package e2e_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/testenv"
)

// sdkVersion is the TypeScript SDK package.json pins.
const sdkVersion = "1.32.2"

var (
	buildOnce sync.Once
	binDir    string
	binPath   string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// cairn builds the binary once per test run. Call it before
// testenv.Isolate: the build needs the real HOME's Go caches.
func cairn(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "cairn-e2e-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binDir, binPath = dir, filepath.Join(dir, "cairn")
		cmd := exec.Command("go", "build", "-o", binPath, "github.com/cairnhq/cairn/cmd/cairn")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// node finds node and the pinned client packages, or fails the test.
func node(t *testing.T) string {
	t.Helper()
	if os.Getenv("CAIRN_SKIP_NODE") == "1" {
		t.Skip("CAIRN_SKIP_NODE=1: the end-to-end tests with the TypeScript MCP client are skipped")
	}
	bin, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed: the end-to-end tests need Node 20+ and `make e2e-deps` (set CAIRN_SKIP_NODE=1 to skip them)")
	}
	b, err := os.ReadFile(filepath.Join("node_modules", "@modelcontextprotocol", "sdk", "package.json"))
	var pkg struct{ Version string }
	if err == nil {
		err = json.Unmarshal(b, &pkg)
	}
	if err != nil || pkg.Version != sdkVersion {
		t.Fatalf("@modelcontextprotocol/sdk %s is not installed in test/e2e/node_modules (found %q, %v): run `make e2e-deps` (set CAIRN_SKIP_NODE=1 to skip these tests)",
			sdkVersion, pkg.Version, err)
	}
	return bin
}

// runClient runs client.mjs and returns what it saw.
func runClient(t *testing.T, repo string, env []string, args ...string) map[string]any {
	t.Helper()
	return runScript(t, "client.mjs", repo, env, args...)
}

// runScript runs one of the client scripts and returns the JSON line it
// printed, failing the test unless the script says ok.
func runScript(t *testing.T, script, repo string, env []string, args ...string) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node(t), append([]string{script}, args...)...)
	cmd.Env = append(append(os.Environ(), "CAIRN_E2E_REPO="+repo), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", script, args[0], err, stdout.String(), stderr.String())
	}
	var seen map[string]any
	if err := json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &seen); err != nil || seen["ok"] != true {
		t.Fatalf("%s %s: %v\n%s", script, args[0], err, stdout.String())
	}
	t.Logf("%s %s: %s", script, args[0], strings.TrimSpace(stdout.String()))
	return seen
}

func TestStdio(t *testing.T) {
	node(t)
	bin := cairn(t)
	testenv.Isolate(t)
	repo := testenv.Repo(t, testenv.Demo)
	seen := runClient(t, repo, nil, "stdio", bin, "mcp", "--repo", repo)
	if seen["missing_code"] != "NOT_FOUND" {
		t.Errorf("missing symbol code = %v", seen["missing_code"])
	}
}

// TestStdioProtocolOnly speaks raw JSON-RPC to `cairn mcp`: every line on
// stdout must be a protocol message, and status answers right after
// initialize, before the first index is necessarily built.
func TestStdioProtocolOnly(t *testing.T) {
	bin := cairn(t)
	testenv.Isolate(t)
	repo := testenv.Repo(t, testenv.Demo)
	cmd := exec.Command(bin, "mcp", "--repo", repo)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	start := time.Now()
	msgs := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"status","arguments":{}}}`,
	}
	for _, m := range msgs {
		fmt.Fprintln(stdin, m)
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	got := map[float64]map[string]any{}
	for len(got) < 2 && sc.Scan() {
		var msg map[string]any
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil || msg["jsonrpc"] != "2.0" {
			t.Fatalf("stdout carries something that is not JSON-RPC: %q", sc.Text())
		}
		if id, ok := msg["id"].(float64); ok {
			got[id] = msg
		}
	}
	if len(got) < 2 {
		t.Fatalf("no answers (stderr: %s)", stderr.String())
	}
	if elapsed := time.Since(start); elapsed > 10*time.Second {
		t.Errorf("initialize and status took %s", elapsed)
	}
	res := got[2]["result"].(map[string]any)
	env := res["structuredContent"].(map[string]any)
	if res["isError"] == true || env["data"].(map[string]any)["repo"] != repo {
		t.Errorf("status = %v", res)
	}
	stdin.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("cairn mcp exited with %v after stdin closed (stderr: %s)", err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Errorf("cairn mcp did not exit after stdin closed")
	}
}

// syncBuffer collects a subprocess's output while the test reads it.
type syncBuffer struct {
	mu sync.Mutex // guards b
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type portFile struct {
	Port int `json:"port"`
	PID  int `json:"pid"`
}

func TestHTTP(t *testing.T) {
	node(t)
	bin := cairn(t)
	testenv.Isolate(t)
	repo := testenv.Repo(t, testenv.Demo)
	stateDir := filepath.Join(t.TempDir(), "state")
	up := exec.Command(bin, "up", "--repo", repo, "--state-dir", stateDir)
	var stdout, stderr syncBuffer
	up.Stdout, up.Stderr = &stdout, &stderr
	if err := up.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- up.Wait() }()
	defer func() {
		up.Process.Kill()
		if t.Failed() {
			t.Logf("cairn up stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
		}
	}()

	// The port file, then the banner with the token.
	var pf portFile
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, err := os.ReadFile(filepath.Join(stateDir, "port"))
		if err == nil && json.Unmarshal(b, &pf) == nil && pf.Port > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no port file after 30s: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if pf.PID != up.Process.Pid {
		t.Errorf("port file pid %d, want %d", pf.PID, up.Process.Pid)
	}
	tokBytes, err := os.ReadFile(filepath.Join(stateDir, "token"))
	if err != nil {
		t.Fatal(err)
	}
	token := strings.TrimSpace(string(tokBytes))
	if st, _ := os.Stat(filepath.Join(stateDir, "token")); st.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %v", st.Mode())
	}
	url := fmt.Sprintf("http://127.0.0.1:%d/mcp", pf.Port)
	for !strings.Contains(stdout.String(), "Press Ctrl+C") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	banner := stdout.String()
	if !strings.Contains(banner, `"Authorization": "Bearer `+token+`"`) || !strings.Contains(banner, `"url": "`+url+`"`) {
		t.Errorf("the banner lacks a client configuration with the URL and token:\n%s", banner)
	}

	runClient(t, repo, []string{"CAIRN_TOKEN=" + token}, "http", url)

	// A second server for the same repository is refused, naming the first.
	second := exec.Command(bin, "up", "--repo", repo, "--state-dir", stateDir)
	out, err := second.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 7 {
		t.Errorf("second cairn up: %v, want exit 7\n%s", err, out)
	}
	if want := fmt.Sprintf("pid %d, port %d", pf.PID, pf.Port); !strings.Contains(string(out), want) {
		t.Errorf("second cairn up does not name the running one (%s):\n%s", want, out)
	}

	// Ctrl+C stops it gracefully and removes the port file.
	up.Process.Signal(os.Interrupt)
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("cairn up exited with %v after SIGINT", err)
		}
	case <-time.After(8 * time.Second):
		t.Fatal("cairn up did not stop within 8s of SIGINT")
	}
	if _, err := os.Stat(filepath.Join(stateDir, "port")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("port file left behind: %v", err)
	}
}

// TestStdioWrites drives the write tools over MCP: a guarded edit seen by
// the next search, a stale hash refused, undo, and a rename proven to build.
func TestStdioWrites(t *testing.T) {
	node(t)
	bin := cairn(t)
	// The build proof compiles with the user's Go cache, as it would for them.
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	testenv.Isolate(t)
	repo := testenv.Repo(t, testenv.Demo)
	env := []string{"GOCACHE=" + strings.TrimSpace(string(gocache))}
	seen := runScript(t, "writes.mjs", repo, env, bin, "mcp", "--repo", repo)
	if seen["stale_code"] != "CONFLICT" || seen["plan_status"] != "ready" {
		t.Errorf("saw %v", seen)
	}
}
