package service_test

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
)

// budgetCorpus generates a Go module of pkgs packages with files files
// each: types, methods, and calls into the package before, so the index
// has definitions, references and cross-package links to hold.
func budgetCorpus(pkgs, files int) map[string]string {
	out := map[string]string{"go.mod": "module example.com/big\n\ngo 1.22\n"}
	for p := range pkgs {
		for f := range files {
			var b strings.Builder
			fmt.Fprintf(&b, "package p%d\n\n", p)
			if p > 0 {
				fmt.Fprintf(&b, "import prev \"example.com/big/p%d\"\n\n", p-1)
			}
			for d := range 12 {
				name := fmt.Sprintf("T%d_%d", f, d)
				fmt.Fprintf(&b, "// %s is type %d of file %d of package %d, with a comment long enough to look like documentation.\n", name, d, f, p)
				fmt.Fprintf(&b, "type %s struct {\n\tName  string\n\tCount int\n\tNext  *%s\n}\n\n", name, name)
				fmt.Fprintf(&b, "// Work does the work of %s.\nfunc (t *%s) Work(n int) int {\n\ttotal := 0\n\tfor i := 0; i < n; i++ {\n\t\ttotal += t.Count * i\n\t}\n", name, name)
				if p > 0 {
					fmt.Fprintf(&b, "\tvar other prev.%s\n\ttotal += other.Work(n)\n", name)
				}
				fmt.Fprintf(&b, "\treturn total + len(t.Name)\n}\n\n")
				fmt.Fprintf(&b, "// New%s makes a %s.\nfunc New%s(name string) *%s { return &%s{Name: name, Count: %d} }\n\n", name, name, name, name, name, d)
			}
			out[fmt.Sprintf("p%d/f%d.go", p, f)] = b.String()
		}
	}
	return out
}

// budgetMB is the memory budget the test gives the index. The process may
// hold it beyond what it held before the index began (about 50 MB: the
// binary's pages, the runtime, the open store), and nothing more: the Go
// heap's share, SQLite's caches and maps, the linker's packages and the
// decoded facts all come out of it. On this corpus the peak was 236 MB
// before the index spent the budget, 150 MB while the linker held every
// file's symbols, 110 MB since.
const budgetMB = 64

// A full index respects index.memory_mb: its peak resident set stays
// under the budget plus what the process held before it began. A fresh
// process measures it (the test runs itself with CAIRN_BUDGET_CHILD set),
// on a generated module of 1,600 files (about 12 MB).
func TestFullIndexKeepsItsMemoryBudget(t *testing.T) {
	if os.Getenv("CAIRN_BUDGET_CHILD") != "" {
		paths, cfg := newRepo(t, budgetCorpus(40, 40))
		cfg.Index.MemoryMB, _ = strconv.Atoi(os.Getenv("CAIRN_BUDGET_CHILD"))
		s := mustOpen(t, paths, cfg, service.Options{})
		defer s.Close()
		fmt.Printf("\nbefore %d\n", vmHWM(t))
		answer(t, call(t, s, "index_ensure", map[string]any{"timeout_ms": 600000}))
		fmt.Printf("\nVmHWM %d\n", vmHWM(t))
		return
	}
	if testenv.Race {
		// Without it the index grows the process by about 30 MB; under
		// it by about 70 MB, the detector's shadow memory included.
		t.Skip("the race detector's shadow memory is outside the budget; make test measures it")
	}
	figures := childFigures(t, "TestFullIndexKeepsItsMemoryBudget", "CAIRN_BUDGET_CHILD="+strconv.Itoa(budgetMB), "before", "VmHWM")
	before, peak := figures["before"], figures["VmHWM"]
	t.Logf("peak RSS of a full index with a %d MB budget: %d MB (%d MB before it began)", budgetMB, peak>>20, before>>20)
	if peak > before+budgetMB<<20 {
		t.Errorf("peak RSS %d MB, over the budget of %d MB plus the %d MB held before the index began", peak>>20, budgetMB, before>>20)
	}
}
