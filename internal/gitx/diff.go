package gitx

import (
	"bufio"
	"bytes"
	"context"
	"strconv"
	"strings"
)

// EmptyTree is the id of the empty tree: the base of a root commit's diff.
const EmptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// Diff is a structured diff: files in git's order, each with its hunks.
type Diff struct {
	Files []FileDiff `json:"files"`
	Stats DiffStats  `json:"stats"`
}

// DiffStats counts a diff's files and lines.
type DiffStats struct {
	FilesChanged int `json:"files_changed"`
	Insertions   int `json:"insertions"`
	Deletions    int `json:"deletions"`
}

// FileDiff is one file of a diff. Status is added, modified, deleted,
// renamed, copied, type_changed or unmerged.
type FileDiff struct {
	Path      string `json:"path"`
	OldPath   string `json:"old_path,omitempty"`
	Status    string `json:"status"`
	Binary    bool   `json:"binary,omitempty"`
	OldMode   string `json:"old_mode,omitempty"`
	NewMode   string `json:"new_mode,omitempty"`
	Additions int    `json:"additions"`
	Deletions int    `json:"deletions"`
	Hunks     []Hunk `json:"hunks"`
}

// Hunk is one @@ section: line numbers are 1-based; a count of 0 means the
// side is empty (the start is then the line before it).
type Hunk struct {
	OldStart int        `json:"old_start"`
	OldLines int        `json:"old_lines"`
	NewStart int        `json:"new_start"`
	NewLines int        `json:"new_lines"`
	Header   string     `json:"header,omitempty"` // the text after @@ ... @@ (the enclosing function, when git finds it)
	Lines    []DiffLine `json:"lines"`
}

// DiffLine is one line of a hunk: origin "+", "-" or " ", with its line
// number on each side it exists on. NoNewline marks the last line of a
// side that has no final newline.
type DiffLine struct {
	Origin    string `json:"origin"`
	Content   string `json:"content"`
	Old       int    `json:"old_line,omitempty"`
	New       int    `json:"new_line,omitempty"`
	NoNewline bool   `json:"no_newline,omitempty"`
}

// DiffOptions selects what to compare: Base and Target revisions (both
// empty: the working tree against the index, or with Staged the index
// against HEAD; Base alone: the working tree, or with Staged the index,
// against Base), restricted to Paths. Context is the lines of context
// around changes (default 3; -1 is 0).
type DiffOptions struct {
	Base, Target string
	Staged       bool
	Paths        []string
	Context      int
}

// GetDiff runs git diff twice, once for the exact list of files (-z raw
// output) and once for the hunks, and joins them in git's order.
func GetDiff(ctx context.Context, dir string, o DiffOptions) (*Diff, error) {
	common := []string{"-M", "--no-color", "--no-ext-diff", "--no-textconv"}
	if o.Staged {
		common = append(common, "--cached")
	}
	if o.Context != 0 {
		common = append(common, "-U"+strconv.Itoa(max(o.Context, 0)))
	}
	var revs []string
	for _, r := range []string{o.Base, o.Target} {
		if r != "" {
			if err := CheckRev("revision", r); err != nil {
				return nil, err
			}
			revs = append(revs, r)
		}
	}
	tail := append(append([]string{"--end-of-options"}, revs...), "--")
	tail = append(tail, o.Paths...)
	run := func(extra ...string) ([]byte, error) {
		args := append([]string{"-c", "core.quotepath=off", "diff"}, common...)
		args = append(append(args, extra...), tail...)
		return git(ctx, dir, args...)
	}
	raw, err := run("--raw", "-z", "--numstat")
	if err != nil {
		return nil, err
	}
	patch, err := run("-p")
	if err != nil {
		return nil, err
	}
	return joinDiff(parseRawNumstat(raw), patch), nil
}

// DiffBetween is the diff of a commit against another tree-ish, as git show
// gives it: base is the parent (or EmptyTree).
func DiffBetween(ctx context.Context, dir, base, commit string, paths []string) (*Diff, error) {
	return GetDiff(ctx, dir, DiffOptions{Base: base, Target: commit, Paths: paths})
}

// parseRawNumstat reads `--raw -z --numstat` output: raw records
// (":mode mode oid oid STATUS\0path\0[path\0]") followed by numstat records
// ("added\tdeleted\tpath\0" or "added\tdeleted\t\0old\0new\0").
func parseRawNumstat(out []byte) []FileDiff {
	recs := strings.Split(string(out), "\x00")
	var files []FileDiff
	n := 0 // numstat records read
	for i := 0; i < len(recs); i++ {
		r := recs[i]
		if r == "" {
			continue
		}
		if r[0] == ':' {
			f := strings.Fields(r[1:])
			if len(f) < 5 || i+1 >= len(recs) {
				continue
			}
			fd := FileDiff{OldMode: f[0], NewMode: f[1], Hunks: []Hunk{}}
			letter := f[4][0]
			i++
			fd.Path = recs[i]
			if letter == 'R' || letter == 'C' {
				fd.OldPath = fd.Path
				i++
				fd.Path = recs[i]
			}
			fd.Status = changeLetters[letter]
			if letter == 'U' {
				fd.Status = "unmerged"
			}
			if fd.Status == "" {
				fd.Status = "modified"
			}
			if fd.OldMode == "000000" {
				fd.OldMode = ""
			}
			if fd.NewMode == "000000" {
				fd.NewMode = ""
			}
			if fd.OldMode == fd.NewMode {
				fd.OldMode, fd.NewMode = "", ""
			}
			files = append(files, fd)
			continue
		}
		// numstat
		f := strings.SplitN(r, "\t", 3)
		if len(f) != 3 {
			continue
		}
		if f[2] == "" { // a rename: two more records name the paths
			i += 2
		}
		if n < len(files) {
			fd := &files[n]
			if f[0] == "-" {
				fd.Binary = true
			} else {
				fd.Additions, _ = strconv.Atoi(f[0])
				fd.Deletions, _ = strconv.Atoi(f[1])
			}
		}
		n++
	}
	return files
}

// joinDiff attaches the hunks of a patch to the files of the raw list, in
// order: git emits both in the order of its diff queue. Unmerged entries
// appear once in the raw list and once in the patch ("diff --cc").
func joinDiff(files []FileDiff, patch []byte) *Diff {
	d := &Diff{Files: files}
	if d.Files == nil {
		d.Files = []FileDiff{}
	}
	k := -1
	var h *Hunk
	var oldLn, newLn int
	sc := bufio.NewScanner(bytes.NewReader(patch))
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	inHeader := false
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "diff --git ") || strings.HasPrefix(line, "diff --cc ") || strings.HasPrefix(line, "diff --combined "):
			k++
			h = nil
			inHeader = true
			continue
		case k < 0 || k >= len(d.Files):
			continue
		case strings.HasPrefix(line, "@@"):
			inHeader = false
			hk, ok := parseHunkHeader(line)
			if !ok {
				h = nil
				continue
			}
			d.Files[k].Hunks = append(d.Files[k].Hunks, hk)
			h = &d.Files[k].Hunks[len(d.Files[k].Hunks)-1]
			oldLn, newLn = hk.OldStart, hk.NewStart
			continue
		case inHeader || h == nil:
			continue
		}
		if line == "" {
			continue
		}
		switch line[0] {
		case '+':
			h.Lines = append(h.Lines, DiffLine{Origin: "+", Content: line[1:], New: newLn})
			newLn++
		case '-':
			h.Lines = append(h.Lines, DiffLine{Origin: "-", Content: line[1:], Old: oldLn})
			oldLn++
		case ' ':
			h.Lines = append(h.Lines, DiffLine{Origin: " ", Content: line[1:], Old: oldLn, New: newLn})
			oldLn++
			newLn++
		case '\\':
			if n := len(h.Lines); n > 0 {
				h.Lines[n-1].NoNewline = true
			}
		}
	}
	for _, f := range d.Files {
		d.Stats.FilesChanged++
		d.Stats.Insertions += f.Additions
		d.Stats.Deletions += f.Deletions
	}
	return d
}

// parseHunkHeader reads "@@ -a,b +c,d @@ header".
func parseHunkHeader(line string) (Hunk, bool) {
	rest := strings.TrimPrefix(line, "@@ ")
	end := strings.Index(rest, " @@")
	if end < 0 {
		return Hunk{}, false
	}
	f := strings.Fields(rest[:end])
	if len(f) != 2 {
		return Hunk{}, false
	}
	h := Hunk{Header: strings.TrimSpace(rest[end+3:]), Lines: []DiffLine{}}
	var ok1, ok2 bool
	h.OldStart, h.OldLines, ok1 = parseRange(strings.TrimPrefix(f[0], "-"))
	h.NewStart, h.NewLines, ok2 = parseRange(strings.TrimPrefix(f[1], "+"))
	return h, ok1 && ok2
}

func parseRange(s string) (start, count int, ok bool) {
	a, b, has := strings.Cut(s, ",")
	start, err := strconv.Atoi(a)
	if err != nil {
		return 0, 0, false
	}
	count = 1
	if has {
		if count, err = strconv.Atoi(b); err != nil {
			return 0, 0, false
		}
	}
	return start, count, true
}
