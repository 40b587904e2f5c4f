package gitx

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Blame says which commit last changed each line of a span.
type Blame struct {
	Path string `json:"path"`
	Rev  string `json:"rev,omitempty"`
	// Ranges group consecutive lines last changed by one commit.
	Ranges []BlameRange `json:"ranges"`
	// Commits describes every commit the ranges name, newest first.
	Commits []BlameCommit `json:"commits"`
}

// BlameRange is a run of lines [Start, End] (1-based, in the blamed
// revision) that one commit last changed; OrigPath and OrigStart say where
// the lines were in that commit (different after a move or rename).
type BlameRange struct {
	Start     int      `json:"start_line"`
	End       int      `json:"end_line"`
	Commit    string   `json:"commit"`
	OrigPath  string   `json:"orig_path,omitempty"`
	OrigStart int      `json:"orig_start_line"`
	Lines     []string `json:"lines,omitempty"`
}

// BlameCommit is a commit named by a blame, with how many lines it owns.
type BlameCommit struct {
	OID      string `json:"oid"`
	Author   Person `json:"author"`
	Summary  string `json:"summary"`
	Lines    int    `json:"lines"`
	Boundary bool   `json:"boundary,omitempty"`
	// Uncommitted marks the lines of the working tree not yet committed.
	Uncommitted bool `json:"uncommitted,omitempty"`
}

// BlameOptions blames lines Start..End (0: the whole file) of Path at Rev
// (empty: the working tree); Content keeps each line's text.
type BlameOptions struct {
	Path       string
	Rev        string
	Start, End int
	Content    bool
}

// GetBlame runs git blame --porcelain.
func GetBlame(ctx context.Context, dir string, o BlameOptions) (*Blame, error) {
	if err := CheckPaths([]string{o.Path}); err != nil {
		return nil, err
	}
	args := []string{"-c", "core.quotepath=off", "blame", "--porcelain"}
	if o.Start > 0 {
		end := o.End
		if end < o.Start {
			end = o.Start
		}
		args = append(args, fmt.Sprintf("-L%d,%d", o.Start, end))
	}
	args, err := appendRev(args, "revision", o.Rev) // git blame takes no --end-of-options
	if err != nil {
		return nil, err
	}
	args = append(args, "--", o.Path)
	out, err := git(ctx, dir, args...)
	if err != nil {
		return nil, err
	}
	b := parseBlame(out, o.Content)
	b.Path, b.Rev = o.Path, o.Rev
	return b, nil
}

func parseBlame(out []byte, content bool) *Blame {
	b := &Blame{Ranges: []BlameRange{}, Commits: []BlameCommit{}}
	commits := map[string]*BlameCommit{}
	var order []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	var cur *BlameCommit
	var oid, origPath string
	var orig, final int
	paths := map[string]string{}
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "\t") {
			// the line itself: the header before it is complete
			if p, ok := paths[oid]; ok {
				origPath = p
			}
			text := line[1:]
			n := len(b.Ranges)
			if n > 0 {
				last := &b.Ranges[n-1]
				if last.Commit == oid && last.End == final-1 && last.OrigStart+(last.End-last.Start) == orig-1 && last.OrigPath == origPath {
					last.End = final
					if content {
						last.Lines = append(last.Lines, text)
					}
					cur.Lines++
					continue
				}
			}
			r := BlameRange{Start: final, End: final, Commit: oid, OrigPath: origPath, OrigStart: orig}
			if content {
				r.Lines = []string{text}
			}
			b.Ranges = append(b.Ranges, r)
			cur.Lines++
			continue
		}
		key, val, _ := strings.Cut(line, " ")
		if len(key) == 40 || len(key) == 64 {
			f := strings.Fields(val)
			if len(f) >= 2 {
				oid = key
				orig, _ = strconv.Atoi(f[0])
				final, _ = strconv.Atoi(f[1])
				cur = commits[oid]
				if cur == nil {
					cur = &BlameCommit{OID: oid, Uncommitted: strings.Trim(oid, "0") == ""}
					commits[oid] = cur
					order = append(order, oid)
				}
				continue
			}
		}
		if cur == nil {
			continue
		}
		switch key {
		case "author":
			cur.Author.Name = val
		case "author-mail":
			cur.Author.Email = strings.Trim(val, "<>")
		case "author-time":
			cur.Author.Time = val // made ISO 8601 at author-tz
		case "author-tz":
			cur.Author.Time = isoTime(cur.Author.Time, val)
		case "summary":
			cur.Summary = val
		case "boundary":
			cur.Boundary = true
		case "filename":
			paths[oid] = val
		}
	}
	for _, o := range order {
		c := *commits[o]
		if c.Uncommitted {
			// git dates the working tree's lines now: not a fact about them.
			c.Author, c.Summary = Person{}, ""
		}
		b.Commits = append(b.Commits, c)
	}
	sort.SliceStable(b.Commits, func(i, j int) bool { return b.Commits[i].Author.Time > b.Commits[j].Author.Time })
	return b
}

// isoTime turns git's epoch seconds and "+hhmm" zone into ISO 8601 strict,
// as %aI prints it.
func isoTime(sec, tz string) string {
	n, err := strconv.ParseInt(sec, 10, 64)
	if err != nil {
		return sec
	}
	off := 0
	if len(tz) == 5 {
		h, _ := strconv.Atoi(tz[1:3])
		m, _ := strconv.Atoi(tz[3:5])
		off = h*3600 + m*60
		if tz[0] == '-' {
			off = -off
		}
	}
	return time.Unix(n, 0).In(time.FixedZone("", off)).Format("2006-01-02T15:04:05-07:00")
}
