package gitx

import (
	"context"
	"fmt"
	"strings"
)

// Names that reach git's command line from a request are checked before
// git sees them: a name starting with "-" would be read as an option
// (--upload-pack=..., --output=...), so it is refused outright, and every
// user-supplied revision goes after --end-of-options and every path after
// "--" as well.

// InvalidName is a ref name, revision, remote or path that Cairn refuses to
// pass to git.
type InvalidName struct {
	What, Name, Why string
}

func (e *InvalidName) Error() string {
	return fmt.Sprintf("invalid %s %q: %s", e.What, e.Name, e.Why)
}

// CheckRev refuses a revision (a commit, branch, tag or range) that could be
// read as an option or holds control characters.
func CheckRev(what, rev string) error {
	switch {
	case rev == "":
		return &InvalidName{what, rev, "empty"}
	case strings.HasPrefix(rev, "-"):
		return &InvalidName{what, rev, "starts with '-' (it would be read as an option)"}
	case strings.ContainsFunc(rev, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return &InvalidName{what, rev, "holds control characters"}
	}
	return nil
}

// appendRev appends rev to args when it is given, once CheckRev (what names
// it) accepts it. Commands that take no --end-of-options before a revision
// (blame, checkout) rely on CheckRev keeping a leading "-" out.
func appendRev(args []string, what, rev string) ([]string, error) {
	if rev == "" {
		return args, nil
	}
	if err := CheckRev(what, rev); err != nil {
		return nil, err
	}
	return append(args, rev), nil
}

// revOrHead is rev, or HEAD when rev is empty, once CheckRev accepts it.
func revOrHead(rev string) (string, error) {
	if rev == "" {
		return "HEAD", nil
	}
	return rev, CheckRev("revision", rev)
}

// CheckBranchName refuses a name a new branch cannot have: CheckRev's rules
// plus git's own (git check-ref-format --branch).
func CheckBranchName(ctx context.Context, dir, name string) error {
	if err := CheckRev("branch name", name); err != nil {
		return err
	}
	if _, err := git(ctx, dir, "check-ref-format", "--branch", name); err != nil {
		return &InvalidName{"branch name", name, "not a valid branch name (git check-ref-format)"}
	}
	return nil
}

// CheckRemoteName refuses a remote name git would not accept.
func CheckRemoteName(ctx context.Context, dir, name string) error {
	if err := CheckRev("remote name", name); err != nil {
		return err
	}
	if _, err := git(ctx, dir, "check-ref-format", "refs/remotes/"+name+"/x"); err != nil {
		return &InvalidName{"remote name", name, "not a valid remote name"}
	}
	return nil
}

// CheckPaths refuses repo paths that start with "-" (write ./-name to mean
// such a file) or hold control characters. Paths always go after "--" too.
func CheckPaths(paths []string) error {
	for _, p := range paths {
		if err := CheckRev("path", p); err != nil {
			return err
		}
	}
	return nil
}

// CheckURL refuses a remote URL that could be read as an option.
func CheckURL(url string) error { return CheckRev("url", url) }
