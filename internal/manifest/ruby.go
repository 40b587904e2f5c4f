package manifest

import (
	"bufio"
	"bytes"
	"regexp"
	"strings"
)

var (
	// gemLine: gem "name", "constraint", ..., group: :test
	gemLine = regexp.MustCompile(`^gem\s*\(?\s*["']([^"']+)["']((?:\s*,\s*["'][^"']*["'])*)(.*)$`)
	// gemGroups finds the group names of a group block or option.
	gemGroups = regexp.MustCompile(`:(\w+)|["'](\w+)["']`)
	// rubyBlock opens a block the Gemfile closes with end.
	rubyBlock = regexp.MustCompile(`\bdo\s*(\|[^|]*\|)?\s*$`)
	rubyEnd   = regexp.MustCompile(`^end\b`)
)

// parseGemfile reads the gem lines of a Gemfile with their constraints; gems
// in a group block (or with a group: option) of only development or test
// groups get that scope.
func parseGemfile(m *Manifest, data []byte) {
	var blocks []Scope // one per open do ... end; "" for blocks that are not groups
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if i := strings.Index(line, " #"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		switch {
		case line == "" || line[0] == '#':
		case rubyEnd.MatchString(line):
			if len(blocks) > 0 {
				blocks = blocks[:len(blocks)-1]
			}
		case strings.HasPrefix(line, "group") && rubyBlock.MatchString(line):
			blocks = append(blocks, groupScope(line[len("group"):]))
		case rubyBlock.MatchString(line):
			blocks = append(blocks, "")
		default:
			g := gemLine.FindStringSubmatch(line)
			if g == nil {
				continue
			}
			scope := ScopeRuntime
			for i := len(blocks) - 1; i >= 0; i-- {
				if blocks[i] != "" {
					scope = blocks[i]
					break
				}
			}
			if _, opts, ok := strings.Cut(g[3], "group"); ok {
				scope = groupScope(opts)
			}
			m.add(g[1], strings.Join(quotedStrings([]byte(g[2])), ", "), scope)
		}
	}
}

// groupScope is the scope of Bundler groups: test when they are only
// test, dev when they are development (and test), else runtime.
func groupScope(groups string) Scope {
	dev, test, other := false, false, false
	for _, g := range gemGroups.FindAllStringSubmatch(groups, -1) {
		switch g[1] + g[2] {
		case "development":
			dev = true
		case "test":
			test = true
		default:
			other = true
		}
	}
	switch {
	case other || !dev && !test:
		return ScopeRuntime
	case dev:
		return ScopeDev
	}
	return ScopeTest
}

var (
	gemspecName = regexp.MustCompile(`\.name\s*=\s*["']([^"']+)["']`)
	gemspecDep  = regexp.MustCompile(`\.add_(runtime_|development_)?dependency\s*\(?\s*["']([^"']+)["']((?:\s*,\s*["'][^"']*["'])*)`)
)

// parseGemspec reads the name and dependencies of a .gemspec.
func parseGemspec(m *Manifest, data []byte) {
	if s := gemspecName.FindSubmatch(data); s != nil {
		m.Name = string(s[1])
	}
	for _, s := range gemspecDep.FindAllSubmatch(data, -1) {
		scope := ScopeRuntime
		if string(s[1]) == "development_" {
			scope = ScopeDev
		}
		m.add(string(s[2]), strings.Join(quotedStrings(s[3]), ", "), scope)
	}
}
