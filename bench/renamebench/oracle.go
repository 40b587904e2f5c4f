package renamebench

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/cairnhq/cairn/bench/precision"
)

// OracleAnswer is a language server's rename of one symbol: its edits, or
// the error it refused the rename with.
type OracleAnswer struct {
	Edits []precision.TextEdit `json:"edits,omitempty"`
	Err   string               `json:"error,omitempty"`
	MS    int64                `json:"ms"`
}

// OracleOptions say how to ask a language server.
type OracleOptions struct {
	Argv   []string // the server's command line
	Env    []string
	LangID string // languageId for didOpen ("" opens nothing)
	// WaitProgress waits for the server's $/progress to end after the
	// first file is opened (typescript-language-server).
	WaitProgress bool
	// InitOptions are the server's initializationOptions (nil: none).
	InitOptions any
	Timeout     time.Duration // per rename
	Log         func(string, ...any)
}

// key identifies a rename in the oracle's cache.
func key(s Symbol) string { return s.String() + " -> " + s.New }

// OracleRenames asks the language server for every symbol's rename, on the
// work copy as HEAD has it; answers are cached in cache (JSON) and asked
// again only for symbols the cache lacks. Paths in the cached edits are
// relative to the work copy.
func OracleRenames(ctx context.Context, w *Work, syms []Symbol, cache string, o OracleOptions) (map[string]OracleAnswer, error) {
	answers := map[string]OracleAnswer{}
	if b, err := os.ReadFile(cache); err == nil {
		json.Unmarshal(b, &answers)
	}
	var missing []Symbol
	for _, s := range syms {
		if _, ok := answers[key(s)]; !ok {
			missing = append(missing, s)
		}
	}
	if len(missing) > 0 {
		if err := w.Restore(ctx); err != nil {
			return nil, err
		}
		lsp, err := precision.StartLSP(ctx, o.Argv, w.Dir, o.Env, o.InitOptions)
		if err != nil {
			return nil, err
		}
		defer lsp.Close()
		opened := map[string]bool{}
		for i, s := range missing {
			abs := filepath.Join(w.Dir, filepath.FromSlash(s.Path))
			data, err := os.ReadFile(abs)
			if err != nil {
				return nil, err
			}
			if o.LangID != "" && !opened[s.Path] {
				lsp.Open(abs, o.LangID, data)
				opened[s.Path] = true
				if o.WaitProgress && i == 0 {
					lsp.WaitProgress(10 * time.Minute)
				}
			}
			line := strings.Split(string(data), "\n")[s.Line-1]
			char := len(utf16.Encode([]rune(line[:s.Col-1])))
			t := time.Now()
			cctx, cancel := context.WithTimeout(ctx, o.Timeout)
			edits, err := lsp.Rename(cctx, abs, s.Line-1, char, s.New)
			cancel()
			a := OracleAnswer{MS: time.Since(t).Milliseconds()}
			if err != nil {
				if errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "server exited") {
					return nil, err
				}
				a.Err = err.Error()
			}
			for _, e := range edits {
				rel, _ := filepath.Rel(w.Dir, e.Path)
				e.Path = filepath.ToSlash(rel)
				a.Edits = append(a.Edits, e)
			}
			answers[key(s)] = a
			if o.Log != nil {
				o.Log("oracle %d/%d %s: %d edits %s (%d ms)", i+1, len(missing), s, len(a.Edits), a.Err, a.MS)
			}
			if b, err := json.MarshalIndent(answers, "", " "); err == nil {
				os.WriteFile(cache, b, 0o644)
			}
		}
	}
	return answers, nil
}

// Contents applies a cached answer to the work copy's files.
func (a OracleAnswer) Contents(w *Work) (Contents, error) {
	abs := make([]precision.TextEdit, len(a.Edits))
	for i, e := range a.Edits {
		e.Path = filepath.Join(w.Dir, filepath.FromSlash(e.Path))
		abs[i] = e
	}
	return ApplyLSP(w.Dir, abs)
}
