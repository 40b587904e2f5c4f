package e2e_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairnhq/cairn/internal/testenv"
)

// restEnvelope is what a REST tool call answers.
type restEnvelope struct {
	Answer string         `json:"answer"`
	Data   map[string]any `json:"data"`
	Error  *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Provenance struct {
		Warnings []string `json:"warnings"`
	} `json:"provenance"`
}

// tool calls a tool over REST and returns the HTTP status and envelope.
func (s *upServer) tool(t *testing.T, name string, args any) (int, restEnvelope) {
	t.Helper()
	body, _ := json.Marshal(args)
	code, m := s.rest(t, name, string(body), "")
	var env restEnvelope
	b, _ := json.Marshal(m)
	if err := json.Unmarshal(b, &env); err != nil {
		t.Fatalf("%s: status %d, undecodable answer: %v", name, code, err)
	}
	return code, env
}

// TestGitFaults: the server's git is swapped under it while it runs. With
// a git that is killed in the middle of its output, and with no git on
// PATH at all, the git tools (git_log, git_history, git_status) fail with
// GIT_UNAVAILABLE (HTTP 503) and use nothing of a cut-off output; every
// other tool keeps answering, writes are indexed (the scan walks the
// directory when git cannot list it), and once git is back the git tools
// answer again.
func TestGitFaults(t *testing.T) {
	cairn(t)
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Fatal("git is not installed")
	}
	testenv.Isolate(t)
	repo := testenv.Repo(t, testenv.Demo)
	bin := t.TempDir() // the server's whole PATH: a git that the test swaps
	gitPath := filepath.Join(bin, "git")
	setGit := func(script string) {
		t.Helper()
		os.Remove(gitPath)
		if script == "" {
			return
		}
		if err := os.WriteFile(gitPath, []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	working := fmt.Sprintf("exec %s \"$@\"", realGit)
	setGit(working)
	s := startUpEnv(t, cairn(t), repo, filepath.Join(t.TempDir(), "state"), []string{"PATH=" + bin})

	if code, env := s.tool(t, "git_log", map[string]any{}); code != 200 || env.Error != nil {
		t.Fatalf("git_log with git working: %d %+v", code, env.Error)
	}
	readsAnswer := func(when string) {
		t.Helper()
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"search", map[string]any{"query": "NewServer", "mode": "symbol"}},
			{"read_source", map[string]any{"path": "main.go"}},
			{"refs_find", map[string]any{"symbol": "server/server.go#NewServer"}},
			{"symbol_get", map[string]any{"symbol": "server/server.go#NewServer"}},
		} {
			if code, env := s.tool(t, c.tool, c.args); code != 200 || env.Error != nil {
				t.Errorf("%s %s: %d %+v", when, c.tool, code, env.Error)
			}
		}
	}
	gitFails := func(when, want string) {
		t.Helper()
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"git_log", map[string]any{}},
			{"git_history", map[string]any{"path": "main.go"}},
			{"git_status", map[string]any{}},
		} {
			code, env := s.tool(t, c.tool, c.args)
			if code != 503 || env.Error == nil || env.Error.Code != "GIT_UNAVAILABLE" || !strings.Contains(env.Error.Message, want) {
				t.Errorf("%s %s: %d %+v, want 503 GIT_UNAVAILABLE saying %q", when, c.tool, code, env.Error, want)
			}
		}
	}
	writeAndFind := func(when, name string) {
		t.Helper()
		content := fmt.Sprintf("package server\n\n// %s is written while git is out of order.\nfunc %s() {}\n", name, name)
		code, env := s.tool(t, "write_source", map[string]any{"edits": []map[string]any{{"path": "server/" + strings.ToLower(name) + ".go", "action": "create", "content": content}}})
		if code != 200 || env.Error != nil {
			t.Fatalf("%s write_source: %d %+v", when, code, env.Error)
		}
		code, env = s.tool(t, "search", map[string]any{"query": name, "mode": "symbol"})
		if b, _ := json.Marshal(env.Data); code != 200 || !strings.Contains(string(b), "server/"+strings.ToLower(name)+".go") {
			t.Errorf("%s: the written %s is not found: %d %s", when, name, code, b)
		}
	}

	// git killed in the middle of its output.
	setGit(fmt.Sprintf("%s \"$@\" | head -c 40\nkill -9 $$", realGit))
	gitFails("git killed mid-command", "killed")
	readsAnswer("git killed mid-command:")
	writeAndFind("git killed mid-command", "WhileKilled")

	// no git at all.
	setGit("")
	gitFails("git missing", "not installed")
	readsAnswer("git missing:")
	writeAndFind("git missing", "WhileMissing")
	code, env := s.tool(t, "index_ensure", map[string]any{})
	if code != 200 || env.Error != nil || !strings.Contains(strings.Join(env.Provenance.Warnings, "\n"), "git could not list the files") {
		t.Errorf("index_ensure without git: %d %+v, warnings %q", code, env.Error, env.Provenance.Warnings)
	}

	// git back.
	setGit(working)
	if code, env := s.tool(t, "git_log", map[string]any{}); code != 200 || env.Error != nil {
		t.Errorf("git_log with git back: %d %+v", code, env.Error)
	}
	readsAnswer("git back:")
	writeAndFind("git back", "GitBack")
}
