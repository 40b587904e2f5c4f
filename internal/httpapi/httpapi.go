// Package httpapi is the HTTP adapter behind `cairn up`: MCP over streamable
// HTTP at /mcp, REST calls of every registered tool at /api/v1/tools/<name>,
// and /health, /ready and /status for people and supervisors. Each tool call
// is one call to tools.Invoke; errors map to HTTP statuses in one table. The
// server is for the local machine only: it refuses foreign Host and Origin
// headers (DNS rebinding) and by default wants a bearer token. It never
// imports store, lang or gitx.
package httpapi

import (
	"crypto/subtle"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/mcpserver"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/tools"
)

// Options configures the HTTP server.
type Options struct {
	// Token is the bearer token every request but /health must carry;
	// empty turns authentication off (--no-auth).
	Token string
	// Version is reported by /health and to MCP clients.
	Version string
	// Logger receives one line per request (nil: discarded).
	Logger *slog.Logger
}

// maxBody bounds a REST request body.
const maxBody = 4 << 20

// Server serves one repository's service over HTTP.
type Server struct {
	svc     *service.Service
	opts    Options
	log     *slog.Logger
	mcp     *mcp.Server
	handler http.Handler
}

// New builds the HTTP server of a running service.
func New(svc *service.Service, opts Options) *Server {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Server{svc: svc, opts: opts, log: log}
	s.mcp = mcpserver.New(svc, mcpserver.Options{Version: opts.Version, Logger: log, Transport: "http"})
	mux := http.NewServeMux()
	// The SDK's own DNS-rebinding protection stays on; the checks below are
	// stricter and run first.
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp },
		&mcp.StreamableHTTPOptions{Logger: log}))
	mux.HandleFunc("GET /health", s.health)
	mux.HandleFunc("GET /ready", s.ready)
	mux.HandleFunc("GET /status", s.status)
	mux.HandleFunc("GET /api/v1/tools", s.listTools)
	mux.HandleFunc("POST /api/v1/tools/{name}", s.callTool)
	s.addOpsRoutes(mux)
	s.handler = s.withRepo(s.withLog(s.withLocalOnly(s.withAuth(mux))))
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Close ends the open MCP sessions so that their long-lived streams do not
// hold up a graceful shutdown.
func (s *Server) Close() {
	for ss := range s.mcp.Sessions() {
		ss.Close()
	}
}

// withRepo names the repository on every response, errors included.
func (s *Server) withRepo(next http.Handler) http.Handler {
	root := s.svc.Paths().Root
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Cairn-Repo", root)
		next.ServeHTTP(w, r)
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Flush keeps streaming (MCP's server-sent events) working through the wrapper.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (s *Server) withLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		s.log.Info("request", "method", r.Method, "path", r.URL.Path, "status", sw.status,
			"ms", time.Since(start).Milliseconds())
	})
}

// withLocalOnly refuses requests that a web page could have sent through DNS
// rebinding or cross-origin: the Host must be a loopback name or address with
// the port this server listens on, and an Origin, when present, must be a
// loopback http(s) origin.
func (s *Server) withLocalOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hostAllowed(r) {
			writeProblem(w, errs.ForbiddenHost, "the Host header must name this machine's loopback interface with the server's port")
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !originAllowed(o) {
			writeProblem(w, errs.ForbiddenOrigin, "cross-origin requests from "+o+" are refused")
			return
		}
		next.ServeHTTP(w, r)
	})
}

func hostAllowed(r *http.Request) bool {
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil || !loopbackName(host) {
		return false
	}
	if local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		if _, lport, err := net.SplitHostPort(local.String()); err == nil && lport != port {
			return false
		}
	}
	return true
}

func originAllowed(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.User != nil || (u.Path != "" && u.Path != "/") {
		return false
	}
	return loopbackName(u.Hostname())
}

func loopbackName(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// withAuth wants the bearer token on everything but /health and the
// dashboard's static files.
func (s *Server) withAuth(next http.Handler) http.Handler {
	if s.opts.Token == "" {
		return next
	}
	want := []byte("Bearer " + s.opts.Token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isPublic(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		got := []byte(r.Header.Get("Authorization"))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="cairn"`)
			msg := "missing bearer token: send Authorization: Bearer <token from the state dir's token file>"
			if len(got) > 0 {
				msg = "wrong bearer token"
			}
			writeProblem(w, errs.Unauthorized, msg)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// writeProblem answers a request refused before it reached a tool, with the
// same error object a tool's envelope carries.
func writeProblem(w http.ResponseWriter, kind errs.Kind, msg string) {
	writeJSON(w, statusByKind[kind], map[string]any{"error": tools.ErrorObject(errs.E(kind, "%s", msg))})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := protocol.Canonical(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"error":{"code":"INTERNAL","message":"cannot encode the response"}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// writeEnvelope answers with a tool's envelope and the status of its error.
func writeEnvelope(w http.ResponseWriter, env *protocol.Envelope) {
	status := http.StatusOK
	if env.Error != nil {
		status = StatusOf(env.Error.Code)
	}
	writeJSON(w, status, env)
}

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	state, _ := s.svc.State()
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "repo": s.svc.Paths().Root, "index_state": state, "version": s.opts.Version})
}

func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	ok, reason := s.svc.Ready()
	state, _ := s.svc.State()
	body := map[string]any{"ready": ok, "index_state": state}
	if !ok {
		body["reason"] = reason
		writeJSON(w, http.StatusServiceUnavailable, body)
		return
	}
	writeJSON(w, http.StatusOK, body)
}

func (s *Server) status(w http.ResponseWriter, r *http.Request) {
	writeEnvelope(w, tools.Invoke(r.Context(), s.svc.Env(), "status", nil))
}

// toolInfo describes a tool for REST clients.
type toolInfo struct {
	Name        string `json:"name"`
	Group       string `json:"group"`
	Description string `json:"description"`
	InputSchema any    `json:"input_schema"`
	// MCP says whether the tools profile shows the tool to MCP clients;
	// REST serves every tool.
	MCP bool `json:"mcp"`
}

// listTools lists every tool REST serves with its input schema.
func (s *Server) listTools(w http.ResponseWriter, r *http.Request) {
	visible := map[string]bool{}
	cfg := s.svc.Config().Tools
	for _, t := range tools.VisibleIn(cfg, s.svc.Paths().Root) {
		visible[t.Name] = true
	}
	out := []toolInfo{}
	for _, t := range tools.All() {
		schema, err := t.InputSchema()
		if err != nil {
			s.log.Error("tool left out", "tool", t.Name, "error", err)
			continue
		}
		out = append(out, toolInfo{Name: t.Name, Group: t.Group, Description: t.Summary, InputSchema: schema, MCP: visible[t.Name]})
	}
	profile := cfg.Profile
	if profile == "" {
		profile = "standard"
	}
	writeJSON(w, http.StatusOK, map[string]any{"tools": out, "profile": profile})
}

// callTool runs one tool with the request body as its JSON arguments.
func (s *Server) callTool(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		writeProblem(w, errs.TooLarge, "the request body is over 4 MiB")
		return
	}
	// A body that is not a JSON object fails in the tool's decoder as
	// INVALID_ARGUMENT, like a bad MCP call.
	writeEnvelope(w, tools.Invoke(restContext(r), s.svc.Env(), r.PathValue("name"), body))
}
