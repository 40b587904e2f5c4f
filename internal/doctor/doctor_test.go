package doctor

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
	"github.com/cairnhq/cairn/internal/lang"

	_ "github.com/cairnhq/cairn/internal/lang/golang"
)

// fake returns options that touch nothing but a temporary state directory.
func fake(t *testing.T) Options {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	return Options{
		Paths:      config.Paths{Root: filepath.Join(dir, "repo"), StateDir: state, IndexPath: filepath.Join(state, "index.db"), BlobPath: filepath.Join(state, "blobs.db")},
		IndexErr:   errors.New("locked by a test"),
		LookPath:   func(string) (string, error) { return "", errors.New("not found") },
		FreeBytes:  func(string) (uint64, error) { return 50 << 30, nil },
		GitVer:     func(context.Context) (string, error) { return "2.39.5", nil },
		LoadConfig: func(string) (config.Config, error) { return config.Default(), nil },
	}
}

func byName(r *Report) map[string]Check {
	out := map[string]Check{}
	for _, c := range r.Checks {
		out[c.Name] = c
	}
	return out
}

func TestRunWithoutIndex(t *testing.T) {
	r := Run(context.Background(), fake(t))
	var names []string
	for _, c := range r.Checks {
		names = append(names, c.Name+":"+c.Status)
	}
	want := []string{"git:pass", "repository:warn", "index:fail", "index-integrity:warn", "index-head:pass",
		"config:pass", "grammars:pass", "state-dir:pass", "disk-space:pass", "indexers:warn"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("checks (-want +got):\n%s", diff)
	}
	if r.Healthy || r.Failed != 1 || r.Warned != 3 || r.Passed != 6 {
		t.Errorf("healthy=%v passed=%d warned=%d failed=%d", r.Healthy, r.Passed, r.Warned, r.Failed)
	}
	idx := byName(r)["index"]
	if !strings.Contains(idx.Message, "locked by a test") || !strings.Contains(idx.Fix, "rm -f") || !strings.HasSuffix(idx.Fix, "&& cairn index") {
		t.Errorf("index check = %+v", idx)
	}
}

func TestDiskThresholds(t *testing.T) {
	for _, tc := range []struct {
		free uint64
		want string
	}{{2 << 30, Pass}, {1<<30 - 1, Warn}, {100 << 20, Warn}, {100<<20 - 1, Fail}} {
		o := fake(t)
		o.FreeBytes = func(string) (uint64, error) { return tc.free, nil }
		if got := byName(Run(context.Background(), o))["disk-space"]; got.Status != tc.want {
			t.Errorf("free %d: %s (%s), want %s", tc.free, got.Status, got.Message, tc.want)
		}
	}
}

func TestGitChecks(t *testing.T) {
	for _, tc := range []struct {
		ver  string
		err  error
		want string
	}{{"2.20.0", nil, Pass}, {"3.0", nil, Pass}, {"2.19.1", nil, Warn}, {"", gitx.ErrNoGit, Warn}} {
		o := fake(t)
		o.GitVer = func(context.Context) (string, error) { return tc.ver, tc.err }
		if got := byName(Run(context.Background(), o))["git"]; got.Status != tc.want {
			t.Errorf("git %q %v: %s (%s), want %s", tc.ver, tc.err, got.Status, got.Message, tc.want)
		}
	}
}

func TestConfigFix(t *testing.T) {
	o := fake(t)
	repoFile := filepath.Join(o.Paths.Root, ".cairn", "config.yaml")
	for _, tc := range []struct {
		err     error
		wantFix string
	}{
		{errs.E(errs.InvalidArgument, "config: %s: unknown key \"x\"", repoFile), "${EDITOR:-vi} " + repoFile},
		{errs.E(errs.InvalidArgument, "config: environment CAIRN__QUERY__TIMEOUT_MS: key \"query.timeout_ms\" wants an integer"), "unset CAIRN__QUERY__TIMEOUT_MS"},
	} {
		o.LoadConfig = func(string) (config.Config, error) { return config.Config{}, tc.err }
		got := byName(Run(context.Background(), o))["config"]
		if got.Status != Fail || got.Fix != tc.wantFix || got.Message != tc.err.Error() {
			t.Errorf("config check = %+v, want fix %q", got, tc.wantFix)
		}
	}
}

func TestScript(t *testing.T) {
	o := fake(t)
	o.Paths.Root = "/repo/it's here"
	o.Paths.ExplicitState = true
	r := Run(context.Background(), o)
	s := Script(r, o.Paths.Root)
	for _, want := range []string{
		"#!/usr/bin/env sh\n",
		"Nothing here has been run",
		`cd '/repo/it'\''s here' || exit 1`,
		"# [fail] index: the index cannot be opened: locked by a test\n",
		"&& cairn --state-dir " + o.Paths.StateDir + " index\n",
		"# [warn] indexers: not checked",
		"# (no command: see above)\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("script lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "[pass]") {
		t.Errorf("script has blocks for passing checks:\n%s", s)
	}
	clean := Script(&Report{Healthy: true, Checks: []Check{{Name: "git", Status: Pass}}}, "/r")
	if !strings.Contains(clean, "Nothing to fix") {
		t.Errorf("script of a clean report:\n%s", clean)
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/a/b-c_d.e": "/a/b-c_d.e",
		"a b":        "'a b'",
		"it's":       `'it'\''s'`,
		"":           "''",
		"$HOME":      "'$HOME'",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestGrammars(t *testing.T) {
	o := fake(t)
	if got := byName(Run(context.Background(), o))["grammars"]; got.Status != Pass || got.Message != "1 languages compile: go" {
		t.Errorf("grammars = %+v", got)
	}
	broken := *lang.ByName("go")
	broken.Name = "broken"
	broken.Query = "(no_such_node) @definition.function"
	o.Languages = []*lang.Language{lang.ByName("go"), &broken}
	got := byName(Run(context.Background(), o))["grammars"]
	if got.Status != Fail || !strings.Contains(got.Message, "lang broken: query") {
		t.Errorf("grammars with a broken query = %+v", got)
	}
	o.Languages = []*lang.Language{}
	if got := byName(Run(context.Background(), o))["grammars"]; got.Status != Fail {
		t.Errorf("grammars without languages = %+v", got)
	}
}
