package tools

import (
	"testing"

	"github.com/cairnhq/cairn/internal/errs"
)

// An argument outside its allowed values is refused as INVALID_ARGUMENT,
// naming every value allowed in the order given.
func TestMustBeOneOf(t *testing.T) {
	for _, tc := range []struct {
		arg     string
		allowed []string
		want    string
	}{
		{"verify", []string{"build", "none"}, `verify must be build or none, not "x"`},
		{"mode", []string{"soft", "mixed", "hard"}, `mode must be soft, mixed or hard, not "x"`},
		{"action", []string{"list", "create", "delete", "rename"}, `action must be list, create, delete or rename, not "x"`},
	} {
		err := mustBeOneOf(tc.arg, "x", tc.allowed...)
		if !errs.Is(err, errs.InvalidArgument) {
			t.Errorf("%s: kind %v, want INVALID_ARGUMENT", tc.arg, err)
		}
		if got := errs.As(err).Message(); got != tc.want {
			t.Errorf("message %q, want %q", got, tc.want)
		}
	}
}

// shorten keeps lists within the limit whole and records a cut of the others.
func TestShorten(t *testing.T) {
	c := &Call{}
	if got := shorten(c, "short", []int{1, 2}, 2); len(got) != 2 || len(c.truncations) != 0 {
		t.Errorf("a list within the limit: %v, truncations %v", got, c.truncations)
	}
	got := shorten(c, "long", []int{1, 2, 3}, 2)
	if len(got) != 2 || len(c.truncations) != 1 || c.truncations[0].Field != "long" || c.truncations[0].Returned != 2 || c.truncations[0].Total != 3 {
		t.Errorf("a list over the limit: %v, truncations %v", got, c.truncations)
	}
}
