package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/httpapi"
)

// shutdownTimeout bounds a graceful stop: requests in flight get this long
// to finish before they are cancelled and the connections closed.
const shutdownTimeout = 5 * time.Second

func upCmd(g *globals) *cobra.Command {
	var port int
	var noAuth bool
	cmd := &cobra.Command{
		Use:   "up",
		Short: "Serve the repository over HTTP on 127.0.0.1 (MCP at /mcp, REST at /api/v1) until stopped",
		Long: `up runs Cairn in the foreground as an HTTP server on 127.0.0.1 (an ephemeral
port unless --port) and writes the port to <state dir>/port as
{"port": N, "pid": N} while it runs. Routes:

  /mcp                       MCP over streamable HTTP
  POST /api/v1/tools/<name>  a tool call; the body is its JSON arguments,
                             the answer its envelope
  GET  /api/v1/tools         every tool with its input schema
  GET  /health               200 while the process runs (no token needed)
  GET  /ready                503 until the first index is built, then 200
  GET  /status               the status envelope
  GET  /metrics              Prometheus metrics (calls, latency, index,
                             reconciles, tasks, savings, memory)
  GET  /dashboard/           the operations dashboard (a web page)
  GET  /api/v1/dashboard     the dashboard's data as JSON
  GET  /api/v1/openapi.json  the OpenAPI 3.1 document of the REST API

A REST call belongs to a task when it carries the header X-Cairn-Task: <id>
(task_open returns the id); MCP clients need no header, the connection
holds the task.

Every request needs the bearer token from <state dir>/token (created on first
use, mode 0600); the startup message prints it with a client configuration.
--no-auth turns the token off. Requests whose Host or Origin is not this
machine's loopback are refused. One server per repository: a second 'up'
exits 7 naming the running one. Ctrl+C or SIGTERM stops it gracefully.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runUp(cmd.Context(), g, port, noAuth)
		},
	}
	cmd.Flags().IntVar(&port, "port", 0, "port to listen on (default: any free port)")
	cmd.Flags().BoolVar(&noAuth, "no-auth", false, "serve without a bearer token (loopback only)")
	return cmd
}

func runUp(ctx context.Context, g *globals, port int, noAuth bool) error {
	if port < 0 || port > 65535 {
		return finishStderr(g, errs.E(errs.Usage, "--port %d is not a port number", port))
	}
	paths, cfg, err := g.locate(ctx)
	if err != nil {
		return finishStderr(g, err)
	}
	claim, err := httpapi.ClaimRepo(paths.StateDir)
	if err != nil {
		return finishStderr(g, err)
	}
	defer claim.Release()
	token := ""
	if !noAuth {
		if token, err = httpapi.LoadToken(paths.StateDir); err != nil {
			return finishStderr(g, err)
		}
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return finishStderr(g, &errs.Error{Kind: errs.Conflict, Err: err, Msg: fmt.Sprintf("cannot listen on 127.0.0.1:%d", port),
			Fixes: []string{"pick another --port, or leave it out for any free port"}})
	}
	defer ln.Close()
	a, log, stop, err := g.serve(ctx, paths, cfg, []string{"console:stderr", "json:state"}, g.stdout)
	if err != nil {
		return finishStderr(g, err)
	}
	defer stop()

	api := httpapi.New(a.svc, httpapi.Options{Token: token, Version: Version, Logger: log})
	base, cancelBase := context.WithCancel(context.Background())
	defer cancelBase()
	srv := &http.Server{
		Handler:           api,
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return base },
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	actual := ln.Addr().(*net.TCPAddr).Port
	if err := claim.WritePort(actual); err != nil {
		return finishStderr(g, err)
	}
	printBanner(g, paths.Root, paths.StateDir, actual, token)

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		log.Info("shutting down", "timeout", shutdownTimeout.String())
	case err := <-served:
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			return finishStderr(g, errs.Wrap(errs.Internal, err, "the HTTP server stopped"))
		}
		return nil
	}
	// MCP sessions hold streams open; end them so Shutdown sees idle
	// connections. Calls still running are cancelled shortly before the
	// deadline so they answer rather than being cut off.
	api.Close()
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	stopCalls := time.AfterFunc(shutdownTimeout*4/5, cancelBase)
	defer stopCalls.Stop()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	return nil
}

// printBanner tells a person (stdout) where the server is and how to connect
// a client; with --json it prints the same as one JSON object.
func printBanner(g *globals, root, stateDir string, port int, token string) {
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	server := clientServer{Type: "http", URL: base + "/mcp"}
	if token != "" {
		server.Headers = map[string]string{"Authorization": "Bearer " + token}
	}
	clientCfg := map[string]any{"mcpServers": map[string]any{"cairn": server}}
	if g.json {
		out := map[string]any{"repo": root, "url": base, "mcp_url": base + "/mcp", "dashboard_url": base + "/dashboard/", "port": port, "pid": os.Getpid(),
			"auth": token != "", "client_config": clientCfg}
		if token != "" {
			out["token_file"] = httpapi.TokenPath(stateDir)
		}
		b, _ := json.Marshal(out)
		fmt.Fprintln(g.stdout, string(b))
		return
	}
	fmt.Fprintf(g.stdout, "cairn up: serving %s\n", root)
	fmt.Fprintf(g.stdout, "  MCP:     %s/mcp\n", base)
	fmt.Fprintf(g.stdout, "  REST:    %s/api/v1/tools/<name>\n", base)
	fmt.Fprintf(g.stdout, "  status:  %s/status\n", base)
	fmt.Fprintf(g.stdout, "  metrics: %s/metrics\n", base)
	fmt.Fprintf(g.stdout, "  dashboard: %s/dashboard/ (asks for the token once)\n", base)
	fmt.Fprintf(g.stdout, "  OpenAPI: %s/api/v1/openapi.json\n", base)
	if token != "" {
		fmt.Fprintf(g.stdout, "  token:   %s (header Authorization: Bearer <token>)\n", httpapi.TokenPath(stateDir))
	} else {
		fmt.Fprintf(g.stdout, "  auth:    off (--no-auth)\n")
	}
	b, _ := json.MarshalIndent(clientCfg, "", "  ")
	fmt.Fprintf(g.stdout, "\nMCP client configuration:\n%s\n\nPress Ctrl+C to stop.\n", b)
}

// clientServer is one server entry of an MCP client configuration, in the
// order people read it.
type clientServer struct {
	Type    string            `json:"type"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers,omitempty"`
}
