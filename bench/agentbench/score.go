package agentbench

import (
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Item keys. Every answer and every truth is reduced to a set of keys of one
// shape per kind, and two items are the same when their keys are equal:
//
//   - a location (references, definition, build variants): "PATH:LINE", the
//     repo-relative path and the 1-based line of the occurrence (columns are
//     left out: tools disagree on where a qualified name starts);
//   - a symbol (callers, callees, implementations): "PATH:LINE" of its
//     declared name, which names one declaration in the repository
//     whatever the tools call it;
//   - a file (importers): "PATH";
//   - a package (dependents): its directory, "PATH" ("." for the root).
func LocKey(path string, line int) string { return path + ":" + strconv.Itoa(line) }

// Verdict is the score of one answer against its truth.
type Verdict struct {
	Correct bool     `json:"correct"`
	Missing []string `json:"missing,omitempty"` // true items the answer lacks
	Extra   []string `json:"extra,omitempty"`   // items the answer gives that are not true
	Found   int      `json:"found"`             // true items the answer gives
}

// Compare scores an answer's items against the truth: correct when every
// true item is present and no false one is.
func Compare(truth, answer []string) Verdict {
	t := set(truth)
	a := set(answer)
	var v Verdict
	for k := range t {
		if a[k] {
			v.Found++
		} else {
			v.Missing = append(v.Missing, k)
		}
	}
	for k := range a {
		if !t[k] {
			v.Extra = append(v.Extra, k)
		}
	}
	sort.Strings(v.Missing)
	sort.Strings(v.Extra)
	v.Correct = len(v.Missing) == 0 && len(v.Extra) == 0 && len(t) > 0
	return v
}

func set(xs []string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// envelope is the part of Cairn's response envelope the scorer reads.
type envelope struct {
	Answer string         `json:"answer"`
	Data   map[string]any `json:"data"`
	Error  *struct {
		Code       string `json:"code"`
		Message    string `json:"message"`
		Candidates []any  `json:"candidates"`
	} `json:"error"`
}

// Extract reduces a Cairn --json envelope to the items it answers for a
// question of the kind (keys as Compare wants them), keeping only paths in
// the repository's scope. target is the question's target (a package
// directory for dependents, whose own directory is not a dependent).
// An error envelope answers nothing, except the candidates of an ambiguous
// name, which answer a definition or build-variant question.
func Extract(kind, repo, target string, out []byte) ([]string, string, error) {
	var env envelope
	if err := json.Unmarshal(out, &env); err != nil {
		return nil, "", fmt.Errorf("not a JSON envelope: %w", err)
	}
	var items []string
	add := func(k string, p string) {
		if p != "" && InScope(repo, p) {
			items = append(items, k)
		}
	}
	addLoc := func(loc any) {
		m, _ := loc.(map[string]any)
		p, _ := m["path"].(string)
		line, _ := m["line"].(float64)
		if p != "" && line > 0 {
			add(LocKey(p, int(line)), p)
		}
	}
	if env.Error != nil {
		status := "error " + env.Error.Code
		if kind == KindDefinition || kind == KindBuildVariant {
			for _, c := range env.Error.Candidates {
				m, _ := c.(map[string]any)
				addLoc(m["location"])
			}
		}
		return dedupe(items), status, nil
	}
	d := env.Data
	switch kind {
	case KindCallers, KindCallees:
		for _, n := range list(d["nodes"]) {
			if num(n["depth"]) == 1 {
				addLoc(n["location"])
			}
		}
		if kind == KindCallees {
			// calls through an interface method: the method called
			for _, dy := range list(d["dynamic"]) {
				th, _ := dy["through"].(map[string]any)
				addLoc(th["location"])
			}
		} else {
			// calls that may reach the target through an interface: their callers
			locs := map[string]any{}
			for _, n := range list(d["nodes"]) {
				if id, ok := n["symbol_id"].(string); ok {
					locs[id] = n["location"]
				}
			}
			for _, dy := range list(d["dynamic"]) {
				if id, ok := dy["from"].(string); ok && locs[id] != nil {
					addLoc(locs[id])
				} else if c, ok := dy["caller"].(map[string]any); ok {
					addLoc(c["location"])
				}
			}
		}
	case KindImpls:
		for _, key := range []string{"implementations", "subtypes"} {
			for _, e := range list(d[key]) {
				if key == "subtypes" && num(e["depth"]) > 1 {
					continue // direct subclasses only
				}
				if rel, _ := e["relation"].(string); key == "subtypes" && rel == "embeds" {
					continue // Go: a type embedding it is no implementation of it
				}
				sym, _ := e["symbol"].(map[string]any)
				addLoc(sym["location"])
			}
		}
	case KindReferences:
		for _, l := range list(d["locations"]) {
			addLoc(l)
		}
	case KindDefinition, KindBuildVariant:
		addLoc(d["location"])
		for _, key := range []string{"variants", "candidates"} {
			for _, v := range list(d[key]) {
				if loc, ok := v["location"]; ok {
					addLoc(loc)
				} else {
					addLoc(v)
				}
			}
		}
	case KindImporters, KindDependents:
		direct, _ := d["direct"].(map[string]any)
		for _, m := range list(direct["modules"]) {
			for _, p := range list(m["packages"]) {
				dir, _ := p["dir"].(string)
				if dir == "" {
					dir = "."
				}
				if kind == KindDependents {
					if dir != path.Clean(target) {
						add(dir, dir)
					}
					continue
				}
				samples, _ := p["sample"].([]any)
				for _, f := range samples {
					if s, ok := f.(string); ok {
						add(s, s)
					}
				}
			}
		}
		// a list of importing files, where the tool gives one
		for _, key := range []string{"importers", "files"} {
			for _, f := range list(d[key]) {
				if p, ok := f["path"].(string); ok {
					if kind == KindDependents {
						dir := path.Dir(p)
						if dir != path.Clean(target) {
							add(dir, dir)
						}
					} else {
						add(p, p)
					}
				}
			}
		}
	}
	return dedupe(items), "ok", nil
}

func list(v any) []map[string]any {
	xs, _ := v.([]any)
	out := make([]map[string]any, 0, len(xs))
	for _, x := range xs {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func num(v any) float64 { f, _ := v.(float64); return f }

func dedupe(xs []string) []string {
	sort.Strings(xs)
	out := xs[:0]
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// Tokens estimates the tokens of a text: characters / 4, rounded up.
func Tokens(chars int) int { return (chars + 3) / 4 }

// Window is the ±20 lines around a 1-based line of a file's lines: what the
// baseline reads around a grep hit.
func Window(lines []string, line int) string {
	lo, hi := line-20, line+20
	if lo < 1 {
		lo = 1
	}
	if hi > len(lines) {
		hi = len(lines)
	}
	if lo > hi {
		return ""
	}
	return strings.Join(lines[lo-1:hi], "\n") + "\n"
}

// GrepHit is one line of `rg -n` output over a repository: path and line.
type GrepHit struct {
	Path string
	Line int
}

// ParseGrep reads `rg -n` output lines (PATH:LINE:TEXT).
func ParseGrep(out string) []GrepHit {
	var hits []GrepHit
	for _, l := range strings.Split(out, "\n") {
		p, rest, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		n, _, ok := strings.Cut(rest, ":")
		if !ok {
			continue
		}
		line, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		hits = append(hits, GrepHit{Path: strings.TrimPrefix(p, "./"), Line: line})
	}
	return hits
}
