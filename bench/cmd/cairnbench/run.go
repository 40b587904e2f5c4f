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
	Edit     map[string]any `json:"edit_to_answer,omitempty"`
	Tiers    map[string]any `json:"tiers,omitempty"`
	Arch     []archCheck    `json:"architecture_checks,omitempty"`
	Problems []string       `json:"problems,omitempty"`
}

// Timed is a whole-process measurement: with Runs > 1, the median run's
// wall time and the largest peak RSS of the runs.
type Timed struct {
	Seconds float64 `json:"seconds"`
	RSSMB   float64 `json:"peak_rss_mb"`
	Runs    int     `json:"runs,omitempty"`
}

// timeCmd runs a shell command under /usr/bin/time and reads wall time and peak RSS.
func timeCmd(shell string) (Timed, []byte, error) {
	cmd := exec.Command("/usr/bin/time", "-f", "TIME %e %M", "bash", "-c", shell)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	t, ok := parseTime(stderr.String())
	if err == nil && !ok {
		err = fmt.Errorf("no timing from /usr/bin/time")
	}
	if err != nil {
		return Timed{}, stdout.Bytes(), fmt.Errorf("%s: %v: %s", shell, err, stderr.String())
	}
	return t, stdout.Bytes(), nil
}

func sh(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// runCorpus measures one corpus end to end. cairn is the CLI binary, self this program.
func runCorpus(ctx context.Context, name, dir, cairn, self, outDir, symbols, lexical, incrFiles string, light bool) error {
	c := Corpus{Name: name, Dir: dir, Date: time.Now().UTC().Format("2006-01-02")}
	state := filepath.Join(outDir, "state-"+name)
	// The index: the median of indexRuns cold builds.
	t, out, err := medianTimed(indexRuns, sh(cairn)+" --repo "+sh(dir)+" --state-dir "+sh(state)+" index --full --json",
		func() { os.RemoveAll(state) })
	if err != nil {
		return err
	}
	c.Index = t
	// The anchors read the files Cairn indexed: ctags and cat over that list.
	files, size, err := indexedFiles(ctx, dir, state)
	if err != nil {
		return err
	}
	c.Files, c.Bytes = len(files), size
	list, err := filepath.Abs(filepath.Join(outDir, name+".files"))
	if err != nil {
		return err
	}
	if err := writeList(list, files); err != nil {
		return err
	}
	inRepo := "cd " + sh(dir) + " && "
	exec.Command("bash", "-c", inRepo+"xargs -d '\\n' -a "+sh(list)+" cat > /dev/null").Run() // warm the page cache
	if c.Cat, _, err = medianTimed(indexRuns, inRepo+"xargs -d '\\n' -a "+sh(list)+" cat | wc -c", nil); err != nil {
		return fmt.Errorf("cat anchor: %w", err)
	}
	if c.Ctags, _, err = medianTimed(indexRuns, inRepo+"ctags -L "+sh(list)+" -f - | wc -l", nil); err != nil {
		return fmt.Errorf("ctags anchor: %w", err)
	}
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
		if ms, _ := c.Lexical["count_mismatches"].([]any); len(ms) > 0 {
			c.Problems = append(c.Problems, fmt.Sprintf("lexical result counts differ from the scan: %v", ms))
		}
		if c.Rg, err = processLexical(dir, cairn, state, lexical, files); err != nil {
			return fmt.Errorf("lexical anchor: %w", err)
		}
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
		if c.Incr, c.Edit, err = incrementalCopy(self, cairn, dir, outDir, name, incrFiles); err != nil {
			c.Problems = append(c.Problems, err.Error())
		}
	}
	b, _ := json.MarshalIndent(c, "", "  ")
	return os.WriteFile(filepath.Join(outDir, name+".json"), b, 0o644)
}

// cliLimit is the result count of the whole-process lexical comparison:
// the most one CLI call prints (its page cap).
const cliLimit = 100

// processLexical compares whole processes on each query of a lexical set,
// median of 5 warm runs: the cairn CLI printing its first cliLimit matches
// against rg over the same files printing as many (its output cut there,
// as `| head` does); and rg printing every match, for reference.
func processLexical(dir, cairn, state, set string, files []string) (map[string]any, error) {
	lines, err := readSet(set)
	if err != nil {
		return nil, err
	}
	if cairn, err = filepath.Abs(cairn); err != nil { // the processes run in the corpus
		return nil, err
	}
	chunks := chunkFiles(files)
	kinds := map[string]map[string][]time.Duration{}
	perQuery := map[string]any{}
	for _, l := range lines {
		kind, text, _ := strings.Cut(l, "\t")
		cairnArgv := []string{cairn, "--repo", dir, "--state-dir", state, "search", text, "--limit", strconv.Itoa(cliLimit)}
		if kind == "regex" {
			cairnArgv = append(cairnArgv, "--regex")
		}
		args := rgArgs(kind, text)
		timings := map[string][]time.Duration{}
		counts := map[string]int{}
		for i := 0; i < 6; i++ {
			for _, m := range []struct {
				name string
				run  func() (time.Duration, int, error)
			}{
				{"cairn", func() (time.Duration, int, error) { return timeProcess(dir, cairnArgv, 0) }},
				{"rg_same_count", func() (time.Duration, int, error) { return rgOver(dir, args, chunks, cliLimit) }},
				{"rg_all", func() (time.Duration, int, error) { return rgOver(dir, args, chunks, 0) }},
			} {
				d, n, err := m.run()
				if err != nil {
					return nil, fmt.Errorf("%s: %w", l, err)
				}
				if i > 0 {
					timings[m.name] = append(timings[m.name], d)
				}
				counts[m.name] = n
			}
		}
		q := map[string]any{"lines": counts}
		for name, ds := range timings {
			p := percentiles(ds)
			q[name+"_p50_ms"] = p.P50
			if kinds[name] == nil {
				kinds[name] = map[string][]time.Duration{}
			}
			kinds[name][kind] = append(kinds[name][kind], time.Duration(p.P50*float64(time.Millisecond)))
		}
		perQuery[l] = q
	}
	res := map[string]any{"per_query": perQuery, "limit": cliLimit, "rg_processes": len(chunks)}
	for name, byKind := range kinds {
		for kind, meds := range byKind {
			res[name+"_"+kind] = percentiles(meds)
		}
	}
	return res, nil
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
// and measures one-file updates in-process, then edit to answer under
// `cairn up`.
func incrementalCopy(self, cairn, dir, outDir, name, files string) (incr, edit map[string]any, err error) {
	work := filepath.Join(outDir, "incr-"+name)
	os.RemoveAll(work)
	script := fmt.Sprintf("cp -r %s %s && chmod -R u+w %s && cd %s && git init -q && git add -A && git -c user.email=b@b -c user.name=b commit -qm c",
		sh(dir), sh(work), sh(work), sh(work))
	if out, err := exec.Command("bash", "-c", script).CombinedOutput(); err != nil {
		return nil, nil, fmt.Errorf("prepare copy: %v %s", err, out)
	}
	defer os.RemoveAll(work)
	state := filepath.Join(outDir, "state-incr-"+name)
	out, err := exec.Command(self, "incremental", "-repo", work, "-state", state, "-files", files).Output()
	if err != nil {
		return nil, nil, fmt.Errorf("incremental: %v", err)
	}
	if err := json.Unmarshal(out, &incr); err != nil {
		return nil, nil, err
	}
	if cairn, err = filepath.Abs(cairn); err != nil {
		return incr, nil, err
	}
	edit, err = editToAnswer(cairn, work, state, strings.Split(files, ","))
	if err != nil {
		return incr, nil, fmt.Errorf("edit to answer: %w", err)
	}
	return incr, edit, nil
}
