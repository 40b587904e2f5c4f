package service_test

import (
	"context"
	"encoding/json"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
	"github.com/cairnhq/cairn/internal/tools"
)

// probe is one question asked after each corruption.
type probe struct {
	tool string
	args map[string]any
}

var probes = []probe{
	{"search", map[string]any{"query": "Addr"}},
	{"search", map[string]any{"query": "server", "mode": "symbol"}},
	{"symbol_get", map[string]any{"symbol": "server.NewServer"}},
	{"refs_find", map[string]any{"symbol": "server.Server.Start"}},
	{"graph_callers", map[string]any{"symbol": "server.Server.Start"}},
	{"list_files", map[string]any{"path": ""}},
}

// asked runs the probes and returns, per probe, what an agent would rely
// on: the answer and the data (provenance and meta vary with epochs and time).
func asked(t *testing.T, s *service.Service, probes []probe) ([]string, []*protocol.Envelope) {
	t.Helper()
	var out []string
	var envs []*protocol.Envelope
	for _, p := range probes {
		raw, _ := json.Marshal(p.args)
		env := tools.Invoke(context.Background(), s.Env(), p.tool, raw)
		envs = append(envs, env)
		b, _ := json.Marshal(struct {
			Answer string `json:"answer"`
			Data   any    `json:"data"`
		}{env.Answer, env.Data})
		var v any
		json.Unmarshal(b, &v)
		b, _ = json.Marshal(testenv.WithoutEpochs(v))
		out = append(out, string(b))
	}
	return out, envs
}

// Random bytes written into random pages of the databases, while no process
// runs, with a fresh process after each (as `cairn` commands are). Every
// answer afterwards is either exactly the answer of an undamaged index or
// marked unavailable / may-be-stale: never wrong and marked fresh.
func TestRandomCorruptionNeverAnswersWrong(t *testing.T) {
	testenv.Isolate(t)
	root := testenv.Repo(t, testenv.Demo)
	stateDir := filepath.Join(t.TempDir(), "state")
	ctx := context.Background()
	paths, err := config.Locate(ctx, root, stateDir)
	if err != nil {
		t.Fatal(err)
	}
	open := func() *service.Service { return mustOpen(t, paths, config.Default(), service.Options{}) }
	s := open()
	want, envs := asked(t, s, probes)
	for i, env := range envs {
		if env.Error != nil {
			t.Fatalf("%s on the undamaged index: %s", probes[i].tool, env.Error.Message)
		}
	}
	s.Close()

	files := []string{paths.IndexPath, paths.BlobPath}
	rng := rand.New(rand.NewSource(11))
	const rounds = 120
	counts := map[string]int{}
	for round := 0; round < rounds; round++ {
		path := files[round%2]
		if st, err := os.Stat(path + "-wal"); err == nil && st.Size() > 0 && rng.Intn(4) == 0 {
			path += "-wal"
		}
		at, n := corrupt(t, rng, path)
		s := open()
		got, envs := asked(t, s, probes)
		for i, env := range envs {
			switch {
			case env.Error != nil:
				if env.Error.Code != "INDEX_UNAVAILABLE" {
					t.Fatalf("round %d (%d bytes at %d of %s): %s failed with %s: %s", round, n, at, filepath.Base(path), probes[i].tool, env.Error.Code, env.Error.Message)
				}
				counts["unavailable"]++
			case env.Provenance.Freshness == protocol.MayBeStale:
				counts["may-be-stale"]++
			default:
				if diff := cmp.Diff(want[i], got[i]); diff != "" {
					t.Fatalf("round %d (%d bytes at %d of %s): %s answered wrong and fresh (-want +got):\n%s", round, n, at, filepath.Base(path), probes[i].tool, diff)
				}
				counts["correct"]++
			}
			for _, w := range env.Provenance.Warnings {
				if strings.Contains(w, "was damaged") {
					counts["rebuilt"]++
				}
				if strings.Contains(w, "verified and is intact") {
					counts["verified"]++
				}
			}
		}
		s.Close()
	}
	t.Logf("%d corruptions, %d answers: %v", rounds, rounds*len(probes), counts)
}

// corrupt writes 1-64 random bytes at a random place of a random page.
func corrupt(t *testing.T, rng *rand.Rand, path string) (int64, int) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	const page = 4096
	pages := st.Size() / page
	if pages < 1 {
		pages = 1
	}
	at := rng.Int63n(pages)*page + rng.Int63n(page)
	n := 1 + rng.Intn(64)
	if at+int64(n) > st.Size() {
		at = st.Size() - int64(n)
	}
	buf := make([]byte, n)
	rng.Read(buf)
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(buf, at); err != nil {
		t.Fatal(err)
	}
	return at, n
}
