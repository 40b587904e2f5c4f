package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/tools"
)

func readCmd(g *globals) *cobra.Command {
	var in tools.ReadIn
	var full tools.ReadFullIn
	cmd := &cobra.Command{
		Use:   "read PATH[:A-B]",
		Short: "Print numbered lines of a file (PATH:A-B, PATH:A), a symbol's definition (--symbol) or a whole file (--full)",
		Long: `read prints lines of a file with their numbers and the file's sha256. PATH:A-B
reads lines A to B, PATH:A reads from line A. Budgets: --limit lines (default
120, at most 400) and --max-chars (default 12000, at most 40000). Files that
look like secrets, ignored files and .git are refused (exit 8).

--full reads a whole file in two steps, as agents do with read_file_full:
without --confirm it prints the file's size, line count, sha256 and estimated
tokens; with --confirm it prints the file's exact content (not numbered).
A whole file is capped (read.full_file_cap_kib, default 400 KiB) and counts
against the session read budget (read.session_budget_kib, default 2 MiB per
process); over either, the read fails with exit 7.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if full.Confirm && !cmd.Flags().Changed("full") {
				return finish(g, errorEnvelope(errs.E(errs.Usage, "--confirm goes with --full")), nil)
			}
			if cmd.Flags().Changed("full") {
				if len(args) != 1 || in.Symbol != "" {
					return finish(g, errorEnvelope(errs.E(errs.Usage, "read --full takes one PATH (no --symbol)")), nil)
				}
				if _, a, _, err := parseSpan(args[0]); err != nil || a != 0 {
					return finish(g, errorEnvelope(errs.E(errs.Usage, "read --full reads a whole file: give PATH without a line range")), nil)
				}
				full.Path = args[0]
				return invoke(cmd, g, "read_file_full", full, renderFull)
			}
			if len(args) == 1 {
				p, a, b, err := parseSpan(args[0])
				if err != nil {
					return finish(g, errorEnvelope(err), nil)
				}
				in.Path, in.StartLine, in.EndLine = p, a, b
			}
			return invoke(cmd, g, "read_source", in, func(w io.Writer, env *protocol.Envelope) {
				r, ok := env.Data.(*query.ReadResult)
				if !ok {
					return
				}
				width := len(strconv.Itoa(r.EndLine))
				for _, l := range r.Lines {
					fmt.Fprintf(w, "%*d  %s\n", width, l.N, l.Text)
				}
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&in.Symbol, "symbol", "", "read this symbol's definition")
	f.IntVar(&in.Limit, "limit", 0, "maximum lines (default 120, at most 400)")
	f.IntVar(&in.MaxChars, "max-chars", 0, "maximum characters (default 12000, at most 40000)")
	var fullFlag bool
	f.BoolVar(&fullFlag, "full", false, "the whole file: measure it, or print it with --confirm")
	f.BoolVar(&full.Confirm, "confirm", false, "with --full: print the content")
	return cmd
}

func renderFull(w io.Writer, env *protocol.Envelope) {
	r, ok := env.Data.(*tools.ReadFullOut)
	if !ok {
		return
	}
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

// parseSpan reads PATH, PATH:A or PATH:A-B.
func parseSpan(s string) (string, int, int, error) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, 0, 0, nil
	}
	spec := s[i+1:]
	a, b, hasDash := strings.Cut(spec, "-")
	start, err := strconv.Atoi(a)
	if err != nil {
		return s, 0, 0, nil // a colon in the file name
	}
	end := 0
	if hasDash {
		if end, err = strconv.Atoi(b); err != nil {
			return "", 0, 0, errs.E(errs.InvalidArgument, "bad line range %q (want A-B)", spec)
		}
	}
	if start < 1 || (hasDash && end < start) {
		return "", 0, 0, errs.E(errs.InvalidArgument, "bad line range %q", spec)
	}
	return s[:i], start, end, nil
}
