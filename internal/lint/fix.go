package lint

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"
)

// parseESLint reads eslint -f json, with each message's fix (byte offsets).
func parseESLint(out []byte, l locator) ([]Diagnostic, error) {
	var files []struct {
		FilePath string `json:"filePath"`
		Messages []struct {
			RuleID    string `json:"ruleId"`
			Severity  int    `json:"severity"`
			Message   string `json:"message"`
			Line      int    `json:"line"`
			Column    int    `json:"column"`
			EndLine   int    `json:"endLine"`
			EndColumn int    `json:"endColumn"`
			Fix       *struct {
				Range [2]int `json:"range"`
				Text  string `json:"text"`
			} `json:"fix"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(out, &files); err != nil {
		if len(strings.TrimSpace(string(out))) == 0 {
			return nil, fmt.Errorf("eslint printed no report")
		}
		return nil, fmt.Errorf("eslint: unreadable JSON report")
	}
	var diags []Diagnostic
	for _, f := range files {
		for _, m := range f.Messages {
			d := Diagnostic{Path: l.path(f.FilePath), Line: m.Line, Col: m.Column, EndLine: m.EndLine, EndCol: m.EndColumn,
				Rule: m.RuleID, Severity: "warning", Message: m.Message}
			if m.Severity == 2 {
				d.Severity = "error"
			}
			if d.Rule == "" {
				d.Rule = "parse"
			}
			if m.Fix != nil {
				d.Fixable, d.fix = true, &byteEdit{start: m.Fix.Range[0], end: m.Fix.Range[1], text: m.Fix.Text}
			}
			diags = append(diags, d)
		}
	}
	return diags, nil
}

// rowCol is a 1-based position in ruff's reports (column in characters).
type rowCol struct {
	Row    int `json:"row"`
	Column int `json:"column"`
}

// parseRuff reads ruff check --output-format json, with each finding's
// fix (row/column edits, turned into byte offsets when the fix is applied).
func parseRuff(out []byte, l locator) ([]Diagnostic, error) {
	var items []struct {
		Code        string `json:"code"`
		Message     string `json:"message"`
		Filename    string `json:"filename"`
		Location    rowCol `json:"location"`
		EndLocation rowCol `json:"end_location"`
		Fix         *struct {
			Edits []struct {
				Content     string `json:"content"`
				Location    rowCol `json:"location"`
				EndLocation rowCol `json:"end_location"`
			} `json:"edits"`
		} `json:"fix"`
	}
	if err := json.Unmarshal(out, &items); err != nil {
		return nil, fmt.Errorf("ruff: unreadable JSON report")
	}
	var diags []Diagnostic
	for _, it := range items {
		d := Diagnostic{Path: l.path(it.Filename), Line: it.Location.Row, Col: it.Location.Column, EndLine: it.EndLocation.Row,
			EndCol: it.EndLocation.Column, Rule: it.Code, Severity: "warning", Message: it.Message}
		if it.Code == "" || strings.HasPrefix(it.Code, "E9") || strings.HasPrefix(it.Code, "F") {
			d.Severity = "error"
		}
		if it.Fix != nil && len(it.Fix.Edits) == 1 {
			e := it.Fix.Edits[0]
			if src, err := os.ReadFile(filepath.FromSlash(it.Filename)); err == nil {
				s, okS := offset(src, e.Location.Row, e.Location.Column)
				t, okT := offset(src, e.EndLocation.Row, e.EndLocation.Column)
				if okS && okT {
					d.Fixable, d.fix = true, &byteEdit{start: s, end: t, text: e.Content}
				}
			}
		}
		diags = append(diags, d)
	}
	return diags, nil
}

// offset is the byte offset of a 1-based row and column (in characters).
func offset(src []byte, row, col int) (int, bool) {
	line := 1
	i := 0
	for line < row && i < len(src) {
		if src[i] == '\n' {
			line++
		}
		i++
	}
	if line != row {
		return 0, false
	}
	for c := 1; c < col && i < len(src); c++ {
		_, size := utf8.DecodeRune(src[i:])
		i += size
	}
	return i, true
}

// Fixed is a file's content with a linter's fixes applied.
type Fixed struct {
	Path    string
	Old     []byte
	New     []byte
	Applied int
}

// ApplyFixes applies the fixes of diagnostics to their files in memory
// (root-relative paths): per file, fixes that overlap an earlier one are
// left out, as linters do in one pass.
func ApplyFixes(root string, diags []Diagnostic) ([]Fixed, error) {
	by := map[string][]*byteEdit{}
	for _, d := range diags {
		if d.fix != nil {
			by[d.Path] = append(by[d.Path], d.fix)
		}
	}
	var out []Fixed
	for p, edits := range by {
		old, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return nil, err
		}
		sort.Slice(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
		var b strings.Builder
		pos, n := 0, 0
		for _, e := range edits {
			if e.start < pos || e.end > len(old) || e.end < e.start {
				continue // overlaps the previous fix
			}
			b.Write(old[pos:e.start])
			b.WriteString(e.text)
			pos = e.end
			n++
		}
		b.Write(old[pos:])
		out = append(out, Fixed{Path: p, Old: old, New: []byte(b.String()), Applied: n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}
