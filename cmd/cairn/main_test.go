package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/cairnhq/cairn/internal/cli"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"cairn": func() { os.Exit(cli.Main()) },
	})
}

// TestScripts runs the end-to-end CLI scripts in testdata/script: real git
// repositories built in temporary directories, driven through the cairn binary.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "../../testdata/script",
		// CAIRN_UPDATE_SCRIPTS=1 rewrites the golden files that cmp compares.
		UpdateScripts: os.Getenv("CAIRN_UPDATE_SCRIPTS") != "",
		Setup: func(e *testscript.Env) error {
			// Home, cache and config live outside $WORK so they are not part of
			// the repositories the scripts build there.
			outside, err := os.MkdirTemp("", "cairn-script-home-")
			if err != nil {
				return err
			}
			e.Defer(func() { os.RemoveAll(outside) })
			e.Setenv("HOME", outside+"/home")
			e.Setenv("XDG_CACHE_HOME", outside+"/cache")
			e.Setenv("XDG_CONFIG_HOME", outside+"/config")
			e.Setenv("GIT_AUTHOR_NAME", "Test")
			e.Setenv("GIT_AUTHOR_EMAIL", "test@example.com")
			e.Setenv("GIT_COMMITTER_NAME", "Test")
			e.Setenv("GIT_COMMITTER_EMAIL", "test@example.com")
			e.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			// Scripts that build Go code (refactors verified with go build)
			// share the test run's build cache instead of warming their own.
			if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
				e.Setenv("GOCACHE", strings.TrimSpace(string(out)))
			}
			e.Setenv("GOTOOLCHAIN", "local")
			return nil
		},
		Cmds: scriptCmds,
	})
}
