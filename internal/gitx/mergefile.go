package gitx

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// FileMerge is the outcome of a three-way merge of one file's contents.
type FileMerge struct {
	// Merged is the result; when Hunks is not empty it holds conflict
	// markers (diff3 style: ours, base, theirs) where the sides disagree.
	Merged []byte
	// Hunks are the conflicted regions, numbered in Merged (empty: the
	// merge is clean).
	Hunks []ConflictHunk
}

// Clean reports whether the merge needs no decision.
func (m *FileMerge) Clean() bool { return len(m.Hunks) == 0 }

// MergeFile merges the changes base→ours and base→theirs of one file with
// git merge-file (the same line merge git uses for a merge of branches),
// on temporary copies: no repository is read or written. The labels name
// the two sides in the conflict markers.
func MergeFile(ctx context.Context, base, ours, theirs []byte, oursLabel, theirsLabel string) (*FileMerge, error) {
	dir, err := os.MkdirTemp("", "cairn-merge-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	names := [3]string{"ours", "base", "theirs"}
	for i, data := range [][]byte{ours, base, theirs} {
		if err := os.WriteFile(filepath.Join(dir, names[i]), data, 0o600); err != nil {
			return nil, err
		}
	}
	args := []string{"merge-file", "-p", "--diff3", "-L", oursLabel, "-L", "base", "-L", theirsLabel, "--", names[0], names[1], names[2]}
	r, err := Exec(ctx, Cmd{Dir: dir, Args: args})
	if err != nil {
		return nil, err
	}
	// merge-file exits with the number of conflicts (capped at 127), and
	// above that on an error.
	if r.Exit < 0 || r.Exit > 127 {
		return nil, &CmdError{Args: args, Exit: r.Exit, Stderr: r.Stderr}
	}
	m := &FileMerge{Merged: r.Stdout, Hunks: []ConflictHunk{}}
	if r.Exit > 0 {
		if m.Hunks, err = markedHunks(bytes.NewReader(r.Stdout)); err != nil {
			return nil, err
		}
		if len(m.Hunks) == 0 {
			return nil, fmt.Errorf("git merge-file reported %d conflicts but marked none", r.Exit)
		}
	}
	return m, nil
}
