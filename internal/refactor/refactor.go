// Package refactor plans renames, file moves and symbol deletions, decides
// through the mutation gate whether a plan may be applied as it is, and
// applies it through the mutation engine as one batch, optionally after
// proving that the result still builds. It owns the plans (stored in the
// state directory until applied, cancelled or expired) and the cache of the
// decisions agents took on ambiguous plans.
//
// File states (DESIGN §7). Every file a plan touches gets a freshness and a
// certainty:
//
//   - clean: the bytes on disk are the bytes the snapshot indexed, and git
//     has no uncommitted change for the file (or the tree is not in git).
//   - dirty: the bytes on disk are the bytes the snapshot indexed, but they
//     differ from HEAD (uncommitted work). Cairn indexes the working tree,
//     so the facts describe exactly what will be edited: a dirty file does
//     not block. It is reported, because the plan's edits land on top of
//     work that is not committed (edit_undo reverts only the plan's edits).
//   - stale: the bytes on disk differ from what the snapshot indexed, or the
//     file is gone: the facts the plan rests on are not the file's.
//   - pending_check: the file itself is current but what its references
//     resolve through is not: the symbol's defining file is stale, or the
//     index is known to be behind the tree (changes seen but not indexed).
//   - unindexed: the index does not know the file.
//
// and certainty is certain when every edit in the file rests on a precise,
// proven or strong reference, ambiguous when anchored candidates (same name,
// unproven target) exist there. The gate lets a plan apply automatically only
// when every affected file is clean or dirty and certain. A stale,
// pending_check or unindexed file blocks it (status blocked, with a witness
// packet and the refresh to run); anchored candidates make it needs_decision
// (candidate groups with their exact edits, witness packet and one decision
// capsule per group). force_syntactic applies the certain edits only and
// leaves the groups listed for review.
//
// The package never writes a file itself: the mutation engine does, and the
// caller brings the index up to date afterwards.
package refactor

import (
	"time"

	"github.com/cairnhq/cairn/internal/query"
)

// Plan statuses.
const (
	StatusReady         = "ready"
	StatusNeedsDecision = "needs_decision"
	StatusBlocked       = "blocked"
)

// Operations.
const (
	OpRename = "rename"
	OpMove   = "move"
	OpDelete = "delete"
)

// Freshness of a file.
const (
	Clean        = "clean"
	Dirty        = "dirty"
	Stale        = "stale"
	PendingCheck = "pending_check"
	Unindexed    = "unindexed"
)

// Certainty of a file.
const (
	Certain   = "certain"
	Ambiguous = "ambiguous"
)

// DefaultTTL is how long a plan stays valid when nothing it rests on changes.
const DefaultTTL = 30 * time.Minute

// Plan is a planned refactor: what it would change and whether the gate lets
// it apply.
type Plan struct {
	ID     string `json:"refactor_id"`
	Op     string `json:"op"`
	Status string `json:"status"`
	// Reason says why the plan is not ready.
	Reason  string           `json:"reason,omitempty"`
	Symbol  *query.SymbolRef `json:"symbol,omitempty"`
	NewName string           `json:"new_name,omitempty"`
	From    string           `json:"from,omitempty"`
	To      string           `json:"to,omitempty"`
	Created time.Time        `json:"created_at"`
	Expires time.Time        `json:"expires_at"`
	// Epoch is the index epoch the plan was made at.
	Epoch  int64  `json:"epoch"`
	Counts Counts `json:"counts"`
	// Edits are the certain edits: applied whenever the plan is.
	Edits []Edit `json:"edits"`
	// Groups are the candidate groups of a needs_decision plan: anchored
	// references, applied only when selected.
	Groups []Group `json:"groups"`
	// Moves are the files a move renames (their content edits are in Edits,
	// against the old path).
	Moves []Move `json:"moves,omitempty"`
	// Deletes are spans a symbol deletion removes (also in Edits).
	Docs    DocSweep `json:"docs"`
	Witness Witness  `json:"witness"`
	// Signature identifies the ambiguity (the stable keys of the groups).
	Signature string `json:"ambiguity_signature,omitempty"`
	// Offered is a decision taken before on the same ambiguity: offered,
	// never applied without being asked for.
	Offered *Offer `json:"offered_decision,omitempty"`
	// Languages are the languages of the files the plan changes (verify).
	Languages []string `json:"languages"`
	Warnings  []string `json:"warnings,omitempty"`
}

// Counts summarise a plan.
type Counts struct {
	Files      int `json:"files"`
	Edits      int `json:"edits"`
	Groups     int `json:"groups"`
	GroupEdits int `json:"group_edits"`
	Docs       int `json:"docs"`
	Moves      int `json:"moves,omitempty"`
}

// Edit replaces the text of a span of a file (as the plan saw the file).
type Edit struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`     // 1-based
	Col     int    `json:"col"`      // 1-based, in bytes
	EndLine int    `json:"end_line"` // 1-based
	EndCol  int    `json:"end_col"`  // 1-based, in bytes, exclusive
	Old     string `json:"old"`
	New     string `json:"new"`
	// Kind is what the span is: definition, reference, call, import,
	// package, import_path, declaration, doc.
	Kind  string `json:"kind"`
	Tier  string `json:"tier,omitempty"`
	Layer string `json:"layer,omitempty"`
}

// Group is a set of anchored candidates that one decision settles: the same
// token with the same receiver shape inside the same enclosing type.
type Group struct {
	ID string `json:"id"` // g1, g2, ... in key order
	// Key is stable across plans of the same ambiguity.
	Key         string  `json:"key"`
	Description string  `json:"description"`
	Receiver    string  `json:"receiver"`
	Enclosing   string  `json:"enclosing,omitempty"`
	Count       int     `json:"count"`
	Files       int     `json:"files"`
	Edits       []Edit  `json:"edits"`
	Capsule     Capsule `json:"capsule"`
}

// Capsule is a decision capsule: the one bounded question a group asks and
// the evidence on either side.
type Capsule struct {
	Kind     string   `json:"kind"` // receiver_resolution, scope_resolution
	Question string   `json:"question"`
	For      []string `json:"evidence_for"`
	Against  []string `json:"evidence_against"`
	VerifyBy string   `json:"verify_by"`
	StopRule string   `json:"stop_rule"`
}

// Move renames a file.
type Move struct {
	From string `json:"from"`
	To   string `json:"to"`
	// GitMV: the file is tracked and clean, so git's index records the
	// rename too (as git mv does).
	GitMV  bool   `json:"git_mv"`
	Reason string `json:"reason,omitempty"` // why not git mv
}

// Offer is a cached decision offered for the same ambiguity.
type Offer struct {
	Groups    []string  `json:"groups"` // group ids of this plan it selected
	DecidedAt time.Time `json:"decided_at"`
	PlanID    string    `json:"from_plan"`
}

// DocSweep lists mentions of the old name in comments, strings and
// documentation: never edited unless asked for (include_docs).
type DocSweep struct {
	Hits      []DocHit `json:"hits"`
	Total     int      `json:"total"`
	Included  bool     `json:"included"`
	Truncated bool     `json:"truncated,omitempty"`
}

// DocHit is one mention.
type DocHit struct {
	Edit
	Where      string `json:"where"`      // markdown, text, comment_or_string, doc_comment
	Confidence string `json:"confidence"` // high, medium, low
	Context    string `json:"context"`
}

// Witness is what the gate checked and found.
type Witness struct {
	Epoch       int64       `json:"epoch"`
	RepoStateID string      `json:"repo_state_id"`
	Head        string      `json:"head,omitempty"`
	Files       []FileCheck `json:"files"`
	// Semantic is how the semantic layer took part.
	Semantic string `json:"semantic"`
	// Failed lists the invariants that did not hold: files_not_fresh,
	// index_behind, ambiguous_references.
	Failed []string `json:"invariants_failed"`
	// Facts are the definition and the other definitions of the name.
	Facts     []Fact     `json:"facts"`
	Checklist []Question `json:"disambiguation_checklist,omitempty"`
	Refresh   []Refresh  `json:"refresh,omitempty"`
}

// FileCheck is one affected file as the gate saw it.
type FileCheck struct {
	Path      string `json:"path"`
	Freshness string `json:"freshness"`
	Certainty string `json:"certainty"`
	// Layer that produced the file's edits: semantic, syntactic, text.
	Layer       string `json:"layer"`
	Epoch       int64  `json:"file_epoch"`
	IndexedHash string `json:"indexed_hash,omitempty"`
	DiskHash    string `json:"disk_hash,omitempty"`
	// SHA256 is the file's content hash at plan time: the precondition of
	// every write of the plan.
	SHA256 string `json:"sha256,omitempty"`
	Git    string `json:"git,omitempty"` // clean, modified, untracked, outside
	Edits  int    `json:"edits"`
	Reason string `json:"reason,omitempty"`
}

// Fact is a piece of evidence.
type Fact struct {
	Type       string  `json:"type"` // definition, other_definition
	Symbol     string  `json:"symbol"`
	Path       string  `json:"path"`
	Line       int     `json:"line"`
	Content    string  `json:"content"`
	Provenance string  `json:"provenance"`
	Confidence float64 `json:"confidence"`
}

// Question is what would settle an ambiguity.
type Question struct {
	Question    string `json:"question"`
	FactNeeded  string `json:"fact_needed"`
	HowToVerify string `json:"how_to_verify"`
}

// Refresh is a command that would make a blocked plan possible.
type Refresh struct {
	Tool string         `json:"tool"`
	Args map[string]any `json:"args"`
	CLI  string         `json:"cli"`
	Why  string         `json:"why"`
}
