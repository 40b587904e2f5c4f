package query

import (
	"context"
	"path"
	"regexp"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/protocol"
)

// SurfaceItem is one surface: where code meets the outside world.
type SurfaceItem struct {
	Kind string `json:"kind"`
	// Value is the route pattern, configuration key, table, registered type,
	// exception type or log message template.
	Value string `json:"value"`
	// Method is the HTTP method(s) of an endpoint, the level of a log, the SQL
	// verb (or "model") of a table, the role of a DI registration, the
	// accessor of a configuration key.
	Method    string `json:"method,omitempty"`
	Framework string `json:"framework"`
	// Detail is the handler of an endpoint, the implementation of a DI
	// registration, the message of an exception, the entity of a table.
	Detail     string            `json:"detail,omitempty"`
	Confidence string            `json:"confidence"`
	Language   string            `json:"language"`
	Location   protocol.Location `json:"location"`
	// Symbol is the definition the surface is written in (the handler of a
	// decorated route, the model class of a table), when it has one.
	Symbol *SymbolRef `json:"symbol,omitempty"`
}

// NewSurfaceItem is a surface found in a file as lists report it.
func NewSurfaceItem(p, language string, s lang.Surface) SurfaceItem {
	loc := protocol.Location{Path: protocol.RepoPath(p), Line: int(s.Pos.Line), Col: int(s.Pos.Col),
		EndLine: int(s.Pos.Line), EndCol: int(s.Pos.Col)}
	return SurfaceItem{Kind: s.Kind.String(), Value: s.Value, Method: s.Method, Framework: s.Framework, Detail: s.Detail,
		Confidence: s.Confidence.String(), Language: language, Location: loc}
}

// SurfacesIn lists the surfaces written inside a symbol's definition
// (including nested definitions such as closures and methods of a class),
// at most limit of them, and how many there are.
func (e *Engine) SurfacesIn(r *Resolved, limit int) ([]SurfaceItem, int) {
	if r == nil || r.Facts == nil || len(r.Facts.Surfaces) == 0 {
		return nil, 0
	}
	var out []SurfaceItem
	total := 0
	for _, s := range r.Facts.Surfaces {
		if !defInside(r.Facts, s.Def, r.Row.DefIdx) {
			continue
		}
		s, ok := CompleteSurface(r.File.Path, s)
		if !ok {
			continue
		}
		total++
		if len(out) < limit {
			out = append(out, NewSurfaceItem(r.File.Path, r.File.Lang, s))
		}
	}
	return out, total
}

// SurfacesOf returns every surface inside the definition of a symbol (named
// by its symbol_id, sym_<16 hex>), for annotating call trees: routes, config
// keys, tables, DI registrations, exceptions and log templates it touches
// directly. An unknown id gives NOT_FOUND.
func (e *Engine) SurfacesOf(ctx context.Context, symbolID protocol.SymbolID) ([]SurfaceItem, error) {
	id, ok := symbolID.Hash()
	if !ok {
		return nil, errs.E(errs.InvalidArgument, "%q is not a symbol id", symbolID)
	}
	row, found, err := e.symbolByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, errs.E(errs.NotFound, "no symbol %s", symbolID)
	}
	r, err := e.Load(ctx, row)
	if err != nil || r == nil {
		return nil, err
	}
	items, _ := e.SurfacesIn(r, lang.MaxSurfaces)
	if items == nil {
		items = []SurfaceItem{}
	}
	return items, nil
}

// defInside reports whether definition d is def or nested in it.
func defInside(f *lang.Facts, d int32, def int) bool {
	for ; d >= 0 && int(d) < len(f.Defs); d = f.Defs[d].Parent {
		if int(d) == def {
			return true
		}
	}
	return false
}

// CompleteSurface fills what depends on the file's path (content-addressed
// facts cannot know it): Next.js routes from route files, Django tables from
// the app label. ok is false for a surface that does not apply at this path.
func CompleteSurface(p string, s lang.Surface) (lang.Surface, bool) {
	if s.Flags&lang.SurfPathRoute != 0 {
		route, ok := nextRoute(p)
		if !ok {
			return s, false
		}
		s.Value = route
	}
	if s.Flags&lang.SurfAppTable != 0 {
		s.Value = djangoApp(p) + "_" + s.Value
	}
	return s, true
}

var (
	nextAppRoute = regexp.MustCompile(`(?:^|/)app/((?:[^/]+/)*)route\.(?:js|jsx|ts|tsx|mjs)$`)
	nextPagesAPI = regexp.MustCompile(`(?:^|/)pages/(api(?:/[^/]+)*?)(?:/index)?\.(?:js|jsx|ts|tsx|mjs)$`)
)

// nextRoute is the Next.js route of a route file: app/**/route.ts (route
// groups (x) and parallel slots @x are not part of the URL) or
// pages/api/**.ts (index names its directory).
func nextRoute(p string) (string, bool) {
	if m := nextAppRoute.FindStringSubmatch(p); m != nil {
		var segs []string
		for _, s := range strings.Split(strings.TrimSuffix(m[1], "/"), "/") {
			if s == "" || strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") || strings.HasPrefix(s, "@") {
				continue
			}
			segs = append(segs, s)
		}
		return "/" + strings.Join(segs, "/"), true
	}
	if m := nextPagesAPI.FindStringSubmatch(p); m != nil {
		return "/" + m[1], true
	}
	return "", false
}

// djangoApp is the app label of a models module: the directory holding
// models.py, or the parent of a models/ package.
func djangoApp(p string) string {
	dir := path.Dir(p)
	if path.Base(dir) == "models" {
		dir = path.Dir(dir)
	}
	if dir == "." || dir == "/" {
		return "app"
	}
	return path.Base(dir)
}
