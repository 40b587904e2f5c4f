package e2e_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/testenv"
)

// snippet is one marked code block of the README.
type snippet struct {
	name, lang, body string
}

var snippetRe = regexp.MustCompile("(?s)<!-- snippet: ([a-z0-9-]+) -->\\s*```(\\w+)\\n(.*?)```")

func readmeSnippets(t *testing.T) map[string]snippet {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]snippet{}
	for _, m := range snippetRe.FindAllStringSubmatch(string(b), -1) {
		out[m[1]] = snippet{name: m[1], lang: m[2], body: m[3]}
	}
	return out
}

// launch is what a snippet tells an agent to start: a command over stdio, or
// a URL with headers over HTTP.
type launch struct {
	command string
	args    []string
	url     string
	headers map[string]string
}

// shellWords splits a command line the way sh would for simple quoting.
func shellWords(s string) []string {
	var out []string
	var cur strings.Builder
	quote := byte(0)
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '"' || c == '\'':
			quote, inWord = c, true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out
}

// parseClaude reads `claude mcp add [--transport http] NAME (-- CMD ARGS | URL) [--header "K: V"]`.
func parseClaude(t *testing.T, body string) launch {
	w := shellWords(strings.TrimSpace(body))
	if len(w) < 4 || w[0] != "claude" || w[1] != "mcp" || w[2] != "add" {
		t.Fatalf("not a `claude mcp add` command: %q", body)
	}
	l := launch{headers: map[string]string{}}
	rest := w[3:]
	for i := 0; i < len(rest); i++ {
		switch a := rest[i]; {
		case a == "--":
			l.command, l.args = rest[i+1], rest[i+2:]
			return l
		case a == "--transport":
			i++
		case a == "--header":
			k, v, _ := strings.Cut(rest[i+1], ":")
			l.headers[strings.TrimSpace(k)] = strings.TrimSpace(v)
			i++
		case strings.HasPrefix(a, "http://") || strings.HasPrefix(a, "https://"):
			l.url = a
		}
	}
	return l
}

// parseConfig reads a Cursor (mcpServers) or VS Code (servers) mcp.json.
func parseConfig(t *testing.T, body string) launch {
	var cfg map[string]map[string]struct {
		Type    string            `json:"type"`
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		URL     string            `json:"url"`
		Headers map[string]string `json:"headers"`
	}
	if err := json.Unmarshal([]byte(body), &cfg); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, body)
	}
	servers := cfg["mcpServers"]
	if servers == nil {
		servers = cfg["servers"]
	}
	s, ok := servers["cairn"]
	if !ok {
		t.Fatalf("no cairn server in %s", body)
	}
	if s.Type != "" && s.Type != "stdio" && s.Type != "http" {
		t.Fatalf("unknown server type %q", s.Type)
	}
	return launch{command: s.Command, args: s.Args, url: s.URL, headers: s.Headers}
}

// TestREADMESnippets launches every agent configuration of the README with
// the official TypeScript client: the commands and arguments over stdio, the
// URL and headers over HTTP against a running `cairn up`.
func TestREADMESnippets(t *testing.T) {
	node(t)
	bin := cairn(t)
	testenv.Isolate(t)
	repo := testenv.Repo(t, testenv.Demo)
	snippets := readmeSnippets(t)
	want := []string{"claude-stdio", "claude-http", "cursor-stdio", "cursor-http", "vscode-stdio", "vscode-http"}
	server := startUp(t, bin, repo) // for the HTTP snippets
	defer server.stop()
	for _, name := range want {
		sn, ok := snippets[name]
		if !ok {
			t.Fatalf("README has no snippet %q", name)
		}
		t.Run(name, func(t *testing.T) {
			var l launch
			if sn.lang == "sh" {
				l = parseClaude(t, sn.body)
			} else {
				l = parseConfig(t, sn.body)
			}
			if l.url == "" {
				if l.command != "cairn" {
					t.Fatalf("the snippet starts %q, not cairn", l.command)
				}
				args := make([]string, len(l.args))
				for i, a := range l.args {
					args[i] = strings.ReplaceAll(a, "/path/to/repo", repo)
				}
				runClient(t, repo, nil, append([]string{"stdio", bin}, args...)...)
				return
			}
			url := strings.ReplaceAll(l.url, "PORT", fmt.Sprint(server.port))
			auth := strings.ReplaceAll(l.headers["Authorization"], "TOKEN", server.token)
			token, ok := strings.CutPrefix(auth, "Bearer ")
			if !ok || token != server.token {
				t.Fatalf("the snippet's Authorization header %q does not carry the bearer token", l.headers["Authorization"])
			}
			runClient(t, repo, []string{"CAIRN_TOKEN=" + token}, "http", url)
		})
	}
}

// upServer is a running `cairn up`.
type upServer struct {
	port  int
	token string
	cmd   *exec.Cmd
}

func (s *upServer) stop() {
	s.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(8 * time.Second):
		s.cmd.Process.Kill()
	}
}

// startUp runs `cairn up` on a repository and waits for its port and token.
func startUp(t *testing.T, bin, repo string) *upServer {
	t.Helper()
	return startUpIn(t, bin, repo, filepath.Join(t.TempDir(), "state"))
}
