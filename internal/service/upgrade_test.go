package service_test

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
)

// A server started over an index that an older Cairn wrote rebuilds it and
// says why: in the first answer's warnings, and in the state's reason while
// it builds.
func TestServerSaysWhyItRebuilds(t *testing.T) {
	testenv.Isolate(t)
	root := testenv.Repo(t, testenv.Demo)
	state := filepath.Join(t.TempDir(), "state")
	cfg := config.Default()
	first := testenv.OpenIn(t, root, state, cfg, service.Options{})
	answer(t, call(t, first, "index_ensure", nil))
	first.Close()

	db, err := sql.Open("sqlite", "file:"+filepath.Join(state, "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE metadata SET value = '1' WHERE key = 'schema_version'`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	srv := testenv.OpenIn(t, root, state, cfg, service.Options{Serve: true})
	const why = "written by an older version of Cairn (schema version 1; this one reads"
	if st, reason := srv.State(); st == "indexing" && !strings.Contains(reason, why) {
		t.Errorf("while it rebuilds the state's reason is %q", reason)
	}
	env := call(t, srv, "search", map[string]any{"query": "NewServer"})
	answer(t, env)
	if w := strings.Join(env.Provenance.Warnings, "\n"); !strings.Contains(w, why) || !strings.Contains(w, "rebuilt rather than migrated") {
		t.Errorf("the first answer's warnings: %q", w)
	}
	if st, _ := srv.State(); st != "ready" {
		t.Errorf("after the first answer the index is %s", st)
	}
}
