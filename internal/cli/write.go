package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/mutate"
	"github.com/cairnhq/cairn/internal/tools"
)

func writeCmd() *toolCmd {
	var in tools.WriteIn
	var edits string
	return &toolCmd{
		tool: "write_source", use: "write", args: cobra.NoArgs,
		note: `--edits names a JSON file holding the edits: an array of file edits, or an
object with the tool's whole arguments ({"edits": [...], "dry_run": true});
--edits - reads it from stdin, and a value starting with [ or { is the JSON
itself. The output lists each file with its action and lines added and
removed; with --dry-run it prints the unified diff. A precondition that
fails (expected text not found, ambiguous) exits 7, as does a conflict (the
file changed since it was read, or another write holds it) and, with
--verify build, a change that does not build; refused paths exit 8.`,
		flags: func(f *argFlags) {
			f.fs.StringVar(&edits, "edits", "", "the edits: a JSON file, - for stdin, or the JSON itself")
			f.Bool(&in.DryRun, "dry-run", "dry_run")
			f.String(&in.Verify, "verify", "verify", "")
			f.String(&in.WorkspaceID, "workspace", "workspace_id", "")
		},
		request: func(cmd *cobra.Command, _ []string) (any, error) {
			dry, verify, ws := in.DryRun, in.Verify, in.WorkspaceID
			if err := readEdits(cmd, edits, &in); err != nil {
				return nil, err
			}
			if cmd.Flags().Changed("dry-run") {
				in.DryRun = dry
			}
			if cmd.Flags().Changed("verify") {
				in.Verify = verify
			}
			if cmd.Flags().Changed("workspace") {
				in.WorkspaceID = ws
			}
			return in, nil
		},
		words: func(ex map[string]any) []string {
			v, ok := ex["edits"]
			if !ok {
				return nil
			}
			delete(ex, "edits")
			b, _ := json.Marshal(v)
			return []string{"--edits", string(b)}
		},
		render: withAnswer(renderWrite),
	}
}

// readEdits fills in from --edits: a file, stdin or inline JSON holding an
// array of file edits or the tool's whole arguments.
func readEdits(cmd *cobra.Command, src string, in *tools.WriteIn) error {
	var data []byte
	var err error
	switch t := strings.TrimSpace(src); {
	case t == "":
		return errs.E(errs.Usage, "--edits is required: a JSON file of edits, - for stdin, or the JSON itself")
	case t == "-":
		data, err = io.ReadAll(cmd.InOrStdin())
	case strings.HasPrefix(t, "[") || strings.HasPrefix(t, "{"):
		data = []byte(t)
	default:
		data, err = os.ReadFile(src)
	}
	if err != nil {
		return &errs.Error{Kind: errs.InvalidArgument, Err: err, Msg: "cannot read --edits " + src}
	}
	data = bytes.TrimSpace(data)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if bytes.HasPrefix(data, []byte("[")) {
		err = dec.Decode(&in.Edits)
	} else {
		err = dec.Decode(in)
	}
	if err != nil {
		return &errs.Error{Kind: errs.InvalidArgument, Msg: "--edits is not valid: " + strings.TrimPrefix(err.Error(), "json: ")}
	}
	return nil
}

func undoCmd() *toolCmd {
	var in tools.UndoIn
	return &toolCmd{
		tool: "edit_undo", use: "undo [N]", args: cobra.MaximumNArgs(1), pos: []posArg{{"N", "count", nil}},
		note: `N is how many of the latest writes to revert (default 1). A file changed
since the write exits 7, naming it.`,
		flags: func(f *argFlags) {
			f.Bool(&in.DryRun, "dry-run", "dry_run")
		},
		request: func(_ *cobra.Command, args []string) (any, error) {
			if len(args) == 1 {
				n, err := strconv.Atoi(args[0])
				if err != nil || n < 1 {
					return nil, errs.E(errs.Usage, "N must be a number of writes, at least 1, not %q", args[0])
				}
				in.Count = n
			}
			return in, nil
		},
		render: withAnswer(renderWrite),
	}
}

// renderWrite prints a write's delta: one line per file, the moved spans,
// and a dry run's diff.
func renderWrite(w io.Writer, r *mutate.Result) {
	for _, f := range r.Files {
		name := f.Path
		if f.WrittenPath != "" {
			name += " -> " + f.WrittenPath
		}
		line := fmt.Sprintf("%-9s %s", f.Action, name)
		switch {
		case f.Binary:
			line += "  (binary)"
		case f.Action != "unchanged":
			line += fmt.Sprintf("  +%d -%d", f.LinesAdded, f.LinesRemoved)
		}
		if f.NewSHA256 != "" {
			line += "  sha256 " + f.NewSHA256
		}
		fmt.Fprintln(w, line)
		for _, c := range f.Corrections {
			fmt.Fprintf(w, "  %s: the expected text is at line %d, not %d (%d lines)\n", c.Edit, c.FoundStart, c.StatedStart, c.Lines)
		}
	}
	if r.Diff != "" {
		fmt.Fprint(w, r.Diff)
	}
}
