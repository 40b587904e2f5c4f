package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// cliSearch times a literal search as whole processes against ripgrep doing
// the same work: the files the index holds, passed to rg -n -F, and the same
// count of matching lines (Cairn's first page of limit results, ripgrep cut
// after limit lines). Every round runs each Cairn build and rg once, in
// turn, so that a loaded machine weighs on all of them alike; the medians
// are printed as a markdown row per build.
func cliSearch(ctx context.Context, repo, state, query string, limit, rounds int, builds []string) error {
	files, _, err := indexedFiles(ctx, repo, state)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("the index in %s holds no files: build it first with this build's cairn (cairn --repo %s --state-dir %s index)", state, repo, state)
	}
	chunks := chunkFiles(files)
	// Each build gets a copy of the index: two builds taking turns on one
	// state directory would each find the other's saved scan of the tree
	// foreign and scan the whole tree again.
	states := make([]string, len(builds))
	for i, bin := range builds {
		dir, err := os.MkdirTemp("", "clisearch-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		states[i] = filepath.Join(dir, "state")
		if out, err := exec.Command("cp", "-a", state, states[i]).CombinedOutput(); err != nil {
			return fmt.Errorf("copy the index: %v: %s", err, out)
		}
		if _, _, err := timeProcess(repo, []string{bin, "--repo", repo, "--state-dir", states[i], "search", query}, 0); err != nil {
			return err // the first run of a build in its copy saves its scan of the tree
		}
	}
	times := make([][]time.Duration, len(builds)+1)
	for r := 0; r < rounds; r++ {
		for i, bin := range builds {
			argv := []string{bin, "--repo", repo, "--state-dir", states[i], "search", query, "--limit", fmt.Sprint(limit)}
			d, n, err := timeProcess(repo, argv, 0)
			if err != nil {
				return err
			}
			if n < limit {
				return fmt.Errorf("%s printed %d lines, fewer than the %d results asked for", bin, n, limit)
			}
			times[i] = append(times[i], d)
		}
		d, n, err := rgOver(repo, []string{"-n", "-F", "--", query}, chunks, limit)
		if err != nil {
			return err
		}
		if n < limit {
			return fmt.Errorf("rg found %d lines, fewer than %d", n, limit)
		}
		times[len(builds)] = append(times[len(builds)], d)
	}
	rg := percentiles(times[len(builds)]).P50
	fmt.Fprintf(os.Stdout, "%s, %q, %d files, first %d, median of %d rounds\n", repo, query, len(files), limit, rounds)
	fmt.Fprintln(os.Stdout, "| build | median | rg, same files and count | rg / build |")
	fmt.Fprintln(os.Stdout, "|---|---:|---:|---:|")
	for i, bin := range builds {
		m := percentiles(times[i]).P50
		fmt.Fprintf(os.Stdout, "| %s | %.1f ms | %.1f ms | %.2fx |\n", bin, m, rg, rg/m)
	}
	return nil
}

// buildList splits the -cairn flag: one binary, or several separated by
// commas, each made absolute (the processes run in the corpus).
func buildList(s string) []string {
	var out []string
	for b := range strings.SplitSeq(s, ",") {
		if b = strings.TrimSpace(b); b != "" {
			if abs, err := filepath.Abs(b); err == nil && strings.ContainsRune(b, filepath.Separator) {
				b = abs // a path, not a name looked up in PATH
			}
			out = append(out, b)
		}
	}
	return out
}
