package refactor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/refactor"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
	"github.com/cairnhq/cairn/internal/tools"
)

// manyRefs is a generated Go module: one function referenced from
// packages*files*calls places (plus the import lines, which name the
// package, not the function).
func manyRefs(packages, files, calls int) map[string]string {
	out := map[string]string{
		"go.mod":       "module example.com/big\n\ngo 1.22\n",
		"core/core.go": "package core\n\n// Target is called from everywhere.\nfunc Target(n int) int { return n + 1 }\n",
	}
	for p := 0; p < packages; p++ {
		for f := 0; f < files; f++ {
			var b strings.Builder
			fmt.Fprintf(&b, "package p%d\n\nimport \"example.com/big/core\"\n\nfunc F%d() int {\n\tn := 0\n", p, f)
			for c := 0; c < calls; c++ {
				fmt.Fprintf(&b, "\tn += core.Target(%d)\n", c)
			}
			b.WriteString("\treturn n\n}\n")
			out[fmt.Sprintf("p%d/f%d.go", p, f)] = b.String()
		}
	}
	return out
}

func invoke(t testing.TB, s *service.Service, tool string, args any) *protocol.Envelope {
	t.Helper()
	raw, _ := json.Marshal(args)
	env := tools.Invoke(context.Background(), s.Env(), tool, raw)
	if env.Error != nil {
		t.Fatalf("%s: %s: %s", tool, env.Error.Code, env.Error.Message)
	}
	return env
}

// renameAll plans and applies (without verification) the rename of
// core.<from> and returns the applied outcome and the time the two calls
// took.
func renameAll(t testing.TB, s *service.Service, from, to string) (*refactor.Applied, time.Duration) {
	t.Helper()
	start := time.Now()
	env := invoke(t, s, "refactor_rename", map[string]any{"symbol": "core." + from, "new_name": to, "apply": true, "verify": "none"})
	took := time.Since(start)
	out, ok := env.Data.(*tools.PlanOut)
	if !ok || out.Applied == nil {
		t.Fatalf("not applied: %s", env.Answer)
	}
	return out.Applied, took
}

// A rename of a function referenced in 360 places across 60 files plans
// and applies as one batch; every call site is renamed and the module
// still builds. The time is logged (go test -v), not asserted.
func TestRenameManyReferences(t *testing.T) {
	testenv.Isolate(t)
	const packages, files, calls = 10, 6, 6
	root := testenv.Repo(t, manyRefs(packages, files, calls))
	s := testenv.Open(t, root, service.Options{})
	invoke(t, s, "index_ensure", nil)
	applied, took := renameAll(t, s, "Target", "Goal")
	// every call, the declaration, and Target in its doc comment
	if want := packages*files*calls + 2; applied.Edits != want {
		t.Errorf("%d edits, want %d", applied.Edits, want)
	}
	if want := packages*files + 1; applied.Write.FilesChanged != want {
		t.Errorf("%d files changed, want %d", applied.Write.FilesChanged, want)
	}
	t.Logf("rename of %d references in %d files: plan and apply %s", packages*files*calls, packages*files+1, took)
	data, err := os.ReadFile(filepath.Join(root, "p3", "f2.go"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "Target") || strings.Count(string(data), "core.Goal(") != calls {
		t.Errorf("p3/f2.go not fully renamed:\n%s", data)
	}
	if core, _ := os.ReadFile(filepath.Join(root, "core", "core.go")); !strings.Contains(string(core), "// Goal is called from everywhere.") {
		t.Errorf("core/core.go: the doc comment still names Target:\n%s", core)
	}
	if _, err := exec.LookPath("go"); err == nil {
		cmd := exec.Command("go", "build", "./...")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go build after the rename: %v\n%s", err, out)
		}
	}
}

// BenchmarkRename measures planning and applying the 360-reference rename
// (renaming back and forth, so every iteration does the same work).
func BenchmarkRename(b *testing.B) {
	testenv.Isolate(b)
	root := testenv.Repo(b, manyRefs(10, 6, 6))
	s := testenv.Open(b, root, service.Options{})
	invoke(b, s, "index_ensure", nil)
	names := [2]string{"Target", "Goal"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		renameAll(b, s, names[i%2], names[(i+1)%2])
	}
}
