package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/scan"
)

// What the git tools share: the repository they run in, paths contained
// in it, git's failures turned into Cairn's error kinds, the confirmation
// that destructive operations need, and the index brought up to date after
// every operation that changes HEAD, the index or the working tree.

// gitRoot is the worktree the git tools run in; outside git they refuse.
func (c *Call) gitRoot() (string, error) {
	if !c.Env.Paths.IsGit {
		return "", &errs.Error{Kind: errs.Precondition, Msg: "this directory is not in a git repository",
			Fixes: []string{"git init"}}
	}
	return c.Env.Paths.Root, nil
}

// registerGit declares a git tool whose handler works in the repository
// from its start: it is handed the worktree, and outside git the tool
// refuses before the handler runs. (The tools that only change the
// repository check their arguments first and reach it through gitMutation.)
func registerGit[In, Out any](t Tool, h func(ctx context.Context, c *Call, root string, in In) (Out, error)) {
	registerWith(t, func(_ context.Context, c *Call) (string, error) { return c.gitRoot() }, h)
}

// gitPaths contains request paths in the repository and makes them
// repo-relative. A path starting with "-" is refused (write ./-name for a
// file named so), as git would read it as an option.
func (c *Call) gitPaths(ctx context.Context, paths []string) ([]string, error) {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if strings.HasPrefix(p, "-") {
			return nil, gitError(&gitx.InvalidName{What: "path", Name: p, Why: "starts with '-' (write ./" + p + " for a file named so)"})
		}
		rp, err := scan.Contain(ctx, c.Env.Paths.Root, p)
		if err != nil {
			return nil, err
		}
		s := string(rp)
		if s == "" {
			s = "."
		}
		if scan.IsSecret(s) {
			return nil, &errs.Error{Kind: errs.Refused, Msg: "path " + s + " looks like a secret; the git tools do not show it"}
		}
		out = append(out, s)
	}
	return out, nil
}

// gitPath is gitPaths for the one path a request names.
func (c *Call) gitPath(ctx context.Context, p string) (string, error) {
	paths, err := c.gitPaths(ctx, []string{p})
	if err != nil {
		return "", err
	}
	return paths[0], nil
}

// stagedPaths are the paths a call stages first: named paths or all the
// changes (paths is then empty), not both.
func (c *Call) stagedPaths(ctx context.Context, paths []string, all bool) ([]string, error) {
	if len(paths) > 0 && all {
		return nil, errs.E(errs.InvalidArgument, "give paths or all, not both")
	}
	return c.gitPaths(ctx, paths)
}

// withhold removes the text of files a diff must not show: secrets, and
// files Cairn's ignore rules exclude, as read_source refuses them. The
// file stays listed with its counts and the reason.
func (c *Call) withhold(d *gitx.Diff) {
	if d == nil {
		return
	}
	cfg := c.Env.Config
	for i := range d.Files {
		f := &d.Files[i]
		why := scan.Hidden(c.Env.Paths.Root, cfg.Index.Exclude, f.Path, cfg.Read.AllowSecrets)
		if why == "" {
			why = scan.Hidden(c.Env.Paths.Root, cfg.Index.Exclude, f.OldPath, cfg.Read.AllowSecrets)
		}
		if why != "" {
			f.Hunks, f.Withheld = []gitx.Hunk{}, "the file "+why
		}
	}
}

// gitError maps a failure of gitx to an error kind: a refused name is an
// invalid argument, a revision that names nothing is not found, and a
// command git refused is a failed precondition with git's own words.
func gitError(err error) error {
	if err == nil {
		return nil
	}
	var e *errs.Error
	if errors.As(err, &e) {
		return err
	}
	var bad *gitx.InvalidName
	if errors.As(err, &bad) {
		return &errs.Error{Kind: errs.InvalidArgument, Msg: bad.Error(), Details: map[string]any{"name": bad.Name}}
	}
	if errors.Is(err, gitx.ErrNoRef) {
		return &errs.Error{Kind: errs.NotFound, Err: err, Msg: "no such revision"}
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return err
	}
	var ce *gitx.CmdError
	if errors.As(err, &ce) {
		msg := ce.Message()
		kind := errs.Precondition
		switch {
		case strings.Contains(msg, "unknown revision") || strings.Contains(msg, "bad revision") ||
			strings.Contains(msg, "not a valid object name") || strings.Contains(msg, "did not match any") ||
			strings.Contains(msg, "does not have any commits yet") || strings.Contains(msg, "not found") ||
			strings.Contains(msg, "No such remote") || strings.Contains(msg, "no such path") || strings.Contains(msg, "no such ref"):
			kind = errs.NotFound
		case strings.Contains(msg, "CONFLICT") || strings.Contains(msg, "conflict"):
			kind = errs.Conflict
		}
		details := map[string]any{"git": strings.Join(ce.Args, " "), "exit": ce.Exit}
		if files := gitx.OverwrittenBy(msg); len(files) > 0 {
			details["would_overwrite"] = files
		}
		return &errs.Error{Kind: kind, Msg: "git " + ce.Subcommand() + ": " + firstLines(msg, 6), Details: details}
	}
	return &errs.Error{Kind: errs.Internal, Err: err}
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = append(lines[:n], fmt.Sprintf("... (%d more lines)", len(lines)-n))
	}
	return strings.Join(lines, "\n")
}

// discardPreview is what a destructive git operation would throw away.
type discardPreview struct {
	Files   []string      `json:"files,omitempty"`
	Commits []gitx.Commit `json:"commits,omitempty"`
}

func (p discardPreview) items() int { return len(p.Files) + len(p.Commits) }

// needConfirm is the answer to a destructive call made without confirm:
// what it would discard, and how to go ahead. It counts one item at least:
// a stash entry or a remote branch may hold no file or commit of its own.
func needConfirm(what string, discard discardPreview) error {
	return &errs.Error{Kind: errs.Precondition,
		Msg:     fmt.Sprintf("%s would discard %d items; pass confirm: true to go ahead", what, max(discard.items(), 1)),
		Details: map[string]any{"would_discard": discard},
		Fixes:   []string{"repeat the call with confirm: true"}}
}

// gitMutation runs a change to the repository: refused in read-only mode,
// and followed by bringing the index up to date (HEAD, the index file and
// the working tree may all have moved) and reading the new status.
func (c *Call) gitMutation(ctx context.Context, fn func(root string) error) (*gitx.Status, error) {
	root, err := c.gitRoot()
	if err != nil {
		return nil, err
	}
	if err := c.editsAllowed(); err != nil {
		return nil, err
	}
	before, _ := gitx.GetStatus(ctx, root)
	runErr := fn(root)
	c.gitReindex(ctx, root, before)
	if runErr != nil {
		return nil, gitError(runErr)
	}
	st, err := gitx.GetStatus(ctx, root)
	if err != nil {
		return nil, gitError(err)
	}
	return st, nil
}

// gitMutate is gitMutation for an operation with a result (the refs a
// fetch moved, a merge's outcome, ...). The result is returned with the
// error too: a push that fails part-way still says which refs it moved.
func gitMutate[T any](ctx context.Context, c *Call, op func(root string) (T, error)) (T, *gitx.Status, error) {
	var res T
	st, err := c.gitMutation(ctx, func(root string) error {
		var err error
		res, err = op(root)
		return err
	})
	return res, st, err
}

// listAfter reads the list a git tool keeps (branches, remotes, stash
// entries, submodules, worktrees) as the tool's action left it, and answers
// with what the action did, when it did anything, and how many there are.
func listAfter[T any](c *Call, did, noun string, list func() ([]T, error)) ([]T, error) {
	items, err := list()
	if err != nil {
		return nil, gitError(err)
	}
	if did != "" {
		c.Answer("%s; %d %s", did, len(items), noun)
	} else {
		c.Answer("%d %s", len(items), noun)
	}
	return items, nil
}

// gitReindex makes the index see what a git operation did, before the call
// answers: the paths that were changed before it and are changed after it
// (a HEAD or .git/index change makes the index rescan everything anyway).
func (c *Call) gitReindex(ctx context.Context, root string, before *gitx.Status) {
	if c.Env.Reindex == nil {
		return
	}
	var paths uniquePaths
	add := func(st *gitx.Status) {
		if st == nil {
			return
		}
		for _, list := range [][]gitx.FileChange{st.Staged, st.Unstaged} {
			for _, f := range list {
				paths.add(f.Path, f.OldPath)
			}
		}
		paths.add(st.Untracked...)
		for _, cf := range st.Conflicts {
			paths.add(cf.Path)
		}
	}
	add(before)
	after, _ := gitx.GetStatus(ctx, root)
	add(after)
	err := c.Reindexed(ctx, func() { c.warnings = append(c.warnings, c.Env.Reindex(ctx, paths.list)...) })
	if err != nil {
		c.Warn("git changed the repository, but the index cannot be read again: %s", errs.As(err).Message())
	}
}

// changedFiles lists the tracked paths with local changes (staged or not).
func changedFiles(st *gitx.Status) []string {
	var out uniquePaths
	for _, list := range [][]gitx.FileChange{st.Staged, st.Unstaged} {
		for _, f := range list {
			out.add(f.Path)
		}
	}
	for _, cf := range st.Conflicts {
		out.add(cf.Path)
	}
	return out.list
}

// uniquePaths collects paths in the order they come, each once.
type uniquePaths struct {
	seen map[string]bool
	list []string
}

func (u *uniquePaths) add(paths ...string) {
	for _, p := range paths {
		if p == "" || u.seen[p] {
			continue
		}
		if u.seen == nil {
			u.seen = map[string]bool{}
		}
		u.seen[p] = true
		u.list = append(u.list, p)
	}
}

// statusLine summarises a status for an answer.
func statusLine(st *gitx.Status) string {
	where := st.Branch
	if st.Detached || where == "" {
		where = "detached at " + short(st.Head)
	}
	if st.Clean {
		return where + ", clean"
	}
	s := fmt.Sprintf("%s: %d staged, %d unstaged, %d untracked", where, len(st.Staged), len(st.Unstaged), len(st.Untracked))
	if len(st.Conflicts) > 0 {
		s += fmt.Sprintf(", %d in conflict", len(st.Conflicts))
	}
	if st.State != "none" {
		s += " (" + st.State + " in progress)"
	}
	return s
}

// commitOf checks the revision a request names (HEAD when it names none)
// and resolves it to a commit id.
func commitOf(ctx context.Context, root, rev string) (string, error) {
	if rev == "" {
		rev = "HEAD"
	}
	if err := gitx.CheckRev("revision", rev); err != nil {
		return "", gitError(err)
	}
	id, err := gitx.ResolveCommit(ctx, root, rev)
	if err != nil {
		return "", gitError(err)
	}
	return id, nil
}

func short(oid string) string { return abbrev(oid, "(no commit)") }

// abbrev shortens a commit id to 12 hex digits; none stands for no commit.
func abbrev(oid, none string) string {
	if oid == "" {
		return none
	}
	return oid[:min(len(oid), 12)]
}

// freshen brings the index up to date in the middle of a call that needs it
// only for some arguments (a symbol to look up), and moves the call to the
// new snapshot; when it cannot, the call answers from the index as it is.
func (c *Call) freshen(ctx context.Context) error {
	return c.Reindexed(ctx, func() {
		if c.Env.Fresh == nil {
			return
		}
		f := c.Env.Fresh(ctx, false)
		if f.Err != nil {
			c.Warn("answering from the index as it is: %s", errs.As(f.Err).Message())
			f.Freshness, f.Err = protocol.MayBeStale, nil
		}
		c.fresh = f
	})
}

// SymbolSpan is the symbol a git tool was asked about and the span of its
// definition: the lines the tool followed.
type SymbolSpan struct {
	Symbol *query.SymbolRef   `json:"symbol,omitempty"`
	Span   *protocol.Location `json:"span,omitempty"`
}

// symbolSpan resolves a symbol to its definition's file and lines, with
// the index made fresh first.
func (c *Call) symbolSpan(ctx context.Context, name string) (SymbolSpan, error) {
	if err := c.freshen(ctx); err != nil {
		return SymbolSpan{}, err
	}
	r, err := resolveArg(ctx, c, name, nil)
	if err != nil {
		return SymbolSpan{}, err
	}
	ref, span := r.Ref(), r.Span()
	return SymbolSpan{Symbol: &ref, Span: &span}, nil
}

// gitCursor pages a list of commits: the start commit is pinned, so pages
// stay consistent while new commits arrive; key identifies the query.
type gitCursor struct {
	Rev string `json:"r"`
	cursorPos
}

func decodeGitCursor(s string, key any) (*gitCursor, error) {
	if s == "" {
		return nil, nil
	}
	var gc gitCursor
	if err := decodeCursor(s, &gc, key); err != nil {
		return nil, err
	}
	return &gc, nil
}

func encodeGitCursor(rev string, offset int, key any) string {
	return encodeCursor(gitCursor{Rev: rev, cursorPos: cursorPos{Offset: offset, Key: cursorKey(key)}})
}

// The git payload types, under the names adapters use (they reach git only
// through the tools).
type (
	GitStatus       = gitx.Status
	GitDiff         = gitx.Diff
	GitCommit       = gitx.Commit
	GitBlameCommit  = gitx.BlameCommit
	GitConflictFile = gitx.ConflictFile
	GitRefUpdate    = gitx.RefUpdate
)
