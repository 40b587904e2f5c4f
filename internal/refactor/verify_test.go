package refactor_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairnhq/cairn/internal/refactor"
	"github.com/cairnhq/cairn/internal/testenv"
)

// tscOnPath puts the TypeScript compiler of the end-to-end test
// dependencies (make e2e-deps) first on PATH for the rest of the test.
func tscOnPath(t *testing.T) {
	t.Helper()
	bin, _ := filepath.Abs(filepath.Join("..", "..", "test", "e2e", "node_modules", ".bin"))
	if _, err := os.Stat(filepath.Join(bin, "tsc")); err != nil {
		t.Fatalf("tsc is not installed under %s: run make e2e-deps", bin)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// TypeScript is checked with tsc --noEmit over a copy: a change that
// breaks a caller is refused with tsc's diagnostic mapped to the edit,
// and errors the tree already had do not refuse a change.
func TestVerifyTypeScript(t *testing.T) {
	tscOnPath(t)
	root := testenv.Tree(t, map[string]string{
		"tsconfig.json": `{"compilerOptions": {"strict": true, "noEmit": true}, "include": ["src"]}`,
		"src/pad.ts":    "export function pad(n: number): string {\n  return String(n);\n}\n",
		"src/main.ts":   "import { pad } from \"./pad\";\n\nconsole.log(pad(3));\n",
	})
	ctx := context.Background()
	broken := refactor.Change{Path: "src/pad.ts", Content: []byte("export function pad(n: number, width: number): string {\n  return String(n) + width;\n}\n"),
		Marks: []refactor.Mark{{Label: "edit 1", Line: 1, EndLine: 2}}}
	rep := refactor.Verify(ctx, refactor.VerifyRequest{Root: root, Changes: []refactor.Change{broken}})
	if rep.OK || len(rep.Diagnostics) == 0 {
		t.Fatalf("a breaking change verified: %+v", rep)
	}
	d := rep.Diagnostics[0]
	if d.Path != "src/main.ts" || d.Line != 3 || !strings.Contains(d.Message, "TS2554") || d.Tool != "tsc" {
		t.Errorf("diagnostic = %+v", d)
	}
	fine := refactor.Change{Path: "src/pad.ts", Content: []byte("export function pad(n: number, width = 2): string {\n  return String(n) + width;\n}\n")}
	if rep := refactor.Verify(ctx, refactor.VerifyRequest{Root: root, Changes: []refactor.Change{fine}}); !rep.OK {
		t.Errorf("a compatible change refused: %+v", rep.Diagnostics)
	}
	// an error the tree already has is not the change's
	if err := os.WriteFile(filepath.Join(root, "src/old.ts"), []byte("const x: number = \"s\";\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if rep := refactor.Verify(ctx, refactor.VerifyRequest{Root: root, Changes: []refactor.Change{fine}}); !rep.OK {
		t.Errorf("refused for an error the tree had: %+v", rep.Diagnostics)
	}
}

// Python is checked with py_compile: a syntax error is refused, mapped to
// the edit on its line.
func TestVerifyPython(t *testing.T) {
	root := testenv.Tree(t, map[string]string{"m.py": "def f():\n    return 1\n"})
	bad := refactor.Change{Path: "m.py", Content: []byte("def f(:\n    return 1\n"), Marks: []refactor.Mark{{Label: "edit 1", Line: 1, EndLine: 1}}}
	rep := refactor.Verify(context.Background(), refactor.VerifyRequest{Root: root, Changes: []refactor.Change{bad}})
	if rep.OK || len(rep.Diagnostics) != 1 || rep.Diagnostics[0].Line != 1 || rep.Diagnostics[0].Edit != "edit 1" {
		t.Errorf("report = %+v", rep)
	}
}
