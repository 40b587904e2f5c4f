package ruby

import (
	"slices"
	"testing"
)

func TestConventionalFiles(t *testing.T) {
	for p, want := range map[string][]string{
		"Rack.Utils":        {"rack/utils", "rack"},
		"Rack.Utils.escape": {"rack/utils", "rack"},
		"Rack.CommonLogger": {"rack/common_logger", "rack"},
		"Shop.HTTPClient":   {"shop/http_client", "shop"},
		"OAuth2.Client":     {"o_auth2/client", "o_auth2"},
		"IO":                {"io"},
		"helper":            {},
	} {
		if got := conventionalFiles(p); !slices.Equal(got, want) {
			t.Errorf("conventionalFiles(%q) = %q, want %q", p, got, want)
		}
	}
}
