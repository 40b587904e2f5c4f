package agentbench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Result is one question asked and scored.
type Result struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"`
	Repo   string `json:"repo"`
	Target string `json:"target"`
	Truth  int    `json:"truth"`
	// Status is "ok" or "error CODE" (Cairn's answer).
	Status  string  `json:"status"`
	Exit    int     `json:"exit"`
	Verdict Verdict `json:"verdict"`
	// Tokens is chars/4 of Cairn's --json output; BaselineTokens of the
	// grep output plus the windows read.
	Chars          int   `json:"chars"`
	Tokens         int   `json:"tokens"`
	BaselineHits   int   `json:"baseline_hits"`
	BaselineChars  int   `json:"baseline_chars"`
	BaselineTokens int   `json:"baseline_tokens"`
	Millis         int64 `json:"ms"`
}

// Runner asks the questions.
type Runner struct {
	Cairn string            // the cairn binary
	Work  map[string]string // repo -> work copy
	State string            // directory for Cairn's state, one sub-directory per repo
	Log   func(format string, args ...any)
}

// Index builds Cairn's index of a repository (not counted: an agent's
// session starts with an index).
func (r *Runner) Index(ctx context.Context, repo string) (time.Duration, error) {
	t := time.Now()
	cmd := exec.CommandContext(ctx, r.Cairn, "--repo", r.Work[repo], "--state-dir", r.stateDir(repo), "--timeout", "1800000", "index")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("cairn index %s: %w: %s", repo, err, stderr.String())
	}
	return time.Since(t), nil
}

func (r *Runner) stateDir(repo string) string { return filepath.Join(r.State, repo) }

// Ask asks one question in one CLI call and scores it.
func (r *Runner) Ask(ctx context.Context, q Question) (Result, error) {
	res := Result{ID: q.ID, Kind: q.Kind, Repo: q.Repo, Target: q.Target, Truth: len(q.Truth)}
	// a generous deadline: the machine may be shared, and a slow answer is
	// still the answer
	args := append([]string{"--repo", r.Work[q.Repo], "--state-dir", r.stateDir(q.Repo), "--timeout", "120000"}, q.Command...)
	cmd := exec.CommandContext(ctx, r.Cairn, args...)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	t := time.Now()
	err := cmd.Run()
	res.Millis = time.Since(t).Milliseconds()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		res.Exit = ee.ExitCode()
	} else if err != nil {
		return res, err
	}
	out := stdout.Bytes()
	res.Chars = len(out)
	res.Tokens = Tokens(len(out))
	items, status, err := Extract(q.Kind, q.Repo, q.Target, out)
	if err != nil {
		res.Status = "no envelope"
		items = nil
	} else {
		res.Status = status
	}
	res.Verdict = Compare(q.Truth, items)
	hits, chars, err := Baseline(r.Work[q.Repo], q.Baseline, q.BaselineFixed)
	if err != nil {
		return res, err
	}
	res.BaselineHits, res.BaselineChars, res.BaselineTokens = hits, chars, Tokens(chars)
	return res, nil
}

// Baseline is what an expert pays with grep and read: `rg -n -w NAME` (or
// `rg -n -F TEXT`) over the repository, then ±20 lines around each of the
// first 5 hits. It returns the hits and the characters read.
func Baseline(root, pattern string, fixed bool) (int, int, error) {
	flag := "-w"
	if fixed {
		flag = "-F"
	}
	cmd := exec.Command("rg", "-n", "--sort", "path", flag, "--", pattern, ".")
	cmd.Dir = root
	out, err := cmd.Output()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) { // 1: no match
		return 0, 0, fmt.Errorf("rg %s: %w", pattern, err)
	}
	hits := ParseGrep(string(out))
	chars := len(out)
	for i, h := range hits {
		if i == 5 {
			break
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(h.Path)))
		if err != nil {
			continue
		}
		chars += len(Window(strings.Split(string(b), "\n"), h.Line))
	}
	return len(hits), chars, nil
}
