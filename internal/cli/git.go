package cli

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/tools"
)

func gitFamily() family {
	return family{name: "git", short: "Git operations with structured results (status, diff, log, blame, commit, merge, rebase, ...)",
		long: `Every git operation as a tool with structured output: reads (status, diff,
log, show, blame, history) and changes (stage, commit, reset, checkout,
branch, merge, rebase, stash, remote, fetch, push, pull, submodule,
worktree). Destructive operations need --confirm and otherwise list what they
would discard (exit 7). After a change the index sees the new HEAD before
the command returns.`,
		cmds: func() []*toolCmd {
			return []*toolCmd{gitStatusCmd(), gitDiffCmd(), gitLogCmd(), gitShowCmd(), gitBlameCmd(), gitHistoryCmd(),
				gitStageCmd(), gitCommitCmd(), gitResetCmd(), gitCheckoutCmd(), gitBranchCmd(), gitMergeCmd(), gitRebaseCmd(),
				gitStashCmd(), gitRemoteCmd(), gitFetchCmd(), gitPushCmd(), gitPullCmd(), gitSubmoduleCmd(), gitWorktreeCmd()}
		}}
}

func gitStatusCmd() *toolCmd {
	var in tools.GitStatusIn
	return &toolCmd{tool: "git_status", use: "status [PATHS...]", in: &in, pos: []posArg{{"PATHS", "paths", &in.Paths}},
		render: withAnswer(renderGitStatus)}
}

func renderGitStatus(w io.Writer, st *tools.GitStatus) {
	for _, f := range st.Staged {
		fmt.Fprintf(w, "  staged    %-12s %s%s\n", f.Status, f.Path, from(f.OldPath))
	}
	for _, f := range st.Unstaged {
		fmt.Fprintf(w, "  unstaged  %-12s %s\n", f.Status, f.Path)
	}
	for _, c := range st.Conflicts {
		fmt.Fprintf(w, "  conflict  %-12s %s\n", c.Kind, c.Path)
	}
	eachLine(w, "  untracked              %s\n", st.Untracked)
}

func from(old string) string {
	if old == "" {
		return ""
	}
	return " (from " + old + ")"
}

func gitDiffCmd() *toolCmd {
	var in tools.GitDiffIn
	return &toolCmd{tool: "git_diff", use: "diff [BASE] [TARGET]", args: cobra.MaximumNArgs(2), in: &in,
		pos: []posArg{{"BASE", "base", &in.Base}, {"TARGET", "target", &in.Target}},
		flags: func(f *argFlags) {
			f.Bool(&in.Staged, "staged", "staged")
			f.StringArray(&in.Paths, "path", "paths")
			f.Int(&in.ContextLines, "context", "context_lines", 0)
			f.maxChars(&in.MaxChars)
		},
		render: withAnswer(renderGitDiff)}
}

func renderGitDiff(w io.Writer, d *tools.GitDiff) {
	for _, f := range d.Files {
		fmt.Fprintf(w, "%s %s%s +%d -%d\n", f.Status, f.Path, from(f.OldPath), f.Additions, f.Deletions)
		if f.Binary {
			fmt.Fprintln(w, "  (binary)")
		}
		for _, h := range f.Hunks {
			fmt.Fprintf(w, "@@ -%d,%d +%d,%d @@", h.OldStart, h.OldLines, h.NewStart, h.NewLines)
			if h.Header != "" {
				fmt.Fprint(w, " "+h.Header)
			}
			fmt.Fprintln(w)
			for _, l := range h.Lines {
				fmt.Fprintf(w, "%s%s\n", l.Origin, l.Content)
			}
		}
	}
}

func gitLogCmd() *toolCmd {
	var in tools.GitLogIn
	return &toolCmd{tool: "git_log", use: "log [REV]", args: cobra.MaximumNArgs(1), in: &in, pos: []posArg{{"REV", "rev", &in.Rev}},
		flags: func(f *argFlags) {
			f.StringArray(&in.Paths, "path", "paths")
			f.String(&in.Symbol, "symbol", "symbol", "")
			f.String(&in.Since, "since", "since", "")
			f.String(&in.Until, "until", "until", "")
			f.String(&in.Author, "author", "author", "")
			f.String(&in.Grep, "grep", "grep", "")
			f.Bool(&in.FirstParent, "first-parent", "first_parent")
			f.Bool(&in.NoMerges, "no-merges", "no_merges")
			f.Bool(&in.Files, "files", "files")
			f.page(&in.Limit, &in.Cursor, "commits per page", 20, 100)
		},
		render: withAnswer(func(w io.Writer, r *tools.GitLogOut) { renderCommits(w, r.Commits) })}
}

func renderCommits(w io.Writer, cs []tools.GitCommit) {
	for _, c := range cs {
		fmt.Fprintf(w, "%s %s %s  %s\n", c.ShortOID, c.Author.Time, c.Author.Name, c.Subject)
		for _, f := range c.Files {
			fmt.Fprintf(w, "    %-12s %s%s\n", f.Status, f.Path, from(f.OldPath))
		}
	}
}

func gitShowCmd() *toolCmd {
	var in tools.GitShowIn
	return &toolCmd{tool: "git_show", use: "show [REV]", args: cobra.MaximumNArgs(1), in: &in, pos: []posArg{{"REV", "rev", &in.Rev}},
		flags: func(f *argFlags) {
			f.StringArray(&in.Paths, "path", "paths")
			f.Bool(&in.Tags, "tags", "tags")
			f.maxChars(&in.MaxChars)
		},
		render: withAnswer(func(w io.Writer, r *tools.GitShowOut) {
			for _, t := range r.Tags {
				fmt.Fprintf(w, "%s %s %s\n", t.Name, t.Commit, t.Subject)
			}
			if r.Commit != nil {
				fmt.Fprintf(w, "commit %s\nauthor %s <%s> %s\n\n%s\n", r.Commit.OID, r.Commit.Author.Name, r.Commit.Author.Email, r.Commit.Author.Time, r.Commit.Subject)
				if r.Commit.Body != "" {
					fmt.Fprintf(w, "\n%s\n", r.Commit.Body)
				}
				fmt.Fprintln(w)
			}
			if r.Diff != nil {
				renderGitDiff(w, r.Diff)
			}
		})}
}

func gitBlameCmd() *toolCmd {
	var in tools.GitBlameIn
	return &toolCmd{tool: "git_blame", use: "blame [PATH]", args: cobra.MaximumNArgs(1), in: &in, pos: []posArg{{"PATH", "path", &in.Path}},
		flags: func(f *argFlags) {
			f.Int(&in.StartLine, "start", "start_line", 0)
			f.Int(&in.EndLine, "end", "end_line", 0)
			f.String(&in.Symbol, "symbol", "symbol", "")
			f.String(&in.Rev, "rev", "rev", "")
			f.Bool(&in.Content, "content", "content")
		},
		render: withAnswer(func(w io.Writer, r *tools.GitBlameOut) {
			by := map[string]tools.GitBlameCommit{}
			for _, c := range r.Commits {
				by[c.OID] = c
			}
			for _, rg := range r.Ranges {
				c := by[rg.Commit]
				if c.Uncommitted {
					fmt.Fprintf(w, "%5d-%-5d (not committed yet)\n", rg.Start, rg.End)
				} else {
					fmt.Fprintf(w, "%5d-%-5d %.12s %s %s  %s\n", rg.Start, rg.End, rg.Commit, c.Author.Time, c.Author.Name, c.Summary)
				}
				eachLine(w, "            | %s\n", rg.Lines)
			}
		})}
}

func gitHistoryCmd() *toolCmd {
	var in tools.GitHistoryIn
	return &toolCmd{tool: "git_history", use: "history [PATH]", args: cobra.MaximumNArgs(1), in: &in, pos: []posArg{{"PATH", "path", &in.Path}},
		flags: func(f *argFlags) {
			f.String(&in.Symbol, "symbol", "symbol", "")
			f.String(&in.Since, "since", "since", "")
			f.page(&in.Limit, &in.Cursor, "commits per page", 20, 100)
		},
		render: withAnswer(func(w io.Writer, r *tools.GitHistoryOut) {
			for _, c := range r.Commits {
				fmt.Fprintf(w, "%.12s %s %s  %s", c.OID, c.Date, c.Author, c.Subject)
				if c.Path != "" {
					fmt.Fprintf(w, "  [%s %s%s]", c.Status, c.Path, from(c.OldPath))
				}
				fmt.Fprintln(w)
			}
		})}
}

func gitStageCmd() *toolCmd {
	var in tools.GitStageIn
	return &toolCmd{tool: "git_stage", use: "stage [PATHS...]", in: &in, pos: []posArg{{"PATHS", "paths", &in.Paths}},
		flags: func(f *argFlags) {
			f.Bool(&in.All, "all", "all")
			f.Bool(&in.Unstage, "unstage", "unstage")
		},
		render: withAnswer(func(w io.Writer, r *tools.GitStatusOut) { renderGitStatus(w, r.Status) })}
}

func gitCommitCmd() *toolCmd {
	var in tools.GitCommitIn
	return &toolCmd{tool: "git_commit", use: "commit [PATHS...]", in: &in, pos: []posArg{{"PATHS", "paths", &in.Paths}},
		flags: func(f *argFlags) {
			f.StringP(&in.Message, "message", "m", "message", "")
			f.Bool(&in.All, "all", "all")
			f.String(&in.Author, "author", "author", "")
			f.Bool(&in.AllowEmpty, "allow-empty", "allow_empty")
			f.Bool(&in.Amend, "amend", "amend")
		},
		render: withAnswer(func(w io.Writer, r *tools.GitCommitOut) { renderCommits(w, []tools.GitCommit{*r.Commit}) })}
}

func gitResetCmd() *toolCmd {
	var in tools.GitResetIn
	return &toolCmd{tool: "git_reset", use: "reset [REV]", args: cobra.MaximumNArgs(1), in: &in, pos: []posArg{{"REV", "rev", &in.Rev}},
		flags: func(f *argFlags) {
			f.String(&in.Mode, "mode", "mode", "")
			f.StringArray(&in.Paths, "path", "paths")
			f.Bool(&in.Confirm, "confirm", "confirm")
		},
		render: withAnswer(func(w io.Writer, r *tools.GitResetOut) { renderCommits(w, r.Left) })}
}

func gitCheckoutCmd() *toolCmd {
	var in tools.GitCheckoutIn
	return &toolCmd{tool: "git_checkout", use: "checkout [REV]", args: cobra.MaximumNArgs(1), in: &in, pos: []posArg{{"REV", "rev", &in.Rev}},
		flags: func(f *argFlags) {
			f.String(&in.Create, "create", "create", "")
			f.StringArray(&in.Paths, "path", "paths")
			f.Bool(&in.Confirm, "confirm", "confirm")
		},
		render: withAnswer(func(w io.Writer, r *tools.GitCheckoutOut) { renderGitStatus(w, r.Status) })}
}

func gitBranchCmd() *toolCmd {
	var in tools.GitBranchIn
	return &toolCmd{tool: "git_branch", use: "branch [ACTION] [NAME] [NEW_NAME]", args: cobra.MaximumNArgs(3), in: &in,
		pos: []posArg{{"ACTION", "action", &in.Action}, {"NAME", "name", &in.Name}, {"NEW_NAME", "new_name", &in.NewName}},
		flags: func(f *argFlags) {
			f.String(&in.Start, "start", "start", "")
			f.Bool(&in.Remotes, "remotes", "remotes")
			f.Bool(&in.Confirm, "confirm", "confirm")
		},
		render: withAnswer(func(w io.Writer, r *tools.GitBranchOut) {
			for _, b := range r.Branches {
				mark := " "
				if b.Current {
					mark = "*"
				}
				track := ""
				if b.Upstream != "" {
					track = fmt.Sprintf(" [%s +%d -%d]", b.Upstream, b.Ahead, b.Behind)
				}
				fmt.Fprintf(w, "%s %s %.12s%s %s\n", mark, b.Name, b.Commit, track, b.Subject)
			}
		})}
}

func gitMergeCmd() *toolCmd {
	var in tools.GitMergeIn
	return &toolCmd{tool: "git_merge", use: "merge [REV]", args: cobra.MaximumNArgs(1), in: &in, pos: []posArg{{"REV", "rev", &in.Rev}},
		flags: func(f *argFlags) {
			f.StringP(&in.Message, "message", "m", "message", "")
			f.Bool(&in.NoFF, "no-ff", "no_ff")
			f.Bool(&in.FFOnly, "ff-only", "ff_only")
			f.Bool(&in.Squash, "squash", "squash")
			f.Bool(&in.Abort, "abort", "abort")
		},
		render: withAnswer(func(w io.Writer, r *tools.GitMergeOut) { renderConflicts(w, r.Conflicts) })}
}

func renderConflicts(w io.Writer, cs []tools.GitConflictFile) {
	for _, c := range cs {
		fmt.Fprintf(w, "conflict %s (%s)\n", c.Path, c.Kind)
		for _, h := range c.Hunks {
			fmt.Fprintf(w, "  lines %d-%d: ours %d lines, theirs %d lines\n", h.StartLine, h.EndLine, len(h.Ours), len(h.Theirs))
		}
	}
}

func gitRebaseCmd() *toolCmd {
	var in tools.GitRebaseIn
	var steps string
	return &toolCmd{tool: "git_rebase", use: "rebase [ACTION]", args: cobra.MaximumNArgs(1), in: &in,
		pos: []posArg{{"ACTION", "action", &in.Action}},
		note: `--steps takes the steps as JSON: [{"action": "squash", "commit": "..."}, ...]
(the plan's steps, edited).`,
		flags: func(f *argFlags) {
			f.String(&in.Upstream, "upstream", "upstream", "")
			f.String(&in.Onto, "onto", "onto", "")
			f.String(&steps, "steps", "steps", "")
		},
		request: func(_ *cobra.Command, _ []string) (any, error) {
			if steps != "" {
				if err := json.Unmarshal([]byte(steps), &in.Steps); err != nil {
					return nil, errs.E(errs.Usage, "--steps is not a JSON list of steps: %v", err)
				}
			}
			return in, nil
		},
		render: withAnswer(func(w io.Writer, r *tools.GitRebaseOut) {
			if r.Plan != nil {
				for _, s := range r.Plan.Steps {
					fmt.Fprintf(w, "%s %.12s %s\n", s.Action, s.Commit, s.Subject)
				}
			}
			if r.State != nil {
				renderConflicts(w, r.State.Conflicts)
			}
		})}
}

func gitStashCmd() *toolCmd {
	var in tools.GitStashIn
	return &toolCmd{tool: "git_stash", use: "stash [ACTION]", args: cobra.MaximumNArgs(1), in: &in,
		pos: []posArg{{"ACTION", "action", &in.Action}},
		flags: func(f *argFlags) {
			f.StringP(&in.Message, "message", "m", "message", "")
			f.Bool(&in.IncludeUntracked, "include-untracked", "include_untracked")
			f.Bool(&in.KeepIndex, "keep-index", "keep_index")
			f.StringArray(&in.Paths, "path", "paths")
			f.Int(&in.Entry, "entry", "entry", 0)
			f.Bool(&in.Confirm, "confirm", "confirm")
		},
		render: withAnswer(func(w io.Writer, r *tools.GitStashOut) {
			for _, s := range r.Stashes {
				fmt.Fprintf(w, "%s %s\n", s.Ref, s.Message)
			}
			renderConflicts(w, r.Conflicts)
		})}
}

func gitRemoteCmd() *toolCmd {
	var in tools.GitRemoteIn
	return &toolCmd{tool: "git_remote", use: "remote [ACTION] [NAME] [URL]", args: cobra.MaximumNArgs(3), in: &in,
		pos:   []posArg{{"ACTION", "action", &in.Action}, {"NAME", "name", &in.Name}, {"URL", "url", &in.URL}},
		flags: func(f *argFlags) { f.String(&in.NewName, "new-name", "new_name", "") },
		render: withAnswer(func(w io.Writer, r *tools.GitRemoteOut) {
			for _, rm := range r.Remotes {
				fmt.Fprintf(w, "%s %s\n", rm.Name, rm.FetchURL)
			}
		})}
}

func renderRefUpdates(w io.Writer, refs []tools.GitRefUpdate) {
	for _, u := range refs {
		fmt.Fprintf(w, "  %-10s %s %.12s..%.12s %s\n", u.Flag, u.Ref, u.Old, u.New, u.Note)
	}
}

func gitFetchCmd() *toolCmd {
	var in tools.GitFetchIn
	return &toolCmd{tool: "git_fetch", use: "fetch [REMOTE]", args: cobra.MaximumNArgs(1), in: &in, pos: []posArg{{"REMOTE", "remote", &in.Remote}},
		flags: func(f *argFlags) {
			f.Bool(&in.Prune, "prune", "prune")
			f.Bool(&in.Tags, "tags", "tags")
		},
		render: withAnswer(func(w io.Writer, r *tools.GitFetchOut) { renderRefUpdates(w, r.Updated) })}
}

func gitPushCmd() *toolCmd {
	var in tools.GitPushIn
	return &toolCmd{tool: "git_push", use: "push [REMOTE] [BRANCH]", args: cobra.MaximumNArgs(2), in: &in,
		pos: []posArg{{"REMOTE", "remote", &in.Remote}, {"BRANCH", "branch", &in.Branch}},
		flags: func(f *argFlags) {
			f.Bool(&in.SetUpstream, "set-upstream", "set_upstream")
			f.Bool(&in.Force, "force", "force")
			f.Bool(&in.Tags, "tags", "tags")
			f.Bool(&in.Delete, "delete", "delete")
			f.Bool(&in.Confirm, "confirm", "confirm")
		},
		render: withAnswer(func(w io.Writer, r *tools.GitPushOut) { renderRefUpdates(w, r.Refs) })}
}

func gitPullCmd() *toolCmd {
	var in tools.GitPullIn
	return &toolCmd{tool: "git_pull", use: "pull [REMOTE] [BRANCH]", args: cobra.MaximumNArgs(2), in: &in,
		pos: []posArg{{"REMOTE", "remote", &in.Remote}, {"BRANCH", "branch", &in.Branch}},
		flags: func(f *argFlags) {
			f.Bool(&in.Rebase, "rebase", "rebase")
			f.Bool(&in.FFOnly, "ff-only", "ff_only")
		},
		render: withAnswer(func(w io.Writer, r *tools.GitMergeOut) { renderConflicts(w, r.Conflicts) })}
}

func gitSubmoduleCmd() *toolCmd {
	var in tools.GitSubmoduleIn
	return &toolCmd{tool: "git_submodule", use: "submodule [ACTION]", args: cobra.MaximumNArgs(1), in: &in,
		pos: []posArg{{"ACTION", "action", &in.Action}},
		flags: func(f *argFlags) {
			f.String(&in.URL, "url", "url", "")
			f.String(&in.Path, "path", "path", "")
			f.String(&in.Branch, "branch", "branch", "")
			f.StringArray(&in.Paths, "only", "paths")
			f.Bool(&in.Recursive, "recursive", "recursive")
			f.Bool(&in.Confirm, "confirm", "confirm")
		},
		render: withAnswer(func(w io.Writer, r *tools.GitSubmoduleOut) {
			for _, s := range r.Submodules {
				fmt.Fprintf(w, "%-13s %.12s %s %s\n", s.State, s.Commit, s.Path, s.URL)
			}
		})}
}

func gitWorktreeCmd() *toolCmd {
	var in tools.GitWorktreeIn
	return &toolCmd{tool: "git_worktree", use: "worktree [ACTION] [PATH]", args: cobra.MaximumNArgs(2), in: &in,
		pos: []posArg{{"ACTION", "action", &in.Action}, {"PATH", "path", &in.Path}},
		flags: func(f *argFlags) {
			f.String(&in.Rev, "rev", "rev", "")
			f.String(&in.Branch, "branch", "branch", "")
			f.String(&in.Reason, "reason", "reason", "")
			f.Bool(&in.Confirm, "confirm", "confirm")
		},
		render: withAnswer(func(w io.Writer, r *tools.GitWorktreeOut) {
			for _, wt := range r.Worktrees {
				fmt.Fprintf(w, "%s %.12s %s\n", wt.Path, wt.Head, wt.Branch)
			}
		})}
}

// renderDiscard prints what a destructive operation refused to discard.
func renderDiscard(w io.Writer, e *protocol.ErrorObject) {
	d, ok := e.Details["would_discard"]
	if !ok {
		return
	}
	b, _ := json.Marshal(d)
	var p struct {
		Files   []string          `json:"files"`
		Commits []tools.GitCommit `json:"commits"`
	}
	json.Unmarshal(b, &p)
	eachLine(w, "  would discard file: %s\n", p.Files)
	for _, c := range p.Commits {
		fmt.Fprintf(w, "  would discard commit: %s %s\n", c.ShortOID, c.Subject)
	}
}
