package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cairnhq/cairn/internal/protocol"
)

// The response budget. Every tool whose arguments carry max_chars answers
// within it, measured as characters of the envelope as MCP sends it (compact
// JSON, the text of content[0]). Tools that know their payload cut it
// themselves first (the call graph drops deep levels, read_source stops at a
// line); whatever is still over is cut here, generically: the largest list
// loses items from its end, or the longest string is shortened, until the
// envelope fits. Every cut is a truncations entry, and a cut paged list gets
// a cursor that continues right after the last item kept.

// fitRounds bounds the cutting: each round removes at least what the
// envelope is over by, estimated from the cut node's size, so a few rounds
// suffice; the bound keeps a pathological payload from looping.
const fitRounds = 64

// minCutString is the shortest string the fitter shortens: short strings
// (names, paths) are never worth a cut and lose meaning when shortened.
const minCutString = 80

// fitMargin is room left for what is filled in after the fit: the token
// counts and the total time in meta.
const fitMargin = 16

// ellipsis marks a string the fitter shortened.
const ellipsis = "…"

// page is a paged list of a call's payload (a list with a cursor): the
// fitter needs its query key and offsets to hand out the right cursor after
// cutting it.
type page struct {
	key   any
	next  int // offset just after the last item of the page as the tool built it
	total int // items in the whole result (0: unknown)
}

// Paged registers the list at field (its JSON path in the payload) as a page
// of the query key that ends at offset next, out of total items (0 when
// unknown). Tools call it for every paged list, whether or not more pages
// follow, so that a cut made to fit max_chars continues at the right item.
func (c *Call) Paged(field string, key any, next, total int) {
	if c.pages == nil {
		c.pages = map[string]page{}
	}
	c.pages[field] = page{key: key, next: next, total: total}
}

// renamePage moves a page registered under one JSON path to another (a
// payload embedded in another tool's).
func (c *Call) renamePage(from, to string) {
	if p, ok := c.pages[from]; ok {
		delete(c.pages, from)
		c.pages[to] = p
	}
}

// payloadReserve is room kept, when a tool sizes its own payload, for what
// the envelope gains after it: the answer line, truncation entries and
// drilldowns.
const payloadReserve = 400

// payloadBudget is what remains of budget characters for the payload of a
// tool that cuts its payload itself, once the rest of the envelope is
// counted. It never goes below a quarter of the budget, so a small budget
// still shows something.
func (c *Call) payloadBudget(ctx context.Context, budget int) int {
	return max(c.payloadRoom(ctx, budget)-payloadReserve, budget/4)
}

// payloadRoom is what the envelope as it stands leaves of budget characters
// for the payload (no reserve: the answer, truncations and next actions are
// already in), never below a quarter of the budget.
func (c *Call) payloadRoom(ctx context.Context, budget int) int {
	// A payload cut to fit adds a truncation, and the provenance is then no
	// longer compact: count it whole (an empty warning keeps it so).
	prov := c.provenance(ctx)
	prov.Warnings = append(prov.Warnings[:len(prov.Warnings):len(prov.Warnings)], "")
	env := &protocol.Envelope{Answer: c.answer, Provenance: prov, NextActions: c.next,
		Meta: protocol.Meta{SchemaVersion: protocol.SchemaVersion, RequestID: "req_000000000000", TimingMS: c.timings}}
	c.viewMeta(&env.Meta, &env.Provenance)
	return max(budget-envelopeChars(env)-fitMargin, budget/4)
}

// charBudget is the call's response budget in characters, or 0 when the tool
// takes none (read_file_full has its own cap; describe and doctor are
// bounded by construction).
func (c *Call) charBudget(t *Tool) int {
	if t == nil || !t.budgeted {
		return 0
	}
	return c.maxChars()
}

// maxChars is the max_chars the call asks for, within CharsBudget.
func (c *Call) maxChars() int { return c.Bound("max_chars", c.common.MaxChars, CharsBudget) }

// fit cuts env.Data (and the answer line) until the envelope fits budget
// characters.
func (c *Call) fit(ctx context.Context, env *protocol.Envelope, budget int) {
	if budget <= 0 || env.Data == nil {
		return
	}
	cuts := 0
	for round := 0; round < fitRounds; round++ {
		size := envelopeChars(env) + fitMargin
		if size <= budget {
			return
		}
		over := size - budget
		cands := collectCuts(env)
		best := pickCut(cands)
		if best == nil {
			break
		}
		if cuts == 0 && budget < CharsBudget.Cap {
			env.NextActions = append(env.NextActions, protocol.NextAction{Tool: c.Tool, Args: map[string]any{"max_chars": CharsBudget.Cap},
				Why: "the answer was cut to fit max_chars: ask for a larger budget, or a narrower question"})
		}
		c.applyCut(ctx, env, best, over)
		cuts++
	}
	if size := envelopeChars(env) + fitMargin; size > budget {
		env.Provenance.Warnings = append(env.Provenance.Warnings,
			fmt.Sprintf("the answer is %d characters, over max_chars %d, even with its lists cut", size, budget))
	}
}

// envelopeChars is the size of env in characters of compact JSON.
func envelopeChars(env *protocol.Envelope) int {
	b, err := protocol.Compact(env)
	if err != nil {
		return 0
	}
	return utf8.RuneCount(b)
}

// cut is a node of the payload that can be made smaller: a list of two or
// more items or a long string.
type cut struct {
	name  string // JSON path: "locations", "levels[0].nodes", "card.doc"
	path  []step // how to reach it from the envelope's data
	v     reflect.Value
	size  int // serialized size in bytes
	items []int
}

// step is one move from a value to a part of it.
type step struct {
	field int           // struct field index (-1: not a field)
	index int           // slice element (-1: not an element)
	key   reflect.Value // map key (invalid: not a map entry)
	elem  bool          // through a pointer or interface
}

// collectCuts lists what can be cut in the answer line and the payload.
func collectCuts(env *protocol.Envelope) []cut {
	var w cutWalker
	if n := len(env.Answer); n >= minCutString {
		w.out = append(w.out, cut{name: "answer", v: reflect.ValueOf(env.Answer), size: jsonSize(env.Answer)})
	}
	w.walk(reflect.ValueOf(&env.Data).Elem(), 0)
	return w.out
}

// maxWalkDepth bounds the walk over a payload; deeper parts are cut as a
// whole with their parents.
const maxWalkDepth = 12

var marshalerType = reflect.TypeFor[json.Marshaler]()

// cutWalker gathers the cuts of a payload. The way to the node at hand
// (path) and its JSON name (names) are stacks shared by the whole walk:
// only a node that is a cut gets copies of its own, since most nodes of a
// large answer (every location's fields) are none.
type cutWalker struct {
	path  []step
	names []namePart
	out   []cut
}

// namePart is one part of a JSON path: a field's or a map key's name, or
// a list index (index >= 0).
type namePart struct {
	name  string
	index int
}

// walk adds the cuttable nodes under v, which sits at the walker's path,
// to its cuts.
func (w *cutWalker) walk(v reflect.Value, depth int) {
	if depth > maxWalkDepth || !v.IsValid() {
		return
	}
	if v.Type().Implements(marshalerType) && v.Kind() != reflect.Interface {
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			w.enter(step{field: -1, index: -1, elem: true}, nil)
			w.walk(v.Elem(), depth)
			w.leave(nil)
		}
	case reflect.Struct:
		w.walkStruct(v, depth)
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		for _, k := range keys {
			part := &namePart{name: k.String(), index: -1}
			w.enter(step{field: -1, index: -1, key: k}, part)
			w.walk(v.MapIndex(k), depth+1)
			w.leave(part)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		if v.Len() >= 2 {
			items := make([]int, v.Len())
			total := 2 // the brackets
			for i := range items {
				items[i] = jsonSize(v.Index(i).Interface())
				total += items[i] + 1
			}
			w.record(v, total-1, items)
		}
		for i := 0; i < v.Len(); i++ {
			part := &namePart{index: i}
			w.enter(step{field: -1, index: i}, part)
			w.walk(v.Index(i), depth+1)
			w.leave(part)
		}
	case reflect.String:
		if v.Len() >= minCutString {
			w.record(v, jsonSize(v.String()), nil)
		}
	}
}

// walkStruct visits the fields of a struct that JSON encodes, under their
// JSON names; embedded structs without a name are flattened as JSON does.
func (w *cutWalker) walkStruct(v reflect.Value, depth int) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue // reflection can neither read nor replace it
		}
		s := step{field: i, index: -1}
		switch field, _, embedded := jsonName(f); {
		case embedded:
			w.enter(s, nil)
			w.walk(v.Field(i), depth)
			w.leave(nil)
		case field != "":
			part := &namePart{name: field, index: -1}
			w.enter(s, part)
			w.walk(v.Field(i), depth+1)
			w.leave(part)
		}
	}
}

// enter steps down to a part of the node at hand; part is its name (nil:
// the part has its parent's name).
func (w *cutWalker) enter(s step, part *namePart) {
	w.path = append(w.path, s)
	if part != nil {
		w.names = append(w.names, *part)
	}
}

// leave undoes enter.
func (w *cutWalker) leave(part *namePart) {
	w.path = w.path[:len(w.path)-1]
	if part != nil {
		w.names = w.names[:len(w.names)-1]
	}
}

// record adds the node at hand as a cut.
func (w *cutWalker) record(v reflect.Value, size int, items []int) {
	w.out = append(w.out, cut{name: w.name(), path: slices.Clone(w.path), v: v, size: size, items: items})
}

// name is the JSON path of the node at hand: "levels[0].nodes".
func (w *cutWalker) name() string {
	var b strings.Builder
	for _, p := range w.names {
		switch {
		case p.index >= 0:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(p.index))
			b.WriteByte(']')
		case b.Len() > 0:
			b.WriteByte('.')
			fallthrough
		default:
			b.WriteString(p.name)
		}
	}
	return b.String()
}

func jsonSize(v any) int {
	b, err := protocol.Compact(v)
	if err != nil {
		return 0
	}
	return len(b)
}

// pickCut chooses the largest node to cut. A list whose largest item holds
// most of its size is passed over: cutting items from its end would lose
// the small ones first, so that item's own parts are cut instead.
func pickCut(cands []cut) *cut {
	var best *cut
	for i := range cands {
		cd := &cands[i]
		if cd.items != nil && dominant(cd.items, cd.size) {
			continue
		}
		if best == nil || cd.size > best.size {
			best = cd
		}
	}
	return best
}

func dominant(items []int, size int) bool {
	for _, n := range items {
		if 2*n > size {
			return true
		}
	}
	return false
}

// applyCut shrinks node cd so that the envelope loses at least over
// characters, and records the cut.
func (c *Call) applyCut(ctx context.Context, env *protocol.Envelope, cd *cut, over int) {
	if cd.items != nil {
		keep, removed := len(cd.items), 0
		for keep > 0 && removed < over {
			keep--
			removed += cd.items[keep] + 1
		}
		env.Data = replaceAt(reflect.ValueOf(&env.Data).Elem(), cd.path, func(v reflect.Value) reflect.Value {
			return v.Slice(0, keep)
		}).Interface()
		c.recordListCut(ctx, env, cd.name, len(cd.items), keep)
		return
	}
	s := cd.v.String()
	ratio := float64(cd.size) / float64(max(len(s), 1)) // escaping makes JSON longer than the text
	drop := int(float64(over)/ratio) + len(ellipsis) + 1
	keep := max(len(s)-drop, 0)
	for keep > 0 && !utf8.RuneStart(s[keep]) {
		keep--
	}
	short := s[:keep] + ellipsis
	if cd.name == "answer" {
		env.Answer = short
	} else {
		env.Data = replaceAt(reflect.ValueOf(&env.Data).Elem(), cd.path, func(reflect.Value) reflect.Value {
			return reflect.ValueOf(short).Convert(cd.v.Type())
		}).Interface()
	}
	tr := protocol.Truncation{Field: cd.name, Returned: utf8.RuneCountInString(s[:keep]), Total: utf8.RuneCountInString(s), Reason: "max_chars"}
	// A string cut again keeps one entry, with the length it had at first:
	// an entry per round would grow the envelope by about what the round
	// cut, and the fit would not converge.
	for i, t := range env.Provenance.Truncations {
		if t.Field == cd.name && t.Reason == tr.Reason {
			tr.Total = t.Total
			env.Provenance.Truncations[i] = tr
			return
		}
	}
	env.Provenance.Truncations = append(env.Provenance.Truncations, tr)
}

// recordListCut records that the list at name kept keep of its n items: the
// tool's own truncation entry for it is updated (a paged list's cursor then
// continues after the last item kept), or a new one is added.
func (c *Call) recordListCut(ctx context.Context, env *protocol.Envelope, name string, n, keep int) {
	tr := protocol.Truncation{Field: name, Returned: keep, Total: n, Reason: "max_chars"}
	if p, ok := c.pages[name]; ok {
		p.next -= n - keep
		c.pages[name] = p
		tr.Total = p.total
		tr.Cursor = c.Cursor(context.WithoutCancel(ctx), p.key, p.next)
	}
	for i, t := range env.Provenance.Truncations {
		if t.Field == name {
			if t.Total > 0 {
				tr.Total = t.Total
			}
			env.Provenance.Truncations[i] = tr
			return
		}
	}
	env.Provenance.Truncations = append(env.Provenance.Truncations, tr)
}

// replaceAt returns a copy of v in which the node at path is replaced by
// fn(node). Only the values along the path are copied: the handler's result
// (which an engine may have cached) is never written.
func replaceAt(v reflect.Value, path []step, fn func(reflect.Value) reflect.Value) reflect.Value {
	if len(path) == 0 {
		return fn(v)
	}
	s, rest := path[0], path[1:]
	switch {
	case s.elem && v.Kind() == reflect.Pointer:
		n := reflect.New(v.Type().Elem())
		n.Elem().Set(replaceAt(v.Elem(), rest, fn))
		return n
	case s.elem: // interface
		inner := replaceAt(v.Elem(), rest, fn)
		n := reflect.New(v.Type()).Elem()
		n.Set(inner)
		return n
	case s.field >= 0:
		n := reflect.New(v.Type()).Elem()
		n.Set(v)
		n.Field(s.field).Set(replaceAt(v.Field(s.field), rest, fn))
		return n
	case s.index >= 0:
		n := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		reflect.Copy(n, v)
		n.Index(s.index).Set(replaceAt(v.Index(s.index), rest, fn))
		return n
	default: // map entry
		n := reflect.MakeMapWithSize(v.Type(), v.Len())
		iter := v.MapRange()
		for iter.Next() {
			n.SetMapIndex(iter.Key(), iter.Value())
		}
		n.SetMapIndex(s.key, replaceAt(v.MapIndex(s.key), rest, fn))
		return n
	}
}
