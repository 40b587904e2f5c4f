package lang

import (
	"sort"
	"strings"
)

// SurfaceKind is what a surface is: where code meets the outside world.
type SurfaceKind uint8

// Surface kinds; append-only (stored in the blob store).
const (
	SurfEndpoint  SurfaceKind = iota // an HTTP route: Value is the path pattern, Method the HTTP method(s)
	SurfConfigKey                    // a configuration key read: environment variable, settings key, property
	SurfDBTable                      // a database table: named in SQL text or declared by an ORM model
	SurfDI                           // a dependency-injection registration: Value is the registered type or provider
	SurfException                    // a thrown exception type (Go: panics and sentinel errors)
	SurfLog                          // a log message template; Method is the level
)

var surfaceKindNames = [...]string{"endpoint", "config_key", "db_table", "di", "exception", "log"}

func (k SurfaceKind) String() string { return nameOf(surfaceKindNames[:], k, "unknown") }

// SurfaceKinds lists every kind in order.
func SurfaceKinds() []SurfaceKind {
	out := make([]SurfaceKind, len(surfaceKindNames))
	for i := range out {
		out[i] = SurfaceKind(i)
	}
	return out
}

// ParseSurfaceKind maps a kind name (singular or the plural of surfaces_list:
// endpoints, config_keys, db_tables, di, exceptions, logs) to a kind.
func ParseSurfaceKind(s string) (SurfaceKind, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	for i, n := range surfaceKindNames {
		if s == n || s == n+"s" {
			return SurfaceKind(i), true
		}
	}
	switch s {
	case "routes", "route", "http":
		return SurfEndpoint, true
	case "config", "configs", "env":
		return SurfConfigKey, true
	case "tables", "table", "db":
		return SurfDBTable, true
	case "injections", "services":
		return SurfDI, true
	case "throws", "errors":
		return SurfException, true
	}
	return 0, false
}

// Confidence says how sure the extractor is of a surface's value: high when
// it is written literally (a string literal argument, an explicit name), low
// when it comes from a built string, a variable or a naming convention.
type Confidence uint8

// Confidence levels.
const (
	ConfLow Confidence = iota
	ConfHigh
)

func (c Confidence) String() string {
	if c == ConfHigh {
		return "high"
	}
	return "low"
}

// SurfaceFlags mark surfaces whose value depends on the file's path, which
// content-addressed facts cannot know; queries complete them.
type SurfaceFlags uint8

// Surface flags.
const (
	// SurfPathRoute: the route is the file's path (Next.js app/**/route.ts,
	// pages/api/**); Value is empty. Outside those paths the surface is void.
	SurfPathRoute SurfaceFlags = 1 << iota
	// SurfAppTable: Value is a Django model's lower-cased name; the table is
	// <app label>_<value>, the app label being the directory of models.py.
	SurfAppTable
)

// Surface is one place where code meets the outside world: an HTTP route, a
// configuration key, a database table, a DI registration, a thrown exception
// or a log message template.
type Surface struct {
	Kind       SurfaceKind
	Value      string // route pattern, key, table, registered type, exception type, message template
	Method     string // endpoint: HTTP method(s) ("GET", "GET,POST", "ANY"); log: level; db_table: SQL verb or "model"; di: lifetime or role; config_key: accessor
	Framework  string // net/http, gin, express, flask, spring, aspnet, sql, os, slog, ...
	Detail     string // endpoint: handler; di: implementation; exception: message; db_table: entity
	Pos        Pos    // where it is written
	Def        int32  // innermost definition the surface belongs to, -1 at top level
	Confidence Confidence
	Flags      SurfaceFlags
}

// Bounds of one file's surfaces.
const (
	MaxSurfaces     = 4000 // surfaces per file
	maxSurfaceValue = 200  // bytes of Value and Detail
)

// DefAt is the innermost definition whose span contains p, or -1. Definitions
// are in pre-order (parents before children, starts non-decreasing); one
// that is only its name may stand inside a sibling's span (an attribute of
// a Python class that one of its methods assigns).
func (f *Facts) DefAt(p Pos) int32 {
	// The last definition starting at or before p is p's innermost container
	// or a descendant of a container that ended before p: climb its parents.
	j := sort.Search(len(f.Defs), func(i int) bool { return p.Before(f.Defs[i].Span.Start) }) - 1
	for j > 0 && f.Defs[j].Span == f.Defs[j].NameSpan && !f.Defs[j].Span.Contains(p) {
		j-- // contains nothing but its name: what stands before it may hold p
	}
	for j >= 0 && !f.Defs[j].Span.Contains(p) {
		parent := int(f.Defs[j].Parent)
		if parent >= j {
			return -1 // not pre-order: give up rather than loop
		}
		j = parent
	}
	return int32(j)
}

// finishSurfaces caps, cleans, sorts and de-duplicates a hook's surfaces.
func finishSurfaces(in []Surface) []Surface {
	if len(in) == 0 {
		return nil
	}
	out := in[:0]
	for _, s := range in {
		s.Value = Truncate(cleanSurfaceText(s.Value), maxSurfaceValue)
		s.Detail = Truncate(cleanSurfaceText(s.Detail), maxSurfaceValue)
		if s.Value == "" && s.Flags&SurfPathRoute == 0 {
			continue
		}
		out = append(out, s)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Pos != b.Pos {
			return a.Pos.Before(b.Pos)
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Value != b.Value {
			return a.Value < b.Value
		}
		return a.Method < b.Method
	})
	dedup := out[:0]
	for i, s := range out {
		if i > 0 {
			p := dedup[len(dedup)-1]
			if p.Pos == s.Pos && p.Kind == s.Kind && p.Value == s.Value && p.Method == s.Method {
				continue
			}
		}
		dedup = append(dedup, s)
	}
	if len(dedup) > MaxSurfaces {
		dedup = dedup[:MaxSurfaces]
	}
	if len(dedup) == 0 {
		return nil
	}
	return dedup
}

// cleanSurfaceText collapses whitespace (a multi-line SQL statement or log
// template becomes one line).
func cleanSurfaceText(s string) string {
	if strings.ContainsAny(s, "\n\r\t") || strings.Contains(s, "  ") {
		return CollapseSpace(s)
	}
	return strings.TrimSpace(s)
}
