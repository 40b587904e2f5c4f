// Package results writes a benchmark's section of bench/RESULTS.md: the
// text between <!-- name:begin --> and <!-- name:end -->, which each
// benchmark owns, leaving every other line of the file as it is.
package results

import (
	"os"
	"strings"
)

// Replace puts section (which starts with name's begin marker and ends with
// its end marker) in place of name's section of the file at path, or at its
// end when it has none yet.
func Replace(path, name, section string) error {
	begin, end := "<!-- "+name+":begin -->", "<!-- "+name+":end -->"
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	s := string(b)
	if i, j := strings.Index(s, begin), strings.Index(s, end); i >= 0 && j > i {
		s = s[:i] + section + strings.TrimPrefix(s[j+len(end):], "\n")
	} else {
		s = strings.TrimRight(s, "\n") + "\n\n" + section
	}
	return os.WriteFile(path, []byte(s), 0o644)
}
