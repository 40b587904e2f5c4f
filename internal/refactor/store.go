package refactor

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cairnhq/cairn/internal/errs"
)

// Store keeps plans (one small JSON file each) and the decision cache in
// the state directory. Plans are written once and removed when applied,
// cancelled or found expired; a process reads them back by id.
type Store struct {
	dir string
	now func() time.Time
	ttl time.Duration
}

// NewStore returns the store under a state directory. now and ttl may be
// zero (the clock, DefaultTTL).
func NewStore(stateDir string, now func() time.Time, ttl time.Duration) *Store {
	if now == nil {
		now = time.Now
	}
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	return &Store{dir: filepath.Join(stateDir, "refactor"), now: now, ttl: ttl}
}

// newPlanID names a plan: time-ordered, unique.
func newPlanID(now time.Time) string {
	var b [4]byte
	rand.Read(b[:])
	return "rf_" + now.UTC().Format("20060102T150405") + hex.EncodeToString(b[:])
}

// validID refuses ids that could name a file outside the plan directory.
func validID(id string) bool {
	if !strings.HasPrefix(id, "rf_") || len(id) > 64 {
		return false
	}
	for _, c := range id[3:] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c == 'T') {
			return false
		}
	}
	return true
}

func (s *Store) planPath(id string) string { return filepath.Join(s.dir, "plans", id+".json") }

// Save stores a new plan, giving it an id and its times.
func (s *Store) Save(p *Plan) error {
	now := s.now().UTC().Truncate(time.Second)
	p.ID, p.Created, p.Expires = newPlanID(now), now, now.Add(s.ttl)
	data, err := json.Marshal(p)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(s.dir, "plans"), 0o755); err != nil {
		return errs.Wrap(errs.Internal, err, "cannot keep the plan")
	}
	s.sweep(now)
	tmp := s.planPath(p.ID) + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return errs.Wrap(errs.Internal, err, "cannot keep the plan")
	}
	return os.Rename(tmp, s.planPath(p.ID))
}

// sweep removes plans that expired long ago (an hour past their expiry), so
// the directory does not grow with plans nobody applied.
func (s *Store) sweep(now time.Time) {
	ents, _ := os.ReadDir(filepath.Join(s.dir, "plans"))
	for _, e := range ents {
		info, err := e.Info()
		if err == nil && now.Sub(info.ModTime()) > s.ttl+time.Hour {
			os.Remove(filepath.Join(s.dir, "plans", e.Name()))
		}
	}
}

// Load reads a plan. A plan past its expiry is removed and reported as
// expired (PRECONDITION_FAILED).
func (s *Store) Load(id string) (*Plan, error) {
	if !validID(id) {
		return nil, &errs.Error{Kind: errs.InvalidArgument, Msg: "no refactor plan " + id + ": plan ids look like rf_20260101T120000ab12cd34"}
	}
	data, err := os.ReadFile(s.planPath(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &errs.Error{Kind: errs.NotFound, Msg: "no refactor plan " + id + " (applied, cancelled or expired)",
			Fixes: []string{"plan the refactor again"}}
	}
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "cannot read plan %s", id)
	}
	var p Plan
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "plan %s is damaged", id)
	}
	if !s.now().Before(p.Expires) {
		s.Remove(id)
		return nil, expired(id, "it expired at "+p.Expires.Format(time.RFC3339))
	}
	return &p, nil
}

// Remove drops a plan (cancel, apply, expiry).
func (s *Store) Remove(id string) bool {
	if !validID(id) {
		return false
	}
	return os.Remove(s.planPath(id)) == nil
}

// expired is the error of a plan that can no longer be applied.
func expired(id, why string) error {
	return &errs.Error{Kind: errs.Precondition, Msg: "plan expired: " + id + ": " + why,
		Details: map[string]any{"refactor_id": id, "reason": "plan_expired"},
		Fixes:   []string{"plan the refactor again (refactor_rename, refactor_move or refactor_delete)"}}
}

// decision is a cached choice among candidate groups.
type decision struct {
	Selected  []string  `json:"selected"` // group keys
	DecidedAt time.Time `json:"decided_at"`
	PlanID    string    `json:"plan_id"`
}

// decisionsMu serialises the read-modify-write of the decision file within
// a process; across processes the last writer wins, which loses at most a
// cached suggestion.
var decisionsMu sync.Mutex

func (s *Store) decisionsPath() string { return filepath.Join(s.dir, "decisions.json") }

// maxDecisions bounds the cache; the oldest decisions go first.
const maxDecisions = 500

func (s *Store) readDecisions() map[string]decision {
	out := map[string]decision{}
	if data, err := os.ReadFile(s.decisionsPath()); err == nil {
		json.Unmarshal(data, &out)
	}
	return out
}

// Decided records the groups selected for an ambiguity.
func (s *Store) Decided(signature string, selectedKeys []string, planID string) {
	if signature == "" {
		return
	}
	decisionsMu.Lock()
	defer decisionsMu.Unlock()
	all := s.readDecisions()
	keys := append([]string{}, selectedKeys...)
	sort.Strings(keys)
	all[signature] = decision{Selected: keys, DecidedAt: s.now().UTC().Truncate(time.Second), PlanID: planID}
	if len(all) > maxDecisions {
		type aged struct {
			sig string
			at  time.Time
		}
		var list []aged
		for k, d := range all {
			list = append(list, aged{k, d.DecidedAt})
		}
		sort.Slice(list, func(i, j int) bool { return list[i].at.Before(list[j].at) })
		for _, a := range list[:len(all)-maxDecisions] {
			delete(all, a.sig)
		}
	}
	data, _ := json.Marshal(all)
	os.MkdirAll(s.dir, 0o755)
	tmp := s.decisionsPath() + ".tmp"
	if os.WriteFile(tmp, data, 0o644) == nil {
		os.Rename(tmp, s.decisionsPath())
	}
}

// offer returns the cached decision for a plan's ambiguity, as group ids of
// the plan (nil when there is none).
func (s *Store) offer(p *Plan) *Offer {
	if p.Signature == "" {
		return nil
	}
	decisionsMu.Lock()
	d, ok := s.readDecisions()[p.Signature]
	decisionsMu.Unlock()
	if !ok {
		return nil
	}
	byKey := map[string]string{}
	for _, g := range p.Groups {
		byKey[g.Key] = g.ID
	}
	o := &Offer{Groups: []string{}, DecidedAt: d.DecidedAt, PlanID: d.PlanID}
	for _, k := range d.Selected {
		if id, ok := byKey[k]; ok {
			o.Groups = append(o.Groups, id)
		}
	}
	return o
}

// signature identifies an ambiguity: the operation, the symbol and the
// stable keys of its candidate groups.
func signature(op, symbol string, groups []Group) string {
	if len(groups) == 0 {
		return ""
	}
	keys := make([]string, len(groups))
	for i, g := range groups {
		keys[i] = g.Key
	}
	sort.Strings(keys)
	h := sha256.Sum256([]byte(op + "\x00" + symbol + "\x00" + strings.Join(keys, "\x00")))
	return hex.EncodeToString(h[:12])
}
