package scan

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/errs"
)

// A refusal names the path asked for and, when symlinks lead elsewhere,
// says where: the reads' and the writes' policies word it alike.
func TestRefusal(t *testing.T) {
	tests := []struct {
		r        Refusal
		metadata bool
		fixes    []string
		want     errs.Error
	}{
		{Refusal{Verb: "read", Path: ".env"}, false, nil,
			errs.Error{Kind: errs.Refused, Path: ".env", Msg: "refusing to read .env: it looks like a secret"}},
		{Refusal{Verb: "write", Path: ".env", Named: "config"}, false, []string{"fix"},
			errs.Error{Kind: errs.Refused, Path: "config", Msg: "refusing to write config: it leads to .env, which looks like a secret", Fixes: []string{"fix"}}},
		{Refusal{Verb: "list", Path: ".git/config"}, true, nil,
			errs.Error{Kind: errs.Refused, Path: ".git/config", Msg: "refusing to list .git/config: repository metadata"}},
		{Refusal{Verb: "read", Path: ".git/config", Named: "link"}, true, nil,
			errs.Error{Kind: errs.Refused, Path: "link", Msg: "refusing to read link: it leads to .git/config, which is repository metadata"}},
	}
	for _, tt := range tests {
		why := tt.r.It() + " " + WhySecret
		if tt.metadata {
			why = tt.r.Metadata()
		}
		err := tt.r.Err(why, tt.fixes...)
		got, ok := err.(*errs.Error)
		if !ok {
			t.Fatalf("%+v: %T, want *errs.Error", tt.r, err)
		}
		if diff := cmp.Diff(tt.want, *got); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", tt.r, diff)
		}
	}
}
