package gitx

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// MergeOptions describes a merge of Rev into the current branch.
type MergeOptions struct {
	Rev     string
	Message string
	NoFF    bool // always create a merge commit
	FFOnly  bool // refuse anything but a fast-forward
	Squash  bool // stage the result without committing
}

// MergeOutcome is what a merge did: fast_forward, merged, up_to_date,
// squashed or conflicts (the merge stopped; Conflicts lists them).
type MergeOutcome struct {
	Result    string         `json:"result"`
	Commit    string         `json:"commit,omitempty"`
	Conflicts []ConflictFile `json:"conflicts"`
}

// ConflictFile is a path left in conflict, with the conflicted hunks found
// in its working-tree file.
type ConflictFile struct {
	Conflict
	Hunks []ConflictHunk `json:"hunks"`
}

// ConflictHunk is one <<<<<<< ... >>>>>>> region of a file: the marker
// lines (1-based, inclusive) and the text of each side.
type ConflictHunk struct {
	StartLine int      `json:"start_line"`
	EndLine   int      `json:"end_line"`
	Ours      []string `json:"ours"`
	Base      []string `json:"base,omitempty"`
	Theirs    []string `json:"theirs"`
	OursLabel string   `json:"ours_label,omitempty"`
	TheirsLbl string   `json:"theirs_label,omitempty"`
}

// Merge merges a revision into HEAD. A conflict is not an error: the
// outcome lists the conflicts and the worktree stays in the merge state.
func Merge(ctx context.Context, dir string, o MergeOptions) (*MergeOutcome, error) {
	if err := CheckRev("revision", o.Rev); err != nil {
		return nil, err
	}
	before, _ := Head(ctx, dir)
	args := []string{"merge", "--no-edit", "--no-verify"}
	switch {
	case o.FFOnly:
		args = append(args, "--ff-only")
	case o.NoFF:
		args = append(args, "--no-ff")
	}
	if o.Squash {
		args = append(args, "--squash")
	}
	var stdin *strings.Reader
	if o.Message != "" {
		args = append(args, "-F", "-")
		stdin = strings.NewReader(o.Message)
	}
	args = append(args, "--end-of-options", o.Rev)
	c := Cmd{Dir: dir, Args: args}
	if stdin != nil {
		c.Stdin = stdin
	}
	r, err := Exec(ctx, c)
	if err != nil {
		return nil, err
	}
	special := ""
	if o.Squash {
		special = "squashed"
	}
	return mergeOutcome(ctx, dir, args, r, before, string(r.Stdout), special, func(string) bool {
		return strings.Contains(string(r.Stdout), "Already up to date")
	})
}

// mergeOutcome reads what a merge or a pull left: the conflicts of a run
// that stopped on them; otherwise what it did (up to date, the mode's own
// result such as squashed or rebased, fast-forward or a merge) and the new
// HEAD when it moved. upToDate decides "nothing to do" given the new HEAD.
func mergeOutcome(ctx context.Context, dir string, args []string, r *Result, before, output, special string, upToDate func(after string) bool) (*MergeOutcome, error) {
	after, _ := Head(ctx, dir)
	out := &MergeOutcome{Conflicts: []ConflictFile{}}
	if r.Exit != 0 {
		var err error
		if out.Conflicts, err = conflictsOf(ctx, dir, args, r); err != nil {
			return nil, err
		}
		out.Result = "conflicts"
		return out, nil
	}
	switch {
	case upToDate(after):
		out.Result = "up_to_date"
	case special != "":
		out.Result = special
	case strings.Contains(output, "Fast-forward"):
		out.Result = "fast_forward"
	default:
		out.Result = "merged"
	}
	if after != before {
		out.Commit = after
	}
	return out, nil
}

// conflictsOf reads the conflicts a failed merge, pull or stash apply
// left; a failure that left none is the command's error.
func conflictsOf(ctx context.Context, dir string, args []string, r *Result) ([]ConflictFile, error) {
	cs, err := Conflicts(ctx, dir)
	if err != nil || len(cs) == 0 {
		return nil, &CmdError{Args: args, Exit: r.Exit, Stderr: r.Stderr, Stdout: string(r.Stdout)}
	}
	return cs, nil
}

// MergeAbort abandons a merge in progress and restores the pre-merge state.
func MergeAbort(ctx context.Context, dir string) error {
	_, err := git(ctx, dir, "merge", "--abort")
	return err
}

// Conflicts lists the unmerged paths with their conflict hunks.
func Conflicts(ctx context.Context, dir string) ([]ConflictFile, error) {
	st, err := GetStatus(ctx, dir)
	if err != nil {
		return nil, err
	}
	top := TopLevel(ctx, dir)
	out := []ConflictFile{}
	for _, c := range st.Conflicts {
		cf := ConflictFile{Conflict: c, Hunks: []ConflictHunk{}}
		if hs, err := conflictHunks(filepath.Join(top, filepath.FromSlash(c.Path))); err == nil {
			cf.Hunks = hs
		}
		out = append(out, cf)
	}
	return out, nil
}

// conflictHunks reads the conflict markers of a file (merge and diff3
// styles).
func conflictHunks(path string) ([]ConflictHunk, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return markedHunks(f)
}

// markedHunks reads the conflict markers of a text.
func markedHunks(f io.Reader) ([]ConflictHunk, error) {
	var hunks []ConflictHunk
	var h *ConflictHunk
	side := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSuffix(sc.Text(), "\r")
		switch {
		case strings.HasPrefix(line, "<<<<<<<") && h == nil:
			h = &ConflictHunk{StartLine: n, Ours: []string{}, Theirs: []string{}, OursLabel: strings.TrimSpace(line[7:])}
			side = "ours"
		case h != nil && strings.HasPrefix(line, "|||||||") && side == "ours":
			side = "base"
		case h != nil && line == "=======" && (side == "ours" || side == "base"):
			side = "theirs"
		case h != nil && strings.HasPrefix(line, ">>>>>>>") && side == "theirs":
			h.EndLine, h.TheirsLbl = n, strings.TrimSpace(line[7:])
			hunks = append(hunks, *h)
			h, side = nil, ""
		case h != nil:
			switch side {
			case "ours":
				h.Ours = append(h.Ours, line)
			case "base":
				h.Base = append(h.Base, line)
			case "theirs":
				h.Theirs = append(h.Theirs, line)
			}
		}
	}
	if hunks == nil {
		hunks = []ConflictHunk{}
	}
	return hunks, sc.Err()
}
