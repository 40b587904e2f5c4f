// Package mcpserver is the Model Context Protocol adapter: it advertises the
// tools of the registry that the configured profile shows, with input schemas
// generated from their Go types, and answers each call with one call to
// tools.Invoke, encoding the envelope as both structured content and text.
// It serves any MCP transport (stdio for `cairn mcp`, streamable HTTP inside
// `cairn up`). It holds no business logic and never imports store, lang or
// gitx.
package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairnhq/cairn/internal/obs"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/tools"
)

// Options configures the MCP server.
type Options struct {
	// Version is reported to clients in the server info.
	Version string
	// Logger receives the server's own log lines (nil: discarded). Servers
	// on stdio must log to stderr: stdout carries the protocol.
	Logger *slog.Logger
	// Transport is stdio or http, as the clients' operations record it.
	Transport string
}

// instructions tell a client's model when Cairn is the right tool.
const instructions = `Cairn indexes this repository (syntax facts for every supported language and a full-text index) and keeps the index current with the files on disk. ` +
	`Prefer it to grep, find and reading whole files: search finds text, symbols and definitions; symbol_get gives one symbol's card; refs_find lists its references with how certain each is; read_source reads bounded spans. ` +
	`Every answer is a small JSON envelope with provenance (freshness, completeness) and next_actions to follow; truncated lists carry a cursor. ` +
	`Call status when answers look wrong or while the first index is still building.`

// New builds an MCP server for a running service: every tool the profile
// (tools.profile, tools.enable, tools.disable) shows, and the resources
// cairn://status, cairn://architecture, cairn://module/{+id}, cairn://symbol/{id}, cairn://card/{+key}
// and cairn://file/{+path}.
func New(svc *service.Service, opts Options) *mcp.Server {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	version := opts.Version
	if version == "" {
		version = "dev"
	}
	cl := newClients(svc, opts.Transport)
	s := mcp.NewServer(&mcp.Implementation{Name: "cairn", Title: "Cairn", Version: version}, &mcp.ServerOptions{
		Instructions:       instructions,
		InitializedHandler: cl.initialized,
		Logger:             log,
		// No logging capability: Cairn reports through envelopes, not log messages.
		Capabilities: &mcp.ServerCapabilities{},
	})
	cfg := svc.Config().Tools
	for _, n := range tools.UnknownNames(cfg) {
		log.Warn("unknown name in tools.enable or tools.disable: neither a group nor a tool", "name", n)
	}
	a := &adapter{svc: svc, log: log, clients: cl}
	sel := tools.NewSelection(cfg, svc.Paths().Root)
	for _, t := range tools.VisibleIn(cfg, svc.Paths().Root) {
		schema, err := t.InputSchema()
		if cfg.Profile == "minimal" {
			schema, err = t.CompactInputSchema()
		}
		if err != nil {
			// A tool whose input type has no schema is a programming error;
			// leave it out rather than take the server down.
			log.Error("tool left out", "tool", t.Name, "error", err)
			continue
		}
		summary, _, _, _ := sel.Texts(t) // names only tools the client has
		s.AddTool(&mcp.Tool{Name: t.Name, Description: summary, InputSchema: schema}, a.callTool(t.Name))
	}
	a.addResources(s)
	return s
}

type adapter struct {
	svc     *service.Service
	log     *slog.Logger
	clients *clients
}

// callTool is the handler of one tool. Tool failures are tool results with
// isError set; only a broken protocol exchange becomes a JSON-RPC error, and
// the SDK handles those before this runs. ctx is the request's context, which
// the SDK cancels on notifications/cancelled, so Invoke stops with it.
func (a *adapter) callTool(name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args json.RawMessage
		ctx = obs.WithClient(ctx, a.clients.of(req.Session))
		if req.Params != nil {
			args = req.Params.Arguments
			if tok := req.Params.GetProgressToken(); tok != nil && req.Session != nil {
				p := newProgress(req.Session, tok)
				ctx = tools.WithProgress(ctx, func(ip protocol.Progress) { p.report(ctx, ip) })
			}
		}
		start := time.Now()
		env := tools.Invoke(ctx, a.svc.Env(), name, args)
		if env.Error != nil {
			a.log.Debug("tool call failed", "tool", name, "code", env.Error.Code, "ms", time.Since(start).Milliseconds())
		}
		return Result(env), nil
	}
}

// Result encodes an envelope as a tool result: the canonical JSON is both the
// structured content and the text of the first content block (DESIGN §6a).
func Result(env *protocol.Envelope) *mcp.CallToolResult {
	b, err := protocol.Canonical(env)
	if err != nil {
		// Every envelope is plain data; failing to encode one is a bug, but
		// the client still gets a well-formed error result.
		msg, _ := json.Marshal("cannot encode the response: " + err.Error())
		b = []byte(`{"error":{"code":"INTERNAL","code_num":1001,"message":` + string(msg) + `,"retryable":false,"details":{},"fixes":[]}}`)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b), IsError: true}
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(b)}},
		StructuredContent: json.RawMessage(b),
		IsError:           env.Error != nil,
	}
}

// progress turns index progress into notifications/progress for one request.
// The protocol wants the progress value to grow with every notification, while
// the index counts each phase from zero, so the value sent is cumulative over
// phases and the message names the phase. Notifications are throttled.
type progress struct {
	session *mcp.ServerSession
	token   any

	mu    sync.Mutex // guards the fields below
	phase string
	base  float64 // work of the phases already finished
	total float64 // total of the current phase
	sent  float64 // last value sent (-1 before the first)
	last  time.Time
}

// progressEvery is the minimum interval between two notifications of the same
// phase; a new phase is always reported.
const progressEvery = 100 * time.Millisecond

func newProgress(session *mcp.ServerSession, token any) *progress {
	return &progress{session: session, token: token, sent: -1}
}

// report sends ip as a notification of the request ctx belongs to, unless
// ctx is done.
func (p *progress) report(ctx context.Context, ip protocol.Progress) {
	p.mu.Lock()
	if ip.Phase != p.phase {
		if p.phase != "" {
			p.base += p.total
		}
		p.phase, p.last = ip.Phase, time.Time{}
	}
	p.total = float64(ip.Total)
	value := p.base + float64(ip.Done)
	now := time.Now()
	finished := ip.Total > 0 && ip.Done >= ip.Total
	if value <= p.sent || now.Sub(p.last) < progressEvery && !finished && ip.Item == "" {
		p.mu.Unlock()
		return
	}
	p.sent, p.last = value, now
	msg := ip.Phase
	if ip.Total > 0 {
		msg = fmt.Sprintf("%s %d/%d", ip.Phase, ip.Done, ip.Total)
	}
	if ip.Item != "" {
		msg += ": " + ip.Item
	}
	p.mu.Unlock()
	if ctx.Err() != nil {
		return
	}
	// A client that went away is not an error of the work in progress.
	_ = p.session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: p.token, Progress: value, Message: msg})
}
