package lang_test

import (
	"strings"
	"testing"
	"unsafe"

	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"

	"github.com/cairnhq/cairn/internal/lang"
)

// The engine does not evaluate text predicates, so a query that uses one
// would silently match too much: it is rejected instead.
func TestTextPredicatesRejected(t *testing.T) {
	for _, q := range []string{
		`((identifier) @name (#eq? @name "x")) @reference.call`,
		`((identifier) @name (#match? @name "^[A-Z]")) @reference.call`,
	} {
		l := &lang.Language{
			Name:     "predicates",
			Grammar:  func() unsafe.Pointer { return tsjava.Language() },
			Query:    q,
			RefKinds: []string{"identifier"},
		}
		x := lang.NewExtractor()
		_, err := x.Extract(l, []byte("class A {}"))
		x.Close()
		if err == nil || !strings.Contains(err.Error(), "text predicate") {
			t.Errorf("%s: err = %v, want a text predicate error", q, err)
		}
	}
}
