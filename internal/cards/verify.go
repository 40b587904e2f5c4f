package cards

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/store"
)

// Verification checks the cards as a whole. Hard rules are errors (a CI
// run fails on them); soft rules are warnings. Verification is card-centric:
// code without links is fine, confirmed cards without code are not.

// Rules, with their severity.
const (
	RuleInvalidCard         = "invalid-card"          // error: the file is not a valid card
	RuleInvalidRegistry     = "invalid-registry"      // error: a registry file cannot be read
	RuleDuplicateKey        = "duplicate-key"         // error: two files define one key
	RuleUnknownSee          = "unknown-see"           // error: @see names no card
	RuleUnknownTarget       = "unknown-target"        // error: a relation targets no card
	RuleImplementedUnlinked = "implemented-unlinked"  // error: implemented, no @see
	RuleUnknownRelationType = "unknown-relation-type" // error: the type is not configured
	RuleUnregisteredKeyword = "unregistered-keyword"  // error
	RuleUnregisteredTag     = "unregistered-tag"      // error
	RuleConfirmedUnlinked   = "confirmed-unlinked"    // warning: accepted or implementing, no @see
	RuleDependencyCycle     = "dependency-cycle"      // warning: depends-on cycle
	RuleDeprecatedReference = "deprecated-reference"  // warning: a relation or @see to a deprecated card
)

// Finding is one broken rule.
type Finding struct {
	Rule     string             `json:"rule"`
	Severity string             `json:"severity"` // error or warning
	Message  string             `json:"message"`
	Card     string             `json:"card,omitempty"`
	Location *protocol.Location `json:"location,omitempty"`
}

// Report is the result of verification.
type Report struct {
	OK       bool      `json:"ok"` // no errors
	Errors   int       `json:"errors"`
	Warnings int       `json:"warnings"`
	Cards    int       `json:"cards"`
	Links    int       `json:"links"`
	Findings []Finding `json:"findings"` // errors first, then by rule and place
}

func fileLoc(p string, line int) *protocol.Location {
	return &protocol.Location{Path: protocol.RepoPath(p), Line: line, Col: 1, EndLine: line, EndCol: 1}
}

// Verify checks every rule.
func (v *View) Verify() *Report {
	rep := &Report{Findings: []Finding{}, Links: len(v.m.links)}
	add := func(rule, sev, card string, loc *protocol.Location, format string, args ...any) {
		rep.Findings = append(rep.Findings, Finding{Rule: rule, Severity: sev, Card: card, Location: loc, Message: fmt.Sprintf(format, args...)})
	}
	for _, p := range sortedKeys(v.m.problems) {
		add(RuleInvalidRegistry, "error", "", fileLoc(p, 1), "%s", v.m.problems[p])
	}
	for _, c := range v.m.cards {
		if c.Problem != "" {
			add(RuleInvalidCard, "error", c.Key, fileLoc(c.Path, 1), "%s is not a valid card: %s", c.Path, c.Problem)
		}
	}
	for _, key := range sortedKeys(v.m.byKey) {
		cs := v.m.byKey[key]
		rep.Cards++
		for _, dup := range cs[1:] {
			add(RuleDuplicateKey, "error", key, fileLoc(dup.Path, 1), "key %s is defined by %s and again by %s", key, cs[0].Path, dup.Path)
		}
		c := cs[0]
		if c.Problem != "" {
			continue
		}
		links := len(v.m.byLink[key])
		switch vd, msg := verdict(c.Status, links); vd {
		case "error":
			add(RuleImplementedUnlinked, "error", key, fileLoc(c.Path, 1), "card %s is %s", key, msg)
		case "warning":
			add(RuleConfirmedUnlinked, "warning", key, fileLoc(c.Path, 1), "card %s is %s", key, msg)
		}
		for _, r := range c.Relations {
			if !slices.Contains(v.cfg.Relations, r.Type) {
				add(RuleUnknownRelationType, "error", key, fileLoc(c.Path, 1), "card %s declares relation type %q, which is not one of cards.relations (%s)",
					key, r.Type, strings.Join(v.cfg.Relations, ", "))
			}
			t := v.m.card(r.Target)
			switch {
			case t == nil:
				add(RuleUnknownTarget, "error", key, fileLoc(c.Path, 1), "card %s: relation %s targets %s, which no card defines", key, r.Type, r.Target)
			case t.Status == StatusDeprecated && c.Status != StatusDeprecated:
				add(RuleDeprecatedReference, "warning", key, fileLoc(c.Path, 1), "card %s: relation %s targets deprecated card %s", key, r.Type, r.Target)
			}
		}
		for _, k := range c.Keywords {
			if _, ok := v.m.registry[store.LabelKeyword][k]; !ok {
				add(RuleUnregisteredKeyword, "error", key, fileLoc(c.Path, 1), "card %s names keyword %q, which %s does not register", key, k, Keywords.Path)
			}
		}
		for _, t := range c.Tags {
			if _, ok := v.m.registry[store.LabelTag][t]; !ok {
				add(RuleUnregisteredTag, "error", key, fileLoc(c.Path, 1), "card %s names tag %q, which %s does not register", key, t, Tags.Path)
			}
		}
	}
	for _, l := range v.m.links {
		loc := linkLoc(l)
		switch t := v.m.card(l.Key); {
		case t == nil:
			add(RuleUnknownSee, "error", l.Key, &loc, "@see %s at %s:%d names no card", l.Key, l.Path, l.Line)
		case t.Status == StatusDeprecated:
			add(RuleDeprecatedReference, "warning", l.Key, &loc, "@see %s at %s:%d links to a deprecated card", l.Key, l.Path, l.Line)
		}
	}
	for _, cycle := range v.cycles("depends-on") {
		c := v.m.card(cycle[0])
		add(RuleDependencyCycle, "warning", cycle[0], fileLoc(c.Path, 1), "depends-on cycle: %s -> %s", strings.Join(cycle, " -> "), cycle[0])
	}
	sort.SliceStable(rep.Findings, func(i, j int) bool {
		a, b := rep.Findings[i], rep.Findings[j]
		if a.Severity != b.Severity {
			return a.Severity == "error"
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		la, lb := locKey(a.Location), locKey(b.Location)
		if la != lb {
			return la < lb
		}
		return a.Message < b.Message
	})
	for _, f := range rep.Findings {
		if f.Severity == "error" {
			rep.Errors++
		} else {
			rep.Warnings++
		}
	}
	rep.OK = rep.Errors == 0
	return rep
}

func locKey(l *protocol.Location) string {
	if l == nil {
		return ""
	}
	return fmt.Sprintf("%s:%09d:%09d", l.Path, l.Line, l.Col)
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// cycles finds the cycles of one relation type among existing cards: each
// strongly connected component of more than one card (or a card relating
// to itself), as its cards in a cycle order starting from the smallest key.
func (v *View) cycles(typ string) [][]string {
	next := map[string][]string{}
	for _, key := range sortedKeys(v.m.byKey) {
		for _, r := range v.m.byKey[key][0].Relations {
			if r.Type == typ && v.m.card(r.Target) != nil {
				next[key] = append(next[key], r.Target)
			}
		}
	}
	// Tarjan's algorithm, iterative over the sorted keys for determinism.
	index, low := map[string]int{}, map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	var out [][]string
	n := 0
	var visit func(string)
	visit = func(k string) {
		index[k], low[k] = n, n
		n++
		stack = append(stack, k)
		onStack[k] = true
		for _, t := range next[k] {
			if _, seen := index[t]; !seen {
				visit(t)
				low[k] = min(low[k], low[t])
			} else if onStack[t] {
				low[k] = min(low[k], index[t])
			}
		}
		if low[k] != index[k] {
			return
		}
		var comp []string
		for {
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[top] = false
			comp = append(comp, top)
			if top == k {
				break
			}
		}
		if len(comp) > 1 || slices.Contains(next[k], k) {
			out = append(out, cycleOrder(comp, next))
		}
	}
	for _, k := range sortedKeys(v.m.byKey) {
		if _, seen := index[k]; !seen {
			visit(k)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// cycleOrder walks a component from its smallest key along relations that
// stay inside it, giving a readable cycle.
func cycleOrder(comp []string, next map[string][]string) []string {
	in := map[string]bool{}
	for _, k := range comp {
		in[k] = true
	}
	slices.Sort(comp)
	order := []string{comp[0]}
	seen := map[string]bool{comp[0]: true}
	for cur := comp[0]; ; {
		moved := false
		for _, t := range next[cur] {
			if in[t] && !seen[t] {
				order, seen[t], cur, moved = append(order, t), true, t, true
				break
			}
		}
		if !moved {
			break
		}
	}
	return order
}
