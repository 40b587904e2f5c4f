package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/mcpserver"
)

func mcpCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve the repository to an agent over MCP on stdin/stdout",
		Long: `mcp runs Cairn as a Model Context Protocol server on stdin and stdout, for
agents that start their tools as subprocesses. Add it to the client's
configuration, e.g.

  {"mcpServers": {"cairn": {"command": "cairn", "args": ["mcp", "--repo", "/path/to/repo"]}}}

The first index builds in the background: initialize and status answer at
once, other tools wait for it (bounded) or say the index is not ready yet.
A file watcher keeps the index current while the server runs. stdout carries
only the protocol; logs and progress go to stderr. tools.profile
(minimal, standard, all) and tools.enable / tools.disable choose the tools
the agent sees.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runMCP(cmd.Context(), g)
		},
	}
}

func runMCP(ctx context.Context, g *globals) error {
	paths, cfg, err := g.locate(ctx)
	if err != nil {
		return finishStderr(g, err)
	}
	// stdout carries the protocol: an output configured there goes to stderr.
	a, log, stop, err := g.serve(ctx, paths, cfg, []string{"console:stderr:warn", "json:state"}, g.stderr)
	if err != nil {
		return finishStderr(g, err)
	}
	defer stop()
	fmt.Fprintf(g.stderr, "cairn mcp: serving %s over stdio (state %s)\n", paths.Root, paths.StateDir)

	srv := mcpserver.New(a.svc, mcpserver.Options{Version: Version, Logger: log, Transport: "stdio"})
	stdio := g.stdout == io.Writer(os.Stdout)
	var transport mcp.Transport = &mcp.StdioTransport{}
	if !stdio {
		// Run was given another writer (in-process callers): speak there.
		transport = &mcp.IOTransport{Reader: os.Stdin, Writer: nopWriteCloser{g.stdout}}
	}
	ss, err := srv.Connect(ctx, transport, nil)
	if err != nil {
		return finishStderr(g, err)
	}
	// The protocol owns stdout now: anything else printed by mistake goes
	// to stderr instead of corrupting the stream.
	if stdio {
		saved := os.Stdout
		os.Stdout = os.Stderr
		defer func() { os.Stdout = saved }()
	}
	done := make(chan error, 1)
	go func() { done <- ss.Wait() }()
	select {
	case <-ctx.Done():
		ss.Close()
		<-done
	case <-done:
	}
	return nil
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// finishStderr reports a failure of a server command (which has no envelope
// to print on stdout) and turns it into the exit code.
func finishStderr(g *globals, err error) error {
	env := errorEnvelope(err)
	printError(g.stderr, env.Error)
	return exitError(env.Error.CodeNum / 1000)
}
