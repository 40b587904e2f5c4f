package lang

import "slices"

// The enumerations of the facts (DefKind, Visibility, Role, QualShape,
// ImportKind, RelKind, DynKind, Tier, SurfaceKind) are small integers named
// by a table: the name of value i is names[i], the stable spelling used in
// queries, the store and answers.

// nameOf is the name of v in its table, or def for a value past the table.
func nameOf[V ~uint8](names []string, v V, def string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return def
}

// parseName finds a name in its table.
func parseName[V ~uint8](names []string, s string) (V, bool) {
	i := slices.Index(names, s)
	if i < 0 {
		return 0, false
	}
	return V(i), true
}
