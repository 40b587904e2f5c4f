package renamebench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"time"
	"unicode/utf16"
)

// TSStrata are the kinds of TypeScript declarations a sample draws from.
var TSStrata = []string{"function", "class", "interface", "type_alias", "variable", "method", "property", "iface_member"}

// TSSymbols lists the declarations of the TypeScript project in dir with
// the TypeScript compiler's parser (tsdecls.js), grouped by stratum.
func TSSymbols(dir string) (map[string][]Symbol, error) {
	_, self, _, _ := runtime.Caller(0)
	cmd := exec.Command("node", filepath.Join(filepath.Dir(self), "tsdecls.js"), dir)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("tsdecls: %w", err)
	}
	byKind := map[string][]Symbol{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	lines := map[string][]string{}
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var d struct {
			Path, Name, Kind string
			Line, Char       int
		}
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			return nil, err
		}
		p := filepath.ToSlash(d.Path)
		if lines[p] == nil {
			b, err := os.ReadFile(filepath.Join(dir, d.Path))
			if err != nil {
				return nil, err
			}
			lines[p] = strings.Split(string(b), "\n")
		}
		byKind[d.Kind] = append(byKind[d.Kind], Symbol{Path: p, Line: d.Line + 1, Col: byteCol(lines[p][d.Line], d.Char), Name: d.Name, Kind: d.Kind})
	}
	for k := range byKind {
		sortSymbols(byKind[k])
	}
	return byKind, nil
}

// byteCol converts a 0-based UTF-16 character to a 1-based byte column.
func byteCol(line string, char int) int {
	u := 0
	for i, r := range line {
		if u >= char {
			return i + 1
		}
		u += len(utf16.Encode([]rune{r}))
	}
	return len(line) + 1
}

// tsError matches a tsc diagnostic.
var tsError = regexp.MustCompile(`^(.+?)\(\d+,\d+\): error (TS\d+): (.*)$`)

// TSC runs tsc --noEmit on the project and returns its errors without
// their positions (file, code, message), which a rename does not move.
func (w *Work) TSC(ctx context.Context) (map[string]int, string, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(w.Dir, "node_modules", ".bin", "tsc"), "--noEmit", "-p", ".")
	cmd.Dir, cmd.Env = w.Dir, w.Env
	out, _ := cmd.CombinedOutput()
	errs := map[string]int{}
	for _, l := range strings.Split(string(out), "\n") {
		if m := tsError.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			errs[m[1]+" "+m[2]+" "+m[3]]++
		}
	}
	if len(errs) == 0 && strings.Contains(string(out), "error") {
		return nil, string(out), fmt.Errorf("tsc: %s", firstLines(string(out), 5))
	}
	return errs, string(out), nil
}

// newErrors lists the errors (counted by key) that after has more of than
// before, sorted.
func newErrors(after, before map[string]int) []string {
	var fresh []string
	for k, n := range after {
		if n > before[k] {
			fresh = append(fresh, k)
		}
	}
	sort.Strings(fresh)
	return fresh
}

// tsCheck compares tsc's errors with the baseline's: a new one breaks.
func (w *Work) tsCheck(ctx context.Context, base map[string]int) Check {
	t := time.Now()
	errs, out, err := w.TSC(ctx)
	c := Check{OK: true, Command: "tsc --noEmit -p .", MS: 0}
	if err != nil {
		c.OK, c.Output = false, err.Error()
	}
	if fresh := newErrors(errs, base); len(fresh) > 0 {
		c.OK = false
		c.Output = firstLines(strings.Join(fresh, "\n"), 12)
	}
	_ = out
	c.MS = time.Since(t).Milliseconds()
	return c
}

// RunTS measures TypeScript renames on one project.
func RunTS(ctx context.Context, c Config) (*Result, error) {
	// Every use renamed, no alias kept (export { xRb as x }, { xRb: x }):
	// the rename Cairn makes, which tsserver makes when asked so.
	c.Oracle.InitOptions = map[string]any{"preferences": map[string]any{"providePrefixAndSuffixTextForRename": false}}
	res := &Result{Corpus: c.Corpus, Lang: "typescript", Seed: c.Seed, PerKind: c.N, TimingMS: map[string]int64{}}
	if err := c.Work.Restore(ctx); err != nil {
		return nil, err
	}
	byKind, err := TSSymbols(c.Work.Dir)
	if err != nil {
		return nil, err
	}
	res.Symbols = Draw(byKind, TSStrata, c.N, c.Seed, c.Corpus, "Rb")
	c.Log("%s: %d symbols drawn", c.Corpus, len(res.Symbols))
	t := time.Now()
	base, _, err := c.Work.TSC(ctx)
	if err != nil {
		return nil, err
	}
	res.TimingMS["tsc_baseline"] = time.Since(t).Milliseconds()
	c.Log("%s: tsc baseline: %d errors (in dependencies' typings), %d ms", c.Corpus, len(base), res.TimingMS["tsc_baseline"])
	return c.renames(ctx, res, func(ctx context.Context, _ []string) Check { return c.Work.tsCheck(ctx, base) }, c.Out)
}
