//go:build linux

package scan

import (
	"io/fs"
	"syscall"
)

// inodeAndCtime reads the inode number and the inode change time (ns).
func inodeAndCtime(info fs.FileInfo) (ino, ctimeNS int64) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return int64(st.Ino), st.Ctim.Sec*1e9 + st.Ctim.Nsec
	}
	return 0, 0
}
