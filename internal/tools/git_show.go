package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/gitx"
)

// GitShowIn are the arguments of git_show.
type GitShowIn struct {
	Rev   string   `json:"rev,omitempty" jsonschema:"the commit, branch or tag to show (default HEAD)"`
	Paths []string `json:"paths,omitempty" jsonschema:"restrict the diff to these repo paths"`
	Tags  bool     `json:"tags,omitempty" jsonschema:"list the tags instead of showing a commit"`
	Common
}

// GitShowOut is a commit with its diff against its first parent, or the
// list of tags.
type GitShowOut struct {
	Commit *gitx.Commit `json:"commit,omitempty"`
	Diff   *gitx.Diff   `json:"diff,omitempty"`
	Tags   []gitx.Tag   `json:"tags,omitempty"`
}

func init() {
	registerGit(Tool{
		Name: "git_show", Group: "git",
		Summary:  "One commit: its metadata, message, the paths it touched and its structured diff against its first parent (the empty tree for a root commit); or, with tags, every tag with the commit it names.",
		Doc:      "The diff has the shape of git_diff's and is cut to max_chars the same way; narrow it with paths.",
		When:     []string{"reading a commit found with git_log or git_blame", "listing tags (tags: true)"},
		WhenNot:  []string{"a range of commits: git_log", "uncommitted changes: git_diff"},
		Examples: []string{`{}`, `{"rev": "HEAD~2", "paths": ["src"]}`, `{"tags": true}`},
	}, gitShow)
}

func gitShow(ctx context.Context, c *Call, root string, in GitShowIn) (*GitShowOut, error) {
	if in.Tags {
		tags, err := gitx.Tags(ctx, root)
		if err != nil {
			return nil, gitError(err)
		}
		c.Answer("%d tags", len(tags))
		return &GitShowOut{Tags: tags}, nil
	}
	paths, err := c.gitPaths(ctx, in.Paths)
	if err != nil {
		return nil, err
	}
	id, err := commitOf(ctx, root, in.Rev)
	if err != nil {
		return nil, err
	}
	cm, err := gitx.ShowCommit(ctx, root, id)
	if err != nil {
		return nil, gitError(err)
	}
	base := gitx.EmptyTree
	if len(cm.Parents) > 0 {
		base = cm.Parents[0]
	}
	d, err := gitx.DiffBetween(ctx, root, base, id, paths)
	if err != nil {
		return nil, gitError(err)
	}
	c.withhold(d)
	c.Answer("%s %s (%s): %d files, +%d -%d", cm.ShortOID, cm.Subject, cm.Author.Name, d.Stats.FilesChanged, d.Stats.Insertions, d.Stats.Deletions)
	if len(cm.Parents) > 1 {
		c.Warn("a merge commit: the diff is against its first parent")
	}
	return &GitShowOut{Commit: cm, Diff: d}, nil
}
