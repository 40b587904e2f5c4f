package tools_test

import (
	"flag"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the goldens: the want sections of testdata/{graph,surfaces}/*.txtar and testdata/golden/*")

// openFixture indexes the repository a txtar archive holds: every file of
// the archive except the named sections (the calls and answers kept beside
// it).
func openFixture(t *testing.T, ar *txtar.Archive, sections ...string) *service.Service {
	t.Helper()
	repo := map[string]string{}
	for _, f := range ar.Files {
		if !slices.Contains(sections, f.Name) {
			repo[f.Name] = string(f.Data)
		}
	}
	return testenv.Open(t, testenv.Repo(t, repo), service.Options{})
}

// matchGolden compares what a test produced with its golden copy, want;
// with -update it stores got through write instead.
func matchGolden(t *testing.T, what, want string, got []byte, write func([]byte) error) {
	t.Helper()
	if *update {
		if err := write(got); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("%s differ (-want +got; run with -update to accept):\n%s", what, diff)
	}
}
