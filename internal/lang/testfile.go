package lang

import (
	"path"
	"slices"
	"strings"
)

// InDir reports whether one of the directories of repository path p (not
// its base name) is named one of names; TestFile hooks use it.
func InDir(p string, names ...string) bool {
	for _, d := range strings.Split(path.Dir(p), "/") {
		if slices.Contains(names, d) {
			return true
		}
	}
	return false
}
