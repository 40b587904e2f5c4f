// Package agentbench asks Cairn the questions a coding agent asks about a
// real repository (who calls this, what does it call, who implements this
// interface, who imports this package, where is this defined, where is this
// used, which build variants define it), each in ONE CLI call with --json,
// and scores every answer against ground truth written down beforehand from
// the compilers' own tools (gopls, typescript-language-server, pyright, the
// Go toolchain's build constraints). It also prices each answer in tokens
// against an expert's grep-and-read baseline.
package agentbench

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
)

// Kinds of questions, in report order.
const (
	KindCallers      = "callers"         // who calls a function directly
	KindCallees      = "callees"         // what a function calls directly
	KindImpls        = "implementations" // Go: types implementing an interface; TS/Python: direct subclasses
	KindImporters    = "importers"       // files importing a package (Go) or a module file (TS, Python)
	KindDependents   = "dependents"      // packages depending directly on a package
	KindDefinition   = "definition"      // go to definition from a position
	KindReferences   = "references"      // references of one of several same-named symbols
	KindBuildVariant = "build-variants"  // every definition of a name defined per platform or build tag
)

// Kinds lists the kinds in report order.
var Kinds = []string{KindCallers, KindCallees, KindImpls, KindImporters, KindDependents, KindDefinition, KindReferences, KindBuildVariant}

// Set is a question set with its ground truth, as committed in questions.json.
type Set struct {
	Version int    `json:"version"`
	Seed    uint64 `json:"seed"`
	// Generated is the date the ground truth was computed (YYYY-MM-DD).
	Generated string `json:"generated"`
	// Quota is the number of questions drawn per kind.
	Quota map[string]int `json:"quota"`
	// Corpora names each repository's source and version.
	Corpora map[string]string `json:"corpora"`
	// Oracles names each oracle tool and its pinned version.
	Oracles   map[string]string `json:"oracles"`
	Questions []Question        `json:"questions"`
}

// Question is one agent question with its ground truth.
type Question struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
	Repo string `json:"repo"`
	Lang string `json:"lang"`
	// Target is what the agent names: a symbol (`gin.Engine.ServeHTTP`,
	// `src/internal/Subject.ts#Subject.next`, `django.db.models.Model.save`),
	// a package directory, a file path, or a position `PATH:LINE:COL`.
	Target string `json:"target"`
	// Text is the question in words.
	Text string `json:"text"`
	// Command is the Cairn CLI call that asks it (arguments after `cairn`,
	// without --repo and --state-dir, which the runner adds).
	Command []string `json:"command"`
	// Note records a choice made for this question (e.g. the command a
	// missing tool would take).
	Note string `json:"note,omitempty"`
	// Baseline is the word the grep baseline searches for (`rg -n -w`), or,
	// with BaselineFixed, the literal text (`rg -n -F`).
	Baseline      string `json:"baseline"`
	BaselineFixed bool   `json:"baseline_fixed,omitempty"`
	// Oracle names the tool and request that produced the truth.
	Oracle string `json:"oracle"`
	// Truth is the exact set of true items, as keys (see Item).
	Truth []string `json:"truth"`
	// TruthNames labels the truth items for people (same order), optional.
	TruthNames []string `json:"truth_names,omitempty"`
}

// Scope says which paths of a repository a question's items may lie in:
// the oracle's workspace. Items outside it are left out on both sides.
var Scope = map[string][]string{
	"kubernetes": {"!staging/", "!vendor/", "!third_party/"},
	"rxjs":       {"src/"},
	"effect":     {"src/"},
	"django":     {"django/"},
}

// InScope reports whether a repo-relative path lies in the repository's scope.
func InScope(repo, path string) bool {
	rules := Scope[repo]
	inc, anyInc := false, false
	for _, r := range rules {
		if r[0] == '!' {
			if hasPrefix(path, r[1:]) {
				return false
			}
			continue
		}
		anyInc = true
		if hasPrefix(path, r) {
			inc = true
		}
	}
	return inc || !anyInc
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

// Load reads a question set.
func Load(path string) (*Set, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s Set
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &s, nil
}

// Save writes a question set (indented, questions in id order within kind order).
func (s *Set) Save(path string) error {
	order := map[string]int{}
	for i, k := range Kinds {
		order[k] = i
	}
	sort.SliceStable(s.Questions, func(i, j int) bool {
		a, b := s.Questions[i], s.Questions[j]
		if order[a.Kind] != order[b.Kind] {
			return order[a.Kind] < order[b.Kind]
		}
		return a.ID < b.ID
	})
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
