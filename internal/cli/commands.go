package cli

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/tools"
)

func initCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "init",
		Short: "Write .cairn/config.yaml, .cairn/.gitignore and .cairnignore into the repository",
		Long: `init is the only command that writes into the tree. It creates .cairn/ (a
commented config.yaml and a .gitignore that keeps cache/ out of git) and a
.cairnignore with defaults that keep secrets out of the index. Files that
already exist are left alone, so running it twice is safe.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			paths, err := config.Locate(cmd.Context(), g.repo, g.stateDir)
			if err != nil {
				return finish(g, errorEnvelope(err), nil)
			}
			res, err := config.Init(paths.Root)
			if err != nil {
				return finish(g, errorEnvelope(errs.Wrap(errs.Internal, err, "init")), nil)
			}
			env := &protocol.Envelope{Answer: fmt.Sprintf("initialised %s", paths.Root), Data: map[string]any{
				"repo": paths.Root, "created": nonNil(res.Created), "kept": nonNil(res.Kept)}, NextActions: []protocol.NextAction{},
				Provenance: protocol.Provenance{Consistency: "committed", RepoStateMode: "head", Freshness: protocol.Fresh, IndexState: protocol.StateReady,
					Layers: []string{}, Completeness: protocol.Completeness{Score: 1, Reason: "init"}, Warnings: []string{},
					Truncations: []protocol.Truncation{}, LimitsApplied: map[string]protocol.Limit{}},
				Meta: protocol.Meta{SchemaVersion: protocol.SchemaVersion, RequestID: "req_cli", TimingMS: map[string]int64{}}}
			return finish(g, env, func(w io.Writer, _ *protocol.Envelope) {
				for _, c := range res.Created {
					fmt.Fprintf(w, "created %s\n", c)
				}
				for _, k := range res.Kept {
					fmt.Fprintf(w, "kept    %s (already there)\n", k)
				}
			})
		},
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func indexCmd(g *globals) *cobra.Command {
	var in tools.IndexIn
	var noWait bool
	cmd := &cobra.Command{
		Use:   "index",
		Short: "Bring the index up to date (every query does this too); --full rebuilds it; --semantic runs the SCIP indexers",
		Long: `index reconciles the index with the files on disk: only files whose size,
mtime or inode changed are read, and only content never seen before is parsed.
Every query command does the same first, so running index by hand is only
needed to build the index ahead of time or to rebuild it (--full).

--semantic also refreshes the semantic layer: every installed SCIP indexer
that fits a module (scip-go, scip-typescript, scip-python) runs as a job and
its output is imported in one transaction, as are the .scip files listed in
semantic.scip_paths. --scip FILE imports one .scip file. The command waits
for the jobs unless --no-wait is given and a server owns the index.
Progress goes to stderr for long runs; a summary to stdout.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (in.Semantic || in.SCIP != "") && !noWait {
				in.Wait = true
				if in.TimeoutMS == 0 {
					in.TimeoutMS = int(time.Hour / time.Millisecond)
				}
			}
			return invoke(cmd, g, "index_ensure", in, func(w io.Writer, env *protocol.Envelope) {
				fmt.Fprintln(w, env.Answer)
				if out, ok := env.Data.(*tools.IndexOut); ok {
					fmt.Fprintf(w, "time: %s\n", timingLine(out.TimingMS))
					for _, f := range out.Failed {
						fmt.Fprintf(w, "failed: %s\n", f)
					}
					if out.Semantic != nil {
						renderSemanticJobs(w, out.Semantic)
					}
				}
			})
		},
	}
	cmd.Flags().BoolVar(&in.Full, "full", false, "re-read every file and rebuild everything")
	cmd.Flags().BoolVar(&in.Semantic, "semantic", false, "run the installed SCIP indexers and import their output (and semantic.scip_paths)")
	cmd.Flags().StringVar(&in.SCIP, "scip", "", "import this .scip file into the semantic layer")
	cmd.Flags().BoolVar(&noWait, "no-wait", false, "with --semantic: do not wait for the jobs (a server owning the index runs them)")
	return cmd
}

func renderSemanticJobs(w io.Writer, s *tools.SemanticOut) {
	for _, d := range s.Detected {
		state := "not installed"
		if d.Installed {
			state = d.Path
		}
		fmt.Fprintf(w, "indexer %s for %q: %s\n", d.Indexer, d.Root, state)
	}
	for _, sk := range s.Skipped {
		fmt.Fprintf(w, "skipped: %s\n", sk)
	}
	for _, j := range s.Jobs {
		line := fmt.Sprintf("job %d %s %q: %s", j.ID, j.Indexer, j.Root, j.Status)
		switch {
		case j.Error != "":
			line += " (" + j.Error + ")"
		case j.Reason != "":
			line += " (" + j.Reason + ")"
		case j.Progress != "" && j.Status == "running":
			line += " (" + j.Progress + ")"
		}
		fmt.Fprintln(w, line)
	}
}

func timingLine(t map[string]int64) string {
	keys := make([]string, 0, len(t))
	for k := range t {
		if k != "total" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	parts := []string{fmt.Sprintf("total %dms", t["total"])}
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %dms", k, t[k]))
	}
	return strings.Join(parts, ", ")
}

func statusCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Show the index's state, freshness, languages and repository state",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return invoke(cmd, g, "status", tools.StatusIn{}, func(w io.Writer, env *protocol.Envelope) {
				out, ok := env.Data.(*tools.StatusOut)
				if !ok {
					return
				}
				fmt.Fprintf(w, "repo:       %s\n", out.Repo)
				if out.Git {
					dirty := ""
					if out.Dirty {
						dirty = " (dirty)"
					}
					fmt.Fprintf(w, "git:        %s %s%s\n", out.Branch, short(out.Head), dirty)
				}
				fmt.Fprintf(w, "index:      %s, epoch %d, %s (%s)\n", out.IndexState, out.Epoch, env.Provenance.Freshness, out.IndexedAt)
				fmt.Fprintf(w, "files:      %d (%s)\n", out.Files, mapLine(out.FileStates))
				fmt.Fprintf(w, "symbols:    %d\n", out.Symbols)
				for _, l := range out.Languages {
					fmt.Fprintf(w, "  %-11s %d files, layers: %s\n", l.Language, l.Files, strings.Join(l.Layers, ", "))
				}
				for _, x := range out.Semantic.Indexes {
					at := short(x.IndexedCommit)
					if at == "" {
						at = "unknown commit"
					}
					behind := ""
					switch {
					case x.StaleAgainstHd && x.CommitsBehind >= 0:
						behind = fmt.Sprintf(", %d commits behind HEAD", x.CommitsBehind)
					case x.StaleAgainstHd:
						behind = ", not at HEAD"
					}
					fmt.Fprintf(w, "semantic:   %s %s at %s%s: %d usable, %d changed, %d missing files (imported %s)\n",
						x.Tool, x.ToolVersion, at, behind, x.Usable, x.Changed, x.Missing, x.ImportedAt)
				}
				for _, j := range out.Semantic.Jobs {
					fmt.Fprintf(w, "  job %d %s %q: %s %s\n", j.ID, j.Indexer, j.Root, j.Status, j.Progress+j.Error+j.Reason)
				}
				fmt.Fprintf(w, "state:      %s\n", out.StateDir)
				fmt.Fprintf(w, "blobs:      %s\n", out.BlobStore)
				fmt.Fprintf(w, "writer:     %s\n", out.Writer)
			})
		},
	}
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

func mapLine(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

func searchCmd(g *globals) *cobra.Command {
	var in tools.SearchIn
	cmd := &cobra.Command{
		Use:   "search QUERY",
		Short: "Search contents (literal, --regex, --word, -i) or symbols (--mode symbol|definitions|references)",
		Long: `search finds code. Modes:
  lexical      (default) file contents: a literal, case-sensitive unless -i;
               --regex takes RE2 syntax; --word matches whole identifiers
  symbol       symbols whose name contains QUERY, ranked (exact name first,
               public before private, types and functions before fields)
  definitions  the definitions of an exact name or qualified suffix
  references   the references of a named symbol (same as 'cairn refs')
Results are ranked and bounded (--limit, default 20, at most 100); page with
--cursor. Filter with --path GLOB and --lang L (repeatable).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in.Query = args[0]
			return invoke(cmd, g, "search", in, renderSearch)
		},
	}
	f := cmd.Flags()
	f.StringVar(&in.Mode, "mode", "lexical", "lexical, symbol, definitions or references")
	f.BoolVar(&in.Regex, "regex", false, "QUERY is an RE2 regular expression")
	f.BoolVar(&in.Word, "word", false, "match whole identifiers only")
	f.BoolVarP(&in.IgnoreCase, "ignore-case", "i", false, "ignore case")
	f.StringArrayVar(&in.Paths, "path", nil, "only paths matching this glob (repeatable)")
	f.StringArrayVar(&in.Languages, "lang", nil, "only this language (repeatable)")
	f.StringArrayVar(&in.Kinds, "kind", nil, "symbol modes: only this kind (repeatable)")
	f.IntVar(&in.Limit, "limit", 0, "results per page (default 20, at most 100)")
	f.StringVar(&in.Cursor, "cursor", "", "continue from a previous page")
	return cmd
}

func renderSearch(w io.Writer, env *protocol.Envelope) {
	out, ok := env.Data.(*tools.SearchOut)
	if !ok {
		return
	}
	if out.References != nil {
		renderRefs(w, out.References)
		return
	}
	for _, h := range out.Hits {
		if h.Symbol != nil {
			sig := ""
			if h.Signature != "" {
				sig = "  " + h.Signature
			}
			fmt.Fprintf(w, "%s:%d  %s %s%s\n", h.Location.Path, h.Location.Line, h.Symbol.Kind, h.Symbol.QName, sig)
			continue
		}
		fmt.Fprintf(w, "%s:%d:%d: %s\n", h.Location.Path, h.Location.Line, h.Location.Col, h.Snippet)
	}
	if len(out.Hits) == 0 {
		fmt.Fprintln(w, env.Answer)
	}
}

func symbolCmd(g *globals) *cobra.Command {
	var in tools.SymbolIn
	var at string
	cmd := &cobra.Command{
		Use:   "symbol [NAME]",
		Short: "Show a symbol's card (by id, qualified name, path#Name or unique suffix; or --at PATH:LINE:COL)",
		Long: `symbol prints what Cairn knows about one symbol: kind, signature, doc summary,
visibility, module, location, members, outgoing calls and type relations.
Name it by symbol_id (sym_...), by qualified name (k8s.io/client-go/rest.Config,
django.db.models.Model.save, src/a.ts#Foo.bar), by path#Qualified.Name, or by
any unique suffix (rest.Config, Mux.handle). --at resolves the identifier at a
position. An ambiguous name exits 4 and lists the candidates.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				in.Symbol = args[0]
			}
			if at != "" {
				p, err := tools.ParsePosition(at)
				if err != nil {
					return finish(g, errorEnvelope(err), nil)
				}
				in.At = p
			}
			return invoke(cmd, g, "symbol_get", in, renderCard)
		},
	}
	cmd.Flags().StringVar(&at, "at", "", "the identifier at PATH:LINE:COL")
	cmd.Flags().IntVar(&in.Limit, "limit", 0, "members to list (default 20, at most 100)")
	return cmd
}

func renderCard(w io.Writer, env *protocol.Envelope) {
	c, ok := env.Data.(*query.SymbolCard)
	if !ok {
		return
	}
	fmt.Fprintf(w, "%s %s\n", c.Kind, c.QName)
	if rd := c.RedirectedFrom; rd != nil {
		fmt.Fprintf(w, "  (%s %s was %s; confidence %.2f)\n", rd.From, rd.FromQName, rd.Reason, rd.Confidence)
	}
	fmt.Fprintf(w, "  id:         %s (%s)\n", c.ID, c.VersionID)
	fmt.Fprintf(w, "  at:         %s:%d:%d (lines %d-%d)\n", c.Location.Path, c.Location.Line, c.Location.Col, c.Span.Line, c.Span.EndLine)
	if c.Signature != "" {
		fmt.Fprintf(w, "  signature:  %s\n", c.Signature)
	}
	if c.Doc != "" {
		fmt.Fprintf(w, "  doc:        %s\n", c.Doc)
	}
	fmt.Fprintf(w, "  visibility: %s; module %s; %s\n", c.Visibility, c.Module, c.Language)
	if c.Parent != nil {
		fmt.Fprintf(w, "  parent:     %s %s\n", c.Parent.Kind, c.Parent.QName)
	}
	for _, r := range c.Relations {
		fmt.Fprintf(w, "  %s %s\n", r.Kind, r.Target)
	}
	if len(c.Members) > 0 {
		fmt.Fprintf(w, "  members (%d):\n", c.MembersTotal)
		for _, m := range c.Members {
			fmt.Fprintf(w, "    %s %s  %s:%d\n", m.Kind, m.Name, m.Location.Path, m.Location.Line)
		}
	}
	if len(c.Surfaces) > 0 {
		fmt.Fprintf(w, "  surfaces (%d):\n", c.SurfacesTotal)
		for _, s := range c.Surfaces {
			fmt.Fprintf(w, "    %d: %s %s\n", s.Location.Line, s.Kind, surfaceLine(s))
		}
	}
	if len(c.Calls) > 0 {
		fmt.Fprintf(w, "  calls (%d):\n", c.CallsTotal)
		for _, e := range c.Calls {
			target := e.Name
			if e.Target != nil {
				target = e.Target.QName
			} else if e.Receiver != "" {
				target = e.Receiver + "." + e.Name
			}
			fmt.Fprintf(w, "    %s x%d [%s]\n", target, e.Count, e.Tier)
		}
	}
}

func refsCmd(g *globals) *cobra.Command {
	var in tools.RefsIn
	var at string
	cmd := &cobra.Command{
		Use:   "refs [NAME]",
		Short: "List a symbol's references with their tiers, summarised by module and file",
		Long: `refs lists where a symbol is used. Each reference has a tier: precise
(from an imported SCIP index, see index --semantic), proven (bound in the same
file), strong (through an import or the same Go package), or anchored (same
name, but syntax cannot prove which symbol it is, e.g. a method call on a value
of unknown type). Per file, the semantic layer answers while the file is what
its indexer saw; files changed since answer from syntax and are listed.
--merge union shows both layers and where they disagree; --layer restricts the
answer to one. Anchored references are summarised in groups; --anchored lists
them too. Pages of --limit (default 50, at most 500); --cursor continues.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				in.Symbol = args[0]
			}
			if at != "" {
				p, err := tools.ParsePosition(at)
				if err != nil {
					return finish(g, errorEnvelope(err), nil)
				}
				in.At = p
			}
			return invoke(cmd, g, "refs_find", in, func(w io.Writer, env *protocol.Envelope) {
				fmt.Fprintln(w, env.Answer)
				if r, ok := env.Data.(*query.RefsResult); ok {
					renderRefs(w, r)
				}
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&at, "at", "", "the identifier at PATH:LINE:COL")
	f.BoolVar(&in.Anchored, "anchored", false, "list anchored (unproven same-name) references too")
	f.StringVar(&in.Merge, "merge", "", "prefer (default: the semantic layer per file when fresh) or union (both layers, with conflicts)")
	f.StringVar(&in.Layer, "layer", "", "only this layer: syntactic or semantic")
	f.IntVar(&in.Limit, "limit", 0, "locations per page (default 50, at most 500)")
	f.StringVar(&in.Cursor, "cursor", "", "continue from a previous page")
	return cmd
}

func renderRefs(w io.Writer, r *query.RefsResult) {
	for _, l := range r.Locations {
		via := ""
		if l.Via != "" {
			via = " via " + l.Via
		}
		fmt.Fprintf(w, "%s:%d:%d [%s %s%s] %s\n", l.Path, l.Line, l.Col, l.Tier, l.Kind, via, l.Snippet)
	}
	for _, f := range r.Semantic.Fallback {
		fmt.Fprintf(w, "syntactic facts for %s: %s\n", f.Path, f.Reason)
	}
	for _, c := range r.Semantic.Conflicts {
		fmt.Fprintf(w, "conflict %s:%d:%d %s: syntax says %s; semantic layer says %s\n", c.Path, c.Line, c.Col, c.Kind, c.Syntactic, c.Semantic)
	}
	for _, a := range r.Anchored {
		fmt.Fprintf(w, "anchored %s on %s: %d, e.g.", a.Token, a.Receiver, a.Count)
		for _, e := range a.Exemplars {
			fmt.Fprintf(w, " %s:%d", e.Path, e.Line)
		}
		fmt.Fprintln(w)
	}
}

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

func lsCmd(g *globals) *cobra.Command {
	var in tools.ListIn
	cmd := &cobra.Command{
		Use:   "ls [PATH]",
		Short: "List indexed files and directories with sizes and languages",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				in.Path = args[0]
			}
			return invoke(cmd, g, "list_files", in, func(w io.Writer, env *protocol.Envelope) {
				r, ok := env.Data.(*query.ListResult)
				if !ok {
					return
				}
				for _, e := range r.Entries {
					if e.Type == "dir" {
						fmt.Fprintf(w, "%s/  (%d files, %d bytes)\n", e.Path, e.Files, e.Size)
						continue
					}
					extra := e.Lang
					if e.State != "" {
						extra = strings.TrimSpace(extra + " " + e.State)
					}
					fmt.Fprintf(w, "%s  %d bytes  %s\n", e.Path, e.Size, extra)
				}
			})
		},
	}
	f := cmd.Flags()
	f.IntVar(&in.Depth, "depth", 1, "levels to expand")
	f.StringVar(&in.Glob, "glob", "", "only files matching this glob")
	f.StringArrayVar(&in.Languages, "lang", nil, "only this language (repeatable)")
	f.IntVar(&in.Limit, "limit", 0, "entries per page (default 100, at most 1000)")
	f.StringVar(&in.Cursor, "cursor", "", "continue from a previous page")
	return cmd
}

func versionCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintf(g.stdout, "cairn %s\n", Version)
		},
	}
}
