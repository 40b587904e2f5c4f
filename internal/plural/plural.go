// Package plural renders counts in the English that people and agents read:
// "1 commit", "3 commits".
package plural

import "strconv"

// Count renders n with the singular or the plural form: "1 file", "0 files".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
