// Package graph walks the code's call and type graphs: callers and callees
// (with dynamic calls and their candidates), type hierarchies and method
// sets, and trace_feature's call tree. Each request walks with a walker
// (walk.go), a cache of the rows it reads over the request's query.Engine;
// nothing outlives the request. It never writes. Whether a type's methods
// satisfy an interface beyond their names is for the language's
// lang.TypeChecker to say, which reads the index through the walker
// (typesource.go).
package graph

import (
	"cmp"
	"context"
	"sort"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
)

// Directions of a call graph walk.
const (
	Callers = "callers"
	Callees = "callees"
)

// Params bounds a call graph walk.
type Params struct {
	Direction string // callers or callees
	Depth     int    // levels below the root, >= 1
	// LimitPerLevel caps the new nodes kept per level from depth 2 on (the
	// best ranked); the others are counted in the level's found. Depth 1
	// is kept whole.
	LimitPerLevel int
	// MaxPerNode caps the unresolved and dynamic calls listed per node.
	MaxPerNode int
	// Layer: "" (the semantic layer per file when it describes the file as
	// it is, else syntax), syntactic or semantic.
	Layer string
}

// Node is a symbol of a call graph.
type Node struct {
	query.SymbolRef
	Depth int `json:"depth"`
	// Build is the build constraint of the node's file (Go: its //go:build
	// line and the GOOS/GOARCH of its name), when it has one.
	Build string `json:"build,omitempty"`
	// Variants are the other definitions of the same qualified name (build
	// tag or platform variants, conditional definitions); syntax links a
	// call to one of them, the build picks which runs.
	Variants []Variant `json:"variants,omitempty"`
	// CallLine (callers) is the line, in the node's own file, of its first
	// call of the node above it: the call site, what to open next.
	CallLine int `json:"call_line,omitempty"`
}

// Variant is one definition of a name that has several.
type Variant = query.Variant

// Edge is a call from one node to another.
type Edge struct {
	From  protocol.SymbolID `json:"from"`
	To    protocol.SymbolID `json:"to"`
	Count int               `json:"count"` // call sites
	Tier  string            `json:"tier"`
	Layer string            `json:"layer"`
	// Kind: call, instantiate (a class or constructor), conversion (Go: a
	// call of a type).
	Kind string `json:"kind"`
	// Line is where the first call site is, in the calling symbol's file.
	Line int `json:"line"`
	// Via names the variant the call was linked to when the node is another
	// variant of the same name (callers of build-tag variants).
	Via string `json:"via,omitempty"`
	// Through is the method called when the call reaches To by dispatch:
	// the interface method To implements (Dispatch interface) or the base
	// method it overrides (Dispatch override).
	Through  string `json:"through,omitempty"`
	Dispatch string `json:"dispatch,omitempty"`
}

// UnresolvedCall groups the calls of a node that neither layer attributes:
// by name and receiver, with the first site.
type UnresolvedCall struct {
	From     protocol.SymbolID `json:"from"`
	Name     string            `json:"name"`
	Receiver string            `json:"receiver,omitempty"` // the qualifier as written (client, self, s.store)
	Count    int               `json:"count"`
	Tier     string            `json:"tier"` // anchored: same-name symbols exist in the repository; unknown: none
	Line     int               `json:"line"` // the first site, in the calling symbol's file
	// Candidates counts the same-name symbols in the repository.
	Candidates int `json:"candidates"`
}

// DynamicCall is a call whose target is chosen at run time: through an
// interface value, a function-valued field, variable, parameter or local,
// or a name computed at run time (obj[name](), getattr, reflection, eval).
// It is never resolved to one target; the candidates are what may run.
type DynamicCall struct {
	From protocol.SymbolID `json:"from"` // the calling symbol
	// Kind: interface, virtual (a method its subclasses override), field,
	// variable, value (a local or parameter holding
	// a function), subscript_call, getattr, setattr, eval.
	Kind     string `json:"kind"`
	Name     string `json:"name,omitempty"`
	Receiver string `json:"receiver,omitempty"`
	Count    int    `json:"count"`
	Line     int    `json:"line"`           // the first site, in the calling symbol's file
	Text     string `json:"text,omitempty"` // the expression, for run-time names
	// Through is the symbol called through: the interface method, the
	// field or variable holding the function.
	Through *query.SymbolRef `json:"through,omitempty"`
	// Candidates are what may run, when known; CandidatesFrom says how they
	// were found (semantic: implementation relationships; method_sets:
	// syntax, named types whose method set covers the interface;
	// assignments: syntax, functions assigned to the field or local).
	Candidates      []query.SymbolRef `json:"candidates"`
	CandidatesTotal int               `json:"candidates_total"`
	CandidatesFrom  string            `json:"candidates_from,omitempty"`
	Tier            string            `json:"tier"`
	Layer           string            `json:"layer"`
}

// ExternalCall is a call of a symbol defined outside the repository: one the
// semantic layer resolved (by SCIP symbol), or one syntax sees going
// through an import (by name and receiver, with where the import goes).
type ExternalCall struct {
	From     protocol.SymbolID `json:"from"`
	Symbol   string            `json:"scip_symbol,omitempty"`
	Name     string            `json:"name,omitempty"`
	Receiver string            `json:"receiver,omitempty"` // as written: fmt, os.path
	// Origin: stdlib, dependency or external (the import's class); Import
	// is the import the call goes through.
	Origin string `json:"origin,omitempty"`
	Import string `json:"import,omitempty"`
	Count  int    `json:"count"`
	Line   int    `json:"line"`
}

// Level says how much of one level was found and kept.
type Level struct {
	Depth int `json:"depth"`
	// Found counts the new symbols reached at this depth from the nodes
	// kept at the level above (callers of the nodes a limit left out are
	// not looked for).
	Found int `json:"found"`
	Kept  int `json:"kept"` // listed in nodes, after the limit and the response budget
	// Cut counts what the limit and the response budget left out, tests
	// and others (Reason: limit_per_level, max_chars, or both joined by +).
	Cut Cut `json:"-"`
}

// maxFirstLevel bounds the direct callers or callees listed: the first
// level is listed whole (LimitPerLevel applies from depth 2 on), and only
// the response budget cuts it, tests first.
const maxFirstLevel = 2000

// Result is graph_callers' and graph_callees' payload.
type Result struct {
	Root      query.SymbolRef `json:"root"`
	Direction string          `json:"direction"`
	Depth     int             `json:"depth"`
	Nodes     []Node          `json:"nodes"` // the root first, then by depth
	Edges     []Edge          `json:"edges"`
	Levels    []Level         `json:"levels"`
	// Unresolved (callees) groups the calls neither layer attributes.
	Unresolved []UnresolvedCall `json:"unresolved"`
	// Dynamic lists calls whose target is chosen at run time (callees: made
	// by a node; callers: calls through an interface method a node
	// implements, from the semantic layer).
	Dynamic  []DynamicCall  `json:"dynamic"`
	External []ExternalCall `json:"external,omitempty"`
	Layers   []string       `json:"layers"`
	// Semantic says how the semantic layer took part: used, partial (some
	// files answered from syntax), unavailable, off.
	Semantic string `json:"semantic"`
	// Fallback lists files answered from syntax although a semantic index
	// covers them (they changed since).
	Fallback []string `json:"fallback_files,omitempty"`
	// Omitted counts what was found but not listed (per-node caps).
	OmittedUnresolved int `json:"omitted_unresolved,omitempty"`
	OmittedDynamic    int `json:"omitted_dynamic,omitempty"`
	// BuiltinCalls (callees) counts the builtins of the language the nodes
	// call (len, append, print; per node), left out of every list.
	BuiltinCalls int `json:"builtin_calls,omitempty"`
	// Partial is set when the deadline stopped the walk.
	Partial bool `json:"-"`
	// BytesCovered is the size of the files the nodes live in.
	BytesCovered int64 `json:"-"`
}

// CallGraph walks the call graph from a symbol, level by level, up to
// p.Depth levels, keeping the p.LimitPerLevel most-called new symbols of
// each level.
func CallGraph(ctx context.Context, e *query.Engine, r *query.Resolved, p Params) (*Result, error) {
	p, err := checkParams(p)
	if err != nil {
		return nil, err
	}
	w, err := newWalker(ctx, e, p.Layer)
	if err != nil {
		return nil, err
	}
	lw, err := startLevels(ctx, w, r, p)
	if err != nil {
		return nil, err
	}
	res := lw.res
	for d := 1; d <= p.Depth && len(lw.frontier) > 0; d++ {
		// When the deadline passes inside a level, the level is dropped
		// whole and the answer is the levels walked before it.
		mark := lw.mark()
		if err := lw.level(ctx, d); err != nil {
			if ctx.Err() == nil {
				return nil, err
			}
			lw.rollback(mark)
			res.Partial = true
			break
		}
	}
	res.Edges = edgesBetween(res.Nodes, lw.pending)
	sortEdges(res.Edges)
	sortUnresolved(res.Unresolved)
	sortDynamic(res.Dynamic)
	sortExternal(res.External)
	res.Layers, res.Semantic, res.Fallback = w.layersUsed()
	return res, nil
}

// checkParams refuses a direction or layer it does not know and fills in
// the defaults.
func checkParams(p Params) (Params, error) {
	if p.Direction != Callers && p.Direction != Callees {
		return p, errs.E(errs.InvalidArgument, "direction must be callers or callees, got %q", p.Direction)
	}
	if err := query.CheckLayer(p.Layer); err != nil {
		return p, err
	}
	if p.Depth < 1 {
		p.Depth = 1
	}
	if p.LimitPerLevel < 1 {
		p.LimitPerLevel = 20
	}
	if p.MaxPerNode < 1 {
		p.MaxPerNode = 20
	}
	return p, nil
}

// edgesBetween keeps the edges between listed nodes, once each.
func edgesBetween(nodes []Node, pending []Edge) []Edge {
	ids := map[protocol.SymbolID]bool{}
	for _, n := range nodes {
		ids[n.ID] = true
	}
	type ekey struct {
		from, to      protocol.SymbolID
		kind, through string
	}
	dup := map[ekey]bool{}
	out := []Edge{}
	for _, ed := range pending {
		k := ekey{ed.From, ed.To, ed.Kind, ed.Through}
		if ids[ed.From] && ids[ed.To] && !dup[k] {
			dup[k] = true
			out = append(out, ed)
		}
	}
	return out
}

// call is one neighbour of a node: a callee (outgoing) or a caller (incoming).
type call struct {
	other int64
	count int
	tier  index.Tier
	layer string
	kind  string
	site  protocol.Location
	via   string
	// through is the method a caller calls when the call reaches the node
	// by dispatch (the interface or base method), dispatch how.
	through, dispatch string
}

// appendCapped appends at most max items of one node's list, counting the rest.
func appendCapped[T any](dst, items []T, max, omitted int) ([]T, int) {
	if len(items) > max {
		omitted += len(items) - max
		items = items[:max]
	}
	return append(dst, items...), omitted
}

func idsOf[T any](xs []T, id func(T) int64) []int64 {
	out := make([]int64, len(xs))
	for i, x := range xs {
		out[i] = id(x)
	}
	return out
}

func tierRank(t string) int {
	if tr, ok := index.ParseTier(t); ok {
		return int(tr)
	}
	return int(index.TierUnknown)
}

func sortEdges(es []Edge) {
	sort.Slice(es, func(i, j int) bool {
		a, b := es[i], es[j]
		return cmp.Or(cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Through, b.Through)) < 0
	})
}

func sortUnresolved(us []UnresolvedCall) {
	sort.SliceStable(us, func(i, j int) bool {
		a, b := us[i], us[j]
		return cmp.Or(cmp.Compare(a.From, b.From), cmp.Compare(b.Count, a.Count), cmp.Compare(a.Name, b.Name), cmp.Compare(a.Receiver, b.Receiver)) < 0
	})
}

func sortExternal(xs []ExternalCall) {
	sort.Slice(xs, func(i, j int) bool {
		a, b := xs[i], xs[j]
		return cmp.Or(cmp.Compare(a.From, b.From), cmp.Compare(a.Symbol, b.Symbol), cmp.Compare(a.Origin, b.Origin), cmp.Compare(a.Receiver, b.Receiver),
			cmp.Compare(a.Name, b.Name)) < 0
	})
}

func sortDynamic(ds []DynamicCall) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		return cmp.Or(cmp.Compare(a.From, b.From), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Kind, b.Kind)) < 0
	})
}

// callKind names a resolved call by what it calls.
func callKind(language string, k lang.DefKind) string {
	switch k {
	case lang.KindClass, lang.KindStruct, lang.KindConstructor, lang.KindEnum:
		return "instantiate"
	case lang.KindType, lang.KindInterface:
		if lang.Of(language).TypeCallsConvert {
			return "conversion"
		}
		return "instantiate"
	}
	return "call"
}

// dynamicKind says whether a call of a symbol of kind k goes through a value
// chosen at run time (a field, variable or property holding a function),
// and which.
func dynamicKind(k lang.DefKind) (string, bool) {
	switch k {
	case lang.KindField, lang.KindProperty:
		return "field", true
	case lang.KindVariable, lang.KindConstant:
		return "variable", true
	}
	return "", false
}
