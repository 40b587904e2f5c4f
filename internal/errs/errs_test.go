package errs

import (
	"context"
	"fmt"
	"testing"
)

func TestEveryKindHasInfo(t *testing.T) {
	seen := map[string]bool{}
	nums := map[int]bool{}
	for k := Internal; k <= Usage; k++ {
		in, ok := kindInfo[k]
		if !ok {
			t.Fatalf("kind %d has no info", k)
		}
		if seen[in.code] || nums[in.num] {
			t.Fatalf("duplicate code %s/%d", in.code, in.num)
		}
		seen[in.code], nums[in.num] = true, true
		if in.num/1000 != in.exit {
			t.Errorf("%s: code_num %d does not match exit %d", in.code, in.num, in.exit)
		}
	}
}

func TestKindOf(t *testing.T) {
	wrapped := fmt.Errorf("outer: %w", E(NotFound, "no symbol %q", "x"))
	if got := KindOf(wrapped); got != NotFound {
		t.Errorf("KindOf(wrapped) = %v", got)
	}
	if got := KindOf(context.DeadlineExceeded); got != Timeout {
		t.Errorf("deadline = %v", got)
	}
	if got := KindOf(fmt.Errorf("boom")); got != Internal {
		t.Errorf("plain = %v", got)
	}
	if got := As(wrapped).Kind.ExitCode(); got != 3 {
		t.Errorf("exit = %d", got)
	}
}
