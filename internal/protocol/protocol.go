// Package protocol holds the domain types every layer shares: repository paths,
// locations, the response envelope and its provenance. It has no behaviour beyond
// validation and canonical encoding, and imports nothing from the rest of Cairn.
package protocol

import "encoding/json"

// RepoPath is a slash-separated path relative to the repository root, canonical:
// no leading slash, no "." or ".." elements, no trailing slash.
type RepoPath string

// Location is a span in a file. Lines are 1-based; columns are 1-based and count
// bytes; EndCol is exclusive.
type Location struct {
	Path    RepoPath `json:"path"`
	Line    int      `json:"line"`
	Col     int      `json:"col"`
	EndLine int      `json:"end_line"`
	EndCol  int      `json:"end_col"`
}

// SchemaVersion is the version of the envelope and of every tool's payload shape.
const SchemaVersion = 2

// Envelope is the one shape every tool returns (DESIGN §6). On success Answer and
// Data are set; on failure Error is set instead.
type Envelope struct {
	Answer      string       `json:"answer,omitempty"`
	Data        any          `json:"data,omitempty"`
	Error       *ErrorObject `json:"error,omitempty"`
	Provenance  Provenance   `json:"provenance"`
	NextActions []NextAction `json:"next_actions"`
	Meta        Meta         `json:"meta"`
}

// ErrorObject is the wire form of a failed call.
type ErrorObject struct {
	Code       string         `json:"code"`
	CodeNum    int            `json:"code_num"`
	Message    string         `json:"message"`
	Retryable  bool           `json:"retryable"`
	Details    map[string]any `json:"details"`
	Fixes      []string       `json:"fixes"`
	Candidates []any          `json:"candidates,omitempty"`
}

// Provenance says where an answer came from and how far to trust it.
type Provenance struct {
	RepoStateID   string           `json:"repo_state_id"`
	Head          string           `json:"head,omitempty"`
	Dirty         bool             `json:"dirty"`
	Consistency   string           `json:"consistency"`
	RepoStateMode string           `json:"repo_state_mode"`
	Freshness     string           `json:"freshness"`
	IndexState    string           `json:"index_state"`
	Epoch         int64            `json:"epoch"`
	Layers        []string         `json:"layers"`
	Completeness  Completeness     `json:"completeness"`
	Warnings      []string         `json:"warnings"`
	Truncations   []Truncation     `json:"truncations"`
	LimitsApplied map[string]Limit `json:"limits_applied"`
}

// Completeness is a score in [0,1] with the reason for it.
type Completeness struct {
	Score  float64 `json:"score"`
	Reason string  `json:"reason"`
}

// Truncation records a list that was cut short and how to get the rest.
type Truncation struct {
	Field    string `json:"field"`
	Returned int    `json:"returned"`
	Total    int    `json:"total,omitempty"`
	Reason   string `json:"reason"`
	Cursor   string `json:"cursor,omitempty"`
	// DroppedTests and DroppedNonTests split what was left out of a list of
	// code items (callers, implementations) between items declared in test
	// files and the others; lists cut tests first.
	DroppedTests    int `json:"dropped_tests,omitempty"`
	DroppedNonTests int `json:"dropped_non_tests,omitempty"`
}

// Limit records a budget that was clamped: what was asked and what was used.
type Limit struct {
	Requested int `json:"requested"`
	Applied   int `json:"applied"`
	Cap       int `json:"cap"`
}

// NextAction is a suggested follow-up call (a drilldown).
type NextAction struct {
	Tool string         `json:"tool"`
	Args map[string]any `json:"args"`
	Why  string         `json:"why"`
}

// Meta carries request bookkeeping. Only TimingMS and RequestID vary between two
// identical requests on the same repository state.
type Meta struct {
	SchemaVersion int    `json:"schema_version"`
	RequestID     string `json:"request_id"`
	TaskID        string `json:"task_id,omitempty"`
	// Task carries the counters of the task the call ran in (with TaskID).
	Task        *TaskMeta        `json:"task,omitempty"`
	TimingMS    map[string]int64 `json:"timing_ms"`
	Tokens      int              `json:"tokens"`
	TokensSaved int              `json:"tokens_saved"`
	// Consistency is the view the call answered from: committed (the
	// indexed tree), workspace (plus WorkspaceID's overlay) or ephemeral
	// (plus the request's virtual files).
	Consistency     string `json:"consistency"`
	WorkspaceID     string `json:"workspace_id,omitempty"`
	OverlayRevision int    `json:"overlay_revision,omitempty"`
	OverlayFiles    int    `json:"overlay_files,omitempty"`
	// Approximations say where an answer through an overlay leans on the
	// baseline index (links, totals) rather than on the overlay.
	Approximations []string `json:"approximations,omitempty"`
}

// Freshness values.
const (
	Fresh       = "fresh"
	MayBeStale  = "may-be-stale"
	StateReady  = "ready"
	StateIndex  = "indexing"
	StateStale  = "stale"
	StateFailed = "failed"
	// StateUnknown is the state an error envelope reports when the call
	// stopped before it opened the index (a usage error).
	StateUnknown = "unknown"
)

// Progress reports long work: a phase (scan, parse, link, commit, or a
// semantic job's step) and how far it is.
type Progress struct {
	Phase string
	Done  int
	Total int
	// Item names what just finished, when the work is a list of items
	// (a test target and its status).
	Item string
}

// Provenance defaults: what a compact provenance leaves out.
const (
	defaultConsistency   = "committed"
	defaultRepoStateMode = "head"
	fullIndex            = "full-index"
)

// compact reports whether the provenance says nothing beyond "fresh and
// complete": ready, fresh, completeness 1 of the full index, no warning,
// truncation or clamped limit.
func (p Provenance) compact() bool {
	return p.Freshness == Fresh && p.IndexState == StateReady && p.Completeness == Completeness{Score: 1, Reason: fullIndex} &&
		len(p.Warnings) == 0 && len(p.Truncations) == 0 && len(p.LimitsApplied) == 0
}

// provenanceWire is the compact form (schema 2): the state's identity
// (repo_state_id, head, epoch), freshness and layers, and of dirty,
// consistency and repo_state_mode only what differs from false, committed
// and head. Absent fields read as index_state ready, completeness
// {1, full-index}, no warnings, truncations or limits_applied.
type provenanceWire struct {
	RepoStateID   string   `json:"repo_state_id"`
	Head          string   `json:"head,omitempty"`
	Dirty         bool     `json:"dirty,omitempty"`
	Consistency   string   `json:"consistency,omitempty"`
	RepoStateMode string   `json:"repo_state_mode,omitempty"`
	Freshness     string   `json:"freshness"`
	Epoch         int64    `json:"epoch"`
	Layers        []string `json:"layers"`
}

// provenanceFull is Provenance without its methods.
type provenanceFull Provenance

// MarshalJSON writes the compact form when the answer is fresh and
// complete, the full one otherwise.
func (p Provenance) MarshalJSON() ([]byte, error) {
	if p.Layers == nil {
		p.Layers = []string{}
	}
	if !p.compact() {
		if p.Warnings == nil {
			p.Warnings = []string{}
		}
		if p.Truncations == nil {
			p.Truncations = []Truncation{}
		}
		if p.LimitsApplied == nil {
			p.LimitsApplied = map[string]Limit{}
		}
		return json.Marshal(provenanceFull(p))
	}
	w := provenanceWire{RepoStateID: p.RepoStateID, Head: p.Head, Dirty: p.Dirty, Freshness: p.Freshness, Epoch: p.Epoch, Layers: p.Layers}
	if p.Consistency != defaultConsistency {
		w.Consistency = p.Consistency
	}
	if p.RepoStateMode != defaultRepoStateMode {
		w.RepoStateMode = p.RepoStateMode
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads either form, filling what the compact one leaves out.
func (p *Provenance) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	var full provenanceFull
	if err := json.Unmarshal(b, &full); err != nil {
		return err
	}
	if _, ok := raw["completeness"]; !ok {
		full.IndexState = StateReady
		full.Completeness = Completeness{Score: 1, Reason: fullIndex}
		if full.Consistency == "" {
			full.Consistency = defaultConsistency
		}
		if full.RepoStateMode == "" {
			full.RepoStateMode = defaultRepoStateMode
		}
		full.Warnings, full.Truncations, full.LimitsApplied = []string{}, []Truncation{}, map[string]Limit{}
	}
	*p = Provenance(full)
	return nil
}
