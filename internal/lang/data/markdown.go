package data

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// mdLine is one line of a Markdown file.
type mdLine struct {
	start, end int    // byte offsets, end before the line break
	text       string // without the line break
}

// extractMarkdown outlines the headings of a Markdown file with a line
// scanner: ATX (# Title) and setext (Title over === or ---) headings nest by
// level; fenced code blocks and YAML front matter are skipped.
func extractMarkdown(src []byte) (*lang.Facts, error) {
	o := newOutline(src)
	var lines []mdLine
	for i, ls := range o.lines {
		if ls >= len(src) && i > 0 {
			break
		}
		le := o.lineEnd(ls)
		lines = append(lines, mdLine{ls, le, string(o.src[ls:le])})
	}
	type open struct {
		level int
		def   int32
	}
	var stack []open
	closeTo := func(level, at int) {
		for len(stack) > 0 && stack[len(stack)-1].level >= level {
			o.setEnd(stack[len(stack)-1].def, o.trimBack(at))
			stack = stack[:len(stack)-1]
		}
	}
	addHeading := func(level int, name string, start, nameStart, nameEnd, sigEnd, body int) {
		closeTo(level, start)
		parent := int32(-1)
		if len(stack) > 0 {
			parent = stack[len(stack)-1].def
		}
		idx := o.add(def{kind: lang.KindModule, name: name, parent: parent, start: start, end: sigEnd,
			nameStart: nameStart, nameEnd: nameEnd, sig: string(o.src[start:sigEnd]), doc: mdDoc(lines, body)})
		if idx >= 0 {
			stack = append(stack, open{level, idx})
		}
	}
	i := frontMatter(lines)
	fence := ""
	para := -1 // first line of the paragraph in progress
	for ; i < len(lines) && !o.full; i++ {
		ln := lines[i]
		indent, rest := leadingSpaces(ln.text)
		if fence != "" {
			if indent < 4 && closesFence(rest, fence) {
				fence = ""
			}
			continue
		}
		if indent < 4 {
			if f := openFence(rest); f != "" {
				fence, para = f, -1
				continue
			}
		}
		if strings.TrimSpace(ln.text) == "" {
			para = -1
			continue
		}
		if indent < 4 {
			if level, ns, ne := atx(rest); level > 0 {
				off := ln.start + (len(ln.text) - len(rest))
				if ne > ns {
					addHeading(level, rest[ns:ne], ln.start, off+ns, off+ne, ln.end, i+1)
				}
				para = -1
				continue
			}
			if level := setext(rest); level > 0 && para >= 0 {
				first := lines[para]
				var parts []string
				for j := para; j < i; j++ {
					parts = append(parts, strings.TrimSpace(lines[j].text))
				}
				name := lang.CollapseSpace(strings.Join(parts, " "))
				_, fr := leadingSpaces(first.text)
				ns := first.start + (len(first.text) - len(fr))
				addHeading(level, name, first.start, ns, lines[i-1].end, lines[i-1].end, i+1)
				para = -1
				continue
			}
		}
		if para < 0 && indent < 4 && isParagraphStart(rest) {
			para = i
		} else if para >= 0 && !isParagraphStart(rest) {
			para = -1
		}
	}
	closeTo(0, len(src))
	return o.facts(), nil
}

func leadingSpaces(s string) (int, string) {
	n := 0
	for n < len(s) && s[n] == ' ' {
		n++
	}
	return n, s[n:]
}

// frontMatter returns the first line after a leading YAML front matter block.
func frontMatter(lines []mdLine) int {
	if len(lines) == 0 || strings.TrimRight(lines[0].text, " \t") != "---" {
		return 0
	}
	for i := 1; i < len(lines); i++ {
		if t := strings.TrimRight(lines[i].text, " \t"); t == "---" || t == "..." {
			return i + 1
		}
	}
	return 0
}

// openFence returns the fence (``` or ~~~, as long as written) a line opens.
func openFence(s string) string {
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(s) && s[n] == c {
			n++
		}
		if n >= 3 {
			if c == '`' && strings.Contains(s[n:], "`") {
				return "" // inline code, not a fence
			}
			return s[:n]
		}
	}
	return ""
}

func closesFence(s, fence string) bool {
	n := 0
	for n < len(s) && s[n] == fence[0] {
		n++
	}
	return n >= len(fence) && strings.TrimSpace(s[n:]) == ""
}

// atx reads an ATX heading: its level and the byte range of its text in s.
func atx(s string) (level, ns, ne int) {
	for level < len(s) && s[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || (level < len(s) && s[level] != ' ' && s[level] != '\t') {
		return 0, 0, 0
	}
	ns, ne = level, len(s)
	for ns < ne && (s[ns] == ' ' || s[ns] == '\t') {
		ns++
	}
	for ne > ns && (s[ne-1] == ' ' || s[ne-1] == '\t') {
		ne--
	}
	// an optional closing sequence of #s, preceded by a space
	j := ne
	for j > ns && s[j-1] == '#' {
		j--
	}
	if j < ne && (j == ns || s[j-1] == ' ' || s[j-1] == '\t') {
		ne = j
		for ne > ns && (s[ne-1] == ' ' || s[ne-1] == '\t') {
			ne--
		}
	}
	return level, ns, ne
}

// setext reads a setext underline: 1 for ===, 2 for ---, 0 for neither.
func setext(s string) int {
	t := strings.TrimRight(s, " \t")
	if t == "" {
		return 0
	}
	if strings.Trim(t, "=") == "" {
		return 1
	}
	if strings.Trim(t, "-") == "" {
		return 2
	}
	return 0
}

// isParagraphStart reports whether a line can be paragraph text (so an
// underline below it makes a setext heading): not a list item, quote, table
// row, HTML block or thematic break.
func isParagraphStart(s string) bool {
	if s == "" {
		return false
	}
	switch s[0] {
	case '>', '|', '<', '-', '*', '+', '=', '#':
		return false
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i < len(s) && (s[i] == '.' || s[i] == ')') {
		return false
	}
	return true
}

// mdDoc is the first sentence of the paragraph that starts at or after line i.
func mdDoc(lines []mdLine, i int) string {
	for i < len(lines) && strings.TrimSpace(lines[i].text) == "" {
		i++
	}
	var parts []string
	for ; i < len(lines); i++ {
		indent, rest := leadingSpaces(lines[i].text)
		if strings.TrimSpace(rest) == "" || indent >= 4 || openFence(rest) != "" || !isParagraphStart(rest) {
			break
		}
		if lvl, _, _ := atx(rest); lvl > 0 {
			break
		}
		parts = append(parts, strings.TrimSpace(rest))
	}
	return lang.Summary(strings.Join(parts, "\n"))
}
