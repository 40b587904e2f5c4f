//go:build linux || darwin

package main

import (
	"os"
	"syscall"
)

// lowDisk reports whether the temporary directory, where the scripts keep
// their state, has less free space than doctor's disk-space warning needs:
// there doctor warns once more than a script on a roomy machine expects.
func lowDisk() bool {
	var st syscall.Statfs_t
	if err := syscall.Statfs(os.TempDir(), &st); err != nil {
		return false
	}
	return uint64(st.Bavail)*uint64(st.Bsize) < 1<<30
}
