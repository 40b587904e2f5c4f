package precision

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/cairnhq/cairn/internal/graph"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
)

// Call edges are scored as caller→callee pairs: for a sampled function or
// method (the callee), each answer is the set of its callers, each caller
// named by the position of its definition's name, with a tier. The graph
// tools merge the call sites of one caller into one edge, so a pair, not a
// site, is the unit both sides can state.
//
// The truth comes from the SCIP index alone for "who calls whom": a caller
// of S is the definition that encloses a reference occurrence of S's SCIP
// symbol in call position. "Call position" is read from the source text
// (CallPosition), not from Cairn's call facts; "encloses" uses the extents
// of the definitions Cairn's parser found (the innermost one whose span
// holds the occurrence, as Cairn's extractors decide a reference's
// enclosing definition), because a caller has to be named in the
// coordinates both sides share and SCIP indexers do not all give
// definition extents. That is structure, not linking: which call goes to
// which symbol, the part being scored, is the index's alone.

// CallStats says how the truth of a call-edge run was drawn.
type CallStats struct {
	Symbols     int `json:"symbols"`      // sampled functions and methods
	WithCallers int `json:"with_callers"` // of them, called from some definition per the oracle
	SiteStats
	// NotCallFact counts call sites where Cairn's parser records no call
	// reference at that position (a cause of misses on both layers).
	NotCallFact int `json:"not_call_fact"`
	// Outside counts Cairn callers in files the oracle does not index
	// (build-constrained files scip-go skips, files outside the project):
	// left out of the answers, as the oracle cannot judge them. Dispatch
	// callers count under "<layer>-dispatch".
	Outside map[string]int `json:"outside_oracle"`
	// Dispatch says how the truth of the dispatch callers was drawn.
	Dispatch DispatchStats `json:"dispatch"`
}

// SiteStats counts the occurrences a truth was drawn from.
type SiteStats struct {
	Refs     int `json:"refs"`      // reference occurrences (definitions left out)
	Sites    int `json:"sites"`     // of them, in call position
	TopLevel int `json:"top_level"` // call sites outside every definition: no caller to name
	// Declarations counts occurrences in call position that are the name
	// of a definition (`m() {...}` in an object literal implementing an
	// interface member, which scip-typescript records as a reference of
	// the member): declarations, not calls, left out.
	Declarations int `json:"declarations"`
}

// DispatchStats says how the dispatch callers were drawn: the callers of
// the methods a sampled method implements or overrides, per the index's
// implementation relationships.
type DispatchStats struct {
	// Implementing counts the sampled methods the index relates to a
	// method they implement or override.
	Implementing int `json:"implementing"`
	WithCallers  int `json:"with_callers"` // of them, with a caller through such a method
	SiteStats
}

// DispatchCheck checks the first call sites Cairn gives its dispatch
// edges against the index, per layer.
type DispatchCheck struct {
	Edges int `json:"edges"` // dispatch edges into the sampled methods (in files the index covers)
	// Confirmed: edges whose line holds, in the caller, a call the index
	// resolves to a method the callee implements or overrides.
	Confirmed int `json:"confirmed"`
	// Unrelated: edges into methods the index relates to no other method
	// (no implementation relationship to check them against).
	Unrelated int `json:"unrelated"`
}

// CallResult is the call-edge part of a corpus run.
type CallResult struct {
	Stats CallStats `json:"stats"`
	// Tallies are keyed layer@scip (direct calls of the sampled symbol) and
	// layer-dispatch@scip (calls that reach it through a method it
	// implements or overrides).
	Tallies  map[string]*Tally         `json:"tallies"`
	Dispatch map[string]*DispatchCheck `json:"dispatch_sites"` // by layer
	TimingMS map[string]int64          `json:"timing_ms"`
	Symbols  []Sampled                 `json:"symbols"`
}

// CallPosition reports whether the identifier starting at a 1-based byte
// column of line is called there: followed, on the same line, by optional
// type arguments (Go `[...]`, TypeScript `<...>`), an optional non-null
// assertion `!` or optional chain `?.`, then `(`. A function used as a
// value (`f`, `x.M` without parentheses) is not a call, nor is
// `f.call(...)`.
func CallPosition(line string, col int) bool {
	i := col - 1
	if i < 0 || i >= len(line) {
		return false
	}
	start := i
	for i < len(line) {
		r, size := utf8.DecodeRuneInString(line[i:])
		if r != '_' && r != '$' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			break
		}
		i += size
	}
	if i == start {
		return false
	}
	skipSpace := func() {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
	}
	skipSpace()
	if i < len(line) && (line[i] == '[' || line[i] == '<') {
		open := line[i]
		close := map[byte]byte{'[': ']', '<': '>'}[open]
		depth := 0
		for ; i < len(line); i++ {
			switch line[i] {
			case open:
				depth++
			case close:
				depth--
			}
			if depth == 0 {
				break
			}
		}
		if depth != 0 {
			return false
		}
		i++
		skipSpace()
	}
	if strings.HasPrefix(line[i:], "!") && !strings.HasPrefix(line[i:], "!=") {
		i++
	}
	if strings.HasPrefix(line[i:], "?.") {
		i += 2
	}
	return strings.HasPrefix(line[i:], "(")
}

// CallTruth returns the callers of a SCIP symbol: the definitions that
// enclose its reference occurrences in call position, with each caller's
// first call site. enclosing names the innermost definition holding a
// position (false when none does).
func CallTruth(o *SCIPOracle, files *Files, symbol string, enclosing func(Loc) (Loc, bool), st *CallStats) (Truth, map[Loc]Loc) {
	t, sites := Truth{}, map[Loc]Loc{}
	callSites(o, files, symbol, enclosing, &st.SiteStats, func(caller, site Loc) {
		t[caller] = true
		if _, ok := sites[caller]; !ok {
			sites[caller] = site // occurrences are in document order
		}
	})
	if len(t) > 0 {
		st.WithCallers++
	}
	return t, sites
}

// DispatchTruth returns the callers that reach a SCIP symbol through
// dispatch: the definitions that call, per the index, a method the symbol
// implements or overrides (SCIPOracle.Implemented), with every such call
// site of each caller, sorted.
func DispatchTruth(o *SCIPOracle, files *Files, symbol string, enclosing func(Loc) (Loc, bool), st *DispatchStats) (Truth, map[Loc][]Loc) {
	t, sites := Truth{}, map[Loc][]Loc{}
	through := o.Implemented(symbol)
	if len(through) > 0 {
		st.Implementing++
	}
	for _, m := range through {
		callSites(o, files, m, enclosing, &st.SiteStats, func(caller, site Loc) {
			t[caller] = true
			sites[caller] = append(sites[caller], site)
		})
	}
	for _, ls := range sites {
		sortLocs(ls)
	}
	if len(t) > 0 {
		st.WithCallers++
	}
	return t, sites
}

// callSites visits the reference occurrences of a SCIP symbol in call
// position that some definition encloses, with that caller.
func callSites(o *SCIPOracle, files *Files, symbol string, enclosing func(Loc) (Loc, bool), st *SiteStats, visit func(caller, site Loc)) {
	for _, l := range o.Occs[symbol] {
		if defines(o, l, symbol) {
			continue
		}
		st.Refs++
		if !CallPosition(files.Line(l.Path, l.Line), l.Col) {
			continue
		}
		caller, ok := enclosing(l)
		if ok && caller == l {
			st.Declarations++
			continue
		}
		st.Sites++
		if !ok {
			st.TopLevel++
			continue
		}
		visit(caller, l)
	}
}

func defines(o *SCIPOracle, l Loc, symbol string) bool {
	for _, s := range o.Defs[l] {
		if s == symbol {
			return true
		}
	}
	return false
}

// callable reports whether a sampled kind is called (types and classes are
// instantiated or converted, which the oracle's occurrences do not tell
// apart from type uses).
func callable(kind string) bool {
	return kind == lang.KindFunction.String() || kind == lang.KindMethod.String()
}

// definitions answers "which definition encloses this position" from
// Cairn's facts, and "is there a call reference here".
type definitions struct {
	ctx   context.Context
	ix    *index.Index
	blobs map[string]int64 // path -> blob
	facts map[string]*lang.Facts
}

func newDefinitions(ctx context.Context, ix *index.Index) (*definitions, error) {
	db, release := ix.Acquire()
	defer release()
	fs, err := db.Files(ctx)
	if err != nil {
		return nil, err
	}
	d := &definitions{ctx: ctx, ix: ix, blobs: map[string]int64{}, facts: map[string]*lang.Facts{}}
	for _, f := range fs {
		d.blobs[f.Path] = f.BlobID
	}
	return d, nil
}

func (d *definitions) of(path string) *lang.Facts {
	if f, ok := d.facts[path]; ok {
		return f
	}
	var facts *lang.Facts
	if b, ok := d.blobs[path]; ok {
		facts, _ = d.ix.Facts(d.ctx, b)
	}
	d.facts[path] = facts
	return facts
}

// enclosing is the innermost definition whose span holds l (definitions
// are in pre-order, so the last one that holds it), named by its name's
// position.
func (d *definitions) enclosing(l Loc) (Loc, bool) {
	f := d.of(l.Path)
	if f == nil {
		return Loc{}, false
	}
	p := lang.Pos{Line: uint32(l.Line), Col: uint32(l.Col)}
	in := -1
	for i := range f.Defs {
		if f.Defs[i].Span.Contains(p) {
			in = i
		}
	}
	if in < 0 {
		return Loc{}, false
	}
	n := f.Defs[in].NameSpan.Start
	return Loc{Path: l.Path, Line: int(n.Line), Col: int(n.Col)}, true
}

// callFact reports whether Cairn's parser records a call reference at l.
func (d *definitions) callFact(l Loc) bool {
	f := d.of(l.Path)
	if f == nil {
		return false
	}
	i := refAtPos(f, lang.Pos{Line: uint32(l.Line), Col: uint32(l.Col)})
	return i >= 0 && f.Refs[i].Role == lang.RoleCall
}

func refAtPos(f *lang.Facts, p lang.Pos) int {
	for i := range f.Refs {
		if f.Refs[i].Pos == p {
			return i
		}
	}
	return -1
}

// callers is Cairn's answer for the callers of one symbol on one layer:
// the direct callers, and apart from them the callers whose edge says the
// call reaches the symbol by dispatch (graph.Edge.Dispatch: a call of a
// method it implements or overrides), with the lines of those edges' first
// call sites.
type callers struct {
	direct, dispatch Answer
	lines            map[Loc][]int
}

// callerAnswers asks Cairn for the callers of every sampled symbol (depth
// 1, no caps) on one layer: each caller's definition position with the
// edge's tier. Callers in files the oracle does not index are counted in
// outside and left out.
func callerAnswers(ctx context.Context, eng *query.Engine, sample []Sampled, layer string, o *SCIPOracle, outside map[string]int) ([]callers, error) {
	out := make([]callers, len(sample))
	for i, s := range sample {
		r, err := eng.ResolveID(ctx, protocol.NewSymbolID(s.ID))
		if err != nil {
			return nil, fmt.Errorf("resolve %s: %w", s.QName, err)
		}
		g, err := graph.CallGraph(ctx, eng, r, graph.Params{Direction: graph.Callers, Depth: 1, LimitPerLevel: 1 << 30, MaxPerNode: 1 << 30, Layer: layer})
		if err != nil {
			return nil, fmt.Errorf("callers of %s: %w", s.QName, err)
		}
		at := map[protocol.SymbolID]Loc{}
		for _, n := range g.Nodes {
			at[n.ID] = Loc{Path: string(n.Location.Path), Line: n.Location.Line, Col: n.Location.Col}
		}
		c := callers{direct: Answer{}, dispatch: Answer{}, lines: map[Loc][]int{}}
		for _, e := range g.Edges {
			if e.To != g.Root.ID {
				continue
			}
			l, ok := at[e.From]
			if !ok {
				continue
			}
			a, key := c.direct, layer
			if e.Dispatch != "" {
				a, key = c.dispatch, layer+"-dispatch"
			}
			if !o.Docs[l.Path] {
				outside[key]++
				continue
			}
			if old, ok := a[l]; !ok || rank(e.Tier) < rank(old) {
				a[l] = e.Tier
			}
			if e.Dispatch != "" {
				c.lines[l] = append(c.lines[l], e.Line)
			}
		}
		out[i] = c
	}
	return out, nil
}

// callTruth is the oracle's side of the call edges of one sampled symbol.
type callTruth struct {
	direct Truth
	sites  map[Loc]Loc // direct caller -> its first call site
	// dispatch holds the callers through a method the symbol implements or
	// overrides, with all their such call sites; related says whether the
	// index relates the symbol to any method.
	dispatch      Truth
	dispatchSites map[Loc][]Loc
	related       bool
}

// scoreCalls runs the call-edge part on one layer and records its tallies:
// direct callers against the direct truth, dispatch callers against the
// dispatch truth, and the first call sites of the dispatch edges.
func scoreCalls(ctx context.Context, base *query.Engine, cr *CallResult, layer string, o *SCIPOracle, truth []callTruth, files *Files) error {
	eng, release, err := base.Snapshot(ctx)
	if err != nil {
		return err
	}
	defer release()
	t := time.Now()
	ans, err := callerAnswers(ctx, eng, cr.Symbols, layer, o, cr.Stats.Outside)
	if err != nil {
		return err
	}
	cr.TimingMS["cairn_callers_"+layer] = time.Since(t).Milliseconds()
	direct, dispatch, check := NewTally(), NewTally(), &DispatchCheck{}
	for i, s := range cr.Symbols {
		addCalls(direct, s.QName, ans[i].direct, truth[i].direct, truth[i].sites, files)
		addCalls(dispatch, s.QName, ans[i].dispatch, truth[i].dispatch, firstSites(truth[i].dispatchSites), files)
		check.add(ans[i].lines, truth[i])
	}
	cr.Tallies[layer+"@scip"] = direct
	cr.Tallies[layer+"-dispatch@scip"] = dispatch
	cr.Dispatch[layer] = check
	return nil
}

// addCalls scores one symbol's callers, with the call site of each miss.
func addCalls(tl *Tally, symbol string, a Answer, truth Truth, sites map[Loc]Loc, files *Files) {
	fn, weak := len(tl.FN), len(tl.Weak)
	tl.Add(symbol, a, truth, files)
	withSite(tl.FN[fn:], sites, files)
	withSite(tl.Weak[weak:], sites, files)
}

// add checks the first call sites of one symbol's dispatch edges: an edge
// is confirmed when its caller holds, on the edge's line, a call the index
// resolves to a method the symbol implements or overrides.
func (c *DispatchCheck) add(lines map[Loc][]int, t callTruth) {
	for caller, ls := range lines {
		for _, line := range ls {
			c.Edges++
			if !t.related {
				c.Unrelated++
			}
			for _, site := range t.dispatchSites[caller] {
				if site.Line == line {
					c.Confirmed++
					break
				}
			}
		}
	}
}

// firstSites keeps the first of each caller's call sites.
func firstSites(sites map[Loc][]Loc) map[Loc]Loc {
	out := make(map[Loc]Loc, len(sites))
	for caller, ls := range sites {
		if len(ls) > 0 {
			out[caller] = ls[0]
		}
	}
	return out
}

// withSite adds to missed callers the call site that makes them callers.
func withSite(ex []Example, sites map[Loc]Loc, files *Files) {
	at := map[string]Loc{}
	for caller, site := range sites {
		at[caller.String()] = site
	}
	for i := range ex {
		if site, ok := at[ex[i].Loc]; ok {
			ex[i].Site = site.String()
			ex[i].SiteLine = readLines(files, site)
		}
	}
}

// callSample keeps the sampled functions and methods, up to n.
func callSample(all []Sampled, n int) []Sampled {
	var out []Sampled
	for _, s := range all {
		if len(out) == n {
			break
		}
		if callable(s.Kind) {
			out = append(out, s)
		}
	}
	return out
}

// callTruths draws the truth for every sampled symbol: its direct callers
// with the first call site of each, and its callers through dispatch.
func callTruths(o *SCIPOracle, files *Files, defs *definitions, sample []Sampled, st *CallStats) []callTruth {
	out := make([]callTruth, len(sample))
	for i, s := range sample {
		st.Symbols++
		t := &out[i]
		t.direct, t.sites = CallTruth(o, files, s.Symbol, func(l Loc) (Loc, bool) {
			caller, ok := defs.enclosing(l)
			if (!ok || caller != l) && !defs.callFact(l) {
				st.NotCallFact++
			}
			return caller, ok
		}, st)
		t.dispatch, t.dispatchSites = DispatchTruth(o, files, s.Symbol, defs.enclosing, &st.Dispatch)
		t.related = len(o.Impl[s.Symbol]) > 0
	}
	return out
}
