package change

import (
	"context"
	"path"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
)

// classifyChange sets structural severity and behaviour-change risk.
func classifyChange(c *StructuralChange) {
	public := c.Visibility == "public" || c.Visibility == "unknown"
	oldPublic := public
	if c.old != nil {
		oldPublic = c.old.public == "public" || c.old.public == "unknown"
	}
	c.Severity = "non_breaking"
	why := func(s string) {
		c.Severity, c.Why = "breaking", s
		if c.Visibility == "unknown" || (c.old != nil && c.old.public == "unknown") {
			c.Why += " (visibility unknown: treated as public)"
		}
	}
	switch c.Change {
	case "removed":
		if oldPublic {
			why("public " + c.Kind + " removed")
		}
	case "signature_changed":
		if oldPublic {
			why("public " + c.Kind + " signature changed")
		}
	case "renamed":
		if oldPublic {
			why("public " + c.Kind + " renamed: the old name is gone")
		}
	case "moved":
		if oldPublic && c.old != nil && c.new != nil && c.old.unit != c.new.unit {
			why("public " + c.Kind + " moved to another package or module")
		}
	case "added":
		if public && c.new != nil && c.new.def.Parent >= 0 && c.new.f.facts.Defs[c.new.def.Parent].Kind == lang.KindInterface &&
			c.new.def.Kind != lang.KindInterface {
			why("member added to a public interface: its implementations must add it")
		}
	}
	switch c.Change {
	case "removed", "signature_changed":
		c.Risk = "high"
	case "renamed":
		c.Risk = "medium"
	case "added", "moved":
		c.Risk = "low"
	default:
		c.Risk = "unknown"
	}
}

// linesChanged compares the lines of a definition in both states and sets
// lines_changed, the size tags and a short preview.
func (a *analysis) linesChanged(ctx context.Context, c *StructuralChange) {
	if c.old == nil || c.new == nil {
		return
	}
	ot, nt := a.sideText(ctx, c.old.f), a.sideText(ctx, c.new.f)
	if ot == nil || nt == nil {
		return
	}
	ol := spanLines(ot, c.old.def.Span)
	nl := spanLines(nt, c.new.def.Span)
	count := map[string]int{}
	for _, l := range ol {
		count[l]++
	}
	added := 0
	var preview []string
	for _, l := range nl {
		if count[l] > 0 {
			count[l]--
			continue
		}
		added++
		if len(preview) < 3 && l != "" {
			if len(l) > 120 {
				l = l[:120] + "…"
			}
			preview = append(preview, "+ "+l)
		}
	}
	removed := 0
	for _, n := range count {
		removed += n
	}
	c.LinesChanged = max(added, removed)
	c.ChangePreview = preview
	if c.Change == "body_changed" {
		switch {
		case c.LinesChanged <= 3:
			c.DeltaTags = append(c.DeltaTags, "minor_change")
			c.Risk = "low"
		case c.LinesChanged > 20:
			c.DeltaTags = append(c.DeltaTags, "major_change")
			c.Risk = "high"
		default:
			c.DeltaTags = append(c.DeltaTags, "body_logic_changed")
			c.Risk = "medium"
		}
	}
}

// spanLines returns the trimmed lines of a span.
func spanLines(text []byte, s lang.Span) []string {
	var out []string
	line := uint32(1)
	start := 0
	for i := 0; i <= len(text); i++ {
		if i == len(text) || text[i] == '\n' {
			if line >= s.Start.Line && line <= s.End.Line {
				out = append(out, strings.TrimSpace(string(text[start:i])))
			}
			line++
			start = i + 1
			if line > s.End.Line {
				break
			}
		}
	}
	return out
}

// fileCategory sorts a changed file for semantic_diff: prod, test, build,
// config or docs.
func fileCategory(p, language string) string {
	base := path.Base(p)
	if query.TestFileKind(p, language) != "" {
		return "test"
	}
	switch base {
	case "go.mod", "go.sum", "go.work", "package.json", "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "pyproject.toml",
		"setup.py", "setup.cfg", "requirements.txt", "Cargo.toml", "Cargo.lock", "pom.xml", "build.gradle", "build.gradle.kts",
		"settings.gradle", "settings.gradle.kts", "Gemfile", "Gemfile.lock", "composer.json", "composer.lock", "Makefile",
		"Dockerfile", "CMakeLists.txt", "tsconfig.json":
		return "build"
	}
	switch strings.ToLower(path.Ext(base)) {
	case ".md", ".rst", ".txt", ".adoc":
		return "docs"
	case ".json", ".yaml", ".yml", ".toml", ".ini", ".cfg", ".conf", ".properties", ".xml", ".env":
		return "config"
	case ".csproj", ".sln", ".mk", ".bazel", ".bzl":
		return "build"
	}
	return "prod"
}
