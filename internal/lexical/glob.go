package lexical

import (
	"path"
	"regexp"
	"strings"
)

// Glob matches repo paths against a pattern: `*` within a path element, `**`
// across elements, `?` one character, `{a,b}` alternatives. A pattern without
// a slash matches the base name anywhere (like .gitignore).
type Glob struct {
	re       *regexp.Regexp
	baseOnly bool
}

// CompileGlob compiles a path glob.
func CompileGlob(pattern string) (*Glob, error) {
	p := strings.TrimSuffix(strings.TrimPrefix(pattern, "./"), "/")
	baseOnly := !strings.Contains(p, "/")
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '*' && i+1 < len(p) && p[i+1] == '*':
			i++
			if i+1 < len(p) && p[i+1] == '/' {
				i++
				b.WriteString("(?:.*/)?")
			} else {
				b.WriteString(".*")
			}
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '{':
			j := strings.IndexByte(p[i:], '}')
			if j < 0 {
				b.WriteString(regexp.QuoteMeta(string(c)))
				continue
			}
			alts := strings.Split(p[i+1:i+j], ",")
			for k := range alts {
				alts[k] = regexp.QuoteMeta(alts[k])
			}
			b.WriteString("(?:" + strings.Join(alts, "|") + ")")
			i += j
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, err
	}
	return &Glob{re: re, baseOnly: baseOnly}, nil
}

// Match reports whether a repo path matches. A directory pattern like "pkg"
// also matches everything under pkg/.
func (g *Glob) Match(p string) bool {
	if g.baseOnly {
		if g.re.MatchString(path.Base(p)) {
			return true
		}
		for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
			if g.re.MatchString(path.Base(d)) {
				return true
			}
		}
		return false
	}
	if g.re.MatchString(p) {
		return true
	}
	for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
		if g.re.MatchString(d) {
			return true
		}
	}
	return false
}
