package errs

import "testing"

// TestTaskBudgetExceeded pins the wire form of the task budget refusal:
// clients match on it, so it never changes.
func TestTaskBudgetExceeded(t *testing.T) {
	k := TaskBudgetExceeded
	if k.Code() != "TASK_BUDGET_EXCEEDED" || k.Num() != 7003 || k.ExitCode() != 7 || k.Retryable() {
		t.Errorf("TASK_BUDGET_EXCEEDED = %s %d exit %d retryable %v", k.Code(), k.Num(), k.ExitCode(), k.Retryable())
	}
	for other, in := range kindInfo {
		if other != k && (in.code == k.Code() || in.num == k.Num()) {
			t.Errorf("%s shares its code with %s", in.code, k.Code())
		}
	}
}
