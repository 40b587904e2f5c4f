//go:build darwin

package scan

import (
	"io/fs"
	"syscall"
)

// inodeAndCtime reads the inode number and the inode change time (ns).
func inodeAndCtime(info fs.FileInfo) (ino, ctimeNS int64) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return int64(st.Ino), st.Ctimespec.Sec*1e9 + st.Ctimespec.Nsec
	}
	return 0, 0
}
