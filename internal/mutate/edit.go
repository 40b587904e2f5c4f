package mutate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/scan"
)

// Actions of a file edit.
const (
	Create = "create"
	Update = "update"
	Delete = "delete"
)

// FileEdit is what one batch does to one file.
type FileEdit struct {
	Path   string `json:"path" jsonschema:"repo-relative file path"`
	Action string `json:"action" jsonschema:"create, update or delete"`
	// Content is the whole content: of a new file, or of an updated one
	// (instead of spans). A pointer: an empty file is a content too.
	Content *string `json:"content,omitempty" jsonschema:"create: the new file's content; update: the whole new content (instead of spans), line endings and byte order mark adapted to the file's"`
	Spans   []Span  `json:"spans,omitempty" jsonschema:"update: line spans to replace, each anchored by its expected text; line numbers are those of the file before this call"`
	// ExpectedSHA256 is the file_sha256 of read_source.
	ExpectedSHA256 string `json:"expected_sha256,omitempty" jsonschema:"update or delete: the file_sha256 that read_source returned; the edit fails with CONFLICT if the file changed since"`
}

// Span replaces (or inserts) whole lines of a file.
type Span struct {
	StartLine int `json:"start_line" jsonschema:"first line to replace, 1-based"`
	EndLine   int `json:"end_line,omitempty" jsonschema:"last line to replace, inclusive (default: start_line plus the lines of expected, minus one)"`
	// Expected is the text the lines hold now. A pointer: an empty line is
	// an expected text too.
	Expected *string `json:"expected,omitempty" jsonschema:"the text those lines hold now; when the lines moved it is looked for nearby and the move is reported in the delta"`
	NewText  string  `json:"new_text" jsonschema:"the lines that replace them, in the file's line endings once written (empty: delete the lines)"`
	Insert   bool    `json:"insert,omitempty" jsonschema:"insert new_text before start_line instead of replacing lines (start_line one past the last line appends); needs the file's expected_sha256"`
}

// Correction records a span found away from its stated lines.
type Correction struct {
	Edit        string `json:"edit"`         // e.g. edits[0].spans[1]
	StatedStart int    `json:"stated_start"` // 1-based line the request gave
	FoundStart  int    `json:"found_start"`  // 1-based line where the expected text is
	Lines       int    `json:"lines"`
}

// driftWindow is how far (in lines, either way) a span's expected text is
// looked for when it is not at the stated lines: far enough for the lines
// an agent's own earlier edits added or removed, near enough that a second
// copy of the same text elsewhere in the file is not taken for it.
const driftWindow = 100

// placed is a span located in the file: lines [start, end) (0-based) are
// replaced by text.
type placed struct {
	start, end int
	text       []string
	label      string
}

// applySpans edits old by spans. label names the file edit in messages
// (edits[2]); haveSHA says the file's whole content was checked, which
// stands in for an expected text.
func applySpans(path string, old []byte, spans []Span, label string, haveSHA bool) ([]byte, []Correction, error) {
	if scan.IsBinary(old) {
		return nil, nil, &errs.Error{Kind: errs.InvalidArgument, Path: path, Msg: path + " is a binary file: span edits need text; give content instead"}
	}
	d := parseDoc(old)
	bodies := d.bodies()
	var ps []placed
	var corrections []Correction
	for i, sp := range spans {
		lab := fmt.Sprintf("%s.spans[%d]", label, i)
		p, corr, err := locate(path, bodies, sp, lab, haveSHA)
		if err != nil {
			return nil, nil, err
		}
		if corr != nil {
			corrections = append(corrections, *corr)
		}
		ps = append(ps, p)
	}
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].start != ps[j].start {
			return ps[i].start < ps[j].start
		}
		return ps[i].end < ps[j].end
	})
	for i := 1; i < len(ps); i++ {
		if ps[i].start < ps[i-1].end {
			return nil, nil, &errs.Error{Kind: errs.InvalidArgument, Path: path,
				Msg:     fmt.Sprintf("%s and %s overlap in %s (lines %d-%d and %d-%d)", ps[i-1].label, ps[i].label, path, ps[i-1].start+1, ps[i-1].end, ps[i].start+1, ps[i].end),
				Details: map[string]any{"edits": []string{ps[i-1].label, ps[i].label}}}
		}
	}
	eol, final := d.eol(), d.finalNewline()
	var out []line
	pos := 0
	for _, p := range ps {
		out = append(out, d.lines[pos:p.start]...)
		for _, t := range p.text {
			out = append(out, line{body: t, eol: eol})
		}
		pos = p.end
	}
	out = append(out, d.lines[pos:]...)
	// Every line but the last ends with a newline; the last one does as
	// the file's last line did.
	for i := range out {
		if i < len(out)-1 && out[i].eol == "" {
			out[i].eol = eol
		}
	}
	if n := len(out); n > 0 {
		switch {
		case !final:
			out[n-1].eol = ""
		case out[n-1].eol == "":
			out[n-1].eol = eol
		}
	}
	d.lines = out
	return d.bytes(), corrections, nil
}

// locate finds where one span applies.
func locate(path string, bodies []string, sp Span, lab string, haveSHA bool) (placed, *Correction, error) {
	bad := func(format string, args ...any) error {
		return &errs.Error{Kind: errs.InvalidArgument, Path: path, Msg: lab + ": " + fmt.Sprintf(format, args...), Details: map[string]any{"edit": lab}}
	}
	text := blockLines(sp.NewText)
	if sp.StartLine < 1 {
		return placed{}, nil, bad("start_line must be at least 1")
	}
	if sp.Insert {
		switch {
		case sp.Expected != nil || sp.EndLine != 0:
			return placed{}, nil, bad("an insert takes start_line and new_text only")
		case !haveSHA:
			return placed{}, nil, bad("an insert has no text to anchor it: give the file's expected_sha256 (from read_source), or replace a line and repeat it in new_text")
		case sp.StartLine > len(bodies)+1:
			return placed{}, nil, bad("cannot insert before line %d: %s has %d lines", sp.StartLine, path, len(bodies))
		}
		return placed{start: sp.StartLine - 1, end: sp.StartLine - 1, text: text, label: lab}, nil, nil
	}
	var want []string
	if sp.Expected != nil {
		if want = blockLines(*sp.Expected); want == nil {
			want = []string{""} // one empty line
		}
	}
	end := sp.EndLine
	switch {
	case want != nil && end == 0:
		end = sp.StartLine + len(want) - 1
	case want != nil && end != sp.StartLine+len(want)-1:
		return placed{}, nil, bad("expected has %d lines but lines %d-%d are %d", len(want), sp.StartLine, end, end-sp.StartLine+1)
	case end == 0:
		end = sp.StartLine
	case end < sp.StartLine:
		return placed{}, nil, bad("end_line %d is before start_line %d", end, sp.StartLine)
	}
	if want == nil {
		if !haveSHA {
			return placed{}, nil, bad("a span needs its expected text, or the file's expected_sha256 (from read_source)")
		}
		if end > len(bodies) {
			return placed{}, nil, bad("line %d is past the end of %s (%d lines)", end, path, len(bodies))
		}
		return placed{start: sp.StartLine - 1, end: end, text: text, label: lab}, nil, nil
	}
	at, err := anchor(path, bodies, want, sp.StartLine-1, lab)
	if err != nil {
		return placed{}, nil, err
	}
	var corr *Correction
	if at != sp.StartLine-1 {
		corr = &Correction{Edit: lab, StatedStart: sp.StartLine, FoundStart: at + 1, Lines: len(want)}
	}
	return placed{start: at, end: at + len(want), text: text, label: lab}, corr, nil
}

// anchor returns where the lines want start (0-based): at the stated line
// when they are there, else at the one place within driftWindow lines
// where they are. None, or more than one, fails the edit: a write never
// guesses.
func anchor(path string, bodies, want []string, at int, lab string) (int, error) {
	match := func(i int) bool {
		if i < 0 || i+len(want) > len(bodies) {
			return false
		}
		for j, w := range want {
			if bodies[i+j] != w {
				return false
			}
		}
		return true
	}
	if match(at) {
		return at, nil
	}
	var found []int
	for i := max(0, at-driftWindow); i <= min(len(bodies)-len(want), at+driftWindow); i++ {
		if match(i) {
			found = append(found, i)
		}
	}
	if len(found) == 1 {
		return found[0], nil
	}
	span := fmt.Sprintf("lines %d-%d", at+1, at+len(want))
	details := map[string]any{"edit": lab, "path": path, "stated_start": at + 1}
	if len(found) == 0 {
		return 0, &errs.Error{Kind: errs.Precondition, Path: path, Details: details,
			Msg:   fmt.Sprintf("%s: the expected text is not at %s of %s, nor within %d lines of them", lab, span, path, driftWindow),
			Fixes: []string{"read the file again (read_source) and repeat the edit with its current text"}}
	}
	lines := make([]string, len(found))
	starts := make([]int, len(found))
	for i, f := range found {
		lines[i], starts[i] = fmt.Sprint(f+1), f+1
	}
	details["candidates"] = starts
	return 0, &errs.Error{Kind: errs.Precondition, Path: path, Details: details,
		Msg:   fmt.Sprintf("%s: the expected text is not at %s of %s but at %d places near them (lines %s): which one is meant is ambiguous", lab, span, path, len(found), strings.Join(lines, ", ")),
		Fixes: []string{"repeat the edit with the right start_line, or with more lines of expected text"}}
}
