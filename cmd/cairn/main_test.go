package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
			// Test runs and refactors verified by a build compile Go
			// and Rust code: share the build caches of the machine (a
			// cold one costs a minute per script), use the installed
			// toolchains, and find the JavaScript test runners the
			// Makefile installs.
			for k, v := range toolEnv() {
				e.Setenv(k, v)
			}
			return nil
		},
		Cmds: scriptCmds,
		// [lowdisk]: less than 1 GiB free for the scripts' state, where
		// doctor adds a disk-space warning.
		Condition: func(cond string) (bool, error) {
			if cond == "lowdisk" {
				return lowDisk(), nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	})
}

// toolEnv is the environment the scripts' test and lint runs need from
// the machine: Go's and Cargo's caches and homes, and the directory of the
// pinned JavaScript runners (test/runners/node_modules, see the Makefile).
func toolEnv() map[string]string {
	env := map[string]string{"GOTOOLCHAIN": "local"}
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		if out, err := exec.Command("go", "env", k).Output(); err == nil {
			env[k] = strings.TrimSpace(string(out))
		}
	}
	home, _ := os.UserHomeDir()
	for k, def := range map[string]string{"CARGO_HOME": filepath.Join(home, ".cargo"), "RUSTUP_HOME": filepath.Join(home, ".rustup")} {
		if v := os.Getenv(k); v != "" {
			env[k] = v
		} else if _, err := os.Stat(def); err == nil {
			env[k] = def
		}
	}
	if abs, err := filepath.Abs("../../test/runners/node_modules"); err == nil {
		env["CAIRN_TEST_NODE_MODULES"] = abs
	}
	return env
}
