package service_test

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/tools"
)

// renameFiles is how many code files link to the renamed card.
const renameFiles = 100

// cardsRenameRepo is a repository whose card a/b is linked from
// renameFiles Go files and targeted by another card's relation.
func cardsRenameRepo() map[string]string {
	files := map[string]string{
		"go.mod":                    "module example.com/r\n\ngo 1.22\n",
		".cairn/cards/a/b.card.md":  "---\nkey: a/b\nsummary: The card\nstatus: accepted\n---\nBody.\n",
		".cairn/cards/user.card.md": "---\nkey: user\nsummary: Uses it\nstatus: draft\nrelations:\n  - type: depends-on\n    target: a/b\n---\n",
	}
	for i := range renameFiles {
		files[fmt.Sprintf("p/f%03d.go", i)] = fmt.Sprintf("package p\n\n// F%d does it.\n// @see a/b\nfunc F%d() {}\n", i, i)
	}
	return files
}

// keyState reads which key every file names: the card's key, the
// relation's target and each @see; it returns the keys seen.
func keyState(t *testing.T, root string) map[string]int {
	t.Helper()
	seen := map[string]int{}
	for i := range renameFiles {
		data, err := os.ReadFile(filepath.Join(root, fmt.Sprintf("p/f%03d.go", i)))
		if err != nil {
			t.Fatal(err)
		}
		_, rest, _ := strings.Cut(string(data), "@see ")
		key, _, _ := strings.Cut(rest, "\n")
		seen["see "+key]++
	}
	user, _ := os.ReadFile(filepath.Join(root, ".cairn/cards/user.card.md"))
	_, rest, _ := strings.Cut(string(user), "target: ")
	target, _, _ := strings.Cut(rest, "\n")
	seen["target "+target]++
	for _, k := range []string{"a/b", "a/c"} {
		p := filepath.Join(root, ".cairn/cards", k+".card.md")
		if data, err := os.ReadFile(p); err == nil {
			seen["file "+k]++
			if !strings.Contains(string(data), "key: "+k+"\n") {
				t.Fatalf("%s does not hold key %s:\n%s", p, k, data)
			}
		}
	}
	return seen
}

// whole reports the key every file names, or "" for a mixed state.
func whole(seen map[string]int) string {
	for _, k := range []string{"a/b", "a/c"} {
		want := map[string]int{"see " + k: renameFiles, "target " + k: 1, "file " + k: 1}
		if fmt.Sprint(seen) == fmt.Sprint(want) {
			return k
		}
	}
	return ""
}

// TestCardRenameCrash kills card_rename (100 code files, two cards) at
// random steps of its batch: after the next open every file names the old
// key or every file names the new one, and the index agrees with the
// files. CAIRN_CRASH_KILLS sets the number of kills (default 12).
func TestCardRenameCrash(t *testing.T) {
	kills := killCount("CAIRN_CRASH_KILLS", 12)
	paths, cfg := newRepo(t, cardsRenameRepo())
	s := mustOpen(t, paths, cfg, service.Options{})
	if env := call(t, s, "card_get", map[string]any{"key": "a/b"}); env.Error != nil {
		t.Fatal(env.Error.Message)
	}
	s.Close()
	rng := rand.New(rand.NewSource(7))
	cur := "a/b"
	maxPoints := int64(400) // learned from the renames that finish
	outcomes := map[string]int{}
	var killedAt []int
	for iter := 0; outcomes["killed"] < kills; iter++ {
		if iter > 4*kills {
			t.Fatalf("only %d kills in %d iterations", outcomes["killed"], iter)
		}
		next := map[string]string{"a/b": "a/c", "a/c": "a/b"}[cur]
		args, _ := json.Marshal(tools.CardRenameIn{Key: cur, NewKey: next})
		k := 1 + rng.Intn(int(maxPoints))
		if iter%5 == 4 {
			k = 1 << 30 // now and then one that finishes, to learn the points
		}
		out, killed := runJob(t, childJob{Root: paths.Root, StateDir: paths.StateDir, Mode: "call", Tool: "card_rename", Args: args}, k)
		switch {
		case killed:
			outcomes["killed"]++
			killedAt = append(killedAt, k)
		case out.Code != "":
			t.Fatalf("iteration %d: card_rename failed with %s", iter, out.Code)
		default:
			outcomes["completed"]++
			maxPoints = out.Points
		}
		s := mustOpen(t, paths, cfg, service.Options{})
		seen := keyState(t, paths.Root)
		now := whole(seen)
		if now == "" {
			s.Close()
			t.Fatalf("iteration %d (killed at %d of %d): mixed state %v", iter, k, maxPoints, seen)
		}
		if now == cur {
			outcomes["old"]++
		} else {
			outcomes["new"]++
		}
		cur = now
		env := call(t, s, "card_coverage", map[string]any{"key": cur})
		if env.Error != nil {
			s.Close()
			t.Fatalf("iteration %d: the index does not know %s: %s", iter, cur, env.Error.Message)
		}
		if got := env.Data.(*tools.CardCoverageOut).Card.Linked; got != renameFiles {
			s.Close()
			t.Fatalf("iteration %d: the index has %d links to %s, want %d", iter, got, cur, renameFiles)
		}
		s.Close()
	}
	sort.Ints(killedAt)
	t.Logf("outcomes %v; %d crash points per rename; killed at %v", outcomes, maxPoints, killedAt)
	if outcomes["old"] == 0 || outcomes["new"] == 0 {
		t.Errorf("outcomes %v: both old and new should occur", outcomes)
	}
	checkNoLeftovers(t, config.Paths{Root: paths.Root, StateDir: paths.StateDir})
}
