package tools

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cairnhq/cairn/internal/change"
	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/obs"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/scan"
)

// Env is what tools run against: one repository's index and query engine.
type Env struct {
	Index  *index.Index
	Engine *query.Engine
	// Changes holds the views change analysis shares across calls (nil:
	// each call builds its own).
	Changes *change.Cache
	// Answers keeps the answers of the tools that declare a cache tier
	// (nil: every call computes its answer).
	Answers *Answers
	Config  config.Config
	// Paths locates the repository and its state (set even when Index is nil).
	Paths config.Paths
	// IndexErr says why Index is nil: the index could not be opened. Only
	// tools that degrade without an index (doctor) run then.
	IndexErr error
	// Reads is the session read budget that bulk reads count against (nil:
	// tools make one with the configured size on first use).
	Reads *ReadBudget
	// Fresh brings the index up to date before a query (or says why it could not).
	Fresh func(ctx context.Context, rehash bool) Freshness
	// Intact makes sure the store can be trusted before a call reads it
	// (repairing it when this process owns it); it returns warnings for the
	// response, or why the index cannot answer now.
	Intact func(ctx context.Context) ([]string, error)
	// Recover handles a handler's error: when the store turned out damaged
	// it is repaired and retry says the call may run again; otherwise out
	// (when not nil) replaces the error.
	Recover func(ctx context.Context, err error) (retry bool, warnings []string, out error)
	// Pending counts changes on disk the index has not seen yet (may be nil).
	Pending func(ctx context.Context) (int, error)
	// Progress receives progress of long work (may be nil).
	Progress func(index.Progress)
	// State reports the index state and why (may be nil: ready).
	State func() (state, reason string)
	// Jobs runs the semantic layer's indexer jobs (nil when this process
	// cannot: a degraded Env).
	Jobs SemanticJobs
	// Reindex brings the index up to date for the paths a write changed,
	// before the write answers; it returns warnings when it could not (nil:
	// the next call's freshness check does it).
	Reindex func(ctx context.Context, paths []string) []string
	// Writing is told that a write starts, with its new contents (repo
	// path → content), and returns what to call when it ends (may be nil):
	// the index parses the contents while the write runs, so that Reindex
	// finds them parsed, and a server's file watcher leaves the written
	// files to the write's Reindex meanwhile.
	Writing func(files map[string][]byte) (done func())
	// Caches reports the caches of the server answering for the
	// repository and their counts (nil, or nil result: no server).
	Caches func(ctx context.Context) []obs.CacheStat
	// Ops watches every call: task budgets before, metrics, ledger and
	// savings after (nil in processes that do not serve: the CLI).
	Ops *obs.Monitor
}

// indexUnavailable is the answer of a tool that needs the index when it
// cannot be opened.
func (env *Env) indexUnavailable() error {
	return &errs.Error{Kind: errs.IndexUnavailable, Err: env.IndexErr, Msg: "the index cannot be opened", Fixes: []string{"cairn doctor"}}
}

// Freshness is the outcome of making the index fresh for a call.
type Freshness struct {
	Freshness  string // fresh or may-be-stale
	IndexState string // indexing, ready, stale, failed
	Warnings   []string
	Err        error // the index cannot answer at all
}

// Call accumulates what a handler says beside its data: the answer line,
// drilldowns, warnings, truncations and clamped budgets.
type Call struct {
	Env    *Env
	Tool   string
	common Common
	fresh  Freshness

	answer       string
	next         []protocol.NextAction
	warnings     []string
	truncations  []protocol.Truncation
	limits       map[string]protocol.Limit
	completeness *protocol.Completeness
	layers       []string
	savedBytes   int64
	timings      map[string]int64
	// pendingFiles: changes on disk the index has not seen (status).
	pendingFiles int
	// snap is the request's view of the index, taken once after the index
	// is fresh (nil for a tool that runs without an index); engine reads
	// through it.
	snap   *index.Snapshot
	engine *query.Engine
	// budget is the response budget in characters (0: none); pages are the
	// paged lists of the payload by JSON path (fit.go).
	budget int
	pages  map[string]page
	ops    opsCall
	// view is the call's consistency mode and overlay (nil: committed).
	view *view
	// staged names the workspace a write went to instead of the files.
	staged string
	// volatile answers depend on more than the repository (answers.go);
	// envBytes is the size of the envelope as encoded for its tokens.
	volatile bool
	envBytes int
}

// pending records that n files changed on disk are not indexed yet: the
// answer may be stale and the tree is taken as dirty.
func (c *Call) pending(n int) {
	c.pendingFiles = n
	c.fresh.Freshness = protocol.MayBeStale
	c.Warn("%d files changed on disk since the last index are not indexed yet; the next query indexes them", n)
}

// restart is the call as it was before its handler ran, keeping the first
// keep warnings (a handler runs again after its store was repaired).
func (c *Call) restart(keep int) *Call {
	return &Call{Env: c.Env, Tool: c.Tool, common: c.common, fresh: c.fresh, limits: map[string]protocol.Limit{}, ops: c.ops, view: c.view,
		warnings: append([]string(nil), c.warnings[:keep]...), timings: c.timings}
}

// takeSnapshot gives the call its view of the index.
func (c *Call) takeSnapshot(ctx context.Context) error {
	if c.Env.Index == nil {
		return nil
	}
	s, err := c.Env.Index.Snapshot(ctx)
	if err != nil {
		return err
	}
	c.snap = s // first: released even if what follows panics
	if c.ops.before == "" {
		c.ops.before = s.State().RepoStateID
	}
	c.engine = c.Env.Engine.On(s)
	c.applyView()
	return nil
}

// releaseSnapshot ends the call's view of the index.
func (c *Call) releaseSnapshot() {
	c.snap.Release()
	c.snap, c.engine = nil, nil
}

// Resnapshot moves the call to a view of the index as it is now, for a tool
// that changed it (index_ensure) and reports what it did.
func (c *Call) Resnapshot(ctx context.Context) error {
	c.releaseSnapshot()
	return c.takeSnapshot(ctx)
}

// Reindexed runs update, which brings the index up to date (a reconcile,
// or a wait for the process that owns it), without the call's snapshot,
// then moves the call to a view of the index as it is after. A snapshot
// holds one of the store's few pooled connections, and the reconcile needs
// connections too: calls that waited for the index's writer while holding
// their snapshots could take every connection and stall the writer, and
// every other call with it, until their deadlines.
func (c *Call) Reindexed(ctx context.Context, update func()) error {
	c.releaseSnapshot()
	update()
	return c.takeSnapshot(ctx)
}

// Engine is the query engine over the call's snapshot (nil without an
// index).
func (c *Call) Engine() *query.Engine { return c.engine }

// State is the index state the call sees.
func (c *Call) State() index.State {
	if c.snap == nil {
		return index.State{}
	}
	return c.snap.State()
}

// Common returns the common arguments of the call.
func (c *Call) Common() Common { return c.common }

// Answer sets the one-line answer.
func (c *Call) Answer(format string, args ...any) { c.answer = fmt.Sprintf(format, args...) }

// Next adds a drilldown.
func (c *Call) Next(tool string, args map[string]any, why string) {
	c.next = append(c.next, protocol.NextAction{Tool: tool, Args: args, Why: why})
}

// Warn adds a warning to the provenance.
func (c *Call) Warn(format string, args ...any) {
	c.warnings = append(c.warnings, fmt.Sprintf(format, args...))
}

// Truncated records a list cut short.
func (c *Call) Truncated(field string, returned, total int, reason, cursor string) {
	c.truncations = append(c.truncations, protocol.Truncation{Field: field, Returned: returned, Total: total, Reason: reason, Cursor: cursor})
}

// TruncatedCode records a list of code items cut by reason, saying how
// many of those left out are declared in tests and how many are not.
func (c *Call) TruncatedCode(field string, returned, total int, reason string, tests, nonTests int) {
	c.truncations = append(c.truncations, protocol.Truncation{Field: field, Returned: returned, Total: total, Reason: reason,
		DroppedTests: tests, DroppedNonTests: nonTests})
}

// Shortened records a list that holds returned of its total items, when it
// holds fewer: cut by reason, with no cursor (the rest is not paged).
func (c *Call) Shortened(field string, returned, total int, reason string) {
	if returned < total {
		c.Truncated(field, returned, total, reason, "")
	}
}

// mustBeOneOf refuses an argument whose value is none of those allowed,
// naming them: mode must be soft, mixed or hard, not "x".
func mustBeOneOf(arg, got string, allowed ...string) error {
	last := len(allowed) - 1
	return errs.E(errs.InvalidArgument, "%s must be %s or %s, not %q", arg, strings.Join(allowed[:last], ", "), allowed[last], got)
}

// shorten keeps the first limit items of a list and records, under field,
// that the limit shortened it.
func shorten[T any](c *Call, field string, items []T, limit int) []T {
	if len(items) <= limit {
		return items
	}
	c.Truncated(field, limit, len(items), "limit", "")
	return items[:limit]
}

// repoPaths contains request paths in the repository and makes them
// repo-relative (nil stays nil: the paths also key the query's cursor).
func (c *Call) repoPaths(ctx context.Context, paths []string) ([]string, error) {
	if paths == nil {
		return nil, nil
	}
	out := make([]string, len(paths))
	for i, p := range paths {
		rp, err := scan.Contain(ctx, c.Env.Index.Paths().Root, p)
		if err != nil {
			return nil, err
		}
		out[i] = string(rp)
	}
	return out, nil
}

// Complete sets the completeness score and reason.
func (c *Call) Complete(score float64, reason string) {
	c.completeness = &protocol.Completeness{Score: protocol.Round6(score), Reason: reason}
}

// Layers records which layers the answer comes from (default: syntactic).
func (c *Call) Layers(layers ...string) {
	if len(layers) > 0 {
		c.layers = layers
	}
}

// Saved records how many bytes the agent would have read to learn the same.
func (c *Call) Saved(bytes int64) { c.savedBytes += bytes }

func (c *Call) timing(name string, d time.Duration) {
	if c.timings == nil {
		c.timings = map[string]int64{}
	}
	c.timings[name] += d.Milliseconds()
}

// Budget is a default and a hard cap (DESIGN §6).
type Budget struct{ Default, Cap int }

// Budgets used by the tools.
var (
	ResultsBudget    = Budget{20, 100}
	ReferencesBudget = Budget{50, 500}
	LinesBudget      = Budget{120, 400}
	CharsBudget      = Budget{12000, 40000}
	EntriesBudget    = Budget{100, 1000}
	MembersBudget    = Budget{20, 100}
)

// Clamp applies a budget to a requested value (0 = default) like Bound, and
// suggests paging past a clamp with the cursor.
func (c *Call) Clamp(name string, requested int, b Budget) int {
	if requested > b.Cap {
		c.Next(c.Tool, map[string]any{name: b.Cap, "cursor": "<from truncations>"}, fmt.Sprintf("%s is capped at %d; page with the cursor", name, b.Cap))
	}
	return c.Bound(name, requested, b)
}

// Bound applies a budget like Clamp for a parameter that is not paged (a
// depth, a per-item count): an over-cap request is recorded in limits_applied
// without suggesting a cursor.
func (c *Call) Bound(name string, requested int, b Budget) int {
	switch {
	case requested <= 0:
		return b.Default
	case requested > b.Cap:
		c.limits[name] = protocol.Limit{Requested: requested, Applied: b.Cap, Cap: b.Cap}
		return b.Cap
	}
	return requested
}

type cursorData struct {
	Epoch int64 `json:"e"`
	cursorPos
}

// cursorPos is what every cursor holds: where the next page starts, and
// the hash of the arguments that define the query it pages (cursorKey).
type cursorPos struct {
	Offset int    `json:"o"`
	Key    string `json:"k"`
}

func (p cursorPos) pos() cursorPos { return p }

// encodeCursor is the wire form of a cursor's data: base64url JSON.
func encodeCursor(data any) string {
	b, _ := json.Marshal(data)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor reads a cursor into data and checks that it pages the query
// identified by key.
func decodeCursor(s string, data interface{ pos() cursorPos }, key any) error {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err == nil {
		err = json.Unmarshal(raw, data)
	}
	if err != nil || data.pos().Offset < 0 {
		return errs.E(errs.InvalidArgument, "malformed cursor")
	}
	if data.pos().Key != cursorKey(key) {
		return errs.E(errs.InvalidArgument, "the cursor belongs to another query")
	}
	return nil
}

// epoch is the index epoch the call sees (0 when unknown).
func (c *Call) epoch() int64 { return c.State().Epoch }

func cursorKey(key any) string {
	b, _ := json.Marshal(key)
	sum := sha256.Sum256(append([]byte(nil), b...))
	return hex.EncodeToString(sum[:6])
}

// Offset decodes the call's cursor for a query identified by key (the
// arguments that define the result set). Cursors are stable within an epoch.
func (c *Call) Offset(ctx context.Context, key any) (int, error) {
	if c.common.Cursor == "" {
		return 0, nil
	}
	var cd cursorData
	if err := decodeCursor(c.common.Cursor, &cd, key); err != nil {
		return 0, err
	}
	if cd.Epoch != c.epoch() {
		return 0, &errs.Error{Kind: errs.Precondition, Msg: "the cursor has expired: the index changed since the first page",
			Fixes: []string{"repeat the call without a cursor"}}
	}
	return cd.Offset, nil
}

// Cursor encodes the position of the next page.
func (c *Call) Cursor(ctx context.Context, key any, offset int) string {
	return encodeCursor(cursorData{Epoch: c.epoch(), cursorPos: cursorPos{Offset: offset, Key: cursorKey(key)}})
}

// ErrorObject is the wire form of an error (DESIGN §6a "Errors").
func ErrorObject(err error) *protocol.ErrorObject {
	e := errs.As(err)
	obj := &protocol.ErrorObject{Code: e.Kind.Code(), CodeNum: e.Kind.Num(), Message: e.Message(), Retryable: e.Kind.Retryable(),
		Details: e.Details, Fixes: e.Fixes, Candidates: e.Candidates}
	if obj.Details == nil {
		obj.Details = map[string]any{}
	}
	if obj.Fixes == nil {
		obj.Fixes = []string{}
	}
	return obj
}

// ErrorEnvelope is the envelope of a call that failed before any tool ran
// (no repository, a bad flag): an error with empty provenance. Only an
// index that could not be opened makes the index's state "failed"; a call
// refused for its own words never looked at the index, whose state is then
// "unknown".
func ErrorEnvelope(err error) *protocol.Envelope {
	state, reason := protocol.StateUnknown, "not reached"
	if errs.KindOf(err) == errs.IndexUnavailable {
		state, reason = protocol.StateFailed, "no index"
	}
	return &protocol.Envelope{Error: ErrorObject(err), NextActions: []protocol.NextAction{},
		Provenance: protocol.Provenance{Consistency: "committed", RepoStateMode: "head", Freshness: protocol.MayBeStale,
			IndexState: state, Layers: []string{}, Completeness: protocol.Completeness{Reason: reason},
			Warnings: []string{}, Truncations: []protocol.Truncation{}, LimitsApplied: map[string]protocol.Limit{}},
		Meta: protocol.Meta{SchemaVersion: protocol.SchemaVersion, RequestID: newRequestID(), TimingMS: map[string]int64{}, Consistency: Committed}}
}

// endedBy reports a call whose caller went away (or whose deadline passed)
// as cancelled (or timed out) rather than as a failure of the index: the
// read transaction of a request's snapshot ends with the request's
// context, and a statement racing that end says only "transaction has
// already been committed or rolled back", a wait for a pooled connection
// "store: begin: context canceled".
func endedBy(ctx context.Context, err error) error {
	if err == nil || ctx.Err() == nil {
		return err
	}
	switch errs.KindOf(err) {
	case errs.Internal, errs.IndexUnavailable:
	default:
		return err
	}
	kind, msg := errs.Cancelled, "the call was cancelled before it finished"
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		kind, msg = errs.Timeout, "the call's deadline passed before it finished"
	}
	return &errs.Error{Kind: kind, Err: err, Msg: msg}
}

// envelope assembles the response.
func (c *Call) envelope(ctx context.Context, data any, err error, start time.Time) *protocol.Envelope {
	env := &protocol.Envelope{NextActions: []protocol.NextAction{}}
	env.Provenance = c.provenance(ctx)
	err = endedBy(ctx, err)
	if err != nil {
		env.Error = ErrorObject(err)
	} else {
		env.Answer = c.answer
		if env.Answer == "" {
			env.Answer = c.Tool + " done"
		}
		env.Data = data
		if c.next != nil {
			env.NextActions = visibleNext(c.Env.Config.Tools, c.Env.Paths.Root, c.next)
		}
	}
	c.setMeta(env, start)
	if err == nil {
		c.fit(ctx, env, c.budget)
	}
	if b, err := json.Marshal(env); err == nil {
		env.Meta.Tokens = protocol.EstimateTokens(len(b))
		c.envBytes = len(b)
	}
	if saved := protocol.EstimateTokens(int(c.savedBytes)) - env.Meta.Tokens; saved > 0 && err == nil {
		env.Meta.TokensSaved = saved
	}
	return env
}

func (c *Call) provenance(ctx context.Context) protocol.Provenance {
	p := protocol.Provenance{
		Consistency: "committed", RepoStateMode: "head", Freshness: protocol.Fresh, IndexState: protocol.StateReady,
		Layers: []string{"syntactic"}, Completeness: protocol.Completeness{Score: 1, Reason: "full-index"},
		Warnings: []string{}, Truncations: []protocol.Truncation{}, LimitsApplied: map[string]protocol.Limit{},
	}
	if c.common.RepoStateMode == "full" {
		p.RepoStateMode = "full"
	}
	if c.snap != nil {
		st := c.snap.State()
		p.RepoStateID, p.Head, p.Dirty, p.Epoch = st.RepoStateID, st.Head, st.Dirty, st.Epoch
		if c.pendingFiles > 0 && c.Env.Index.Paths().IsGit {
			p.Dirty = true
		}
		if p.Dirty {
			p.Consistency = "workspace"
		}
		if !st.Built {
			p.IndexState = protocol.StateIndex
		}
	}
	if c.Env != nil && c.Env.State != nil {
		if st, _ := c.Env.State(); st != "" && st != protocol.StateReady {
			p.IndexState = st
		}
	}
	if c.fresh.Freshness != "" {
		p.Freshness = c.fresh.Freshness
	}
	if c.fresh.IndexState != "" {
		p.IndexState = c.fresh.IndexState
	}
	p.Warnings = append(p.Warnings, c.fresh.Warnings...)
	p.Warnings = append(p.Warnings, c.warnings...)
	if c.truncations != nil {
		p.Truncations = c.truncations
	}
	for k, v := range c.limits {
		p.LimitsApplied[k] = v
	}
	if c.completeness != nil {
		p.Completeness = *c.completeness
	}
	if c.layers != nil {
		p.Layers = c.layers
	}
	return p
}

// setMeta gives the envelope its meta: a new request id, the call's
// timings with the total since start, and its consistency mode.
func (c *Call) setMeta(env *protocol.Envelope, start time.Time) {
	if c.timings == nil {
		c.timings = map[string]int64{}
	}
	c.timings["total"] = time.Since(start).Milliseconds()
	env.Meta = protocol.Meta{SchemaVersion: protocol.SchemaVersion, RequestID: newRequestID(), TimingMS: c.timings}
	c.viewMeta(&env.Meta, &env.Provenance)
}

// viewMeta states the call's consistency mode, workspace and overlay in
// the response, with what the answer could not take exactly from the
// overlay.
func (c *Call) viewMeta(m *protocol.Meta, p *protocol.Provenance) {
	m.Consistency = Committed
	switch {
	case c.view != nil:
		v := c.view
		m.Consistency, m.WorkspaceID, m.OverlayRevision, m.OverlayFiles = v.mode, v.workspace, v.revision, len(v.files)
		if v.ov != nil {
			m.Approximations = v.ov.Notes()
		}
		p.Consistency = v.mode
	case c.staged != "":
		m.Consistency, m.WorkspaceID = InWS, c.staged
	}
}
