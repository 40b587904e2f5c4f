//go:build !linux

package scan

// rootDir stats the files of a tree by their joined paths.
type rootDir struct {
	prefix string // the root and a separator
}

func openRoot(root string) *rootDir { return &rootDir{prefix: rootPrefix(root)} }

func (r *rootDir) close() {}

// regular is the stat of the regular file at the canonical repo path rel
// (not following a final symlink); false when it is missing or is not a
// regular file.
func (r *rootDir) regular(rel string) (Stat, bool) { return regularAt(r.prefix, rel) }
