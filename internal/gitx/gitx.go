// Package gitx is the only code that runs git. Every invocation sets
// GIT_OPTIONAL_LOCKS=0 so Cairn never rewrites .git/index behind the user's back,
// and parses machine formats (-z, porcelain) into Go values.
package gitx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/cairnhq/cairn/internal/errs"
)

// ErrNoGit means git is not installed (not found on PATH). Only the tools
// that need git fail with it (GIT_UNAVAILABLE); a repository is then
// scanned without git.
var ErrNoGit error = &errs.Error{Kind: errs.GitUnavailable, Msg: "git is not installed (not found on PATH)",
	Fixes: []string{"install git, or put it on the PATH of the Cairn process"}}

// died is the error of a git invocation that a signal ended before it
// finished: its output is cut off and is not used.
func died(args []string, ee *exec.ExitError) error {
	how := "was killed"
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		how = "was killed by " + ws.Signal().String()
	}
	return &errs.Error{Kind: errs.GitUnavailable, Msg: "git " + firstWord(args) + " " + how + " before it finished; its output is not used",
		Details: map[string]any{"git": strings.Join(args, " ")}, Fixes: []string{"repeat the call"}}
}

// Run runs git in dir and returns its stdout.
func Run(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C", "GIT_TERMINAL_PROMPT=0")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, ErrNoGit
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == -1 && ctx.Err() == nil {
			return nil, died(args, ee)
		}
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return stdout.Bytes(), nil
}

// Available reports whether git can be run.
func Available() bool {
	_, err := exec.LookPath("git")
	return err == nil
}

// TopLevel returns the worktree root containing dir, or "" when dir is not in a git worktree.
func TopLevel(ctx context.Context, dir string) string {
	out, err := Run(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// CommonDir returns the absolute git common dir of the worktree (shared by all worktrees).
func CommonDir(ctx context.Context, root string) (string, error) {
	return revParseDir(ctx, root, "--git-common-dir")
}

// GitDir returns the absolute git dir of this worktree (holds HEAD and index).
func GitDir(ctx context.Context, root string) (string, error) {
	return revParseDir(ctx, root, "--git-dir")
}

// revParseDir asks git rev-parse for a directory (flag) and makes it
// absolute: git answers relative to root.
func revParseDir(ctx context.Context, root, flag string) (string, error) {
	out, err := Run(ctx, root, "rev-parse", flag)
	if err != nil {
		return "", err
	}
	d := strings.TrimSpace(string(out))
	if !filepath.IsAbs(d) {
		d = filepath.Join(root, d)
	}
	return filepath.Clean(d), nil
}

// Head returns the commit HEAD points to and the branch name ("" when detached
// or when there are no commits yet).
func Head(ctx context.Context, root string) (commit, branch string) {
	if out, err := Run(ctx, root, "rev-parse", "--verify", "--quiet", "HEAD"); err == nil {
		commit = strings.TrimSpace(string(out))
	}
	if out, err := Run(ctx, root, "symbolic-ref", "--quiet", "--short", "HEAD"); err == nil {
		branch = strings.TrimSpace(string(out))
	}
	return commit, branch
}

// ListFiles lists tracked files and untracked files that are not ignored, as
// repo-relative slash paths, plus the tracked files missing from disk are
// found by the caller's stat.
func ListFiles(ctx context.Context, root string) ([]string, error) {
	return ListFilesUnder(ctx, root, "")
}

// ListFilesUnder is ListFiles for the files below one repo-relative
// directory ("" for the whole tree): git reads only that part of the index
// and walks only that directory for untracked files.
func ListFilesUnder(ctx context.Context, root, dir string) ([]string, error) {
	args := []string{"-c", "core.quotepath=off", "ls-files", "-z", "--cached", "--others", "--exclude-standard"}
	if dir != "" {
		args = append(args, "--", ":(literal)"+dir)
	}
	out, err := Run(ctx, root, args...)
	if err != nil {
		return nil, err
	}
	return splitZ(out), nil
}

// TreeEntry is one blob of a commit's tree.
type TreeEntry struct {
	Mode string
	OID  string
	Path string
}

// LsTree lists the blobs of a commit's tree recursively.
func LsTree(ctx context.Context, root, commit string) ([]TreeEntry, error) {
	out, err := Run(ctx, root, "-c", "core.quotepath=off", "ls-tree", "-r", "-z", "--full-tree", commit)
	if err != nil {
		return nil, err
	}
	var entries []TreeEntry
	for _, line := range splitZ(out) {
		meta, p, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		f := strings.Fields(meta)
		if len(f) != 3 || f[1] != "blob" {
			continue
		}
		entries = append(entries, TreeEntry{Mode: f[0], OID: f[2], Path: p})
	}
	return entries, nil
}

func splitZ(out []byte) []string {
	var res []string
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			res = append(res, string(p))
		}
	}
	return res
}

// ReadHead reads HEAD without running git: the commit it points to and the
// branch name ("" when detached). It understands loose refs and packed-refs;
// ok is false when it cannot tell (the caller may then ask git).
func ReadHead(gitDir, commonDir string) (commit, branch string, ok bool) {
	data, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return "", "", false
	}
	head := strings.TrimSpace(string(data))
	ref, symbolic := strings.CutPrefix(head, "ref: ")
	if !symbolic {
		return head, "", isOID(head)
	}
	branch = strings.TrimPrefix(ref, "refs/heads/")
	for _, dir := range []string{gitDir, commonDir} {
		if v, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(ref))); err == nil {
			c := strings.TrimSpace(string(v))
			return c, branch, isOID(c)
		}
	}
	packed, err := os.ReadFile(filepath.Join(commonDir, "packed-refs"))
	if err != nil {
		return "", branch, true // an unborn branch: no commits yet
	}
	for _, line := range strings.Split(string(packed), "\n") {
		if oid, name, found := strings.Cut(strings.TrimSpace(line), " "); found && name == ref {
			return oid, branch, isOID(oid)
		}
	}
	return "", branch, true
}

// Short cuts a commit id to the 12 digits people read in messages.
func Short(oid string) string {
	if len(oid) > 12 {
		return oid[:12]
	}
	return oid
}

func isOID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// Version returns git's version ("2.39.5"), or ErrNoGit.
func Version(ctx context.Context) (string, error) {
	if !Available() {
		return "", ErrNoGit
	}
	out, err := Run(ctx, "", "--version")
	if err != nil {
		return "", err
	}
	// "git version 2.39.5" or "git version 2.39.3 (Apple Git-146)"
	f := strings.Fields(strings.TrimSpace(string(out)))
	if len(f) < 3 || f[0] != "git" || f[1] != "version" {
		return "", fmt.Errorf("git --version: unexpected output %q", strings.TrimSpace(string(out)))
	}
	return f[2], nil
}
