// Package tools is the registry: every tool is declared once here (name, group,
// typed input and output, description, handler) and reached through MCP, REST
// and the CLI, which stay thin adapters. Invoke runs a call under its deadline
// and wraps the result or the error in the envelope of DESIGN §6.
package tools

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/protocol"
)

// Tool is one registered tool.
type Tool struct {
	Name     string
	Group    string   // core, read, edit, git, test, task, cards, workspace
	Summary  string   // what it does, when to use it and when not (short)
	Doc      string   // longer documentation for describe
	Examples []string // example argument objects, as JSON
	When     []string // when to use it (describe)
	WhenNot  []string // when to use something else, and what (describe)
	// Fresh tools reconcile the index (or wait for the owner) before running.
	Fresh bool
	// FreshIfPossible tools try the same but answer from the index as it is
	// (with a warning) when it cannot be brought up to date in time.
	FreshIfPossible bool
	// Paged tools hand out cursors; the others take none (Common's cursor
	// is not advertised for them in the compact schema).
	Paged bool
	// NoIndex tools also run when the index cannot be opened (Env.Index is
	// nil); every other tool then fails with INDEX_UNAVAILABLE.
	NoIndex bool
	// Deadline, when set, is the tool's default deadline instead of the
	// query timeout (test runs take minutes); timeout_ms still overrides it.
	Deadline func(config.Config) time.Duration
	// Cache is the answer cache tier of a tool whose answer depends on the
	// index's state and its arguments alone (answers.go); "" for no cache.
	Cache string
	// budgeted tools take max_chars (their arguments embed Common) and
	// answer within it (fit.go).
	budgeted bool
	// viewed tools take View: they answer through overlays.
	viewed bool
	// NoView says why a tool that takes no View cannot answer through an
	// overlay (the default is its group's, noViewReasons).
	NoView string
	In     reflect.Type
	Out    reflect.Type
	run    func(ctx context.Context, c *Call, args json.RawMessage) (any, error)
}

var (
	regMu sync.Mutex // guards registry
	// registry holds every tool by name.
	registry = map[string]*Tool{}
)

// Register declares a tool with its typed handler. Tools call it from init.
func Register[In, Out any](t Tool, h func(ctx context.Context, c *Call, in In) (Out, error)) {
	var in In
	var out Out
	t.In, t.Out = reflect.TypeOf(in), reflect.TypeOf(out)
	_, t.budgeted = t.In.FieldByName("MaxChars")
	_, t.viewed = t.In.FieldByName("Consistency")
	t.run = func(ctx context.Context, c *Call, args json.RawMessage) (any, error) {
		var v In
		if !noArgs(args) {
			dec := json.NewDecoder(bytes.NewReader(args))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&v); err != nil {
				return nil, &errs.Error{Kind: errs.InvalidArgument, Msg: "bad arguments for " + t.Name + ": " + cleanJSONError(err)}
			}
		}
		return h(ctx, c, v)
	}
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := registry[t.Name]; dup {
		panic("tools: duplicate tool " + t.Name)
	}
	registry[t.Name] = &t
}

// registerWith declares a tool whose handler works on something the call
// opens first (the git worktree, the cards): when it cannot be opened, the
// tool fails before its handler runs.
func registerWith[R, In, Out any](t Tool, open func(ctx context.Context, c *Call) (R, error), h func(ctx context.Context, c *Call, r R, in In) (Out, error)) {
	Register(t, func(ctx context.Context, c *Call, in In) (Out, error) {
		r, err := open(ctx, c)
		if err != nil {
			var none Out
			return none, err
		}
		return h(ctx, c, r, in)
	})
}

// noArgs reports a call made without arguments: nothing, or null.
func noArgs(args json.RawMessage) bool {
	a := bytes.TrimSpace(args)
	return len(a) == 0 || string(a) == "null"
}

func cleanJSONError(err error) string {
	return strings.TrimPrefix(err.Error(), "json: ")
}

// All lists the tools sorted by name.
func All() []*Tool {
	regMu.Lock()
	defer regMu.Unlock()
	out := make([]*Tool, 0, len(registry))
	for _, t := range registry {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup finds a tool by name.
func Lookup(name string) *Tool {
	regMu.Lock()
	defer regMu.Unlock()
	return registry[name]
}

// Common are the optional arguments every read tool accepts.
type Common struct {
	Limit    int    `json:"limit,omitempty" jsonschema:"max results (clamped to the hard cap)"`
	Cursor   string `json:"cursor,omitempty" jsonschema:"cursor from the previous page"`
	MaxChars int    `json:"max_chars,omitempty" jsonschema:"response budget in characters (clamped)"`
	Base
}

// Base are the optional arguments of every tool, including those that return
// no list to bound or page (read_file_full, doctor).
type Base struct {
	TimeoutMS     int    `json:"timeout_ms,omitempty" jsonschema:"deadline in milliseconds"`
	RepoStateMode string `json:"repo_state_mode,omitempty" jsonschema:"head (default) or full: rehash every file first"`
}

// Invoke runs a tool and returns its envelope. It never panics: a panic in a
// handler becomes an INTERNAL error.
func Invoke(ctx context.Context, env *Env, name string, args json.RawMessage) (env2 *protocol.Envelope) {
	start := time.Now()
	c := &Call{Env: env, Tool: name, limits: map[string]protocol.Limit{}}
	defer func() { c.observe(ctx, &env2) }() // after the recovery below: c may be a restarted call
	defer func() {
		if r := recover(); r != nil {
			if os.Getenv("CAIRN_DEBUG") != "" {
				fmt.Fprintf(os.Stderr, "panic in %s: %v\n%s", name, r, debug.Stack())
			}
			env2 = c.envelope(ctx, nil, &errs.Error{Kind: errs.Internal, Msg: fmt.Sprintf("internal error in %s: %v", name, r)}, start)
		}
	}()
	t := Lookup(name)
	if t == nil {
		return c.envelope(ctx, nil, &errs.Error{Kind: errs.InvalidArgument, Msg: "unknown tool " + name,
			Fixes: []string{"cairn describe"}}, start)
	}
	pre, timeout, err := c.arguments(ctx, t, args)
	if err != nil {
		return c.envelope(ctx, nil, err, start)
	}
	defer c.releaseSnapshot()
	if err := c.upToDate(ctx, t); err != nil {
		return c.envelope(ctx, nil, err, start)
	}
	if err := c.takeSnapshot(ctx); err != nil && !t.NoIndex {
		return c.envelope(ctx, nil, err, start)
	}
	if err := c.bindView(ctx, t, pre.View); err != nil {
		return c.envelope(ctx, nil, err, start)
	}
	t0 := time.Now()
	key := c.answerKey(ctx, t, args)
	if key != "" {
		if x, ok := c.cachedAnswer(t, key); ok {
			c.timing("cache", time.Since(t0))
			return c.replay(ctx, x, start)
		}
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	t0 = time.Now()
	before := len(c.warnings)
	data, err := t.run(cctx, c, args)
	c.timing("run", time.Since(t0))
	if err != nil && env.Recover != nil && ctx.Err() == nil {
		if retry, warnings, out := env.Recover(ctx, err); retry {
			// The store was damaged and has been repaired: answer once more
			// from the new store, forgetting what the failed run said.
			c.releaseSnapshot()
			c = c.restart(before)
			key = "" // the answer of a repaired store is not kept
			defer c.releaseSnapshot()
			c.warnings = append(c.warnings, warnings...)
			if err = c.takeSnapshot(ctx); err == nil {
				data, err = t.run(cctx, c, args)
			}
		} else if out != nil {
			err = out
		}
	}
	c.budget = c.charBudget(t)
	if err != nil && cctx.Err() != nil && ctx.Err() == nil {
		err = &errs.Error{Kind: errs.Timeout, Err: err, Msg: fmt.Sprintf("%s did not finish within %s", name, timeout),
			Fixes: []string{"narrow the query, or pass a larger timeout_ms"}}
	}
	out := c.envelope(ctx, data, err, start)
	if key != "" {
		c.keepAnswer(t, key, out, len(c.fresh.Warnings)+before, cctx.Err() != nil)
	}
	return out
}

// sharedArgs are the arguments every tool shares.
type sharedArgs struct {
	Common
	View
}

// arguments admits a call of t and reads the arguments every tool shares
// (strict decoding happens in the handler), with the call's timeout.
func (c *Call) arguments(ctx context.Context, t *Tool, args json.RawMessage) (sharedArgs, time.Duration, error) {
	var pre sharedArgs
	if err := c.admit(ctx, t, args); err != nil {
		return pre, 0, err
	}
	if c.Env.Index == nil && !t.NoIndex {
		return pre, 0, c.Env.indexUnavailable()
	}
	if err := checkCounts(args); err != nil {
		return pre, 0, err
	}
	if len(args) > 0 {
		json.Unmarshal(args, &pre)
	}
	c.common = pre.Common
	timeout := time.Duration(c.Env.Config.Query.TimeoutMS) * time.Millisecond
	if t.Deadline != nil {
		timeout = t.Deadline(c.Env.Config)
	}
	if pre.TimeoutMS > 0 {
		timeout = time.Duration(pre.TimeoutMS) * time.Millisecond
	}
	if m := pre.RepoStateMode; m != "" && m != "head" && m != "full" {
		return pre, 0, errs.E(errs.InvalidArgument, "repo_state_mode must be head or full")
	}
	return pre, timeout, nil
}

// upToDate checks that the store is intact and, for a tool that answers
// from a fresh index, brings the index up to date with the files (or, where
// the tool may, warns that it answers from the index as it is).
func (c *Call) upToDate(ctx context.Context, t *Tool) error {
	env := c.Env
	if env.Intact != nil && env.Index != nil {
		warnings, err := env.Intact(ctx)
		if err != nil {
			return err
		}
		c.warnings = append(c.warnings, warnings...)
	}
	if (t.Fresh || t.FreshIfPossible) && env.Fresh != nil {
		t0 := time.Now()
		c.fresh = env.Fresh(ctx, c.common.RepoStateMode == "full")
		c.timing("freshness", time.Since(t0))
		if c.fresh.Err != nil {
			if !t.FreshIfPossible {
				return c.fresh.Err
			}
			c.warnings = append(c.warnings, "answering from the index as it is: "+errs.As(c.fresh.Err).Message())
			c.fresh.Freshness, c.fresh.Err = protocol.MayBeStale, nil
		}
	}
	return nil
}

// countArgs are the arguments that count something (results, characters,
// levels, milliseconds): 0 or less is a mistake, not a request for the
// default, which is what leaving the argument out asks for.
var countArgs = []string{"limit", "max_chars", "timeout_ms", "limit_per_level", "depth", "top", "count"}

// checkCounts refuses a count argument of 0 or less.
func checkCounts(args json.RawMessage) error {
	var fields map[string]json.RawMessage
	if json.Unmarshal(args, &fields) != nil {
		return nil // not an object: the handler's strict decoding says why
	}
	for _, name := range countArgs {
		raw, ok := fields[name]
		if !ok {
			continue
		}
		var n float64
		if json.Unmarshal(raw, &n) == nil && n <= 0 {
			return &errs.Error{Kind: errs.InvalidArgument, Msg: fmt.Sprintf("%s must be at least 1, not %s; leave it out for the default", name, raw)}
		}
	}
	return nil
}

func newRequestID() string {
	var b [6]byte
	rand.Read(b[:])
	return "req_" + hex.EncodeToString(b[:])
}
