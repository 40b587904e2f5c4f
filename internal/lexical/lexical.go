// Package lexical is the full-text tier's matching logic: it turns a search
// (literal, whole word or RE2 regex, optionally case-insensitive) into a trigram
// prefilter for the store and verifies candidates against their content,
// reporting exact positions. It holds no data of its own.
package lexical

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"github.com/cairnhq/cairn/internal/errs"
)

// Query is one lexical search.
type Query struct {
	Text       string
	Regex      bool
	Word       bool // whole identifier
	IgnoreCase bool
}

// Matcher verifies a query against file contents.
type Matcher struct {
	q      Query
	re     *regexp.Regexp // for regex, word and case-insensitive searches
	lit    []byte         // for case-sensitive literal searches
	prefix string         // the literal the trigram index can look for ("" = no prefilter)
}

// Compile validates a query and prepares its matcher.
func Compile(q Query) (*Matcher, error) {
	if q.Text == "" {
		return nil, errs.E(errs.InvalidArgument, "empty search query")
	}
	m := &Matcher{q: q}
	if !q.Regex {
		m.prefix = q.Text
		if !q.Word && !q.IgnoreCase {
			m.lit = []byte(q.Text)
			return m, nil
		}
		m.re = regexp.MustCompile(q.wrap(regexp.QuoteMeta(q.Text)))
		return m, nil
	}
	re, err := regexp.Compile("(?m)" + q.wrap(q.Text))
	if err != nil {
		return nil, &errs.Error{Kind: errs.InvalidRegex, Msg: "invalid regular expression: " + err.Error(),
			Fixes: []string{"check the RE2 syntax, or search for a literal without --regex"}}
	}
	m.re = re
	m.prefix = requiredLiteral(q.Text)
	return m, nil
}

// wrap applies the query's word and case options to a pattern, the same for
// a literal (quoted) as for a regular expression.
func (q Query) wrap(expr string) string {
	if q.Word {
		expr = `(?:^|[^\pL\pN_$])(` + expr + `)(?:$|[^\pL\pN_$])`
	}
	if q.IgnoreCase {
		expr = "(?i)" + expr
	}
	return expr
}

// Prefilter returns the literal every match must contain, and whether the
// index may compare it case-sensitively. An empty literal means no prefilter.
func (m *Matcher) Prefilter() (lit string, caseSensitive bool) {
	if len(m.prefix) < 3 {
		return "", false // the trigram index needs three characters
	}
	return m.prefix, !m.q.IgnoreCase && !m.q.Regex
}

// MayMatch is a cheap pre-check: false means content cannot match.
func (m *Matcher) MayMatch(content []byte) bool {
	if m.lit != nil {
		return bytes.Contains(content, m.lit)
	}
	if len(m.prefix) >= 3 && !m.q.IgnoreCase {
		return bytes.Contains(content, []byte(m.prefix))
	}
	return true
}

// Match is one occurrence in a file.
type Match struct {
	Line, Col, EndLine, EndCol int // 1-based; columns in bytes; EndCol exclusive
	Start, End                 int // byte offsets
}

// Find returns up to limit matches in content (limit <= 0 means all) and
// whether more remained.
func (m *Matcher) Find(content []byte, limit int) ([]Match, bool) {
	var out []Match
	lines := newLineIndex(content)
	add := func(s, e int) bool {
		if limit > 0 && len(out) >= limit {
			return false
		}
		l1, c1 := lines.pos(s)
		l2, c2 := lines.pos(e)
		out = append(out, Match{Line: l1, Col: c1, EndLine: l2, EndCol: c2, Start: s, End: e})
		return true
	}
	if m.lit != nil {
		off := 0
		for {
			i := bytes.Index(content[off:], m.lit)
			if i < 0 {
				return out, false
			}
			s := off + i
			if !add(s, s+len(m.lit)) {
				return out, true
			}
			off = s + max(1, len(m.lit))
		}
	}
	for off := 0; off <= len(content); {
		loc := m.re.FindSubmatchIndex(content[off:])
		if loc == nil {
			return out, false
		}
		s, e := loc[0], loc[1]
		if len(loc) >= 4 && loc[2] >= 0 { // the word wrapper's inner group
			s, e = loc[2], loc[3]
		}
		if !add(off+s, off+e) {
			return out, true
		}
		next := off + e
		if e == loc[0] || next <= off {
			_, size := utf8.DecodeRune(content[min(off+loc[1], len(content)):])
			next = off + loc[1] + max(size, 1)
		}
		if m.q.Word && e < loc[1] {
			next = off + e // the trailing boundary may start the next word
		}
		off = next
	}
	return out, false
}

// LineText returns the text of a 1-based line, without its newline.
func LineText(content []byte, line int) string {
	start := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(content[start:], '\n')
		if i < 0 {
			return ""
		}
		start += i + 1
	}
	end := bytes.IndexByte(content[start:], '\n')
	if end < 0 {
		end = len(content) - start
	}
	return strings.TrimRight(string(content[start:start+end]), "\r")
}

type lineIndex struct {
	content []byte
	starts  []int
}

func newLineIndex(content []byte) *lineIndex { return &lineIndex{content: content} }

func (li *lineIndex) pos(off int) (line, col int) {
	if li.starts == nil {
		li.starts = []int{0}
		for i, c := range li.content {
			if c == '\n' {
				li.starts = append(li.starts, i+1)
			}
		}
	}
	lo, hi := 0, len(li.starts)
	for lo < hi {
		mid := (lo + hi) / 2
		if li.starts[mid] <= off {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo, off - li.starts[lo-1] + 1
}

// requiredLiteral finds the longest literal every match of a regex contains.
func requiredLiteral(expr string) string {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return ""
	}
	return longest(re.Simplify())
}

func longest(re *syntax.Regexp) string {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return ""
		}
		return string(re.Rune)
	case syntax.OpCapture:
		return longest(re.Sub[0])
	case syntax.OpPlus:
		return longest(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min > 0 {
			return longest(re.Sub[0])
		}
	case syntax.OpConcat:
		best, cur := "", ""
		for _, sub := range re.Sub {
			if sub.Op == syntax.OpLiteral && sub.Flags&syntax.FoldCase == 0 {
				cur += string(sub.Rune)
				if len(cur) > len(best) {
					best = cur
				}
				continue
			}
			cur = ""
			if l := longest(sub); len(l) > len(best) {
				best = l
			}
		}
		return best
	}
	return ""
}
