package scan

import (
	"cmp"

	"github.com/cairnhq/cairn/internal/errs"
)

// Refusal words a policy's refusal of a repo path (the read tools', the
// writes'). Path is the path the policy refused; Named, when set, is the
// path the request named, which leads to Path through symlinks: messages
// then name what was asked for and say where it leads.
type Refusal struct {
	Verb  string // what is refused: "read", "list", "write"
	Path  string
	Named string
}

// It is the subject of a reason: "it", or "it leads to <Path>, which".
func (r Refusal) It() string {
	if r.Named == "" {
		return "it"
	}
	return "it leads to " + r.Path + ", which"
}

// Metadata is the reason that refuses repository metadata.
func (r Refusal) Metadata() string {
	if r.Named == "" {
		return "repository metadata"
	}
	return r.It() + " is repository metadata"
}

// Err is the Refused error for why, naming the path asked for.
func (r Refusal) Err(why string, fixes ...string) error {
	asked := cmp.Or(r.Named, r.Path)
	return &errs.Error{Kind: errs.Refused, Path: asked, Msg: "refusing to " + r.Verb + " " + asked + ": " + why, Fixes: fixes}
}
