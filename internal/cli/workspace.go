package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/tools"
)

func workspaceFamily() family {
	return family{name: "workspace", short: "Workspaces: overlays of changes only the calls naming them see",
		long: `A workspace is an overlay of changed files in front of the working tree.
'cairn write --workspace ID' writes into it, and the read commands (read,
search, symbol, refs, callers, callees, impact, map, arch, ...) with
--workspace ID read through it; 'cairn workspace refresh ID' merges the
tree's changes underneath into it; 'cairn workspace apply ID' lands it in
the files as one atomic write, refusing (exit 7) when a file changed
underneath.`,
		cmds: func() []*toolCmd {
			return []*toolCmd{wsCreateCmd(), wsListCmd(), wsRefreshCmd(), wsResetCmd(), wsDeleteCmd(), wsApplyCmd()}
		}}
}

func renderWorkspace(w io.Writer, s tools.WorkspaceSummary) {
	stale := ""
	if s.Stale {
		stale = "  (HEAD moved since its base)"
	}
	fmt.Fprintf(w, "%s  base %.12s  revision %d  %d files%s\n", s.ID, s.BaseCommit, s.Revision, len(s.Files), stale)
	for _, p := range s.Files {
		fmt.Fprintf(w, "  %s\n", p)
	}
	if len(s.ChangedUnderneath) > 0 {
		fmt.Fprintf(w, "  changed underneath: %s\n", strings.Join(s.ChangedUnderneath, ", "))
	}
}

func wsCreateCmd() *toolCmd {
	var in tools.WorkspaceCreateIn
	return &toolCmd{tool: "workspace_create", use: "create [ID]", args: cobra.MaximumNArgs(1), in: &in,
		pos:    []posArg{{"ID", "workspace_id", &in.WorkspaceID}},
		render: withAnswer(func(w io.Writer, r *tools.WorkspaceOut) { renderWorkspace(w, r.Workspace) })}
}

func wsListCmd() *toolCmd {
	var in tools.Base
	return &toolCmd{tool: "workspace_list", use: "list", args: cobra.NoArgs, in: &in,
		render: withAnswer(func(w io.Writer, r *tools.WorkspaceListOut) {
			for _, s := range r.Workspaces {
				renderWorkspace(w, s)
			}
		})}
}

// wsOneCmd is a command on one workspace named by ID.
func wsOneCmd(tool, verb string) *toolCmd {
	var in tools.WorkspaceIn
	return &toolCmd{tool: tool, use: verb + " ID", args: cobra.ExactArgs(1), in: &in,
		pos: []posArg{{"ID", "workspace_id", &in.WorkspaceID}},
		render: func(w io.Writer, env *protocol.Envelope) {
			fmt.Fprintln(w, env.Answer)
			if r, ok := env.Data.(*tools.WorkspaceOut); ok {
				renderWorkspace(w, r.Workspace)
				renderRefresh(w, r)
			}
		}}
}

// renderRefresh prints what a refresh merged and the conflicts it left,
// hunk by hunk (lines of the merge with diff3 markers).
func renderRefresh(w io.Writer, r *tools.WorkspaceOut) {
	if len(r.Merged) > 0 {
		fmt.Fprintf(w, "  merged with the tree's changes: %s\n", strings.Join(r.Merged, ", "))
	}
	for _, c := range r.Conflicts {
		fmt.Fprintf(w, "  conflict %s: %s\n", c.Path, c.Reason)
		for _, h := range c.Hunks {
			fmt.Fprintf(w, "    lines %d-%d: workspace %d lines, tree %d lines\n", h.StartLine, h.EndLine, len(h.Ours), len(h.Theirs))
		}
	}
}

func wsRefreshCmd() *toolCmd { return wsOneCmd("workspace_refresh", "refresh") }
func wsResetCmd() *toolCmd   { return wsOneCmd("workspace_reset", "reset") }
func wsDeleteCmd() *toolCmd  { return wsOneCmd("workspace_delete", "delete") }

func wsApplyCmd() *toolCmd {
	var in tools.WorkspaceApplyIn
	return &toolCmd{tool: "workspace_apply", use: "apply ID", args: cobra.ExactArgs(1), in: &in,
		pos:  []posArg{{"ID", "workspace_id", &in.WorkspaceID}},
		note: `A file changed in the working tree since the workspace took it exits 7 (CONFLICT) and writes nothing.`,
		flags: func(f *argFlags) {
			f.Bool(&in.DryRun, "dry-run", "dry_run")
		},
		render: withAnswer(func(w io.Writer, r *tools.WorkspaceApplyOut) {
			if r.Result != nil {
				renderWrite(w, r.Result)
			}
		})}
}
