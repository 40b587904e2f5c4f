package mutate

import (
	"bytes"
	"strings"
)

// bom is the UTF-8 byte order mark. A file that starts with one keeps it.
const bom = "\uFEFF"

// line is one line of a file: its text and the line ending that follows it
// ("\n", "\r\n", or "" for a last line without a final newline).
type line struct {
	body string
	eol  string
}

// doc is a text file split into lines so that what an edit does not touch
// is written back byte for byte: every line keeps its own ending.
type doc struct {
	bom   bool
	lines []line
}

// parseDoc splits file content into lines.
func parseDoc(data []byte) *doc {
	s := string(data)
	d := &doc{}
	if rest, ok := strings.CutPrefix(s, bom); ok {
		d.bom, s = true, rest
	}
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			d.lines = append(d.lines, line{body: s})
			break
		}
		body, eol := s[:i], "\n"
		if strings.HasSuffix(body, "\r") {
			body, eol = body[:len(body)-1], "\r\n"
		}
		d.lines = append(d.lines, line{body: body, eol: eol})
		s = s[i+1:]
	}
	return d
}

// bytes renders the document.
func (d *doc) bytes() []byte {
	var b bytes.Buffer
	if d.bom {
		b.WriteString(bom)
	}
	for _, l := range d.lines {
		b.WriteString(l.body)
		b.WriteString(l.eol)
	}
	return b.Bytes()
}

// eol is the file's line ending: CRLF when most of its lines end so, else LF.
func (d *doc) eol() string {
	crlf, lf := 0, 0
	for _, l := range d.lines {
		switch l.eol {
		case "\r\n":
			crlf++
		case "\n":
			lf++
		}
	}
	if crlf > lf {
		return "\r\n"
	}
	return "\n"
}

// finalNewline reports whether the file ends with a line ending (an empty
// file counts as ending with one: text added to it gets one).
func (d *doc) finalNewline() bool {
	return len(d.lines) == 0 || d.lines[len(d.lines)-1].eol != ""
}

// bodies are the lines' texts.
func (d *doc) bodies() []string {
	out := make([]string, len(d.lines))
	for i, l := range d.lines {
		out[i] = l.body
	}
	return out
}

// blockLines splits a block of text given in a request into lines: CRLF is
// read as LF, one trailing newline is optional, and only the empty string
// is no lines at all ("\n" is one empty line).
func blockLines(s string) []string {
	if s == "" {
		return nil
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(s, "\n")
}

// lineEndingName names a line ending for the delta.
func lineEndingName(eol string) string {
	if eol == "\r\n" {
		return "crlf"
	}
	return "lf"
}

// conformContent adapts the whole new content of an existing file to the
// file's conventions: a file that uses CRLF gets CRLF where the new content
// has only bare LFs (content that already has a CRLF is taken as meant), and
// a file that starts with a byte order mark keeps it. Whether the content
// ends with a newline is the caller's choice and is left as given.
func conformContent(old *doc, content string) string {
	if old.eol() == "\r\n" && !strings.Contains(content, "\r\n") && strings.Contains(content, "\n") {
		content = strings.ReplaceAll(content, "\n", "\r\n")
	}
	if old.bom && !strings.HasPrefix(content, bom) {
		content = bom + content
	}
	return content
}
