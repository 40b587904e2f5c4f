package renamebench

import (
	"fmt"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/cairnhq/cairn/bench/precision"
)

// Contents are files' new contents by repo path.
type Contents map[string]string

// ApplyLSP applies an LSP workspace edit to the files under root as they
// are on disk and returns the contents of the files it changes.
func ApplyLSP(root string, edits []precision.TextEdit) (Contents, error) {
	byPath := map[string][]precision.TextEdit{}
	for _, e := range edits {
		rel, err := filepath.Rel(root, e.Path)
		if err != nil || strings.HasPrefix(rel, "..") {
			return nil, fmt.Errorf("an edit outside the work copy: %s", e.Path)
		}
		byPath[filepath.ToSlash(rel)] = append(byPath[filepath.ToSlash(rel)], e)
	}
	out := Contents{}
	for p, es := range byPath {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return nil, err
		}
		src := string(data)
		starts := lineOffsets(src)
		type span struct {
			a, b int
			text string
		}
		spans := make([]span, 0, len(es))
		for _, e := range es {
			a, ok1 := offset(src, starts, e.StartLine, e.StartChar)
			b, ok2 := offset(src, starts, e.EndLine, e.EndChar)
			if !ok1 || !ok2 || b < a {
				return nil, fmt.Errorf("%s: an edit out of range (%d:%d-%d:%d)", p, e.StartLine, e.StartChar, e.EndLine, e.EndChar)
			}
			spans = append(spans, span{a, b, e.NewText})
		}
		sort.Slice(spans, func(i, j int) bool { return spans[i].a > spans[j].a })
		for _, s := range spans {
			src = src[:s.a] + s.text + src[s.b:]
		}
		out[p] = src
	}
	return out, nil
}

func lineOffsets(s string) []int {
	starts := []int{0}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// offset converts a 0-based line and UTF-16 character to a byte offset.
func offset(src string, starts []int, line, char int) (int, bool) {
	if line >= len(starts) {
		return len(src), line == len(starts) && char == 0
	}
	i, u := starts[line], 0
	for u < char && i < len(src) && src[i] != '\n' {
		r, n := utf8.DecodeRuneInString(src[i:])
		u += len(utf16.Encode([]rune{r}))
		i += n
	}
	return i, u == char
}

// Difference is how one file differs between the oracle's rename and
// Cairn's.
type Difference struct {
	Path string `json:"path"`
	// Line is the first line that differs (in the oracle's content, or in
	// Cairn's when the oracle left the file alone).
	Line int `json:"line"`
	// Oracle and Cairn are that line in each result.
	Oracle string `json:"oracle"`
	Cairn  string `json:"cairn"`
	// CommentOnly: the two differ only inside comments.
	CommentOnly bool `json:"comment_only"`
	// Unseen: the file is outside what the oracle loads (a Go file of
	// another GOOS or build tag): set by the report.
	Unseen bool `json:"unseen,omitempty"`
}

// Compare lists the files whose content differs between the oracle's
// result and Cairn's; orig reads a file as it was before either.
func Compare(oracle, cairn Contents, orig func(string) string, lang string) []Difference {
	paths := map[string]bool{}
	for p := range oracle {
		paths[p] = true
	}
	for p := range cairn {
		paths[p] = true
	}
	list := make([]string, 0, len(paths))
	for p := range paths {
		list = append(list, p)
	}
	sort.Strings(list)
	var out []Difference
	for _, p := range list {
		o, ok := oracle[p]
		if !ok {
			o = orig(p)
		}
		c, ok := cairn[p]
		if !ok {
			c = orig(p)
		}
		if o == c {
			continue
		}
		d := Difference{Path: p, CommentOnly: stripComments(o, lang) == stripComments(c, lang)}
		ol, cl := strings.Split(o, "\n"), strings.Split(c, "\n")
		for i := 0; i < len(ol) || i < len(cl); i++ {
			var a, b string
			if i < len(ol) {
				a = ol[i]
			}
			if i < len(cl) {
				b = cl[i]
			}
			if a != b {
				d.Line, d.Oracle, d.Cairn = i+1, clip(strings.TrimSpace(a)), clip(strings.TrimSpace(b))
				break
			}
		}
		out = append(out, d)
	}
	return out
}

func clip(s string) string {
	if len(s) > 120 {
		return s[:117] + "..."
	}
	return s
}

// stripComments reduces a source file to its tokens without comments: Go
// through go/scanner; other languages by dropping // and /* */ comments
// outside string literals.
func stripComments(src, lang string) string {
	if lang == "go" {
		var s scanner.Scanner
		fset := token.NewFileSet()
		f := fset.AddFile("x.go", -1, len(src))
		s.Init(f, []byte(src), func(token.Position, string) {}, 0)
		var b strings.Builder
		for {
			_, tok, lit := s.Scan()
			if tok == token.EOF {
				return b.String()
			}
			b.WriteString(tok.String())
			b.WriteByte(' ')
			b.WriteString(lit)
			b.WriteByte('\n')
		}
	}
	var b strings.Builder
	var quote byte
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case quote != 0:
			b.WriteByte(c)
			if c == '\\' && i+1 < len(src) {
				i++
				b.WriteByte(src[i])
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
			b.WriteByte(c)
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			b.WriteByte('\n')
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			i += end + 3
		default:
			b.WriteByte(c)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
