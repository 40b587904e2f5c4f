package mutate

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// replay rebuilds b from a and an edit script, checking that the script
// walks both sides in order.
func replay(t *testing.T, a, b []string, ops []op) {
	t.Helper()
	var got []string
	ai, bi := 0, 0
	for _, o := range ops {
		if o.ai != ai || o.bi != bi {
			t.Fatalf("op %+v at a=%d b=%d", o, ai, bi)
		}
		switch o.kind {
		case opEqual:
			for i := 0; i < o.n; i++ {
				if a[ai+i] != b[bi+i] {
					t.Fatalf("equal op over different lines %q %q", a[ai+i], b[bi+i])
				}
			}
			got = append(got, a[ai:ai+o.n]...)
			ai, bi = ai+o.n, bi+o.n
		case opDelete:
			ai += o.n
		case opInsert:
			got = append(got, b[bi:bi+o.n]...)
			bi += o.n
		}
	}
	if ai != len(a) || strings.Join(got, "|") != strings.Join(b, "|") {
		t.Fatalf("replay gives %q, want %q", got, b)
	}
}

// lcs is the length of a longest common subsequence, by dynamic programming.
func lcs(a, b []string) int {
	prev := make([]int, len(b)+1)
	for i := range a {
		cur := make([]int, len(b)+1)
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev = cur
	}
	return prev[len(b)]
}

func TestDiffRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	gen := func() []string {
		out := make([]string, rng.Intn(30))
		for i := range out {
			out[i] = string(rune('a'+rng.Intn(4))) + "\n"
		}
		return out
	}
	for range 500 {
		a, b := gen(), gen()
		ops := diffLines(a, b)
		replay(t, a, b, ops)
		added, removed := counts(ops)
		if common := lcs(a, b); added != len(b)-common || removed != len(a)-common {
			t.Fatalf("not minimal: +%d -%d, lcs %d of %d/%d", added, removed, common, len(a), len(b))
		}
	}
}

// Past maxEditDistance the middle is one replaced block: still a correct
// script.
func TestDiffBounded(t *testing.T) {
	var a, b []string
	for i := range maxEditDistance {
		a = append(a, fmt.Sprintf("a%d\n", i))
		b = append(b, fmt.Sprintf("b%d\n", i))
	}
	a = append([]string{"same\n"}, append(a, "tail\n")...)
	b = append([]string{"same\n"}, append(b, "tail\n")...)
	ops := diffLines(a, b)
	replay(t, a, b, ops)
	want := []Hunk{{OldStart: 2, OldLines: maxEditDistance, NewStart: 2, NewLines: maxEditDistance}}
	if diff := cmp.Diff(want, hunks(ops)); diff != "" {
		t.Errorf("hunks (-want +got):\n%s", diff)
	}
}

func TestUnified(t *testing.T) {
	a := splitLines([]byte("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\nend"))
	b := splitLines([]byte("1\ntwo\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\nend\n"))
	got := unified("a/f", "b/f", a, b, diffLines(a, b))
	want := `--- a/f
+++ b/f
@@ -1,5 +1,5 @@
 1
-2
+two
 3
 4
 5
@@ -10,4 +10,4 @@
 10
 11
 12
-end
\ No newline at end of file
+end
`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("unified (-want +got):\n%s", diff)
	}
	created := unified("/dev/null", "b/n", nil, []string{"x\n"}, diffLines(nil, []string{"x\n"}))
	if !strings.Contains(created, "@@ -0,0 +1 @@\n+x\n") {
		t.Errorf("created:\n%s", created)
	}
}
