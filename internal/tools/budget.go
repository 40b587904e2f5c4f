package tools

import (
	"sync"
)

// ReadBudget is the session read budget: how many bytes of whole files
// (read_file_full) one process has handed out. Bulk reads are the quickest way
// for an agent to flood its context; the budget makes that a decision
// (reset_budget) instead of an accident. One per process, shared by every
// call of every client.
type ReadBudget struct {
	mu    sync.Mutex // guards used
	used  int64      // bytes returned so far
	limit int64      // bytes; fixed at creation
}

// NewReadBudget makes a budget of limit bytes.
func NewReadBudget(limit int64) *ReadBudget { return &ReadBudget{limit: limit} }

// Limit is the size of the budget in bytes.
func (b *ReadBudget) Limit() int64 { return b.limit }

// Used is how many bytes have been spent.
func (b *ReadBudget) Used() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// Remaining is how many bytes may still be spent.
func (b *ReadBudget) Remaining() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return max(b.limit-b.used, 0)
}

// Report is the budget as answers show it.
func (b *ReadBudget) Report() BudgetReport {
	return BudgetReport{Limit: b.Limit(), Used: b.Used(), Remaining: b.Remaining()}
}

// Spend takes n bytes from the budget when they fit and reports whether they
// did; the check and the spend are one step, so concurrent reads cannot
// overdraw it together.
func (b *ReadBudget) Spend(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.limit {
		return false
	}
	b.used += n
	return true
}

// Adjust corrects the spent amount by n bytes (negative: a refund), without
// the limit check: for reads whose size changed after they were admitted.
func (b *ReadBudget) Adjust(n int64) {
	b.mu.Lock()
	b.used = max(b.used+n, 0)
	b.mu.Unlock()
}

// Reset empties the spent amount (for reset_budget).
func (b *ReadBudget) Reset() {
	b.mu.Lock()
	b.used = 0
	b.mu.Unlock()
}

var budgetMu sync.Mutex // guards the lazy creation of Env.Reads

// reads returns the Env's read budget, creating it on first use.
func (e *Env) reads() *ReadBudget {
	budgetMu.Lock()
	defer budgetMu.Unlock()
	if e.Reads == nil {
		e.Reads = NewReadBudget(e.Config.Read.SessionBudgetKiB << 10)
	}
	return e.Reads
}
