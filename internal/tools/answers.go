package tools

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/cairnhq/cairn/internal/cache"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/protocol"
)

// The answer caches of a serving process (CKB's query, view and negative
// caches). An agent asks the same read question again and again on a tree
// that did not change (a card, the references of a name, the map of the
// repository), and on a large repository some answers take hundreds of
// milliseconds to compute. A tool declared with a Cache tier keeps its
// envelopes (as sent: cut to max_chars) under a key made of everything an
// answer depends on:
//
//   - the snapshot's repo_state_id (HEAD and the content of every indexed
//     file), its store and epoch (a reconcile, a repair or a takeover), the
//     semantic layer's generation (an import) and the cards' revision;
//   - the tool and its arguments in canonical form (keys sorted; the
//     deadline and the repo_state_mode, which do not change a complete
//     answer, left out).
//
// So a cached answer is never stale, only unused: any change makes new keys
// and the old entries age out of the LRU. Calls through a workspace overlay
// or virtual files are never cached, nor answers cut short by a deadline or
// that a handler marked as depending on more than the repository (Volatile).
// Answers that say a name or path does not exist (NOT_FOUND, SYMBOL_DELETED,
// FILE_NOT_FOUND) go to the negative cache, so that a misspelt name an agent
// retries cannot push out the answers worth keeping.

// Answer cache tiers of a tool.
const (
	// CacheQuery tools answer a question about one name or query (search,
	// a card, references, the call graph around a symbol).
	CacheQuery = "query"
	// CacheView tools compose a view of the whole repository (map_repo,
	// architecture): few keys, each costly.
	CacheView     = "view"
	cacheNegative = "negative"
)

// Answers are the answer caches of one process.
type Answers struct {
	query, view, negative *cache.LRU[*answer]
}

// NewAnswers makes answer caches holding about maxBytes of envelopes in
// all: half for queries, three eighths for views, an eighth for negative
// answers.
func NewAnswers(maxBytes int64) *Answers {
	return &Answers{
		query:    cache.NewLRU[*answer](maxBytes/2, 8192),
		view:     cache.NewLRU[*answer](maxBytes*3/8, 512),
		negative: cache.NewLRU[*answer](maxBytes/8, 8192),
	}
}

// AnswerStat counts the requests of one answer cache.
type AnswerStat struct {
	Name                    string
	Hits, Misses, Evictions int64
	Entries                 int
	Bytes                   int64
}

// Stats are the counts of the query, view and negative caches, in that
// order (nil without caches).
func (a *Answers) Stats() []AnswerStat {
	if a == nil {
		return nil
	}
	var out []AnswerStat
	for _, t := range []struct {
		name string
		l    *cache.LRU[*answer]
	}{{CacheQuery, a.query}, {CacheView, a.view}, {cacheNegative, a.negative}} {
		s := t.l.Stats()
		out = append(out, AnswerStat{Name: t.name, Hits: s.Hits, Misses: s.Misses, Evictions: s.Evictions, Entries: s.Entries, Bytes: s.Bytes})
	}
	return out
}

// Clear drops every cached answer.
func (a *Answers) Clear() {
	if a != nil {
		a.query.Clear()
		a.view.Clear()
		a.negative.Clear()
	}
}

func (a *Answers) tier(name string) *cache.LRU[*answer] {
	if name == CacheView {
		return a.view
	}
	return a.query
}

// answer is what a call said, as its envelope holds it after the cut to
// max_chars: everything but what each call measures anew (freshness,
// timings, request id, task). It is shared by every call that hits it and
// never changed. The data is kept encoded: decoded, an answer's maps,
// slices and strings took several times the bytes the bound counts, so a
// full cache held far more than its share of the server's memory.
type answer struct {
	answer      string
	data        json.RawMessage // nil when the envelope had no data
	err         *protocol.ErrorObject
	next        []protocol.NextAction
	warnings    []string // the handler's and the cut's, after the call's own
	truncations []protocol.Truncation
	limits      map[string]protocol.Limit
	complete    protocol.Completeness
	layers      []string
	tokens      int
	saved       int
	size        int64
}

// negativeKinds are the errors the negative cache keeps.
var negativeKinds = map[string]bool{errs.NotFound.Code(): true, errs.SymbolDeleted.Code(): true, errs.FileNotFound.Code(): true}

// Volatile marks the call's answer as depending on more than the
// repository's state (a step cut short by its own time limit): it is not
// cached.
func (c *Call) Volatile() { c.volatile = true }

// answerKey is the cache key of the call, or "" when its answer is not
// cached: no caches, a tool without a tier, no built index, an overlay.
func (c *Call) answerKey(ctx context.Context, t *Tool, args json.RawMessage) string {
	if c.Env.Answers == nil || t.Cache == "" || c.snap == nil || c.view != nil {
		return ""
	}
	st, ver := c.snap.State(), c.snap.Version()
	if !st.Built || st.RepoStateID == "" {
		return ""
	}
	sem, err := c.snap.Store().SemGeneration(ctx)
	if err != nil {
		return ""
	}
	cards, err := c.snap.Store().CardRevision(ctx)
	if err != nil {
		return ""
	}
	canon, ok := canonicalArgs(args)
	if !ok {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d.%d\x00%s\x00%d\x00%s\x00", st.RepoStateID, ver.Store, ver.Epoch, sem, cards, t.Name)
	h.Write(canon)
	return hex.EncodeToString(h.Sum(nil))
}

// keyFree are the arguments that do not change a complete answer.
var keyFree = []string{"timeout_ms", "repo_state_mode"}

// canonicalArgs is args with sorted keys and without keyFree (false when
// args is not a JSON object).
func canonicalArgs(args json.RawMessage) ([]byte, bool) {
	if noArgs(args) {
		return []byte("{}"), true
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var m map[string]any
	if dec.Decode(&m) != nil {
		return nil, false
	}
	for _, k := range keyFree {
		delete(m, k)
	}
	b, err := json.Marshal(m) // map keys sorted
	return b, err == nil
}

// cachedAnswer looks the call's key up: a negative answer first, then the
// tool's tier. A hit is counted here; a miss when the answer is stored.
func (c *Call) cachedAnswer(t *Tool, key string) (*answer, bool) {
	a := c.Env.Answers
	for _, l := range []*cache.LRU[*answer]{a.negative, a.tier(t.Cache)} {
		if x, ok := l.Peek(key); ok {
			l.Count(true)
			return x, true
		}
	}
	return nil, false
}

// keepAnswer stores the envelope the call answered with, when it can serve
// the same call again: a result or a negative error, complete (no deadline
// cut it, no step was Volatile). Its request is counted as a miss of the
// cache it belongs to (other errors are not counted).
func (c *Call) keepAnswer(t *Tool, key string, env *protocol.Envelope, own int, timedOut bool) {
	a := c.Env.Answers
	l := a.tier(t.Cache)
	if env.Error != nil {
		if !negativeKinds[env.Error.Code] {
			return
		}
		l = a.negative
	}
	l.Count(false)
	if timedOut || c.volatile {
		return
	}
	p := env.Provenance
	for _, tr := range p.Truncations {
		if tr.Reason == "deadline" {
			return
		}
	}
	data, ok := encodeData(env.Data)
	if !ok {
		return
	}
	x := &answer{answer: env.Answer, data: data, err: env.Error, next: env.NextActions,
		warnings: append([]string(nil), p.Warnings[min(own, len(p.Warnings)):]...), truncations: p.Truncations,
		limits: p.LimitsApplied, complete: p.Completeness, layers: p.Layers,
		tokens: env.Meta.Tokens, saved: env.Meta.TokensSaved, size: int64(c.envBytes + len(key) + 256)}
	l.Put(key, x, x.size)
}

// encodeData is an envelope's data as the adapters encode it (no HTML
// escaping: an encoder that escapes re-escapes raw JSON it embeds, so every
// adapter sends the bytes a fresh answer would have).
func encodeData(data any) (json.RawMessage, bool) {
	if data == nil {
		return nil, true
	}
	b, err := protocol.Compact(data)
	return b, err == nil
}

// replay answers the call with a cached answer: the call's own provenance
// (freshness, index state, its warnings) around what the answer said. Its
// timing_ms has "cache" (the lookup) instead of "run".
func (c *Call) replay(ctx context.Context, x *answer, start time.Time) *protocol.Envelope {
	env := &protocol.Envelope{Answer: x.answer, Error: x.err, NextActions: x.next}
	if x.data != nil {
		env.Data = x.data
	}
	env.Provenance = c.provenance(ctx)
	p := &env.Provenance
	p.Warnings = append(p.Warnings, x.warnings...)
	p.Truncations, p.LimitsApplied, p.Completeness, p.Layers = x.truncations, x.limits, x.complete, x.layers
	c.setMeta(env, start)
	env.Meta.Tokens, env.Meta.TokensSaved = x.tokens, x.saved
	return env
}
