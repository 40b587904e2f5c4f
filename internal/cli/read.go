package cli

import (
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/tools"
)

func readCmd() *toolCmd {
	var in tools.ReadIn
	var full tools.ReadFullIn
	return &toolCmd{
		tool: "read_source", use: "read PATH[:A-B]", args: cobra.MaximumNArgs(1), pos: []posArg{{"PATH[:A-B]", "path", nil}},
		also: []altTool{{"full", "read_file_full"}},
		note: `PATH:A-B reads lines A to B, PATH:A (or PATH:A-) reads from line A;
PATH:LINE:COL, as search and compilers print places, and GitHub's PATH#LA-LB
read the same. A name no file has reads the definition of the symbol of
that name. Files that look like secrets, ignored files and .git are refused
(exit 8).

--full reads a whole file in two steps: without --confirm it prints the file's
size, line count, sha256 and estimated tokens; with --confirm it prints the
file's exact content (not numbered). Over the cap or the session read budget
the read fails with exit 7.`,
		flags: func(f *argFlags) {
			f.view(&in.View)
			f.String(&in.Symbol, "symbol", "symbol", "")
			f.limit(&in.Limit, "limit", "maximum lines", 120, 400)
			f.maxChars(&in.MaxChars)
			var whole bool
			f.fs.BoolVar(&whole, "full", false, "the whole file: measure it, or print it with --confirm")
			f.Bool(&full.Confirm, "confirm", "confirm").Usage = "with --full: print the content"
		},
		request: func(cmd *cobra.Command, args []string) (any, error) {
			whole := cmd.Flags().Changed("full")
			switch {
			case full.Confirm && !whole:
				return nil, errs.E(errs.Usage, "--confirm goes with --full")
			case whole && (len(args) != 1 || in.Symbol != ""):
				return nil, errs.E(errs.Usage, "read --full takes one PATH (no --symbol)")
			case whole:
				if _, a, _, err := tools.SplitSpan(args[0]); err != nil || a != 0 {
					return nil, errs.E(errs.Usage, "read --full reads a whole file: give PATH without a line range")
				}
				full.Path, full.View = args[0], in.View
				return full, nil
			case len(args) == 1:
				p, a, b, err := tools.SplitSpan(args[0])
				if err != nil {
					return nil, err
				}
				in.Path, in.StartLine, in.EndLine = p, a, b
			}
			return in, nil
		},
		words: func(ex map[string]any) []string {
			p, ok := ex["path"].(string)
			if !ok {
				return nil
			}
			delete(ex, "path")
			if a, ok := ex["start_line"]; ok {
				p += ":" + values(a)[0]
				delete(ex, "start_line")
				if b, ok := ex["end_line"]; ok {
					p += "-" + values(b)[0]
					delete(ex, "end_line")
				}
			}
			return []string{p}
		},
		render: func(w io.Writer, env *protocol.Envelope) {
			switch r := env.Data.(type) {
			case *tools.ReadFullOut:
				renderFull(w, r)
			case *query.ReadResult:
				width := len(strconv.Itoa(r.EndLine))
				for _, l := range r.Lines {
					fmt.Fprintf(w, "%*d  %s\n", width, l.N, l.Text)
				}
			}
		},
	}
}

func renderFull(w io.Writer, r *tools.ReadFullOut) {
	if r.Confirmed {
		io.WriteString(w, r.Content)
		return
	}
	fmt.Fprintf(w, "path:     %s\n", r.Path)
	if r.Language != "" {
		fmt.Fprintf(w, "language: %s\n", r.Language)
	}
	fmt.Fprintf(w, "size:     %d bytes, %d lines, about %d tokens\n", r.Size, r.Lines, r.EstimatedTokens)
	fmt.Fprintf(w, "sha256:   %s\n", r.FileSHA256)
	fmt.Fprintf(w, "budget:   %d of %d bytes used this session; files up to %d bytes\n", r.Budget.Used, r.Budget.Limit, r.CapBytes)
	if r.Fits {
		fmt.Fprintf(w, "run again with --confirm to print it\n")
	} else {
		fmt.Fprintf(w, "too large to read whole: read it in spans (cairn read %s:1-400)\n", r.Path)
	}
}
