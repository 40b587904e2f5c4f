package gitx

import (
	"context"
	"strings"
)

// Worktree is one worktree of the repository.
type Worktree struct {
	Path     string `json:"path"`
	Head     string `json:"head,omitempty"`
	Branch   string `json:"branch,omitempty"`
	Detached bool   `json:"detached,omitempty"`
	Bare     bool   `json:"bare,omitempty"`
	Locked   bool   `json:"locked,omitempty"`
	Reason   string `json:"lock_reason,omitempty"`
	Prunable bool   `json:"prunable,omitempty"`
	Main     bool   `json:"main,omitempty"`
}

// Worktrees lists the worktrees, the main one first (git's order).
func Worktrees(ctx context.Context, dir string) ([]Worktree, error) {
	out, err := git(ctx, dir, "worktree", "list", "--porcelain", "-z")
	if err != nil {
		return nil, err
	}
	wts := []Worktree{}
	var cur *Worktree
	for _, rec := range strings.Split(string(out), "\x00") {
		if rec == "" {
			cur = nil
			continue
		}
		k, v, _ := strings.Cut(rec, " ")
		if k == "worktree" {
			wts = append(wts, Worktree{Path: v})
			cur = &wts[len(wts)-1]
			continue
		}
		if cur == nil {
			continue
		}
		switch k {
		case "HEAD":
			cur.Head = v
		case "branch":
			cur.Branch = strings.TrimPrefix(v, "refs/heads/")
		case "detached":
			cur.Detached = true
		case "bare":
			cur.Bare = true
		case "locked":
			cur.Locked, cur.Reason = true, v
		case "prunable":
			cur.Prunable = true
		}
	}
	if len(wts) > 0 {
		wts[0].Main = true
	}
	return wts, nil
}

// WorktreeAdd adds a worktree at path checking out rev (default HEAD,
// detached unless branch names a new branch to create there).
func WorktreeAdd(ctx context.Context, dir, path, rev, branch string) error {
	if err := CheckPaths([]string{path}); err != nil {
		return err
	}
	args := []string{"worktree", "add", "-q"}
	if branch != "" {
		if err := CheckBranchName(ctx, dir, branch); err != nil {
			return err
		}
		args = append(args, "-b", branch)
	}
	args, err := appendRev(append(args, "--", path), "revision", rev)
	if err != nil {
		return err
	}
	_, err = git(ctx, dir, args...)
	return err
}

// WorktreeRun runs remove (force: even with local changes), lock, unlock
// or prune.
func WorktreeRun(ctx context.Context, dir, verb, path string, force bool, reason string) error {
	args := []string{"worktree", verb}
	if verb == "prune" {
		_, err := git(ctx, dir, args...)
		return err
	}
	if err := CheckPaths([]string{path}); err != nil {
		return err
	}
	if force && verb == "remove" {
		args = append(args, "--force")
	}
	if reason != "" && verb == "lock" {
		args = append(args, "--reason="+reason)
	}
	_, err := git(ctx, dir, append(args, "--", path)...)
	return err
}
