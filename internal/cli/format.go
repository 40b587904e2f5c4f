package cli

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
)

// short cuts a commit hash to the 12 digits people read.
func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// mapLine prints a count map in key order: "go 3, python 1".
func mapLine(m map[string]int) string {
	return countsOf(m, slices.Sorted(maps.Keys(m)))
}

// eachLine prints one line a string, in format.
func eachLine(w io.Writer, format string, items []string) {
	for _, s := range items {
		fmt.Fprintf(w, format, s)
	}
}

// countsLine prints a count map largest first: "python 3, go 1".
func countsLine(m map[string]int) string {
	keys := slices.Sorted(maps.Keys(m))
	sort.SliceStable(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] })
	return countsOf(m, keys)
}

// countsOf prints the counts of keys in their order: "go 3, python 1".
func countsOf(m map[string]int, keys []string) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}
