package change

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"
)

// transitiveDependents stops at the hop limit, at the visit limit and at
// the deadline, and says it stopped only when files depend further out.
func TestTransitiveDependents(t *testing.T) {
	// 0 (the target) <- 1 (direct) <- 2 <- 3
	chain := map[int][]int{0: {1}, 1: {2}, 2: {3}}
	dependents := func(i int) []int { return chain[i] }
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		ctx               context.Context
		depth, maxVisited int
		want              string
	}{
		{context.Background(), 1, 100, "[2] bounded=true"},
		{context.Background(), 2, 100, "[2 3] bounded=false"},
		{context.Background(), 5, 100, "[2 3] bounded=false"},
		{context.Background(), 5, 2, "[2] bounded=true"},
		{cancelled, 5, 100, "[] bounded=true"},
	} {
		trans, bounded := transitiveDependents(tc.ctx, []int{0}, map[int]int{1: 3}, ImpactParams{Depth: tc.depth, MaxVisited: tc.maxVisited}, dependents)
		if got := fmt.Sprintf("%v bounded=%v", slices.Sorted(maps.Keys(trans)), bounded); got != tc.want {
			t.Errorf("depth %d, at most %d files: %s, want %s", tc.depth, tc.maxVisited, got, tc.want)
		}
	}
}
