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
	Refs        int `json:"refs"`         // reference occurrences of the sampled symbols (definitions left out)
	Sites       int `json:"sites"`        // of them, in call position
	TopLevel    int `json:"top_level"`    // call sites outside every definition: no caller to name
	// Declarations counts occurrences in call position that are the name
	// of a definition (`m() {...}` in an object literal implementing an
	// interface member, which scip-typescript records as a reference of
	// the member): declarations, not calls, left out.
	Declarations int `json:"declarations"`
	// NotCallFact counts call sites where Cairn's parser records no call
	// reference at that position (a cause of misses on both layers).
	NotCallFact int `json:"not_call_fact"`
	// Outside counts Cairn callers in files the oracle does not index
	// (build-constrained files scip-go skips, files outside the project):
	// left out of the answers, as the oracle cannot judge them.
	Outside map[string]int `json:"outside_oracle"`
}

// CallResult is the call-edge part of a corpus run.
type CallResult struct {
	Stats    CallStats         `json:"stats"`
	Tallies  map[string]*Tally `json:"tallies"` // layer@scip
	TimingMS map[string]int64  `json:"timing_ms"`
	Symbols  []Sampled         `json:"symbols"`
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
		t[caller] = true
		if _, ok := sites[caller]; !ok {
			sites[caller] = l // occurrences are in document order
		}
	}
	if len(t) > 0 {
		st.WithCallers++
	}
	return t, sites
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

// callerAnswers asks Cairn for the callers of every sampled symbol (depth
// 1, no caps) on one layer: each caller's definition position with the
// edge's tier. Callers in files the oracle does not index are counted in
// outside and left out.
func callerAnswers(ctx context.Context, eng *query.Engine, sample []Sampled, layer string, o *SCIPOracle, outside map[string]int) ([]Answer, error) {
	out := make([]Answer, len(sample))
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
		a := Answer{}
		for _, e := range g.Edges {
			if e.To != g.Root.ID {
				continue
			}
			l, ok := at[e.From]
			if !ok {
				continue
			}
			if !o.Docs[l.Path] {
				outside[layer]++
				continue
			}
			if old, ok := a[l]; !ok || rank(e.Tier) < rank(old) {
				a[l] = e.Tier
			}
		}
		out[i] = a
	}
	return out, nil
}

// scoreCalls runs the call-edge part on one layer and records its tally.
func scoreCalls(ctx context.Context, base *query.Engine, cr *CallResult, layer string, o *SCIPOracle, truth []Truth, sites []map[Loc]Loc, files *Files) error {
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
	tl := NewTally()
	for i, s := range cr.Symbols {
		fn, weak := len(tl.FN), len(tl.Weak)
		tl.Add(s.QName, ans[i], truth[i], files)
		withSite(tl.FN[fn:], sites[i], files)
		withSite(tl.Weak[weak:], sites[i], files)
	}
	cr.Tallies[layer+"@scip"] = tl
	return nil
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

// callTruths draws the truth for every sampled symbol, with the first call
// site of each caller.
func callTruths(o *SCIPOracle, files *Files, defs *definitions, sample []Sampled, st *CallStats) ([]Truth, []map[Loc]Loc) {
	out, sites := make([]Truth, len(sample)), make([]map[Loc]Loc, len(sample))
	for i, s := range sample {
		st.Symbols++
		out[i], sites[i] = CallTruth(o, files, s.Symbol, func(l Loc) (Loc, bool) {
			caller, ok := defs.enclosing(l)
			if (!ok || caller != l) && !defs.callFact(l) {
				st.NotCallFact++
			}
			return caller, ok
		}, st)
	}
	return out, sites
}
