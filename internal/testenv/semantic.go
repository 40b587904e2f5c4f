package testenv

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// The semantic fixtures are small modules with the SCIP index their indexer
// wrote of them, in internal/semantic/testdata (gen.sh, gen-ts.sh make the
// indexes again): "fixture", a Go module indexed by scip-go, and
// "tsfixture", a TypeScript project indexed by scip-typescript.

// semanticTestdata is internal/semantic/testdata, found from this file so
// that the tests of any package reach it.
func semanticTestdata(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("testenv: no source path to find internal/semantic/testdata from")
	}
	return filepath.Join(filepath.Dir(file), "..", "semantic", "testdata")
}

// SemanticFiles reads the files of the semantic fixture name, by slash path.
func SemanticFiles(t testing.TB, name string) map[string]string {
	t.Helper()
	out := ReadTree(t, filepath.Join(semanticTestdata(t), name))
	if len(out) == 0 {
		t.Fatalf("no files in the semantic fixture %s", name)
	}
	return out
}

// SemanticIndex copies the SCIP index of the semantic fixture name into a
// temporary file dated a second ahead, so that it is newer than the files
// the test wrote (a user-supplied index is trusted only for files older
// than it), and returns its path.
func SemanticIndex(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(semanticTestdata(t), name+".scip"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), name+".scip")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Second)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	return p
}
