package workspace_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/workspace"
)

func blobs(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	filepath.WalkDir(filepath.Join(dir, "workspaces", "blobs"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}

// A workspace keeps each path's first base, stores contents once per hash
// for all workspaces, drops a path written back to its base, and collects
// contents no overlay holds after a reset or a delete; a new Store on the
// same directory (a restart) reads it all back.
func TestStore(t *testing.T) {
	dir := t.TempDir()
	s := workspace.Open(dir)
	base := workspace.Base{Commit: "c1", Epoch: 3}
	w, created, err := s.Create("a", base)
	if err != nil || !created || w.Base != base {
		t.Fatalf("create: %v %v %v", w, created, err)
	}
	if _, created, _ := s.Create("a", workspace.Base{Commit: "c2"}); created {
		t.Error("a second create of the same id made a new workspace")
	}
	s.Create("b", base)
	one, two := []byte("one\n"), []byte("two\n")
	disk := workspace.SHA([]byte("disk\n"))
	if _, err := s.Stage("a", []workspace.Change{{Path: "x.go", Content: one, FromDisk: true, DiskSHA256: disk}, {Path: "gone.go", FromDisk: true, DiskSHA256: disk}}); err != nil {
		t.Fatal(err)
	}
	// the second write of x.go keeps the base of the first
	w, err = s.Stage("a", []workspace.Change{{Path: "x.go", Content: two, DiskSHA256: workspace.SHA(one)}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]*workspace.File{
		"gone.go": {Deleted: true, BaseSHA256: disk},
		"x.go":    {SHA256: workspace.SHA(two), BaseSHA256: disk},
	}
	if diff := cmp.Diff(want, w.Files); diff != "" || w.Revision != 2 {
		t.Errorf("overlay after two writes (revision %d) (-want +got):\n%s", w.Revision, diff)
	}
	s.Stage("b", []workspace.Change{{Path: "x.go", Content: two, FromDisk: true, DiskSHA256: disk}})
	if n := blobs(t, dir); n != 1 {
		t.Errorf("%d stored contents, want 1 (the same content in two workspaces, the replaced one collected)", n)
	}

	// a restart reads the overlay back with its contents
	v, err := workspace.Open(dir).Get("a")
	if err != nil {
		t.Fatal(err)
	}
	view, err := workspace.Open(dir).Load(v)
	if err != nil {
		t.Fatal(err)
	}
	if c, deleted, held := view.File("x.go"); string(c) != "two\n" || deleted || !held {
		t.Errorf("x.go after a restart: %q %v %v", c, deleted, held)
	}
	if _, deleted, held := view.File("gone.go"); !deleted || !held {
		t.Errorf("gone.go after a restart: %v %v", deleted, held)
	}
	if _, _, held := view.File("other.go"); held {
		t.Error("the overlay holds a path it never took")
	}

	// writing the base's content back takes the path out of the overlay
	w, _ = s.Stage("a", []workspace.Change{{Path: "x.go", Content: []byte("disk\n")}})
	if _, held := w.Files["x.go"]; held {
		t.Errorf("x.go written back to its base is still in the overlay: %v", w.Files)
	}

	if prev, err := s.Reset("b"); err != nil || prev != 1 {
		t.Errorf("reset: %d %v", prev, err)
	}
	if ok, err := s.Delete("a"); !ok || err != nil {
		t.Errorf("delete: %v %v", ok, err)
	}
	if n := blobs(t, dir); n != 0 {
		t.Errorf("%d stored contents after reset and delete, want 0", n)
	}
	if ok, _ := s.Delete("a"); ok {
		t.Error("deleting twice deleted something")
	}
	_, err = s.Get("a")
	if e := errs.As(err); e.Kind != errs.NotFound || len(e.Candidates) != 1 {
		t.Errorf("get of a deleted workspace: %v (candidates %v)", err, e.Candidates)
	}
	for _, bad := range []string{"", "../x", "A", "a/b", ".hidden"} {
		if _, _, err := s.Create(workspace.ID(bad), base); errs.As(err).Kind != errs.InvalidArgument {
			t.Errorf("create %q: %v", bad, err)
		}
	}
	list, err := s.List()
	if err != nil || len(list) != 1 || list[0].ID != "b" {
		t.Errorf("list: %v %v", list, err)
	}
}

// The working-tree content a path had when the overlay first took it is
// kept beside the overlay's (the base of a later merge) and collected with
// it; a file the overlay creates has an empty base.
func TestBaseContent(t *testing.T) {
	dir := t.TempDir()
	s := workspace.Open(dir)
	s.Create("a", workspace.Base{})
	disk := []byte("disk\n")
	w, err := s.Stage("a", []workspace.Change{
		{Path: "x.go", Content: []byte("one\n"), FromDisk: true, DiskSHA256: workspace.SHA(disk), DiskContent: disk},
		{Path: "new.go", Content: []byte("new\n"), FromDisk: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	if b, ok := s.BaseContent(w.Files["x.go"]); !ok || string(b) != "disk\n" {
		t.Errorf("x.go's base: %q %v", b, ok)
	}
	if b, ok := s.BaseContent(w.Files["new.go"]); !ok || len(b) != 0 {
		t.Errorf("new.go's base: %q %v", b, ok)
	}
	// a later write keeps the first base
	w, _ = s.Stage("a", []workspace.Change{{Path: "x.go", Content: []byte("two\n"), DiskSHA256: workspace.SHA([]byte("one\n"))}})
	if b, ok := s.BaseContent(w.Files["x.go"]); !ok || string(b) != "disk\n" {
		t.Errorf("x.go's base after a second write: %q %v", b, ok)
	}
	if n := blobs(t, dir); n != 3 {
		t.Errorf("%d stored contents, want 3 (two overlay contents and a base)", n)
	}
	// a base that was not kept (an older workspace) says so
	if _, ok := s.BaseContent(&workspace.File{BaseSHA256: workspace.SHA([]byte("never kept\n"))}); ok {
		t.Error("a base never kept was found")
	}
	s.Delete("a")
	if n := blobs(t, dir); n != 0 {
		t.Errorf("%d stored contents after delete, want 0", n)
	}
}

// TestConcurrentStages: writes into many workspaces at once (as many agents
// do) keep every content their overlays hold, and a workspace read while it
// is written is read whole, at one revision or the next. The collection
// that ends a write used to remove the contents another write had stored
// but not yet recorded in its workspace.
func TestConcurrentStages(t *testing.T) {
	dir := t.TempDir()
	s := workspace.Open(dir)
	const workspaces, writes = 8, 25
	for w := range workspaces {
		if _, _, err := s.Create(workspace.ID(fmt.Sprintf("w%d", w)), workspace.Base{}); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errc := make(chan error, workspaces*writes*2)
	for w := range workspaces {
		id := workspace.ID(fmt.Sprintf("w%d", w))
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := range writes {
				content := []byte(fmt.Sprintf("package w%d\n\nconst N = %d\n", w, i))
				if _, err := s.Stage(id, []workspace.Change{{Path: "a.go", Content: content, FromDisk: i == 0}}); err != nil {
					errc <- err
				}
			}
		}()
		go func() { // a reader of the same workspace meanwhile
			defer wg.Done()
			for range writes {
				if _, err := s.Open(id); err != nil {
					errc <- fmt.Errorf("read %s while it is written: %w", id, err)
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	for w := range workspaces {
		v, err := s.Open(workspace.ID(fmt.Sprintf("w%d", w)))
		if err != nil {
			t.Fatalf("w%d after the writes: %v", w, err)
		}
		got, _, _ := v.File("a.go")
		if want := fmt.Sprintf("package w%d\n\nconst N = %d\n", w, writes-1); string(got) != want {
			t.Errorf("w%d holds %q, want %q", w, got, want)
		}
	}
}
