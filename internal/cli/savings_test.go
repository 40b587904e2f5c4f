package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairnhq/cairn/internal/ledger"
	"github.com/cairnhq/cairn/internal/testenv"
)

// TestOneShotSavings: calls of CLI commands run without a server count in
// the repository's totals that status shows: two calls, and the totals grew
// by two calls and by the tokens each said it saved — also while a server's
// ledger is open beside them.
func TestOneShotSavings(t *testing.T) {
	testenv.Isolate(t)
	// A long file, so that a symbol's card saves reading it whole.
	var big strings.Builder
	big.WriteString("package big\n\n// Target is what the calls ask about.\nfunc Target() int { return 1 }\n")
	for i := range 300 {
		fmt.Fprintf(&big, "\n// Filler%d pads the file.\nfunc Filler%d() int { return %d }\n", i, i, i)
	}
	repo := testenv.Repo(t, map[string]string{"go.mod": "module example.com/big\n\ngo 1.22\n", "big/big.go": big.String()})
	state := filepath.Join(t.TempDir(), "state")
	run := func(args ...string) map[string]any {
		t.Helper()
		var stdout, stderr bytes.Buffer
		args = append(args, "--repo", repo, "--state-dir", state, "--json")
		if code := Run(context.Background(), args, &stdout, &stderr); code != 0 {
			t.Fatalf("cairn %v: exit %d\n%s", args, code, stderr.String())
		}
		var env map[string]any
		if err := json.Unmarshal(stdout.Bytes(), &env); err != nil {
			t.Fatalf("cairn %v: %v\n%s", args, err, stdout.String())
		}
		return env
	}
	// totals are the repository's calls and tokens saved as status shows
	// them (status itself is recorded after it answers).
	totals := func() (calls, saved float64) {
		t.Helper()
		s, ok := run("status")["data"].(map[string]any)["savings"].(map[string]any)
		if !ok {
			return 0, 0
		}
		repo := s["repository"].(map[string]any)
		return repo["calls"].(float64), repo["tokens_saved"].(float64)
	}
	savedBy := func(args ...string) float64 {
		t.Helper()
		return run(args...)["meta"].(map[string]any)["tokens_saved"].(float64)
	}

	calls0, saved0 := totals()
	a := savedBy("symbol", "big.Target")
	b := savedBy("search", "Target")
	if a <= 0 {
		t.Fatalf("symbol saved %v tokens; the test needs a call that saves some", a)
	}
	calls1, saved1 := totals()
	if calls1 != calls0+3 || saved1 != saved0+a+b { // the first status, then the two calls
		t.Errorf("after two calls saving %v and %v: totals went from %v calls, %v saved to %v, %v", a, b, calls0, saved0, calls1, saved1)
	}

	// A server holds its ledger open (its writer running): one-shot calls
	// still add their rows, and the server reads them.
	l, _, err := ledger.Open(ledger.Path(state), ledger.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	c := savedBy("symbol", "big.Target")
	got, err := l.Totals(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got.Operations != int64(calls1)+2 || float64(got.TokensSaved) != saved1+c {
		t.Errorf("beside an open ledger: %d operations, %d saved; want %v, %v", got.Operations, got.TokensSaved, calls1+2, saved1+c)
	}
}
