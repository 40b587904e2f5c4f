// Package cli is the command-line adapter: cobra commands that decode flags,
// make one call into the tool registry and print the envelope (human text, or
// the exact envelope with --json). Errors map to exit codes in one place.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/obs"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/tools"
)

// Version is set at build time.
var Version = "dev"

// Main runs the CLI with the process arguments and returns the exit code.
func Main() int {
	return Run(context.Background(), os.Args[1:], os.Stdout, os.Stderr)
}

// Run runs the CLI with explicit arguments and streams (tests call it).
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	g := &globals{stdout: stdout, stderr: stderr}
	defer func() {
		if r := recover(); r != nil {
			if os.Getenv("CAIRN_DEBUG") != "" {
				panic(r)
			}
			fmt.Fprintf(stderr, "cairn: internal error: %v\n  (set CAIRN_DEBUG=1 for details)\n", r)
			code = 1
		}
	}()
	root := newRoot(g)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	explainArgs(root)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return 0
	}
	var ex exitError
	if errors.As(err, &ex) {
		return int(ex)
	}
	// cobra's own errors: unknown commands and flags, bad argument counts.
	e := &errs.Error{Kind: errs.Usage, Msg: err.Error()}
	if g.json {
		printEnvelope(g, errorEnvelope(e))
	} else {
		fmt.Fprintf(stderr, "cairn: %s\nRun '%s --help' for usage.\n", err, cmd.CommandPath())
	}
	return errs.Usage.ExitCode()
}

// explainArgs makes a wrong number of arguments say what the command
// takes: cobra's "accepts 1 arg(s), received 0" alone names neither.
func explainArgs(c *cobra.Command) {
	for _, sub := range c.Commands() {
		explainArgs(sub)
	}
	if c.Args == nil || c.HasSubCommands() {
		return // a group's "unknown command" says enough
	}
	check := c.Args
	c.Args = func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return fmt.Errorf("%w; usage: %s", err, cmd.UseLine())
		}
		return nil
	}
}

// exitError carries an exit code out of a command that already printed.
type exitError int

func (e exitError) Error() string { return fmt.Sprintf("exit %d", int(e)) }

func newRoot(g *globals) *cobra.Command {
	root := &cobra.Command{
		Use:   "cairn",
		Short: "A deterministic, queryable index of a repository for coding agents",
		Long: `Cairn indexes a repository (tree-sitter syntax facts, a trigram text index) and
answers questions about it with small, bounded, structured responses: search,
symbols, references, file reads. Every query first brings the index up to date
with the files on disk, so answers are never staler than the tree.

The repository is the git top level (or the nearest directory holding .cairn/)
above the working directory, or --repo. State lives in .cairn/cache after
'cairn init', else in the user cache directory, or in --state-dir.

Exit codes: 0 ok, 1 internal, 2 usage or invalid argument, 3 not found,
4 ambiguous, 5 index unavailable or no space left, 6 timeout, 7 conflict,
8 path refused.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       Version,
	}
	pf := root.PersistentFlags()
	pf.StringVar(&g.repo, "repo", "", "repository directory (default: found from the working directory)")
	pf.StringVar(&g.stateDir, "state-dir", "", "directory for all of Cairn's state (env CAIRN__STATE_DIR)")
	pf.BoolVar(&g.json, "json", false, "print the exact response envelope as JSON")
	pf.IntVar(&g.timeoutMS, "timeout", 0, "deadline of a query in milliseconds (default from config: 30000)")
	// Flag usage is wrapped to the terminal like the rest of the help: the
	// registry documents some arguments at length.
	cobra.AddTemplateFunc("wrappedFlagUsages", func(fs *pflag.FlagSet) string { return fs.FlagUsagesWrapped(helpWidth) })
	root.SetUsageTemplate(strings.NewReplacer(".LocalFlags.FlagUsages", "wrappedFlagUsages .LocalFlags",
		".InheritedFlags.FlagUsages", "wrappedFlagUsages .InheritedFlags").Replace(root.UsageTemplate()))
	root.AddCommand(initCmd(g), mcpCmd(g), upCmd(g), versionCmd(g), configCmd(g), diagCmd(g), clearCmd(g), cacheCmd(g))
	for _, c := range toolCommands() {
		cmd, _ := c.command(g)
		if c.name() == "index" {
			cmd.AddCommand(artifactCmds(g)...)
		}
		root.AddCommand(cmd)
	}
	for _, f := range families() {
		root.AddCommand(f.command(g))
	}
	help := root.HelpFunc()
	root.SetHelpFunc(func(cmd *cobra.Command, args []string) {
		g.fillHelp(cmd)
		help(cmd, args)
	})
	usage := root.UsageFunc()
	root.SetUsageFunc(func(cmd *cobra.Command) error {
		g.fillHelp(cmd)
		return usage(cmd)
	})
	return root
}

// toolCommands declares the commands that run tools of the registry.
func toolCommands() []*toolCmd {
	return []*toolCmd{indexCmd(), statusCmd(), describeCmd(), doctorCmd(), searchCmd(), symbolCmd(), refsCmd(),
		readCmd(), lsCmd(), mapCmd(), archCmd(), callersCmd(), calleesCmd(), hierarchyCmd(), traceCmd(), surfacesCmd(),
		diffCmd(), affectedCmd(), impactCmd(), importersCmd(), writeCmd(), undoCmd(), renameCmd(), mvCmd(), rmSymbolCmd(), hotspotsCmd()}
}

// call opens the repository with open and runs one tool.
func call(cmd *cobra.Command, g *globals, open func(context.Context) (*app, error), tool string, args any) *protocol.Envelope {
	if err := checkCountFlags(cmd); err != nil {
		return errorEnvelope(err)
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return errorEnvelope(err)
	}
	a, err := open(cmd.Context())
	if err != nil {
		return errorEnvelope(err)
	}
	defer a.close()
	start := time.Now()
	env := tools.Invoke(cmd.Context(), a.env, tool, raw)
	if a.env.Ops == nil && a.env.Paths.StateDir != "" {
		// Counted in the repository's totals as a server counts its calls;
		// a ledger that cannot take the row costs the call nothing.
		obs.RecordOneShot(cmd.Context(), a.env.Paths.StateDir, tool, env, start, a.env.Config.Privacy == "anonymized")
	}
	return env
}

// countFlags are the flags that count something; a value of 0 would vanish
// from the tool's arguments (and silently mean the default), so it is
// refused here as the tools refuse it.
var countFlags = []string{"limit", "max-chars", "depth", "top"}

func checkCountFlags(cmd *cobra.Command) error {
	for _, name := range countFlags {
		f := cmd.Flags().Lookup(name)
		if f == nil || !f.Changed || f.Value.Type() != "int" {
			continue
		}
		if n, err := strconv.Atoi(f.Value.String()); err == nil && n <= 0 {
			return errs.E(errs.InvalidArgument, "--%s must be at least 1, not %d; leave it out for the default", name, n)
		}
	}
	return nil
}

// finish prints an envelope and turns its error into the exit code.
func finish(g *globals, env *protocol.Envelope, human func(io.Writer, *protocol.Envelope)) error {
	if g.json {
		printEnvelope(g, env)
	} else if env.Error != nil {
		printError(g.stderr, env.Error)
	} else {
		human(g.stdout, env)
		printTruncations(g.stdout, env)
		for _, w := range env.Provenance.Warnings {
			fmt.Fprintf(g.stderr, "warning: %s\n", w)
		}
	}
	if env.Error != nil {
		return exitError(env.Error.CodeNum / 1000)
	}
	return nil
}

func errorEnvelope(err error) *protocol.Envelope { return tools.ErrorEnvelope(err) }

func printEnvelope(g *globals, env *protocol.Envelope) {
	b, err := protocol.CanonicalIndent(env)
	if err != nil {
		fmt.Fprintf(g.stderr, "cairn: cannot encode the response: %v\n", err)
		return
	}
	g.stdout.Write(append(b, '\n'))
}

func printError(w io.Writer, e *protocol.ErrorObject) {
	fmt.Fprintf(w, "cairn: %s\n  code: %s (%d)\n", e.Message, e.Code, e.CodeNum)
	for _, c := range e.Candidates {
		if name, ok := c.(string); ok {
			fmt.Fprintf(w, "  candidate: %s\n", name)
			continue
		}
		b, _ := json.Marshal(c)
		var ref struct {
			ID        protocol.SymbolID `json:"symbol_id"`
			QName     string            `json:"qualified_name"`
			Kind      string            `json:"kind"`
			Location  protocol.Location `json:"location"`
			Signature string            `json:"signature"`
		}
		json.Unmarshal(b, &ref)
		fmt.Fprintf(w, "  candidate: %s %s %s (%s:%d)", ref.ID, ref.Kind, ref.QName, ref.Location.Path, ref.Location.Line)
		if ref.Signature != "" {
			fmt.Fprintf(w, "  %s", ref.Signature)
		}
		fmt.Fprintln(w)
	}
	if dym, ok := e.Details["did_you_mean"].([]string); ok && len(dym) > 0 {
		fmt.Fprintf(w, "  did you mean: %s\n", strings.Join(dym, ", "))
	}
	renderDiscard(w, e)
	for _, f := range e.Fixes {
		fmt.Fprintf(w, "  try: %s\n", f)
	}
}

func printTruncations(w io.Writer, env *protocol.Envelope) {
	printCappedLimits(w, env.Provenance.LimitsApplied)
	for _, t := range env.Provenance.Truncations {
		more := ""
		if t.Total > 0 {
			more = fmt.Sprintf(" of %d", t.Total)
		}
		if t.Cursor != "" {
			fmt.Fprintf(w, "… %d%s %s shown; next page: --cursor %s\n", t.Returned, more, t.Field, t.Cursor)
		} else {
			fmt.Fprintf(w, "… %d%s %s shown (%s)\n", t.Returned, more, t.Field, t.Reason)
		}
	}
}

// printCappedLimits says which asked-for limits the tool lowered to its cap,
// so that a --depth 99 is not silently read as a depth of 99.
func printCappedLimits(w io.Writer, limits map[string]protocol.Limit) {
	names := make([]string, 0, len(limits))
	for name, l := range limits {
		if l.Requested > l.Applied {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		l := limits[name]
		fmt.Fprintf(w, "… %s %d asked, %d applied (the most this tool allows)\n", name, l.Requested, l.Applied)
	}
}
