package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Corpus is one benchmark run's record, written as JSON to bench/out.
type Corpus struct {
	Name     string         `json:"name"`
	Dir      string         `json:"dir"`
	Date     string         `json:"date"`
	Bytes    int64          `json:"bytes"`
	Files    int            `json:"files"`
	Cat      Timed          `json:"cat"`
	Ctags    Timed          `json:"ctags"`
	Index    Timed          `json:"index"`
	Split    map[string]any `json:"index_split_ms"`
	Stats    map[string]any `json:"index_stats"`
	Queries  map[string]any `json:"queries,omitempty"`
	Lexical  map[string]any `json:"lexical,omitempty"`
	Rg       map[string]any `json:"rg,omitempty"`
	CLI      map[string]any `json:"cli_ms,omitempty"`
	Incr     map[string]any `json:"incremental,omitempty"`
	Tiers    map[string]any `json:"tiers,omitempty"`
	Arch     []archCheck    `json:"architecture_checks,omitempty"`
	Problems []string       `json:"problems,omitempty"`
}

// Timed is a whole-process measurement.
type Timed struct {
	Seconds float64 `json:"seconds"`
	RSSMB   float64 `json:"peak_rss_mb"`
}

// timeCmd runs a shell command under /usr/bin/time and reads wall time and peak RSS.
func timeCmd(shell string) (Timed, []byte, error) {
	cmd := exec.Command("/usr/bin/time", "-f", "TIME %e %M", "bash", "-c", shell)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var t Timed
	for _, line := range strings.Split(stderr.String(), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "TIME" {
			t.Seconds, _ = strconv.ParseFloat(f[1], 64)
			kb, _ := strconv.ParseFloat(f[2], 64)
			t.RSSMB = kb / 1024
		}
	}
	if err != nil {
		return t, stdout.Bytes(), fmt.Errorf("%s: %v: %s", shell, err, stderr.String())
	}
	return t, stdout.Bytes(), nil
}

func sh(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// runCorpus measures one corpus end to end. cairn is the CLI binary, self this program.
func runCorpus(ctx context.Context, name, dir, cairn, self, outDir, symbols, lexical, incrFiles string, light bool) error {
	c := Corpus{Name: name, Dir: dir, Date: time.Now().UTC().Format("2006-01-02")}
	state := filepath.Join(outDir, "state-"+name)
	os.RemoveAll(state)
	// size of the corpus (every regular file, as cat reads it)
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			c.Bytes += info.Size()
			c.Files++
		}
		return nil
	})
	// anchors, warm: one untimed pass first
	exec.Command("bash", "-c", "find "+sh(dir)+" -type f -print0 | xargs -0 cat > /dev/null").Run()
	c.Cat, _, _ = timeCmd("find " + sh(dir) + " -type f -print0 | xargs -0 cat | wc -c")
	var err error
	if c.Ctags, _, err = timeCmd("ctags -R -f - " + sh(dir) + " | wc -l"); err != nil {
		c.Problems = append(c.Problems, "ctags: "+err.Error())
	}
	t, out, err := timeCmd(sh(cairn) + " --repo " + sh(dir) + " --state-dir " + sh(state) + " index --full --json")
	if err != nil {
		return err
	}
	c.Index = t
	var env struct {
		Data map[string]any `json:"data"`
	}
	json.Unmarshal(out, &env)
	c.Stats = env.Data
	if tm, ok := env.Data["timing_ms"].(map[string]any); ok {
		c.Split = tm
	}
	run := func(args ...string) (map[string]any, error) {
		out, err := exec.Command(self, args...).Output()
		if err != nil {
			return nil, fmt.Errorf("%v: %v", args, err)
		}
		var m map[string]any
		return m, json.Unmarshal(out, &m)
	}
	if symbols != "" {
		if c.Queries, err = run("queries", "-repo", dir, "-state", state, "-set", symbols); err != nil {
			c.Problems = append(c.Problems, err.Error())
		}
	}
	if lexical != "" {
		if c.Lexical, err = run("lexical", "-repo", dir, "-state", state, "-set", lexical); err != nil {
			c.Problems = append(c.Problems, err.Error())
		}
		c.Rg = rgBench(dir, lexical)
	}
	if light { // a language corpus: indexing throughput, parse failures, tiers and architecture checks only
		if c.Tiers, err = run("tiers", "-repo", dir, "-state", state); err != nil {
			c.Problems = append(c.Problems, err.Error())
		}
		if c.Arch, err = archChecks(ctx, name, dir, state); err != nil {
			c.Problems = append(c.Problems, "architecture checks: "+err.Error())
		}
		b, _ := json.MarshalIndent(c, "", "  ")
		return os.WriteFile(filepath.Join(outDir, name+".json"), b, 0o644)
	}
	c.CLI = cliTimes(cairn, dir, state, symbols)
	if c.Arch, err = archChecks(ctx, name, dir, state); err != nil {
		c.Problems = append(c.Problems, "architecture checks: "+err.Error())
	}
	if c.Tiers, err = run("tiers", "-repo", dir, "-state", state); err != nil {
		c.Problems = append(c.Problems, err.Error())
	}
	if incrFiles != "" {
		if c.Incr, err = incrementalCopy(self, dir, outDir, name, incrFiles); err != nil {
			c.Problems = append(c.Problems, err.Error())
		}
	}
	b, _ := json.MarshalIndent(c, "", "  ")
	return os.WriteFile(filepath.Join(outDir, name+".json"), b, 0o644)
}

// rgBench times ripgrep on each query of a lexical set (median of 5 warm runs,
// output counted with wc -l as ripgrep short-circuits on /dev/null).
func rgBench(dir, set string) map[string]any {
	lines, err := readSet(set)
	if err != nil {
		return nil
	}
	per := map[string]float64{}
	var lit, re []time.Duration
	for _, l := range lines {
		kind, text, _ := strings.Cut(l, "\t")
		flag := "-F"
		if kind == "regex" {
			flag = "-P"
			if !strings.Contains(text, `\s`) {
				flag = "-e"
			}
		}
		cmdline := "rg --no-heading -n " + flag + " " + sh(text) + " . | wc -l"
		var ds []time.Duration
		for i := 0; i < 6; i++ {
			cmd := exec.Command("bash", "-c", cmdline)
			cmd.Dir = dir
			t := time.Now()
			cmd.Run()
			if i > 0 {
				ds = append(ds, time.Since(t))
			}
		}
		p := percentiles(ds)
		per[l] = p.P50
		med := time.Duration(p.P50 * float64(time.Millisecond))
		if kind == "regex" {
			re = append(re, med)
		} else {
			lit = append(lit, med)
		}
	}
	return map[string]any{"per_query_p50_ms": per, "literal": percentiles(lit), "regex": percentiles(re)}
}

// cliTimes measures whole CLI processes (open, reconcile, answer) on a warm index.
func cliTimes(cairn, dir, state, symbols string) map[string]any {
	name := "main"
	if names, err := readSet(symbols); err == nil && len(names) > 0 {
		name = names[0]
	}
	cmds := map[string][]string{
		"status":         {"status"},
		"search_lexical": {"search", name},
		"search_symbol":  {"search", name, "--mode", "symbol"},
		"symbol":         {"symbol", name},
		"refs":           {"refs", name},
	}
	out := map[string]any{}
	for k, args := range cmds {
		var ds []time.Duration
		for i := 0; i < 6; i++ {
			full := append([]string{"--repo", dir, "--state-dir", state}, args...)
			t := time.Now()
			exec.Command(cairn, full...).Run()
			if i > 0 {
				ds = append(ds, time.Since(t))
			}
		}
		out[k] = percentiles(ds).P50
	}
	return out
}

// incrementalCopy copies the corpus into a writable git repository, indexes it
// and measures one-file updates in-process.
func incrementalCopy(self, dir, outDir, name, files string) (map[string]any, error) {
	work := filepath.Join(outDir, "incr-"+name)
	os.RemoveAll(work)
	script := fmt.Sprintf("cp -r %s %s && chmod -R u+w %s && cd %s && git init -q && git add -A && git -c user.email=b@b -c user.name=b commit -qm c",
		sh(dir), sh(work), sh(work), sh(work))
	if out, err := exec.Command("bash", "-c", script).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("prepare copy: %v %s", err, out)
	}
	defer os.RemoveAll(work)
	out, err := exec.Command(self, "incremental", "-repo", work, "-state", filepath.Join(outDir, "state-incr-"+name), "-files", files).Output()
	if err != nil {
		return nil, fmt.Errorf("incremental: %v", err)
	}
	var m map[string]any
	return m, json.Unmarshal(out, &m)
}
