package index

import (
	"slices"
	"testing"

	"github.com/cairnhq/cairn/internal/scan"
	"github.com/cairnhq/cairn/internal/store"
)

// TestChangedFiles: a file is work when it is new or any of its stat data
// moved (an in-place edit that keeps size and mtime moves ctime), or always
// when rehashing; a file the scan no longer finds is deleted.
func TestChangedFiles(t *testing.T) {
	old := []store.FileRow{
		{Path: "a.go", Size: 1, MtimeNS: 10, CtimeNS: 10, Inode: 1},
		{Path: "b.go", Size: 2, MtimeNS: 20, CtimeNS: 20, Inode: 2},
		{Path: "c.go", Size: 3, MtimeNS: 30, CtimeNS: 30, Inode: 3},
		{Path: "gone.go", Size: 4, MtimeNS: 40, CtimeNS: 40, Inode: 4},
	}
	scanned := []scan.Entry{
		{Path: "a.go", Size: 1, MtimeNS: 10, CtimeNS: 10, Inode: 1},
		{Path: "b.go", Size: 2, MtimeNS: 20, CtimeNS: 21, Inode: 2},
		{Path: "c.go", Size: 3, MtimeNS: 30, CtimeNS: 30, Inode: 9},
		{Path: "new.go", Size: 5, MtimeNS: 50, CtimeNS: 50, Inode: 5},
	}
	paths := func(jobs []*job) (out []string) {
		for _, j := range jobs {
			out = append(out, j.entry.Path)
			if (j.old == nil) != (j.entry.Path == "new.go") {
				t.Errorf("%s: old row %v", j.entry.Path, j.old)
			}
		}
		return out
	}
	jobs, deleted := changedFiles(old, scanned, false)
	if got := paths(jobs); !slices.Equal(got, []string{"b.go", "c.go", "new.go"}) {
		t.Errorf("jobs = %q", got)
	}
	if len(deleted) != 1 || deleted[0].Path != "gone.go" {
		t.Errorf("deleted = %v", deleted)
	}
	jobs, _ = changedFiles(old, scanned, true)
	if got := paths(jobs); !slices.Equal(got, []string{"a.go", "b.go", "c.go", "new.go"}) {
		t.Errorf("jobs when rehashing = %q", got)
	}
}
