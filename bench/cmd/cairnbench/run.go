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
	Name    string         `json:"name"`
	Dir     string         `json:"dir"`
	Date    string         `json:"date"`
	Bytes   int64          `json:"bytes"`
	Files   int            `json:"files"`
	Cat     Timed          `json:"cat"`
	Ctags   Timed          `json:"ctags"`
	Index   Timed          `json:"index"`
	Split   map[string]any `json:"index_split_ms"`
	Stats   map[string]any `json:"index_stats"`
	Queries map[string]any `json:"queries,omitempty"`
	Lexical map[string]any `json:"lexical,omitempty"`
	Rg      map[string]any `json:"rg,omitempty"`
	CLI     map[string]any `json:"cli_ms,omitempty"`
	Incr    map[string]any `json:"incremental,omitempty"`
	Edit    map[string]any `json:"edit_to_answer,omitempty"`
	Tiers   map[string]any `json:"tiers,omitempty"`
	Arch    []archCheck    `json:"architecture_checks,omitempty"`
	// ImpactAfterEdit is the first impact_analyze call of an epoch after a
	// one-file edit (the writable copy), keyed by the edited file.
	ImpactAfterEdit map[string]any `json:"impact_after_edit,omitempty"`
	// Profiles say where each measured operation spends its CPU (profile.go).
	Profiles map[string]*ProfileSummary `json:"profiles,omitempty"`
	Problems []string                   `json:"problems,omitempty"`
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
	c.Profiles = map[string]*ProfileSummary{}
	addProfile := func(key, what, tagFocus string, files ...string) {
		s, err := summarizeProfiles(what, tagFocus, files...)
		if err != nil {
			c.Problems = append(c.Problems, "profile: "+err.Error())
			return
		}
		c.Profiles[key] = s
	}
	if !light { // one more cold build, under the profiler and not timed
		prof := profilePath(outDir, name, "index")
		os.RemoveAll(state)
		cmd := exec.Command(cairn, "--repo", dir, "--state-dir", state, "index", "--full", "--json")
		cmd.Env = withProfile(prof)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("profiled index: %v: %s", err, lastLine(out))
		}
		addProfile("index", "cairn index --full, one cold build", "", prof)
	}
	var env struct {
		Data map[string]any `json:"data"`
	}
	json.Unmarshal(out, &env)
	c.Stats = env.Data
	if tm, ok := env.Data["timing_ms"].(map[string]any); ok {
		c.Split = tm
	}
	var runProfiled func(prof string, args ...string) (map[string]any, error)
	run := func(args ...string) (map[string]any, error) {
		return runProfiled("", args...)
	}
	runProfiled = func(prof string, args ...string) (map[string]any, error) {
		cmd := exec.Command(self, args...)
		if prof != "" {
			cmd.Env = withProfile(prof)
		}
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("%v: %v", args, err)
		}
		var m map[string]any
		return m, json.Unmarshal(out, &m)
	}
	if symbols != "" {
		prof := profilePath(outDir, name, "queries")
		if c.Queries, err = runProfiled(prof, "queries", "-repo", dir, "-state", state, "-set", symbols); err != nil {
			c.Problems = append(c.Problems, err.Error())
		} else {
			addProfile("refs", "references of the query set, in process", "op=refs", prof)
		}
	}
	if lexical != "" {
		prof := profilePath(outDir, name, "lexical")
		if c.Lexical, err = runProfiled(prof, "lexical", "-repo", dir, "-state", state, "-set", lexical); err != nil {
			c.Problems = append(c.Problems, err.Error())
		} else {
			addProfile("lexical_literal", "lexical literal search, first page, in process", "op=literal", prof)
		}
		if ms, _ := c.Lexical["count_mismatches"].([]any); len(ms) > 0 {
			c.Problems = append(c.Problems, fmt.Sprintf("lexical result counts differ from the scan: %v", ms))
		}
		if c.Rg, err = processLexical(dir, cairn, state, lexical, files); err != nil {
			return fmt.Errorf("lexical anchor: %w", err)
		}
		if !light {
			if profs, err := profileCLISearch(dir, cairn, state, lexical, outDir, name); err != nil {
				c.Problems = append(c.Problems, err.Error())
			} else {
				addProfile("cli_search", fmt.Sprintf("cairn search with no server, %d whole processes", len(profs)), "", profs...)
			}
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
		var profs copyProfiles
		if c.Incr, c.Edit, c.ImpactAfterEdit, profs, err = incrementalCopy(self, cairn, dir, outDir, name, incrFiles); err != nil {
			c.Problems = append(c.Problems, err.Error())
		}
		if profs.incremental != "" {
			addProfile("incremental", "one-file updates in process (every round of both files)", "", profs.incremental)
		}
		if profs.server != "" {
			addProfile("edit_to_answer", "cairn up over the edit-to-answer rounds (its start included)", "", profs.server)
		}
		if profs.impact != "" {
			addProfile("impact_after_edit", "impact_analyze, first call of each epoch after an edit", "op=impact_after_edit", profs.impact)
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

// copyProfiles are the CPU profiles taken on the writable copy.
type copyProfiles struct{ incremental, server, impact string }

// incrementalCopy copies the corpus into a writable git repository, indexes it
// and measures one-file updates in-process, then edit to answer under
// `cairn up`, then the first impact_analyze call after an edit of the first
// file. Each under the profiler, whose files it returns.
func incrementalCopy(self, cairn, dir, outDir, name, files string) (incr, edit, impact map[string]any, profs copyProfiles, err error) {
	work := filepath.Join(outDir, "incr-"+name)
	os.RemoveAll(work)
	script := fmt.Sprintf("cp -r %s %s && chmod -R u+w %s && cd %s && git init -q && git add -A && git -c user.email=b@b -c user.name=b commit -qm c",
		sh(dir), sh(work), sh(work), sh(work))
	if out, err := exec.Command("bash", "-c", script).CombinedOutput(); err != nil {
		return nil, nil, nil, profs, fmt.Errorf("prepare copy: %v %s", err, out)
	}
	defer os.RemoveAll(work)
	state := filepath.Join(outDir, "state-incr-"+name)
	cmd := exec.Command(self, "incremental", "-repo", work, "-state", state, "-files", files)
	prof := profilePath(outDir, name, "incremental")
	cmd.Env = append(os.Environ(), "CAIRN_CPUPROFILE_INCR="+prof)
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, nil, profs, fmt.Errorf("incremental: %v", err)
	}
	profs.incremental = prof
	if err := json.Unmarshal(out, &incr); err != nil {
		return nil, nil, nil, profs, err
	}
	if cairn, err = filepath.Abs(cairn); err != nil {
		return incr, nil, nil, profs, err
	}
	prof = profilePath(outDir, name, "edit")
	edit, err = editToAnswer(cairn, work, state, strings.Split(files, ","), prof)
	if err != nil {
		return incr, nil, nil, profs, fmt.Errorf("edit to answer: %w", err)
	}
	profs.server = prof
	first, _, _ := strings.Cut(files, ",")
	prof = profilePath(outDir, name, "impact")
	cmd = exec.Command(self, "impact", "-name", name, "-repo", work, "-state", state, "-n", "3", "-rounds", "11", "-files", first)
	cmd.Env = withProfile(prof)
	if out, err = cmd.Output(); err != nil {
		return incr, edit, nil, profs, fmt.Errorf("impact after an edit: %v", err)
	}
	var res map[string]any
	if err := json.Unmarshal(out, &res); err != nil {
		return incr, edit, nil, profs, err
	}
	profs.impact = prof
	return incr, edit, map[string]any{first: res["after_edit"]}, profs, nil
}

// profileCLISearch runs the first literal query of the set as whole
// `cairn search` processes with no server, each writing a CPU profile,
// after the timed runs: one such process samples too little alone.
func profileCLISearch(dir, cairn, state, set, outDir, name string) ([]string, error) {
	lines, err := readSet(set)
	if err != nil {
		return nil, err
	}
	text := ""
	for _, l := range lines {
		if kind, t, _ := strings.Cut(l, "\t"); kind == "literal" {
			text = t
			break
		}
	}
	if text == "" {
		return nil, fmt.Errorf("cli profile: no literal query in %s", set)
	}
	var profs []string
	for i := 0; i < 30; i++ {
		prof := profilePath(outDir, name, fmt.Sprintf("cli-%02d", i))
		cmd := exec.Command(cairn, "--repo", dir, "--state-dir", state, "search", text, "--limit", strconv.Itoa(cliLimit))
		cmd.Env = withProfile(prof)
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("cli profile: %v: %s", err, lastLine(out))
		}
		profs = append(profs, prof)
	}
	return profs, nil
}

// lastLine is the last non-empty line of a process's output, for errors.
func lastLine(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1]
}
