package gitx

import (
	"context"
	"sort"
	"strings"
)

// Remote is a configured remote.
type Remote struct {
	Name     string `json:"name"`
	FetchURL string `json:"fetch_url"`
	PushURL  string `json:"push_url,omitempty"` // when it differs from the fetch URL
}

// Remotes lists the remotes sorted by name.
func Remotes(ctx context.Context, dir string) ([]Remote, error) {
	out, err := git(ctx, dir, "remote", "-v")
	if err != nil {
		return nil, err
	}
	by := map[string]*Remote{}
	for _, line := range strings.Split(string(out), "\n") {
		name, rest, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		url, kind, _ := strings.Cut(rest, " ")
		r := by[name]
		if r == nil {
			r = &Remote{Name: name}
			by[name] = r
		}
		if kind == "(push)" {
			r.PushURL = url
		} else {
			r.FetchURL = url
		}
	}
	out2 := []Remote{}
	for _, r := range by {
		if r.PushURL == r.FetchURL {
			r.PushURL = ""
		}
		out2 = append(out2, *r)
	}
	sort.Slice(out2, func(i, j int) bool { return out2[i].Name < out2[j].Name })
	return out2, nil
}

// RemoteAdd, RemoteRemove, RemoteRename and RemoteSetURL change remotes.
func RemoteAdd(ctx context.Context, dir, name, url string) error {
	if err := CheckRemoteName(ctx, dir, name); err != nil {
		return err
	}
	if err := CheckURL(url); err != nil {
		return err
	}
	_, err := git(ctx, dir, "remote", "add", "--", name, url)
	return err
}

// RemoteRemove deletes a remote and its remote-tracking branches.
func RemoteRemove(ctx context.Context, dir, name string) error {
	if err := CheckRev("remote name", name); err != nil {
		return err
	}
	_, err := git(ctx, dir, "remote", "remove", "--", name)
	return err
}

// RemoteRename renames a remote.
func RemoteRename(ctx context.Context, dir, from, to string) error {
	if err := CheckRev("remote name", from); err != nil {
		return err
	}
	if err := CheckRemoteName(ctx, dir, to); err != nil {
		return err
	}
	_, err := git(ctx, dir, "remote", "rename", "--", from, to)
	return err
}

// RemoteSetURL changes a remote's URL.
func RemoteSetURL(ctx context.Context, dir, name, url string) error {
	if err := CheckRev("remote name", name); err != nil {
		return err
	}
	if err := CheckURL(url); err != nil {
		return err
	}
	_, err := git(ctx, dir, "remote", "set-url", "--", name, url)
	return err
}

// RefUpdate is a ref a fetch or push changed: flag is new, updated, forced,
// deleted, rejected or up_to_date.
type RefUpdate struct {
	Ref  string `json:"ref"`
	Old  string `json:"old,omitempty"`
	New  string `json:"new,omitempty"`
	Flag string `json:"flag"`
	Note string `json:"note,omitempty"`
}

// refsUnder maps each ref under prefix to its commit.
func refsUnder(ctx context.Context, dir, prefix string) map[string]string {
	out, err := git(ctx, dir, "for-each-ref", "--format=%(refname) %(objectname)", prefix)
	m := map[string]string{}
	if err != nil {
		return m
	}
	for _, line := range strings.Split(string(out), "\n") {
		if ref, oid, ok := strings.Cut(line, " "); ok {
			m[ref] = oid
		}
	}
	return m
}

// Fetch fetches from remote (all remotes when empty) and reports the
// remote-tracking refs that moved.
func Fetch(ctx context.Context, dir, remote string, prune, tags bool) ([]RefUpdate, error) {
	args := []string{"fetch", "-q"}
	if prune {
		args = append(args, "--prune")
	}
	if tags {
		args = append(args, "--tags")
	}
	prefix := "refs/remotes/"
	if remote == "" {
		args = append(args, "--all")
	} else {
		if err := CheckRev("remote", remote); err != nil {
			return nil, err
		}
		args = append(args, "--end-of-options", remote)
		prefix += remote + "/"
	}
	before := refsUnder(ctx, dir, prefix)
	if _, err := git(ctx, dir, args...); err != nil {
		return nil, err
	}
	return refDelta(before, refsUnder(ctx, dir, prefix)), nil
}

// refDelta compares two ref maps.
func refDelta(before, after map[string]string) []RefUpdate {
	ups := []RefUpdate{}
	for ref, oid := range after {
		switch old, ok := before[ref]; {
		case !ok:
			ups = append(ups, RefUpdate{Ref: ref, New: oid, Flag: "new"})
		case old != oid:
			ups = append(ups, RefUpdate{Ref: ref, Old: old, New: oid, Flag: "updated"})
		}
	}
	for ref, oid := range before {
		if _, ok := after[ref]; !ok {
			ups = append(ups, RefUpdate{Ref: ref, Old: oid, Flag: "deleted"})
		}
	}
	sort.Slice(ups, func(i, j int) bool { return ups[i].Ref < ups[j].Ref })
	return ups
}

// PushOptions describes a push of Branch (default: the current branch) to
// Remote (default: its upstream's remote, else origin).
type PushOptions struct {
	Remote, Branch string
	SetUpstream    bool
	Force          bool // --force-with-lease: never overwrites what this clone has not seen
	Tags           bool
	Delete         bool
}

// Push pushes and reports each ref from git's porcelain output. A rejected
// ref is reported, with the error.
func Push(ctx context.Context, dir string, o PushOptions) ([]RefUpdate, error) {
	args := []string{"push", "--porcelain"}
	if o.SetUpstream {
		args = append(args, "--set-upstream")
	}
	if o.Force {
		args = append(args, "--force-with-lease")
	}
	if o.Tags {
		args = append(args, "--tags")
	}
	if o.Delete {
		args = append(args, "--delete")
	}
	for _, n := range []string{o.Remote, o.Branch} {
		if n != "" {
			if err := CheckRev("name", n); err != nil {
				return nil, err
			}
		}
	}
	if o.Remote != "" || o.Branch != "" {
		remote := o.Remote
		if remote == "" {
			remote = "origin"
		}
		args = append(args, "--end-of-options", remote)
		if o.Branch != "" {
			args = append(args, o.Branch)
		}
	}
	r, err := Exec(ctx, Cmd{Dir: dir, Args: args})
	if err != nil {
		return nil, err
	}
	ups := parsePushPorcelain(string(r.Stdout))
	if r.Exit != 0 {
		return ups, &CmdError{Args: args, Exit: r.Exit, Stderr: r.Stderr, Stdout: string(r.Stdout)}
	}
	return ups, nil
}

var pushFlags = map[byte]string{' ': "updated", '+': "forced", '-': "deleted", '*': "new", '!': "rejected", '=': "up_to_date"}

// parsePushPorcelain reads "flag\tfrom:to\tsummary (reason)" lines.
func parsePushPorcelain(out string) []RefUpdate {
	ups := []RefUpdate{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Split(line, "\t")
		if len(f) < 3 || len(f[0]) != 1 {
			continue
		}
		_, to, _ := strings.Cut(f[1], ":")
		u := RefUpdate{Ref: to, Flag: pushFlags[f[0][0]], Note: strings.TrimSpace(f[2])}
		if old, nw, ok := strings.Cut(f[2], ".."); ok && !strings.Contains(f[2], " ") {
			u.Old, u.New, u.Note = old, strings.TrimPrefix(nw, "."), ""
		}
		ups = append(ups, u)
	}
	return ups
}

// PullOptions describes a pull of Branch from Remote (defaults: the
// upstream).
type PullOptions struct {
	Remote, Branch string
	Rebase         bool
	FFOnly         bool
}

// Pull fetches and integrates; a conflict is not an error (the outcome
// lists it, the worktree stays in the merge or rebase state).
func Pull(ctx context.Context, dir string, o PullOptions) (*MergeOutcome, error) {
	args := []string{"pull", "--no-edit", "--no-verify"}
	switch {
	case o.Rebase:
		args = append(args, "--rebase")
	case o.FFOnly:
		args = append(args, "--ff-only")
	default:
		args = append(args, "--no-rebase")
	}
	for _, n := range []string{o.Remote, o.Branch} {
		if n != "" {
			if err := CheckRev("name", n); err != nil {
				return nil, err
			}
		}
	}
	if o.Remote != "" {
		args = append(args, "--end-of-options", o.Remote)
		if o.Branch != "" {
			args = append(args, o.Branch)
		}
	}
	before, _ := Head(ctx, dir)
	r, err := Exec(ctx, Cmd{Dir: dir, Args: args})
	if err != nil {
		return nil, err
	}
	special := ""
	if o.Rebase {
		special = "rebased"
	}
	return mergeOutcome(ctx, dir, args, r, before, string(r.Stdout)+r.Stderr, special, func(after string) bool { return after == before })
}
