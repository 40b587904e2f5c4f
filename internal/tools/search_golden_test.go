package tools_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/cairnhq/cairn/internal/testenv"
	"github.com/cairnhq/cairn/internal/tools"
)

// searchCalls are the searches whose ranking the golden records as it is:
// lexical (files defining the name first, then non-test files, shallower
// paths, then by path; definition sites first within a defining file),
// symbol mode (exact name first, ignoring case, then kind and visibility
// weights, shorter names, qualified names; test files are not ranked lower)
// and definitions mode (test files last, then by path and line), with path,
// language and kind filters.
var searchCalls = []string{
	// Lexical: exact case, definitions first.
	`{"query": "Total"}`,
	`{"query": "total"}`,
	`{"query": "total", "ignore_case": true}`,
	`{"query": "NewCart"}`,
	`{"query": "Cart", "word": true}`,
	`{"query": "Cart", "word": true, "paths": ["checkout/**", "*.py"]}`,
	`{"query": "Cart", "languages": ["python", "typescript"]}`,
	`{"query": "func \\w+Cart", "regex": true}`,
	`{"query": "Total", "limit": 3}`,
	`{"query": "Checkout"}`, // defined in a test file too
	`{"query": "İstanbul"}`,
	// Symbol mode: an exact name beats a substring, case-insensitively.
	`{"query": "cart", "mode": "symbol"}`,
	`{"query": "TOTAL", "mode": "symbol"}`,
	`{"query": "cart", "mode": "symbol", "kinds": ["struct", "class", "interface"]}`,
	`{"query": "cart", "mode": "symbol", "paths": ["cart/**"]}`,
	`{"query": "cart", "mode": "symbol", "limit": 4}`,
	`{"query": "checkout", "mode": "symbol"}`, // a test file's symbol is not ranked lower
	// Definitions mode: tests last, then by path and line.
	`{"query": "Total", "mode": "definitions"}`,
	`{"query": "helperCart", "mode": "definitions"}`,
	`{"query": "Checkout", "mode": "definitions"}`,
}

// searchGolden is what the golden records of one search.
type searchGolden struct {
	Call    json.RawMessage `json:"call"`
	Answer  string          `json:"answer"`
	More    bool            `json:"more,omitempty"`
	Results []string        `json:"results"`
}

// TestSearchRankingGolden indexes testdata/search_repo.txtar and compares the
// ordered results of searchCalls with testdata/golden/search_ranking.json
// (rewritten with -update).
func TestSearchRankingGolden(t *testing.T) {
	testenv.Isolate(t)
	ar, err := txtar.ParseFile(filepath.Join("testdata", "search_repo.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	svc := openFixture(t, ar)
	got := []searchGolden{}
	for _, call := range searchCalls {
		env := tools.Invoke(context.Background(), svc.Env(), "search", json.RawMessage(call))
		g := searchGolden{Call: json.RawMessage(call), Answer: env.Answer, Results: []string{}}
		if env.Error != nil {
			t.Fatalf("search %s: %s: %s", call, env.Error.Code, env.Error.Message)
		}
		var out struct {
			More    bool `json:"more"`
			Results []struct {
				Location struct {
					Path      string `json:"path"`
					Line, Col int
				} `json:"location"`
				Snippet string `json:"snippet"`
				Score   int    `json:"score"`
				Symbol  *struct {
					QName string `json:"qualified_name"`
					Kind  string `json:"kind"`
				} `json:"symbol"`
			} `json:"results"`
		}
		b, err := json.Marshal(env.Data)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		g.More = out.More
		for _, h := range out.Results {
			at := fmt.Sprintf("%s:%d:%d", h.Location.Path, h.Location.Line, h.Location.Col)
			switch {
			case h.Symbol != nil && h.Score > 0: // symbol mode
				g.Results = append(g.Results, fmt.Sprintf("%d %s %s %s", h.Score, h.Symbol.Kind, h.Symbol.QName, at))
			case h.Symbol != nil: // definitions mode
				g.Results = append(g.Results, fmt.Sprintf("%s %s %s", h.Symbol.Kind, h.Symbol.QName, at))
			default:
				g.Results = append(g.Results, at+" "+h.Snippet)
			}
		}
		got = append(got, g)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(got); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "golden", "search_ranking.json")
	want, err := os.ReadFile(golden)
	if err != nil && !*update {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	matchGolden(t, "search results", string(want), buf.Bytes(), func(b []byte) error { return os.WriteFile(golden, b, 0o644) })
}
