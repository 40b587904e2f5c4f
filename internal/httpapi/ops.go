package httpapi

import (
	"context"
	"embed"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/obs"
	"github.com/cairnhq/cairn/internal/tools"
)

// The dashboard is plain HTML, CSS and JavaScript, committed as served:
// building Cairn never needs npm.
//
//go:embed dashboard
var dashboardFiles embed.FS

// TaskHeader names the task a REST call belongs to (REST has no connection
// to hold one).
const TaskHeader = "X-Cairn-Task"

// addOpsRoutes serves what operators look at: /metrics, the dashboard and
// its data, and the OpenAPI document.
func (s *Server) addOpsRoutes(mux *http.ServeMux) {
	assets, _ := fs.Sub(dashboardFiles, "dashboard")
	files := http.StripPrefix("/dashboard/", http.FileServerFS(assets))
	mux.HandleFunc("GET /dashboard", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/dashboard/", http.StatusMovedPermanently)
	})
	mux.Handle("GET /dashboard/", files)
	mux.HandleFunc("GET /metrics", s.metrics)
	mux.HandleFunc("GET /api/v1/dashboard", s.dashboard)
	mux.HandleFunc("GET /api/v1/openapi.json", s.openAPI)
}

// isPublic says whether a path is served without the token: the health
// check, and the dashboard's static files (they hold no data; the page asks
// for the token and sends it with every data request).
func isPublic(path string) bool {
	return path == "/health" || path == "/dashboard" || strings.HasPrefix(path, "/dashboard/")
}

// restContext tells the tools who calls over REST and in which task.
func restContext(r *http.Request) context.Context {
	ctx := obs.WithClient(r.Context(), obs.Client{ID: "rest", Transport: "rest"})
	return obs.WithTask(ctx, strings.TrimSpace(r.Header.Get(TaskHeader)))
}

func (s *Server) monitorOr404(w http.ResponseWriter) *obs.Monitor {
	m := s.svc.Monitor()
	if m == nil {
		writeProblem(w, errs.NotFound, "this server keeps no metrics")
	}
	return m
}

func (s *Server) metrics(w http.ResponseWriter, r *http.Request) {
	if m := s.monitorOr404(w); m != nil {
		m.Metrics().Handler().ServeHTTP(w, r)
	}
}

// dashboard answers the page's one request: everything it shows, with the
// operations filtered by the query (task, tool, outcome, since, limit).
func (s *Server) dashboard(w http.ResponseWriter, r *http.Request) {
	m := s.monitorOr404(w)
	if m == nil {
		return
	}
	q := r.URL.Query()
	f := obs.OpFilter{Task: q.Get("task"), Tool: q.Get("tool"), Outcome: q.Get("outcome")}
	if n, err := strconv.Atoi(q.Get("limit")); err == nil {
		f.Limit = n
	}
	if since := q.Get("since"); since != "" {
		if secs, err := strconv.Atoi(since); err == nil {
			f.Since = time.Now().Add(-time.Duration(secs) * time.Second)
		} else if t, err := time.Parse(time.RFC3339, since); err == nil {
			f.Since = t
		} else {
			writeProblem(w, errs.InvalidArgument, "since must be seconds or an RFC 3339 time")
			return
		}
	}
	d := m.Dashboard(f)
	if env := tools.Invoke(obs.Quiet(r.Context()), s.svc.Env(), "status", nil); env.Error == nil {
		d.Status = env.Data
	}
	writeJSON(w, http.StatusOK, d)
}

func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, tools.OpenAPI(s.opts.Version))
}
