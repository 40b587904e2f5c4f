package gitx

import (
	"context"
	"strconv"
	"strings"
)

// Branch is a local or remote-tracking branch.
type Branch struct {
	Name     string `json:"name"`
	Commit   string `json:"commit"`
	Current  bool   `json:"current,omitempty"`
	Remote   bool   `json:"remote,omitempty"`
	Upstream string `json:"upstream,omitempty"`
	Ahead    int    `json:"ahead,omitempty"`
	Behind   int    `json:"behind,omitempty"`
	Gone     bool   `json:"upstream_gone,omitempty"`
	Subject  string `json:"subject"`
	Date     string `json:"date"`
	// Worktree is the path of another worktree that has it checked out.
	Worktree string `json:"worktree,omitempty"`
}

// Branches lists local branches, and remote-tracking ones with remotes,
// sorted by name.
func Branches(ctx context.Context, dir string, remotes bool) ([]Branch, error) {
	refs := []string{"refs/heads"}
	if remotes {
		refs = append(refs, "refs/remotes")
	}
	format := strings.Join([]string{"%(refname)", "%(objectname)", "%(HEAD)", "%(upstream:short)", "%(upstream:track,nobracket)",
		"%(contents:subject)", "%(committerdate:iso-strict)", "%(worktreepath)"}, fieldSep)
	args := append([]string{"for-each-ref", "--sort=refname", "--format=" + format}, refs...)
	out, err := git(ctx, dir, args...)
	if err != nil {
		return nil, err
	}
	bs := []Branch{}
	top := TopLevel(ctx, dir)
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Split(line, fieldSep)
		if len(f) != 8 {
			continue
		}
		b := Branch{Commit: f[1], Current: f[2] == "*", Upstream: f[3], Subject: f[5], Date: f[6]}
		if name, ok := strings.CutPrefix(f[0], "refs/heads/"); ok {
			b.Name = name
		} else {
			b.Name, b.Remote = strings.TrimPrefix(f[0], "refs/remotes/"), true
			if strings.HasSuffix(b.Name, "/HEAD") {
				continue
			}
		}
		for _, part := range strings.Split(f[4], ",") {
			part = strings.TrimSpace(part)
			switch {
			case part == "gone":
				b.Gone = true
			case strings.HasPrefix(part, "ahead "):
				b.Ahead, _ = strconv.Atoi(strings.TrimPrefix(part, "ahead "))
			case strings.HasPrefix(part, "behind "):
				b.Behind, _ = strconv.Atoi(strings.TrimPrefix(part, "behind "))
			}
		}
		if f[7] != "" && f[7] != top {
			b.Worktree = f[7]
		}
		bs = append(bs, b)
	}
	return bs, nil
}

// CreateBranch creates branch name at start (default HEAD) without
// checking it out.
func CreateBranch(ctx context.Context, dir, name, start string) error {
	if err := CheckBranchName(ctx, dir, name); err != nil {
		return err
	}
	args, err := appendRev([]string{"branch", "--end-of-options", name}, "start point", start)
	if err != nil {
		return err
	}
	_, err = git(ctx, dir, args...)
	return err
}

// DeleteBranch deletes a local branch; force deletes it even when its
// commits are not merged anywhere.
func DeleteBranch(ctx context.Context, dir, name string, force bool) error {
	if err := CheckRev("branch name", name); err != nil {
		return err
	}
	flag := "-d"
	if force {
		flag = "-D"
	}
	_, err := git(ctx, dir, "branch", flag, "--end-of-options", name)
	return err
}

// RenameBranch renames a local branch.
func RenameBranch(ctx context.Context, dir, from, to string) error {
	if err := CheckRev("branch name", from); err != nil {
		return err
	}
	if err := CheckBranchName(ctx, dir, to); err != nil {
		return err
	}
	_, err := git(ctx, dir, "branch", "-m", "--end-of-options", from, to)
	return err
}

// Tag is a tag with the commit it names.
type Tag struct {
	Name      string `json:"name"`
	Commit    string `json:"commit"`
	Annotated bool   `json:"annotated,omitempty"`
	Subject   string `json:"subject,omitempty"`
	Date      string `json:"date,omitempty"`
}

// Tags lists tags sorted by name.
func Tags(ctx context.Context, dir string) ([]Tag, error) {
	format := strings.Join([]string{"%(refname:short)", "%(objecttype)", "%(objectname)", "%(*objectname)", "%(contents:subject)", "%(creatordate:iso-strict)"}, fieldSep)
	out, err := git(ctx, dir, "for-each-ref", "--sort=refname", "--format="+format, "refs/tags")
	if err != nil {
		return nil, err
	}
	tags := []Tag{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Split(line, fieldSep)
		if len(f) != 6 {
			continue
		}
		t := Tag{Name: f[0], Commit: f[2], Subject: f[4], Date: f[5]}
		if f[1] == "tag" {
			t.Annotated, t.Commit = true, f[3]
		}
		tags = append(tags, t)
	}
	return tags, nil
}

// OnlyOn lists the commits of a local branch that no other local branch and
// no remote-tracking branch holds: what deleting it would lose (newest
// first, at most limit).
func OnlyOn(ctx context.Context, dir, branch string, limit int) ([]Commit, error) {
	if err := CheckRev("branch name", branch); err != nil {
		return nil, err
	}
	out, err := git(ctx, dir, "log", "--format="+logFormat, "--no-color", "-n", strconv.Itoa(limit),
		"refs/heads/"+branch, "--not", "--exclude="+branch, "--branches", "--remotes", "--")
	if err != nil {
		return nil, err
	}
	return parseLog(string(out), false), nil
}
