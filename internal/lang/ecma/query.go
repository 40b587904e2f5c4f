package ecma

import _ "embed"

// commonQuery holds the patterns that JavaScript and TypeScript share: the
// TypeScript grammar extends JavaScript's and keeps its node kinds.
//
//go:embed common.scm
var commonQuery string

//go:embed jsx.scm
var jsxQuery string

// Query composes a language's query: the shared patterns first, then the
// language's own, then, for a dialect with JSX, the JSX patterns. Earlier
// patterns win when two name a node differently, so the shared ones keep
// the precedence they have in every dialect.
func Query(own string, jsx bool) string {
	q := commonQuery + "\n" + own
	if jsx {
		q += "\n" + jsxQuery
	}
	return q
}
