package service_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/tools"
)

// deepFiles are files whose nesting made stored names grow with its square:
// 10,000 nested TypeScript functions (f0.f1.f2...), Go struct types nested
// 1,000 deep, Python definitions nested 300 deep, and a class whose name
// alone is longer than a lexical path may be.
func deepFiles() map[string]string {
	var ts, gs, py strings.Builder
	for i := 0; i < 10000; i++ {
		fmt.Fprintf(&ts, "function f%d() { ", i)
	}
	ts.WriteString("g();" + strings.Repeat("}", 10000) + "\n")
	gs.WriteString("package deep\n\ntype T ")
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&gs, "struct { F%d ", i)
	}
	gs.WriteString("int" + strings.Repeat("}", 1000) + "\n")
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&py, "%sdef f%d():\n", strings.Repeat("\t", i), i)
	}
	py.WriteString(strings.Repeat("\t", 300) + "g()\n")
	long := "class " + strings.Repeat("Long", 1000) + " {\n"
	for i := 0; i < 100; i++ {
		long += fmt.Sprintf("  m%d() {}\n", i)
	}
	return map[string]string{
		"go.mod":  "module example.com/deep\n",
		"deep.ts": ts.String(),
		"deep.go": gs.String(),
		"deep.py": py.String(),
		"long.ts": long + "}\n",
	}
}

// stateBytes is the size of the index and the blob store, write-ahead logs
// included.
func stateBytes(s *service.Service) int64 {
	var n int64
	for _, p := range []string{s.Paths().IndexPath, s.Paths().BlobPath} {
		for _, suffix := range []string{"", "-wal"} {
			if st, err := os.Stat(p + suffix); err == nil {
				n += st.Size()
			}
		}
	}
	return n
}

// Deeply nested code is indexed within a budget that does not depend on the
// nesting: the index stays small, no stored name is longer than the bound,
// the outer definitions are found, and the parse state of each file (ls,
// status, index_ensure, the symbol card) says that its facts stop at the
// bound, also when a later build reuses the stored facts.
func TestDeepNestingIndexesWithinBounds(t *testing.T) {
	paths, cfg := newRepo(t, deepFiles())
	ctx := context.Background()
	s := mustOpen(t, paths, cfg, service.Options{})
	defer s.Close()
	env := call(t, s, "index_ensure", map[string]any{"timeout_ms": 600000})
	answer(t, env)
	const warning = "4 files nest deeper than 64 levels or have lexical paths over 1024 bytes"
	if w := strings.Join(env.Provenance.Warnings, "\n"); !strings.Contains(w, warning) {
		t.Errorf("index warnings do not report the bound:\n%s", w)
	}
	if got, want := env.Data.(*tools.IndexOut).Capped, []string{"deep.go", "deep.py", "deep.ts", "long.ts"}; !cmp.Equal(got, want) {
		t.Errorf("index_ensure capped = %v, want %v", got, want)
	}
	if n := stateBytes(s); n > 16<<20 {
		t.Errorf("index and blob store take %d MB", n>>20)
	}
	snap, err := s.Env().Index.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := snap.Store().AllSymbols(ctx)
	snap.Release()
	if err != nil {
		t.Fatal(err)
	}
	longest := 0
	for _, r := range rows {
		longest = max(longest, len(r.QName))
	}
	// a qualified name is the file's module or path, a separator and the
	// lexical path
	if limit := len("example.com/deep.") + lang.MaxPath; longest > limit || len(rows) > 1000 {
		t.Errorf("%d symbols, the longest qualified name %d bytes (bound %d)", len(rows), longest, limit)
	}
	for _, sym := range []string{"deep.ts#f0.f1", "example.com/deep.T.F0.F1", "deep.py#f0.f1"} {
		card := call(t, s, "symbol_get", map[string]any{"symbol": sym})
		answer(t, card)
		if got := card.Data.(*tools.SymbolCardOut).Limits; !strings.Contains(got, "nesting deeper than 64 levels") {
			t.Errorf("%s: card limits %q", sym, got)
		}
		if w := strings.Join(card.Provenance.Warnings, "\n"); !strings.Contains(w, "reaches the extractor's bounds: nesting deeper than 64 levels") {
			t.Errorf("%s: the symbol card does not report the bound:\n%s", sym, w)
		}
	}

	check := func(when string) {
		t.Helper()
		ls := call(t, s, "list_files", map[string]any{})
		answer(t, ls)
		states := map[string]string{}
		for _, e := range ls.Data.(*query.ListResult).Entries {
			states[e.Path] = e.State
		}
		want := map[string]string{"go.mod": "text", "deep.ts": "capped", "deep.go": "capped", "deep.py": "capped", "long.ts": "capped"}
		if diff := cmp.Diff(want, states); diff != "" {
			t.Errorf("%s: file states (-want +got):\n%s", when, diff)
		}
		st := call(t, s, "status", map[string]any{})
		answer(t, st)
		if got := st.Data.(*tools.StatusOut).FileStates; got["capped"] != 4 {
			t.Errorf("%s: status file states %v", when, got)
		}
		if w := strings.Join(st.Provenance.Warnings, "\n"); !strings.Contains(w, warning) {
			t.Errorf("%s: status warnings do not report the bound:\n%s", when, w)
		}
	}
	check("first build")
	// A full rebuild finds every blob in the store and parses nothing.
	answer(t, call(t, s, "index_ensure", map[string]any{"full": true, "timeout_ms": 600000}))
	check("rebuild from stored facts")
}

// peakMemoryBudget is what indexing the 10,000-level file may take at peak
// (VmHWM of the whole process: Go heap, tree-sitter, SQLite). Before the
// bounds it took 2.3 GB.
const peakMemoryBudget = 128 << 20

// Indexing the 10,000-level TypeScript file stays within peakMemoryBudget.
// A fresh process measures it (the high-water mark of this one depends on
// the tests before it): the test runs itself with CAIRN_NESTING_CHILD set,
// and the child indexes the file and prints its VmHWM.
func TestDeepNestingPeakMemory(t *testing.T) {
	if os.Getenv("CAIRN_NESTING_CHILD") != "" {
		files := deepFiles()
		paths, cfg := newRepo(t, map[string]string{"deep.ts": files["deep.ts"]})
		s := mustOpen(t, paths, cfg, service.Options{})
		defer s.Close()
		answer(t, call(t, s, "index_ensure", map[string]any{"timeout_ms": 600000}))
		fmt.Printf("\nVmHWM %d\n", vmHWM(t))
		return
	}
	peak := childFigures(t, "TestDeepNestingPeakMemory", "CAIRN_NESTING_CHILD=1", "VmHWM")["VmHWM"]
	t.Logf("peak RSS indexing 10,000 nested functions: %d MB", peak>>20)
	if peak > peakMemoryBudget {
		t.Errorf("peak RSS %d MB, over the budget of %d MB", peak>>20, peakMemoryBudget>>20)
	}
}

// childFigures runs test again in a fresh process with env set (the test
// measures there) and returns the figures the child printed as lines
// "<name> <integer>"; each of names must be among them.
func childFigures(t *testing.T, test, env string, names ...string) map[string]int64 {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	figures := map[string]int64{}
	for _, line := range strings.Split(string(out), "\n") {
		if name, v, ok := strings.Cut(line, " "); ok {
			if n, err := strconv.ParseInt(v, 10, 64); err == nil {
				figures[name] = n
			}
		}
	}
	for _, name := range names {
		if figures[name] == 0 {
			t.Fatalf("the child reported no %s:\n%s", name, out)
		}
	}
	return figures
}

// vmHWM is the process's peak resident set size in bytes (Linux).
func vmHWM(t *testing.T) int64 {
	t.Helper()
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
	return 0
}
