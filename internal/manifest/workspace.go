package manifest

import (
	"path"
	"strings"
)

// Workspace is the set of modules a workspace manifest groups (go.work use,
// npm and pnpm workspaces, Cargo workspace members, Maven modules, Gradle
// includes, the projects of a solution).
type Workspace struct {
	// Members are directory patterns relative to the manifest's directory,
	// as written; npm, pnpm and Cargo allow globs (*, ?, [...] within a
	// segment, ** for any number of segments).
	Members []string
	// Exclude are patterns that take members out again (Cargo exclude, npm
	// and pnpm "!pattern").
	Exclude []string
	// Open is set when the member list could not be read in full (a Gradle
	// include of a variable, an unreadable workspace file): no module can
	// then be said to be outside the workspace.
	Open bool
}

// Includes reports whether a directory, relative to the manifest's
// directory, is a member. The manifest's own directory ("" or ".") always is.
func (w *Workspace) Includes(dir string) bool {
	dir = cleanRel(dir)
	if w.Open || dir == "" {
		return true
	}
	in := false
	for _, p := range w.Members {
		if matchDir(p, dir) {
			in = true
			break
		}
	}
	for _, p := range w.Exclude {
		if in && matchDir(p, dir) {
			in = false
		}
	}
	return in
}

// cleanRel cleans a relative slash path; "" for the directory itself.
func cleanRel(p string) string {
	p = path.Clean(strings.ReplaceAll(p, `\`, "/"))
	if p == "." {
		return ""
	}
	return p
}

// matchDir matches a member pattern against a directory, segment by segment.
func matchDir(pattern, dir string) bool {
	pattern = cleanRel(pattern)
	if pattern == "" {
		return dir == ""
	}
	return matchSegments(strings.Split(pattern, "/"), strings.Split(dir, "/"))
}

func matchSegments(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(segs); i++ {
				if matchSegments(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], segs[0]); err != nil || !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// splitNegated separates npm and pnpm workspace patterns into members and
// the "!pattern" exclusions.
func splitNegated(patterns []string) *Workspace {
	w := &Workspace{Members: []string{}}
	for _, p := range patterns {
		if rest, ok := strings.CutPrefix(p, "!"); ok {
			w.Exclude = append(w.Exclude, rest)
			continue
		}
		w.Members = append(w.Members, p)
	}
	return w
}
