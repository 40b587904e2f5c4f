package tools

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/plural"
	"github.com/cairnhq/cairn/internal/repomap"
)

// SurfacesIn are the arguments of surfaces_list.
type SurfacesIn struct {
	Kind       string   `json:"kind" jsonschema:"endpoints, config_keys, db_tables, di, exceptions or logs"`
	Paths      []string `json:"paths,omitempty" jsonschema:"path globs to look in, e.g. api/** or *.py"`
	Languages  []string `json:"languages,omitempty" jsonschema:"languages to look in, e.g. go, python, typescript"`
	Framework  string   `json:"framework,omitempty" jsonschema:"only this framework, e.g. gin, flask, spring, sql, env"`
	Query      string   `json:"query,omitempty" jsonschema:"only values containing this text (case-insensitive)"`
	Confidence string   `json:"confidence,omitempty" jsonschema:"high: only values written literally"`
	View
	Common
}

// SurfaceKindNames are the kinds surfaces_list takes, in order.
var SurfaceKindNames = []string{"endpoints", "config_keys", "db_tables", "di", "exceptions", "logs"}

var surfaceLabels = []string{"endpoints", "config keys", "db tables", "DI registrations", "exceptions", "log templates"}

func init() {
	Register(Tool{
		Name: "surfaces_list", Group: "read", Fresh: true, Paged: true,
		Summary: "Where code meets the outside world, by kind: HTTP endpoints, config keys, DB tables, DI registrations, thrown exceptions, log templates. Each with framework, confidence and the enclosing symbol.",
		Doc: "kind is one of endpoints (HTTP routes: method and path), config_keys (environment variables, settings and properties read), db_tables (tables named in SQL strings or declared by ORM models), " +
			"di (dependency-injection registrations), exceptions (exception types thrown; Go panics, sentinel errors and returned error types), logs (log message templates with their level). " +
			"Found at index time from syntax, per framework (net/http, gin, echo, chi, Express, Fastify, Next.js route files, Flask, FastAPI, Django, Spring, JAX-RS, ASP.NET, NestJS, GORM, SQLAlchemy, TypeORM, Prisma, JPA, EF, ...). " +
			"confidence is high when the value is written literally and low when it is built at run time or derived from a naming convention (the value is then the expression or the derived name). " +
			"Items are ordered by path and position; filter with paths, languages, framework, query (substring of the value) and confidence; page with the cursor. symbol_get shows the surfaces inside one symbol.",
		When:     []string{"mapping a service's HTTP API, configuration, tables or log messages", "finding which code handles a route, reads a setting or writes a table", "finding where a log line or an error comes from"},
		WhenNot:  []string{"text that is not a surface: search", "the surfaces of one function or class: symbol_get"},
		Examples: []string{`{"kind": "endpoints"}`, `{"kind": "config_keys", "languages": ["python"]}`, `{"kind": "db_tables", "query": "user"}`, `{"kind": "logs", "query": "failed", "paths": ["pkg/**"]}`},
	}, surfacesList)
}

func surfacesList(ctx context.Context, c *Call, in SurfacesIn) (*repomap.SurfacesResult, error) {
	kind, ok := lang.ParseSurfaceKind(in.Kind)
	if !ok {
		return nil, errs.E(errs.InvalidArgument, "kind must be one of %s, not %q", strings.Join(SurfaceKindNames, ", "), in.Kind)
	}
	limit := c.Clamp("limit", in.Limit, ResultsBudget)
	pg, err := c.pager(ctx, "surfaces", int(kind), in.Paths, in.Languages, in.Framework, in.Query, in.Confidence, limit)
	if err != nil {
		return nil, err
	}
	res, err := repomap.Surfaces(ctx, c.Engine(), repomap.SurfaceParams{Kind: kind, Paths: in.Paths, Langs: in.Languages,
		Framework: in.Framework, Query: in.Query, Confidence: in.Confidence, Limit: limit, Offset: pg.offset})
	if err != nil {
		return nil, err
	}
	label := surfaceLabels[kind]
	c.Answer("%d %s (%d distinct) in %s%s", res.Total, label, res.Distinct, plural.Count(res.Files, "file", "files"), frameworkSummary(res.ByFramework))
	pg.done(ctx, "items", len(res.Items), res.NextOffset, res.Total, res.More)
	if n := res.ByConfidence["low"]; n > 0 {
		c.Warn("%d of %d %s are low confidence: built at run time or derived from a naming convention", n, res.Total, label)
	}
	c.Saved(int64(res.Files) * 2000)
	if len(res.Items) > 0 && res.Items[0].Symbol != nil {
		c.Next("symbol_get", map[string]any{"symbol": res.Items[0].Symbol.ID}, "the card of the first item's symbol, with all its surfaces")
	}
	if res.Total == 0 && in.Query != "" {
		c.Next("search", map[string]any{"query": in.Query}, "surfaces come from known frameworks; search the text")
	}
	return res, nil
}

// frameworkSummary renders ": gin 7, net/http 5" (largest first).
func frameworkSummary(m map[string]int) string {
	if len(m) == 0 {
		return ""
	}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		if m[names[i]] != m[names[j]] {
			return m[names[i]] > m[names[j]]
		}
		return names[i] < names[j]
	})
	parts := make([]string, 0, len(names))
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%s %d", n, m[n]))
	}
	return ": " + strings.Join(parts, ", ")
}
