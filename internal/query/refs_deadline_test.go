package query_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	_ "github.com/cairnhq/cairn/internal/lang/all"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/testenv"
)

// TestRefsStopBeforeTheDeadline: a references search whose scan of the
// files runs into the time kept for what follows it answers with what it
// found, marked partial, rather than failing at the deadline with nothing
// (on kubernetes, refs_find of methods named Name or Get under load).
func TestRefsStopBeforeTheDeadline(t *testing.T) {
	files := map[string]string{"go.mod": "module example.com/d\n", "t.go": "package d\n\nfunc Target() {}\n"}
	for i := range 20 {
		files[fmt.Sprintf("c%02d.go", i)] = fmt.Sprintf("package d\n\nfunc C%d() { Target() }\n", i)
	}
	x := testenv.OpenIndex(t, files)
	e := x.Engine(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := e.Resolve(ctx, "Target")
	if err != nil {
		t.Fatal(err)
	}
	full, err := e.Refs(ctx, r, query.RefsParams{Limit: 100})
	if err != nil || full.Partial || full.Summary.Total != 21 {
		t.Fatalf("with time enough: partial %v, %d references (want 21), %v", full != nil && full.Partial, full.Summary.Total, err)
	}
	// All the time left is reserved: the scan stops at once.
	query.SetRefsReserve(t, func(left time.Duration) time.Duration { return left })
	cut, err := e.Refs(ctx, r, query.RefsParams{Limit: 100})
	if err != nil {
		t.Fatalf("a search stopped by its deadline failed: %v", err)
	}
	if !cut.Partial || cut.Summary.Total >= full.Summary.Total {
		t.Errorf("a search stopped by its deadline: partial %v, %d references of %d", cut.Partial, cut.Summary.Total, full.Summary.Total)
	}
}
