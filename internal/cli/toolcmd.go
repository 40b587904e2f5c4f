package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/tools"
)

// toolCmd declares a command that runs a tool of the registry. The registry
// entry is its documentation: Short, Long, the flags' usage and the examples
// are built from it (help.go), so `cairn X --help`, describe and the MCP tool
// list say the same thing. The command adds only what is its own: how the
// arguments are spelled on a command line and how the answer prints.
type toolCmd struct {
	tool string // the registry entry that documents the command and runs by default
	use  string // cobra's Use: the name, then the positional arguments
	// family is the command group it belongs to (`cairn git status`), or "".
	family string
	args   cobra.PositionalArgs
	// pos names the tool arguments given as positional arguments, in the
	// order of Use; they are documented under Arguments and fill examples.
	pos []posArg
	// on, for a command about one symbol, takes it as `NAME` or --at.
	on *target
	// also are other tools the command runs when a flag says so.
	also []altTool
	// note is what only the command line has (argument syntax, CLI-only
	// flags, exit status, the output's layout), wrapped by hand.
	note string
	// flags defines the flags, on the tool's arguments through argFlags.
	flags func(f *argFlags)
	// in points to the tool's arguments, which the flags fill.
	in any
	// request, when set, returns the arguments for a parsed command line
	// instead of in (after on and pos have read the positional arguments):
	// it checks what flags cannot and spells what pos cannot.
	request func(cmd *cobra.Command, args []string) (any, error)
	// words, when set, turns an example's positional arguments into words
	// (consuming them) where pos cannot, e.g. read's PATH:A-B.
	words func(ex map[string]any) []string
	// render prints a successful envelope for a person.
	render func(io.Writer, *protocol.Envelope)
	// degraded opens a broken setup too (doctor): see globals.openDegraded.
	degraded bool
	// check runs after the envelope printed and may change the exit status.
	check func(*protocol.Envelope) error
}

// posArg is a positional argument: its name in Use, the tool argument it
// stands for (several, separated by |, when it names either) and, unless
// request reads it, where it goes: a *string, or a *[]string that takes
// this and every later argument.
type posArg struct {
	meta, arg string
	into      any
}

// useOf is the Use of a command whose positional arguments are pos: the
// command's name, then their names.
func useOf(name string, pos []posArg) string {
	use := name
	for _, p := range pos {
		use += " " + p.meta
	}
	return use
}

// altTool is a tool a command runs instead of its own when flag is given.
type altTool struct{ flag, tool string }

// name is the command's name, the first word of Use.
func (c *toolCmd) name() string { return strings.Fields(c.use)[0] }

// path is the words after cairn that run the command: the family's, if
// any, and the name.
func (c *toolCmd) path() []string {
	return append(strings.Fields(c.family), c.name())
}

// positional lists the positional arguments, NAME first for a symbol command.
func (c *toolCmd) positional() []posArg {
	if c.on != nil {
		return append([]posArg{{"NAME", "symbol", nil}}, c.pos...)
	}
	return c.pos
}

// tools lists every tool behind the command, its own first.
func (c *toolCmd) tools() []string {
	out := []string{c.tool}
	for _, a := range c.also {
		out = append(out, a.tool)
	}
	return out
}

// toolFor is the tool a parsed command line runs.
func (c *toolCmd) toolFor(cmd *cobra.Command) string {
	for _, a := range c.also {
		if cmd.Flags().Changed(a.flag) {
			return a.tool
		}
	}
	return c.tool
}

// parse returns the tool and its arguments for a parsed command line.
func (c *toolCmd) parse(cmd *cobra.Command, args []string) (string, any, error) {
	if c.on != nil {
		if err := c.on.read(args); err != nil {
			return "", nil, err
		}
	}
	for i, p := range c.positional() {
		if i >= len(args) {
			break
		}
		switch into := p.into.(type) {
		case *string:
			*into = args[i]
		case *[]string:
			*into = args[i:]
		}
	}
	if c.request == nil {
		return c.toolFor(cmd), c.in, nil
	}
	in, err := c.request(cmd, args)
	return c.toolFor(cmd), in, err
}

// command builds the cobra command; it returns the flags too, which turn
// the registry's examples into command lines.
func (c *toolCmd) command(g *globals) (*cobra.Command, *argFlags) {
	cmd := &cobra.Command{
		Use:         c.use,
		Args:        c.args,
		Annotations: map[string]string{toolsAnnotation: strings.Join(c.tools(), ",")},
		RunE: func(cmd *cobra.Command, args []string) error {
			tool, in, err := c.parse(cmd, args)
			if err != nil {
				return finish(g, errorEnvelope(err), nil)
			}
			open := g.open
			if c.degraded {
				open = g.openDegraded
			}
			env := call(cmd, g, open, tool, in)
			if err := finish(g, env, c.render); err != nil || c.check == nil {
				return err
			}
			return c.check(env)
		},
	}
	if c.on != nil {
		cmd.Use += " [NAME]"
		cmd.Args = cobra.MaximumNArgs(1)
	}
	f := newArgFlags(cmd.Flags(), c.tools()...)
	if c.on != nil {
		f.target(c.on)
	}
	if c.flags != nil {
		c.flags(f)
	}
	cmd.Short = shortLine(lookup(c.tool))
	// The long help is built from the registry when it is shown: a command
	// that runs a query never prints it.
	g.lazyHelp(cmd, func() {
		cmd.Long = c.long()
		cmd.Example = c.examples(f)
	})
	return cmd, f
}

// lazyHelp has fillHelp build a command's long help when it is shown.
func (g *globals) lazyHelp(cmd *cobra.Command, build func()) {
	g.helpMu.Lock()
	defer g.helpMu.Unlock()
	if g.help == nil {
		g.help = map[*cobra.Command]func(){}
	}
	g.help[cmd] = build
}

// fillHelp builds a command's long help if it is not built yet.
func (g *globals) fillHelp(cmd *cobra.Command) {
	g.helpMu.Lock()
	build := g.help[cmd]
	delete(g.help, cmd)
	g.helpMu.Unlock()
	if build != nil {
		build()
	}
}

// toolsAnnotation names the tools behind a command, comma-separated.
const toolsAnnotation = "tools"

// lookup finds a tool the CLI was written against; a missing one is a bug
// of the build, not of the user.
func lookup(name string) *tools.Tool {
	t := tools.Lookup(name)
	if t == nil {
		panic("cli: no tool " + name + " in the registry")
	}
	return t
}

// withAnswer prints the envelope's answer line, then its payload when it is
// a *T.
func withAnswer[T any](render func(io.Writer, *T)) func(io.Writer, *protocol.Envelope) {
	return func(w io.Writer, env *protocol.Envelope) {
		fmt.Fprintln(w, env.Answer)
		if r, ok := env.Data.(*T); ok {
			render(w, r)
		}
	}
}

// payload prints the envelope's payload when it is a *T.
func payload[T any](render func(io.Writer, *T)) func(io.Writer, *protocol.Envelope) {
	return func(w io.Writer, env *protocol.Envelope) {
		if r, ok := env.Data.(*T); ok {
			render(w, r)
		}
	}
}

// printAnswer prints the envelope's answer line alone.
func printAnswer(w io.Writer, env *protocol.Envelope) { fmt.Fprintln(w, env.Answer) }

// target reads the symbol a command is about: the NAME argument or
// --at PATH:LINE:COL, into the tool's symbol and at arguments.
type target struct {
	name *string
	at   **tools.Position
	// required makes a command line without either a usage error before
	// anything runs; otherwise the tool says what is missing.
	required bool
	pos      string // --at as given
}

// read takes NAME from args and parses --at.
func (t *target) read(args []string) error {
	if len(args) == 1 {
		*t.name = args[0]
	}
	if t.pos != "" {
		p, err := tools.ParsePosition(t.pos)
		if err != nil {
			return err
		}
		*t.at = p
	}
	if t.required && *t.name == "" && *t.at == nil {
		return errs.E(errs.Usage, "name a symbol (NAME) or a position (--at PATH:LINE:COL)")
	}
	return nil
}
