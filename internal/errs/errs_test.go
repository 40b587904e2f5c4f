package errs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
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

// A write the disk refuses is NO_SPACE, from the system call or from
// SQLite's result codes; other failures keep their kinds.
func TestNoSpace(t *testing.T) {
	for _, err := range []error{
		&os.PathError{Op: "write", Path: "f", Err: syscall.ENOSPC},
		fmt.Errorf("store: %w", &os.PathError{Op: "write", Path: "f", Err: syscall.EFBIG}),
		sqliteErr(13), sqliteErr(778), sqliteErr(4874),
	} {
		if !IsNoSpace(err) || KindOf(err) != NoSpace {
			t.Errorf("%v: kind %v, want NO_SPACE", err, KindOf(err))
		}
		if w := WrapWrite(err, "cannot write x"); w.Kind != NoSpace || len(w.Fixes) == 0 {
			t.Errorf("WrapWrite(%v) = %v", err, w)
		}
	}
	for _, err := range []error{errors.New("disk I/O error"), sqliteErr(11), &os.PathError{Op: "open", Path: "f", Err: syscall.EACCES}} {
		if IsNoSpace(err) {
			t.Errorf("%v taken for a full disk", err)
		}
	}
	if w := WrapWrite(errors.New("boom"), "cannot write x"); w.Kind != Internal {
		t.Errorf("WrapWrite of another failure: %v", w.Kind)
	}
}

// sqliteErr is an error with a SQLite result code, as the driver reports.
type sqliteErr int

func (e sqliteErr) Error() string { return fmt.Sprintf("sqlite error %d", int(e)) }
func (e sqliteErr) Code() int     { return int(e) }
