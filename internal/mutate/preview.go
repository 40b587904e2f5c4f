package mutate

import (
	"context"
	"sort"

	"github.com/cairnhq/cairn/internal/scan"
)

// Planned is what a batch would leave in one file.
type Planned struct {
	Path string // the path as the request named it
	Edit int    // index of the file edit in the request
	// Content is the new content; nil when the file is deleted.
	Content []byte
	// OldSHA256 is the content's hash now ("" for a new file).
	OldSHA256 string
	// Hunks are the changed lines (new-side numbers locate the edit).
	Hunks []Hunk
}

// Preview plans a batch without locking or writing anything: the contents
// it would write, so they can be checked (built) first. A Write that
// follows with each edit's expected_sha256 set to OldSHA256 writes exactly
// these contents or fails.
func (e *Engine) Preview(ctx context.Context, req Request) ([]Planned, error) {
	dry := req
	dry.DryRun = true
	if _, err := e.Write(ctx, dry); err != nil {
		return nil, err // the same checks and errors as the write
	}
	out := make([]Planned, 0, len(req.Edits))
	for i, fe := range req.Edits {
		t, err := e.resolve(ctx, fe.Path)
		if err != nil {
			return nil, err
		}
		c, err := e.plan(i, fe, t, nil)
		if err != nil {
			return nil, err
		}
		p := Planned{Path: c.named, Edit: i, Content: c.new, OldSHA256: c.oldSHA, Hunks: []Hunk{}}
		if c.new != nil && !scan.IsBinary(c.new) && !scan.IsBinary(c.old) {
			p.Hunks = hunks(diffLines(splitLines(c.old), splitLines(c.new)))
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}
