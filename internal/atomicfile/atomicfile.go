// Package atomicfile replaces a file in one step: readers see the old
// content or the new, never a part. The content is not synced to disk, so
// it suits state that can be rebuilt (caches, saved scans, tokens); writes
// that must survive a power cut go through the mutation engine's journal.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write replaces path with data (mode perm) through a temporary file in the
// same directory, removed again on failure.
func Write(path string, data []byte, perm os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // a no-op once renamed
	if err := f.Chmod(perm); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
