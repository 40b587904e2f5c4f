package cards

import "testing"

func TestValidKeyAndName(t *testing.T) {
	keys := map[string]bool{
		"auth": true, "auth/login": true, "a.b_c-d/E9": true, "v1.2/x": true,
		"": false, "/auth": false, "auth/": false, "auth//login": false, "auth.": false,
		".auth": false, "-x": false, "module:x": false, "a b": false, "ключ": false,
		string(make([]byte, 201)): false,
	}
	for k, want := range keys {
		if got := ValidKey(k); got != want {
			t.Errorf("ValidKey(%q) = %v, want %v", k, got, want)
		}
	}
	names := map[string]bool{
		"security": true, "C++": true, "tag/sub": true, "two words": true, "v1.2_x-y": true, "ключ": true, "9lives": true,
		"": false, " lead": false, "trail ": false, "-x": false, ".x": false, "a:b": false, "a,b": false, "\xff": false,
	}
	for n, want := range names {
		if got := ValidName(n); got != want {
			t.Errorf("ValidName(%q) = %v, want %v", n, got, want)
		}
	}
}
