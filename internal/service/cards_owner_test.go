package service_test

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
	"github.com/cairnhq/cairn/internal/tools"
)

// cardSummary reads a card's summary through the tools ("" when it fails).
func cardSummary(t *testing.T, s *service.Service, key string) (string, []string) {
	t.Helper()
	env := call(t, s, "card_get", map[string]any{"key": key})
	if env.Error != nil {
		return "", nil
	}
	return env.Data.(*tools.CardGetOut).Card.Summary, env.Provenance.Warnings
}

// Two processes on one repository: a server owns the index and writes; a
// second process reads through it and asks it to reindex after its own
// writes. When the owner is killed, the second process takes over within
// 2 s and loses no update: neither its own card write made just before the
// kill, nor a card file edited on disk right after it.
func TestCardsOwnerTakeover(t *testing.T) {
	paths, cfg := newRepo(t, map[string]string{
		"go.mod":                   "module example.com/o\n\ngo 1.22\n",
		"a.go":                     "package o\n\n// @see a/b\nfunc A() {}\n",
		".cairn/cards/a/b.card.md": "---\nkey: a/b\nsummary: First\nstatus: draft\n---\n",
	})
	spec, _ := json.Marshal(childJob{Root: paths.Root, StateDir: paths.StateDir, Mode: "serve"})
	owner := exec.Command(os.Args[0], "-test.run=^$")
	owner.Env = append(os.Environ(), childEnv+"="+string(spec))
	out, err := owner.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	owner.Stderr = os.Stderr
	if err := owner.Start(); err != nil {
		t.Fatal(err)
	}
	defer owner.Process.Kill()
	ready := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		ready <- line
	}()
	select {
	case line := <-ready:
		if line != "ready\n" {
			t.Fatalf("owner said %q", line)
		}
	case <-time.After(time.Minute):
		t.Fatal("the owner did not get ready")
	}

	reader := testenv.OpenIn(t, paths.Root, paths.StateDir, cfg, service.Options{})
	if reader.Owner() {
		t.Fatal("the second process owns the index while the server runs")
	}
	// A write from the reader: the owner reindexes it before the answer.
	env := call(t, reader, "card_update", map[string]any{"key": "a/b", "summary": "Second"})
	if env.Error != nil {
		t.Fatalf("card_update: %s", env.Error.Message)
	}
	if got, w := cardSummary(t, reader, "a/b"); got != "Second" {
		t.Fatalf("after the reader's write the summary is %q (warnings %v)", got, w)
	}

	// The owner dies; a card file changes on disk right after.
	if err := owner.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	owner.Wait()
	killed := time.Now()
	card := filepath.Join(paths.Root, ".cairn/cards/a/b.card.md")
	if err := os.WriteFile(card, []byte("---\nkey: a/b\nsummary: Third\nstatus: draft\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var got string
	for time.Since(killed) < 5*time.Second {
		if got, _ = cardSummary(t, reader, "a/b"); got == "Third" {
			break
		}
	}
	took := time.Since(killed)
	t.Logf("took over and answered the update %s after the kill", took.Round(time.Millisecond))
	if got != "Third" {
		t.Fatalf("after the takeover the summary is %q, want Third", got)
	}
	if !reader.Owner() {
		t.Errorf("the second process did not take over")
	}
	if took > 2*time.Second {
		t.Errorf("the takeover took %s, want under 2s", took)
	}
	// The new owner writes and indexes on its own.
	if env := call(t, reader, "card_update", map[string]any{"key": "a/b", "summary": "Fourth"}); env.Error != nil {
		t.Fatalf("card_update after the takeover: %s", env.Error.Message)
	}
	if got, _ := cardSummary(t, reader, "a/b"); got != "Fourth" {
		t.Errorf("after the new owner's write the summary is %q", got)
	}
}
