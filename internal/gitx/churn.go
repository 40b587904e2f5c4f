package gitx

import (
	"bufio"
	"bytes"
	"context"
	"strconv"
	"strings"
)

// Touch is what one commit changed in one file.
type Touch struct {
	Path      string
	Additions int
	Deletions int
}

// CommitTouches is a commit with the files it changed and how much.
type CommitTouches struct {
	OID    string
	Author string // email
	Time   string // ISO 8601
	// Committed is the committer date in Unix seconds: what --since
	// compares.
	Committed int64
	Files     []Touch
}

// Touches lists the commits reachable from rev (default HEAD) since a date
// (empty: all), newest first, with the line counts they changed per file
// (git log --numstat, renames resolved to the new path). Merges are left
// out: their changes are the commits they merge.
func Touches(ctx context.Context, dir, rev, since string, paths []string) ([]CommitTouches, error) {
	rev, err := revOrHead(rev)
	if err != nil {
		return nil, err
	}
	if err := CheckPaths(paths); err != nil {
		return nil, err
	}
	args := []string{"-c", "core.quotepath=off", "log", "--no-merges", "--numstat", "-z", "-M", "--format=" + recordSep + "%H" + fieldSep + "%ae" + fieldSep + "%aI" + fieldSep + "%ct" + fieldSep}
	if since != "" {
		args = append(args, "--since="+since)
	}
	args = append(append(args, "--end-of-options", rev, "--"), paths...)
	out, err := git(ctx, dir, args...)
	if err != nil {
		return nil, err
	}
	var res []CommitTouches
	for _, rec := range strings.Split(string(out), recordSep) {
		f := strings.SplitN(rec, fieldSep, 5)
		if len(f) < 5 {
			continue
		}
		ct := CommitTouches{OID: f[0], Author: f[1], Time: f[2]}
		ct.Committed, _ = strconv.ParseInt(f[3], 10, 64)
		parts := strings.Split(strings.TrimLeft(f[4], "\n"), "\x00")
		for i := 0; i < len(parts); i++ {
			p := strings.TrimLeft(parts[i], "\n")
			cols := strings.SplitN(p, "\t", 3)
			if len(cols) != 3 {
				continue
			}
			path := cols[2]
			if path == "" && i+2 < len(parts) { // rename: old\0new follow
				path = parts[i+2]
				i += 2
			}
			t := Touch{Path: path}
			t.Additions, _ = strconv.Atoi(cols[0]) // "-" for binary: 0
			t.Deletions, _ = strconv.Atoi(cols[1])
			ct.Files = append(ct.Files, t)
		}
		res = append(res, ct)
	}
	return res, nil
}

// FilePatch is one commit's zero-context hunks of one file.
type FilePatch struct {
	OID    string
	Author string
	Time   string
	Hunks  []Hunk // lines are not kept, only the ranges
}

// FilePatches lists the commits that changed path (following renames),
// newest first, each with its hunks' ranges (git log -p -U0), for tracking
// line spans back through history.
func FilePatches(ctx context.Context, dir, rev, since, path string, limit int) ([]FilePatch, error) {
	rev, err := revOrHead(rev)
	if err != nil {
		return nil, err
	}
	if err := CheckPaths([]string{path}); err != nil {
		return nil, err
	}
	args := []string{"-c", "core.quotepath=off", "log", "--no-merges", "--follow", "-p", "-U0", "--no-color", "--no-ext-diff", "--no-textconv",
		"--format=" + recordSep + "%H" + fieldSep + "%ae" + fieldSep + "%aI"}
	if since != "" {
		args = append(args, "--since="+since)
	}
	if limit > 0 {
		args = append(args, "-n", strconv.Itoa(limit))
	}
	args = append(args, "--end-of-options", rev, "--", path)
	out, err := git(ctx, dir, args...)
	if err != nil {
		return nil, err
	}
	var res []FilePatch
	var cur *FilePatch
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, recordSep) {
			f := strings.Split(line[1:], fieldSep)
			if len(f) == 3 {
				res = append(res, FilePatch{OID: f[0], Author: f[1], Time: f[2]})
				cur = &res[len(res)-1]
			}
			continue
		}
		if cur != nil && strings.HasPrefix(line, "@@") {
			if h, ok := parseHunkHeader(line); ok {
				h.Lines = nil
				cur.Hunks = append(cur.Hunks, h)
			}
		}
	}
	return res, nil
}

// SinceUnix is the moment a --since date means now, in Unix seconds, as git
// reads it ("90 days ago", "2024-01-31"); 0 for "" (all history).
func SinceUnix(ctx context.Context, dir, since string) (int64, error) {
	if since == "" {
		return 0, nil
	}
	out, err := git(ctx, dir, "rev-parse", "--since="+since)
	if err != nil {
		return 0, err
	}
	v, ok := strings.CutPrefix(strings.TrimSpace(string(out)), "--max-age=")
	if !ok {
		return 0, &InvalidName{"date", since, "not a date git reads"}
	}
	return strconv.ParseInt(v, 10, 64)
}

// IsAncestor reports whether commit a is reachable from commit b.
func IsAncestor(ctx context.Context, dir, a, b string) bool {
	if CheckRev("revision", a) != nil || CheckRev("revision", b) != nil {
		return false
	}
	_, err := git(ctx, dir, "merge-base", "--is-ancestor", a, b)
	return err == nil
}
