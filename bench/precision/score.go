package precision

import (
	"sort"
)

// Tiers in order of strength; an answer's location carries one.
var Tiers = []string{"precise", "proven", "strong", "anchored"}

// Answer is one system's answer for one symbol: locations with their tier.
type Answer map[Loc]string

// Truth is an oracle's answer for one symbol.
type Truth map[Loc]bool

// TierCount counts one tier's locations and how many of them are true.
type TierCount struct {
	Located int `json:"located"`
	True    int `json:"true"`
}

// Example is a location an answer got wrong, for the report.
type Example struct {
	Symbol string `json:"symbol"`
	Loc    string `json:"loc"`
	Tier   string `json:"tier,omitempty"` // the tier Cairn gave it ("" when Cairn missed it)
	Line   string `json:"line"`
	// Site is, for a missed caller, the call site that makes it one.
	Site     string `json:"site,omitempty"`
	SiteLine string `json:"site_line,omitempty"`
}

// Tally accumulates the scores of one system against one oracle.
type Tally struct {
	Symbols int                   `json:"symbols"`
	Exact   int                   `json:"exact"`      // symbols whose confident answer equals the truth
	Truth   int                   `json:"truth"`      // true locations, summed over symbols
	ByTier  map[string]*TierCount `json:"by_tier"`    // located and true per tier
	Found   map[string]int        `json:"found_upto"` // true locations found at this tier or a stronger one
	FP      []Example             `json:"false_positives"`
	FN      []Example             `json:"false_negatives"`
	// Weak are true locations found only as anchored candidates.
	Weak      []Example      `json:"only_anchored"`
	WeakTotal int            `json:"only_anchored_total"`
	FPTotal   map[string]int `json:"false_positives_by_tier"`
	FNTotal   int            `json:"false_negatives_total"`
}

// NewTally starts an empty tally.
func NewTally() *Tally {
	t := &Tally{ByTier: map[string]*TierCount{}, Found: map[string]int{}, FPTotal: map[string]int{}, FP: []Example{}, FN: []Example{}, Weak: []Example{}}
	for _, tier := range Tiers {
		t.ByTier[tier] = &TierCount{}
	}
	return t
}

// maxExamples bounds the wrong locations kept per tally: few for the
// (plentiful) anchored candidates, all misses up to a cap for analysis.
const (
	maxExamples = 40
	maxMisses   = 5000
)

// Add scores one symbol's answer against its truth.
func (t *Tally) Add(symbol string, a Answer, truth Truth, files *Files) {
	t.Symbols++
	t.Truth += len(truth)
	best := map[Loc]int{} // truth location -> strongest tier rank that found it
	exact := true
	for _, l := range sortedLocs(a) {
		tier := a[l]
		tc := t.ByTier[tier]
		if tc == nil {
			tc = &TierCount{}
			t.ByTier[tier] = tc
		}
		tc.Located++
		if truth[l] {
			tc.True++
			r := rank(tier)
			if old, ok := best[l]; !ok || r < old {
				best[l] = r
			}
			continue
		}
		if tier != "anchored" {
			exact = false
		}
		t.FPTotal[tier]++
		if countTier(t.FP, tier) < maxExamples/len(Tiers)+2 {
			t.FP = append(t.FP, Example{Symbol: symbol, Loc: l.String(), Tier: tier, Line: readLines(files, l)})
		}
	}
	for _, l := range sortedTruth(truth) {
		r, ok := best[l]
		if !ok {
			t.FNTotal++
			exact = false
			if len(t.FN) < maxMisses {
				t.FN = append(t.FN, Example{Symbol: symbol, Loc: l.String(), Tier: a[l], Line: readLines(files, l)})
			}
			continue
		}
		if r == rank("anchored") {
			exact = false
			t.WeakTotal++
			if len(t.Weak) < maxMisses {
				t.Weak = append(t.Weak, Example{Symbol: symbol, Loc: l.String(), Tier: "anchored", Line: readLines(files, l)})
			}
		}
		for i, tier := range Tiers {
			if i >= r {
				t.Found[tier]++
			}
		}
	}
	if exact {
		t.Exact++
	}
}

func countTier(ex []Example, tier string) int {
	n := 0
	for _, e := range ex {
		if e.Tier == tier {
			n++
		}
	}
	return n
}

func rank(tier string) int {
	for i, t := range Tiers {
		if t == tier {
			return i
		}
	}
	return len(Tiers)
}

// Precision of one tier (-1 when it located nothing).
func (t *Tally) Precision(tier string) float64 {
	tc := t.ByTier[tier]
	if tc == nil || tc.Located == 0 {
		return -1
	}
	return float64(tc.True) / float64(tc.Located)
}

// PrecisionUpTo is the precision of every location at this tier or stronger.
func (t *Tally) PrecisionUpTo(tier string) float64 {
	var located, true_ int
	for i, x := range Tiers {
		if i > rank(tier) {
			break
		}
		located += t.ByTier[x].Located
		true_ += t.ByTier[x].True
	}
	if located == 0 {
		return -1
	}
	return float64(true_) / float64(located)
}

// RecallUpTo is the share of true locations found at this tier or stronger.
func (t *Tally) RecallUpTo(tier string) float64 {
	if t.Truth == 0 {
		return -1
	}
	return float64(t.Found[tier]) / float64(t.Truth)
}

func sortedLocs(a Answer) []Loc {
	out := make([]Loc, 0, len(a))
	for l := range a {
		out = append(out, l)
	}
	sortLocs(out)
	return out
}

func sortedTruth(t Truth) []Loc {
	out := make([]Loc, 0, len(t))
	for l := range t {
		out = append(out, l)
	}
	sortLocs(out)
	return out
}

func sortLocs(ls []Loc) {
	sort.Slice(ls, func(i, j int) bool {
		if ls[i].Path != ls[j].Path {
			return ls[i].Path < ls[j].Path
		}
		if ls[i].Line != ls[j].Line {
			return ls[i].Line < ls[j].Line
		}
		return ls[i].Col < ls[j].Col
	})
}
