package change

import (
	"fmt"
	"testing"

	"github.com/cairnhq/cairn/internal/lang"
	_ "github.com/cairnhq/cairn/internal/lang/all" // the languages' visibility rules
)

// deriveVisibility trusts a language's own marks first (Go's export rule
// more than modifiers), then references from other modules, then naming.
func TestDeriveVisibility(t *testing.T) {
	other := []ModuleImpact{{Module: "example.com/other"}}
	for _, tc := range []struct {
		language, name string
		v              lang.Visibility
		direct         []ModuleImpact
		want           string
	}{
		{"go", "Serve", lang.VisPublic, nil, "public 0.95 export-rule"},
		{"go", "serve", lang.VisPrivate, other, "private 0.95 export-rule"},
		{"java", "serve", lang.VisInternal, nil, "internal 0.9 modifiers"},
		{"kotlin", "serve", lang.VisPublic, nil, "public 0.9 modifiers"},
		{"csharp", "Serve", lang.VisPublic, nil, "public 0.9 modifiers"},
		{"typescript", "serve", lang.VisPublic, nil, "public 0.9 modifiers"},
		{"tsx", "serve", lang.VisPublic, nil, "public 0.9 modifiers"},
		{"javascript", "serve", lang.VisPublic, nil, "public 0.9 modifiers"},
		{"rust", "serve", lang.VisPrivate, nil, "private 0.9 modifiers"},
		{"php", "serve", lang.VisPublic, nil, "public 0.9 modifiers"},
		{"c", "serve", lang.VisPrivate, nil, "private 0.9 modifiers"},
		{"cpp", "serve", lang.VisPublic, nil, "public 0.9 modifiers"},
		{"go", "Serve", lang.VisUnknown, other, "public 0.9 ref-analysis"},
		{"python", "serve", lang.VisPublic, other, "public 0.9 ref-analysis"},
		{"python", "_serve", lang.VisInternal, nil, "private 0.6 naming-convention"},
		{"ruby", "serve", lang.VisPublic, nil, "unknown 0.3 naming-convention"},
	} {
		v := deriveVisibility(tc.language, tc.name, tc.v, tc.direct, "example.com/home")
		if got := fmt.Sprintf("%s %v %s", v.Visibility, v.Confidence, v.Source); got != tc.want {
			t.Errorf("%s %s (%v): %s, want %s", tc.language, tc.name, tc.v, got, tc.want)
		}
	}
}
