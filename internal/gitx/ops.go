package gitx

import (
	"context"
	"fmt"
	"strings"
)

// Mutations of the index, HEAD and the working tree. Each runs one git
// command (or a short fixed sequence) and leaves reading the new state to
// the caller. Callers check names (CheckRev, CheckBranchName) and contain
// paths in the repository first; every function here still puts
// --end-of-options before revisions and "--" before paths.

// Stage adds paths (all changes, including deletions) to the index; with no
// paths it stages every change of the worktree.
func Stage(ctx context.Context, dir string, paths []string) error {
	if err := CheckPaths(paths); err != nil {
		return err
	}
	_, err := git(ctx, dir, append([]string{"add", "-A", "--"}, orWholeTree(paths)...)...)
	return err
}

// orWholeTree is the pathspec of paths, or of the whole worktree (":/", from
// the top whatever the directory) when there are none.
func orWholeTree(paths []string) []string {
	if len(paths) == 0 {
		return []string{":/"}
	}
	return paths
}

// Unstage removes paths from the index, keeping the working tree; with no
// paths, everything staged.
func Unstage(ctx context.Context, dir string, paths []string) error {
	if err := CheckPaths(paths); err != nil {
		return err
	}
	if head, _ := Head(ctx, dir); head == "" {
		// Before the first commit there is nothing to restore from.
		_, err := git(ctx, dir, append([]string{"rm", "-r", "-q", "--cached", "--ignore-unmatch", "--"}, orWholeTree(paths)...)...)
		return err
	}
	_, err := git(ctx, dir, append([]string{"reset", "-q", "HEAD", "--"}, orWholeTree(paths)...)...)
	return err
}

// CommitOptions describes a commit. The message goes through stdin, so no
// text of it is ever read as an option.
type CommitOptions struct {
	Message    string
	Author     string // "Name <email>"
	AllowEmpty bool
	Amend      bool
}

// CommitIndex records the index as a new commit and returns its id.
func CommitIndex(ctx context.Context, dir string, o CommitOptions) (string, error) {
	args := []string{"commit", "-q", "--no-verify", "--cleanup=strip", "-F", "-"}
	if o.AllowEmpty {
		args = append(args, "--allow-empty")
	}
	if o.Amend {
		args = append(args, "--amend")
	}
	if o.Author != "" {
		if err := CheckRev("author", o.Author); err != nil {
			return "", err
		}
		args = append(args, "--author="+o.Author)
	}
	if _, err := Must(ctx, Cmd{Dir: dir, Args: args, Stdin: strings.NewReader(o.Message)}); err != nil {
		return "", err
	}
	head, _ := Head(ctx, dir)
	return head, nil
}

// Reset moves HEAD (and the branch) to rev: soft keeps index and tree,
// mixed resets the index, hard resets index and working tree. With paths
// it resets only those index entries (mixed).
func Reset(ctx context.Context, dir, mode, rev string, paths []string) error {
	if err := CheckRev("revision", rev); err != nil {
		return err
	}
	if err := CheckPaths(paths); err != nil {
		return err
	}
	if len(paths) > 0 {
		// reset refuses --end-of-options here; CheckRev keeps "-" out.
		_, err := git(ctx, dir, append([]string{"reset", "-q", rev, "--"}, paths...)...)
		return err
	}
	switch mode {
	case "soft", "mixed", "hard":
	default:
		return fmt.Errorf("reset mode %q is not soft, mixed or hard", mode)
	}
	_, err := git(ctx, dir, "reset", "-q", "--"+mode, rev, "--")
	return err
}

// Switch checks out a branch or commit (detached), creating branch create
// at rev first when create is set. force discards local changes that would
// otherwise stop it.
func Switch(ctx context.Context, dir, rev, create string, force bool) error {
	args := []string{"checkout", "-q"}
	if force {
		args = append(args, "--force")
	}
	if create != "" {
		if err := CheckBranchName(ctx, dir, create); err != nil {
			return err
		}
		args = append(args, "-b", create)
	}
	// checkout reads --end-of-options as a second revision
	args, err := appendRev(args, "revision", rev)
	if err != nil {
		return err
	}
	_, err = git(ctx, dir, append(args, "--")...)
	return err
}

// RestorePaths replaces paths in the working tree (and the index) with
// their content at rev, or with the index's content when rev is empty.
func RestorePaths(ctx context.Context, dir, rev string, paths []string) error {
	if err := CheckPaths(paths); err != nil {
		return err
	}
	args, err := appendRev([]string{"checkout", "-q"}, "revision", rev) // as in Switch
	if err != nil {
		return err
	}
	_, err = git(ctx, dir, append(append(args, "--"), paths...)...)
	return err
}

// RevList lists the commits of a range expression (e.g. "a..b", or rev
// with the nots), newest first, with their metadata; at most limit.
func RevList(ctx context.Context, dir string, limit int, revs ...string) ([]Commit, error) {
	for _, r := range revs {
		if err := CheckRev("revision", strings.TrimPrefix(r, "^")); err != nil {
			return nil, err
		}
	}
	args := []string{"log", "--format=" + logFormat, "--no-color"}
	if limit > 0 {
		args = append(args, fmt.Sprintf("-n%d", limit))
	}
	args = append(append(append(args, "--end-of-options"), revs...), "--")
	out, err := git(ctx, dir, args...)
	if err != nil {
		return nil, err
	}
	return parseLog(string(out), false), nil
}

// OverwrittenBy reads the paths git names when it refuses to check out,
// merge or pull over local changes ("would be overwritten by ...").
func OverwrittenBy(msg string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(msg, "\n") {
		switch {
		case strings.Contains(line, "would be overwritten by") || strings.Contains(line, "would be removed by") ||
			strings.Contains(line, "would be lost by"):
			in = true
		case in && strings.HasPrefix(line, "\t"):
			out = append(out, strings.TrimSpace(line))
		case in:
			in = false
		}
	}
	return out
}
