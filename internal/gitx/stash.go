package gitx

import (
	"context"
	"fmt"
	"strings"
)

// Stash is one entry of the stash list.
type Stash struct {
	Index   int    `json:"index"`
	Ref     string `json:"ref"` // stash@{N}
	Commit  string `json:"commit"`
	Message string `json:"message"`
	Date    string `json:"date"`
}

// Stashes lists the stash, newest (stash@{0}) first.
func Stashes(ctx context.Context, dir string) ([]Stash, error) {
	out, err := git(ctx, dir, "stash", "list", "--format=%gd"+fieldSep+"%H"+fieldSep+"%gs"+fieldSep+"%cI")
	if err != nil {
		return nil, err
	}
	list := []Stash{}
	for i, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, fieldSep)
		if len(f) != 4 {
			continue
		}
		list = append(list, Stash{Index: i, Ref: f[0], Commit: f[1], Message: f[2], Date: f[3]})
	}
	return list, nil
}

// StashRef names stash entry n.
func StashRef(n int) string { return fmt.Sprintf("stash@{%d}", n) }

// StashPush saves local changes (of paths, when given) and reverts them.
// It reports false when there was nothing to stash.
func StashPush(ctx context.Context, dir, message string, untracked, keepIndex bool, paths []string) (bool, error) {
	if err := CheckPaths(paths); err != nil {
		return false, err
	}
	before, _ := Stashes(ctx, dir)
	args := []string{"stash", "push", "-q"}
	if untracked {
		args = append(args, "--include-untracked")
	}
	if keepIndex {
		args = append(args, "--keep-index")
	}
	if message != "" {
		args = append(args, "--message="+message)
	}
	args = append(append(args, "--"), paths...)
	if _, err := git(ctx, dir, args...); err != nil {
		return false, err
	}
	after, _ := Stashes(ctx, dir)
	return len(after) > len(before), nil
}

// StashApply applies entry n; pop drops it afterwards when it applied
// cleanly. A conflict is not an error: the conflicts are returned and the
// entry is kept.
func StashApply(ctx context.Context, dir string, n int, pop, index bool) ([]ConflictFile, error) {
	verb := "apply"
	if pop {
		verb = "pop"
	}
	args := []string{"stash", verb, "-q"}
	if index {
		args = append(args, "--index")
	}
	args = append(args, StashRef(n))
	r, err := Exec(ctx, Cmd{Dir: dir, Args: args})
	if err != nil {
		return nil, err
	}
	if r.Exit != 0 {
		return conflictsOf(ctx, dir, args, r)
	}
	return []ConflictFile{}, nil
}

// StashDrop deletes entry n.
func StashDrop(ctx context.Context, dir string, n int) error {
	_, err := git(ctx, dir, "stash", "drop", "-q", StashRef(n))
	return err
}

// StashFiles lists the paths a stash entry holds changes to (tracked, and
// untracked when it saved them).
func StashFiles(ctx context.Context, dir string, n int) ([]FileChange, error) {
	ref := StashRef(n)
	out, err := git(ctx, dir, "-c", "core.quotepath=off", "diff", "--name-status", "-z", "-M", ref+"^1", ref, "--")
	if err != nil {
		return nil, err
	}
	files := parseNameStatus(string(out))
	if u, err := git(ctx, dir, "-c", "core.quotepath=off", "ls-tree", "-r", "-z", "--name-only", ref+"^3"); err == nil {
		for _, p := range splitZ(u) {
			files = append(files, FileChange{Path: p, Status: "untracked"})
		}
	}
	return files, nil
}
