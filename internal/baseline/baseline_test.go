package baseline_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/baseline"
	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/testenv"
)

func locate(t *testing.T, root string) (config.Paths, config.Config) {
	t.Helper()
	p, err := config.Locate(context.Background(), root, "")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	return p, cfg
}

// exported builds the demo repository, exports its index and returns the
// repository and the artifact.
func exported(t *testing.T) (string, string) {
	t.Helper()
	testenv.Isolate(t)
	root := testenv.Repo(t, testenv.Demo)
	p, cfg := locate(t, root)
	out := filepath.Join(t.TempDir(), "demo"+baseline.Ext)
	res, err := baseline.Export(context.Background(), baseline.ExportOptions{Paths: p, Config: cfg, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	if res.Manifest.Files != 3 || len(res.Manifest.Payload) != 2 || res.Bytes == 0 {
		t.Fatalf("export wrote %+v", res)
	}
	return root, out
}

func clone(t *testing.T, root string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "clone")
	testenv.Git(t, root, "clone", "-q", root, dir)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return dir
}

func importFrom(t *testing.T, root, src string, o baseline.ImportOptions) (*baseline.ImportResult, error) {
	t.Helper()
	o.Paths, o.Config = locate(t, root)
	o.Source = src
	return baseline.Import(context.Background(), o)
}

// Over http(s): the artifact is downloaded, verified and installed; a
// download over the size cap, one that does not finish in time and a
// missing one are refused with their kinds, and change nothing.
func TestImportURL(t *testing.T) {
	root, art := exported(t)
	data, err := os.ReadFile(art)
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/demo" + baseline.Ext:
			w.Write(data)
		case "/slow":
			w.Header().Set("Content-Length", "100000")
			w.Write(data[:100])
			w.(http.Flusher).Flush()
			select {
			case <-release:
			case <-r.Context().Done():
			}
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	defer close(release)
	dir := clone(t, root)
	for _, c := range []struct {
		src  string
		o    baseline.ImportOptions
		kind errs.Kind
	}{
		{srv.URL + "/demo" + baseline.Ext, baseline.ImportOptions{MaxBytes: 1000}, errs.TooLarge},
		{srv.URL + "/slow", baseline.ImportOptions{Timeout: 300 * time.Millisecond}, errs.Timeout},
		{srv.URL + "/missing", baseline.ImportOptions{}, errs.NotFound},
	} {
		_, err := importFrom(t, dir, c.src, c.o)
		if errs.KindOf(err) != c.kind {
			t.Errorf("%s: error %v, want kind %v", c.src, err, c.kind)
		}
	}
	p, _ := locate(t, dir)
	if _, err := os.Stat(p.IndexPath); err == nil {
		t.Errorf("a refused download left an index at %s", p.IndexPath)
	}
	res, err := importFrom(t, dir, srv.URL+"/demo"+baseline.Ext, baseline.ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Parsed != 0 || res.Files != 3 || res.Artifact != "" {
		t.Errorf("import over http: %+v", res)
	}
	if entries, _ := filepath.Glob(filepath.Join(p.StateDir, "import-*")); len(entries) != 0 {
		t.Errorf("staging left behind: %v", entries)
	}
}

// A directory gives the artifact named after HEAD, or its only one; with
// several and none for HEAD the import asks which.
func TestImportDir(t *testing.T) {
	root, art := exported(t)
	dir := clone(t, root)
	arts := t.TempDir()
	data, _ := os.ReadFile(art)
	for _, name := range []string{"a" + baseline.Ext, "b" + baseline.Ext} {
		os.WriteFile(filepath.Join(arts, name), data, 0o600)
	}
	_, err := importFrom(t, dir, arts, baseline.ImportOptions{})
	if errs.KindOf(err) != errs.Ambiguous {
		t.Fatalf("two artifacts: %v, want AMBIGUOUS", err)
	}
	head, err := os.ReadFile(filepath.Join(root, ".git", "refs", "heads", currentBranch(t, root)))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(arts, strings.TrimSpace(string(head))+baseline.Ext), data, 0o600)
	res, err := importFrom(t, dir, arts, baseline.ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(res.Artifact) != strings.TrimSpace(string(head))+baseline.Ext {
		t.Errorf("took %s, want the artifact of HEAD", res.Artifact)
	}
	_, err = importFrom(t, dir, t.TempDir(), baseline.ImportOptions{})
	if errs.KindOf(err) != errs.FileNotFound {
		t.Errorf("empty directory: %v, want FILE_NOT_FOUND", err)
	}
}

func currentBranch(t *testing.T, root string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, ".git", "HEAD"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(strings.TrimSpace(string(b)), "ref: refs/heads/")
}
