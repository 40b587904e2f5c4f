package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The anchors are measured on the work Cairn does: the files it indexed,
// the same result counts, whole process against whole process and in
// process against in process. A failed anchor run is an error, never a
// timing.

// indexRuns is how many full index builds give the index time (the median).
const indexRuns = 3

// parseTime reads the "TIME <seconds> <max RSS KB>" line /usr/bin/time -f
// writes on stderr.
func parseTime(stderr string) (Timed, bool) {
	for _, line := range strings.Split(stderr, "\n") {
		f := strings.Fields(line)
		if len(f) != 3 || f[0] != "TIME" {
			continue
		}
		s, err1 := strconv.ParseFloat(f[1], 64)
		kb, err2 := strconv.ParseFloat(f[2], 64)
		if err1 != nil || err2 != nil {
			return Timed{}, false
		}
		return Timed{Seconds: s, RSSMB: kb / 1024}, true
	}
	return Timed{}, false
}

// medianTimed runs a command n times and keeps the run with the median
// wall time; RSS is the largest of the runs. Every run must succeed.
func medianTimed(n int, shell string, before func()) (Timed, []byte, error) {
	type run struct {
		t   Timed
		out []byte
	}
	var runs []run
	maxRSS := 0.0
	for i := 0; i < n; i++ {
		if before != nil {
			before()
		}
		t, out, err := timeCmd(shell)
		if err != nil {
			return Timed{}, nil, err
		}
		runs = append(runs, run{t, out})
		maxRSS = max(maxRSS, t.RSSMB)
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].t.Seconds < runs[j].t.Seconds })
	m := runs[len(runs)/2]
	m.t.RSSMB, m.t.Runs = maxRSS, n
	return m.t, m.out, nil
}

// indexedFiles lists the files Cairn indexed (repository paths, sorted) and
// their total size.
func indexedFiles(ctx context.Context, repo, state string) ([]string, int64, error) {
	ix, err := open(ctx, repo, state)
	if err != nil {
		return nil, 0, err
	}
	defer ix.Close()
	db, release := ix.Acquire()
	defer release()
	rows, err := db.Files(ctx)
	if err != nil {
		return nil, 0, err
	}
	var paths []string
	var size int64
	for _, f := range rows {
		paths = append(paths, f.Path)
		size += f.Size
	}
	return paths, size, nil
}

// writeList writes one path per line for ctags -L and xargs.
func writeList(path string, files []string) error {
	return os.WriteFile(path, []byte(strings.Join(files, "\n")+"\n"), 0o644)
}

// scanAnchor is the in-process anchor of the lexical benchmark: the files
// Cairn indexed read from disk (warm) and searched with the standard
// library until limit matches are found.
type scanAnchor struct {
	root  string
	files []string
}

// first returns the first limit matches of a literal or regex query, in
// file order, counted as Cairn counts them (one per occurrence).
func (a scanAnchor) first(kind, text string, limit int) (int, error) {
	var re *regexp.Regexp
	if kind == "regex" {
		var err error
		if re, err = regexp.Compile("(?m)" + text); err != nil {
			return 0, err
		}
	}
	lit := []byte(text)
	n := 0
	for _, p := range a.files {
		content, err := os.ReadFile(filepath.Join(a.root, p))
		if err != nil {
			continue // deleted since it was indexed
		}
		if re != nil {
			n += len(re.FindAllIndex(content, limit-n))
		} else {
			n += countLiteral(content, lit, limit-n)
		}
		if n >= limit {
			return n, nil
		}
	}
	return n, nil
}

// countLiteral counts non-overlapping occurrences of lit, up to limit.
func countLiteral(content, lit []byte, limit int) int {
	n := 0
	for off := 0; n < limit; n++ {
		i := bytes.Index(content[off:], lit)
		if i < 0 {
			break
		}
		off += i + len(lit)
	}
	return n
}

// rgArgs is ripgrep's command line for a query of the lexical set.
func rgArgs(kind, text string) []string {
	args := []string{"--no-heading", "-n"}
	switch {
	case kind != "regex":
		args = append(args, "-F")
	case strings.Contains(text, `\s`):
		args = append(args, "-P")
	}
	return append(args, "-e", text, "--")
}

// timeProcess runs a whole process in dir and reads its output lines; with
// limit > 0 it stops reading after limit lines and closes the pipe, as
// `| head -n limit` would (the process then ends on SIGPIPE, which is not
// a failure). okExit lists the exit codes that are not failures.
func timeProcess(dir string, argv []string, limit int, okExit ...int) (time.Duration, int, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, 0, err
	}
	t := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	lines, cut := 0, false
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		lines++
		if limit > 0 && lines == limit {
			cut = true
			break
		}
	}
	out.Close()
	err = cmd.Wait()
	d := time.Since(t)
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && cut && !ee.Exited(): // SIGPIPE after the cut
	case errors.As(err, &ee) && slices.Contains(okExit, ee.ExitCode()):
	default:
		return d, lines, fmt.Errorf("%s: %v: %s", strings.Join(argv[:min(len(argv), 6)], " "), err, strings.TrimSpace(stderr.String()))
	}
	return d, lines, nil
}

// argChunk bounds the bytes of file arguments per rg process (the kernel's
// argument limit is a few MB with the environment).
const argChunk = 512 << 10

// chunkFiles splits a file list into argument lists of at most argChunk bytes.
func chunkFiles(files []string) [][]string {
	var out [][]string
	var cur []string
	size := 0
	for _, f := range files {
		if size+len(f)+1 > argChunk && len(cur) > 0 {
			out = append(out, cur)
			cur, size = nil, 0
		}
		cur = append(cur, f)
		size += len(f) + 1
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// rgOver runs rg over exactly the given files, in as many processes as the
// argument limit needs, one after the other; with limit > 0 it stops once
// limit lines were printed. Exit 1 (no match) is not a failure.
func rgOver(dir string, args []string, chunks [][]string, limit int) (time.Duration, int, error) {
	var total time.Duration
	lines := 0
	for _, files := range chunks {
		rest := 0
		if limit > 0 {
			rest = limit - lines
		}
		d, n, err := timeProcess(dir, append(append([]string{"rg"}, args...), files...), rest, 1)
		total += d
		lines += n
		if err != nil {
			return total, lines, err
		}
		if limit > 0 && lines >= limit {
			break
		}
	}
	return total, lines, nil
}
