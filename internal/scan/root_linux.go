//go:build linux

package scan

import (
	"golang.org/x/sys/unix"
)

// rootDir stats the files of a tree relative to an open descriptor of its
// root: the kernel then walks only the path below the root (on a checkout
// deep in a home directory, most of each path), and nothing is allocated
// per file. Without the descriptor it stats the joined path.
type rootDir struct {
	fd     int
	prefix string // the root and a separator
}

func openRoot(root string) *rootDir {
	r := &rootDir{fd: -1, prefix: rootPrefix(root)}
	if fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0); err == nil {
		r.fd = fd
	}
	return r
}

func (r *rootDir) close() {
	if r.fd >= 0 {
		unix.Close(r.fd)
		r.fd = -1
	}
}

// regular is the stat of the regular file at the canonical repo path rel
// (not following a final symlink); false when it is missing or is not a
// regular file.
func (r *rootDir) regular(rel string) (Stat, bool) {
	if r.fd < 0 {
		return regularAt(r.prefix, rel)
	}
	var st unix.Stat_t
	err := unix.Fstatat(r.fd, rel, &st, unix.AT_SYMLINK_NOFOLLOW)
	for err == unix.EINTR {
		err = unix.Fstatat(r.fd, rel, &st, unix.AT_SYMLINK_NOFOLLOW)
	}
	if err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return Stat{}, false
	}
	return Stat{Path: rel, Size: st.Size, MtimeNS: st.Mtim.Nano(), CtimeNS: st.Ctim.Nano(), Inode: int64(st.Ino)}, true
}
