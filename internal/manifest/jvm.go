package manifest

import (
	"encoding/xml"
	"regexp"
	"sort"
	"strings"
)

// parsePom reads a pom.xml: group:artifact (the group inherited from the
// parent when the project has none), the dependencies with version, scope
// and optional flag (not those of dependencyManagement, which only pin
// versions), and the modules of an aggregator.
func parsePom(m *Manifest, data []byte) error {
	var pom struct {
		GroupID    string `xml:"groupId"`
		ArtifactID string `xml:"artifactId"`
		Parent     struct {
			GroupID string `xml:"groupId"`
		} `xml:"parent"`
		Deps []struct {
			GroupID    string `xml:"groupId"`
			ArtifactID string `xml:"artifactId"`
			Version    string `xml:"version"`
			Scope      string `xml:"scope"`
			Optional   string `xml:"optional"`
		} `xml:"dependencies>dependency"`
		Modules []string `xml:"modules>module"`
	}
	if err := xml.Unmarshal(data, &pom); err != nil {
		return err
	}
	group := strings.TrimSpace(pom.GroupID)
	if group == "" {
		group = strings.TrimSpace(pom.Parent.GroupID)
	}
	m.Name = strings.TrimPrefix(group+":"+strings.TrimSpace(pom.ArtifactID), ":")
	for _, d := range pom.Deps {
		scope := ScopeRuntime
		switch strings.TrimSpace(d.Scope) {
		case "test":
			scope = ScopeTest
		case "provided":
			scope = ScopePeer
		}
		if strings.TrimSpace(d.Optional) == "true" {
			scope = ScopeOptional
		}
		m.add(strings.TrimSpace(d.GroupID)+":"+strings.TrimSpace(d.ArtifactID), strings.TrimSpace(d.Version), scope)
	}
	if len(pom.Modules) > 0 {
		m.Workspace = &Workspace{}
		for _, mod := range pom.Modules {
			m.Workspace.Members = append(m.Workspace.Members, strings.TrimSpace(mod))
		}
	}
	return nil
}

// gradleConfigs maps Gradle dependency configurations to scopes.
var gradleConfigs = map[string]Scope{
	"implementation": ScopeRuntime, "api": ScopeRuntime, "compileOnly": ScopeRuntime, "compileOnlyApi": ScopeRuntime,
	"runtimeOnly": ScopeRuntime, "compile": ScopeRuntime, "runtime": ScopeRuntime,
	"testImplementation": ScopeTest, "testCompileOnly": ScopeTest, "testRuntimeOnly": ScopeTest, "testCompile": ScopeTest,
	"testFixturesImplementation": ScopeTest, "testFixturesApi": ScopeTest,
	"androidTestImplementation": ScopeTest, "integrationTestImplementation": ScopeTest,
	"annotationProcessor": ScopeBuild, "kapt": ScopeBuild, "ksp": ScopeBuild, "testAnnotationProcessor": ScopeBuild,
}

var (
	// gradleDep: implementation 'g:a:v', implementation("g:a:v"), with an
	// optional platform(...) or enforcedPlatform(...) around the notation.
	gradleDep = regexp.MustCompile(`\b([A-Za-z]+)\s*\(?\s*(?:(?:enforcedP|p)latform\s*\(\s*)?["']([^"':\s]+):([^"':\s]+)(?::([^"'@\s]+))?[^"']*["']`)
	// gradleMapDep: implementation group: 'g', name: 'a', version: 'v'.
	gradleMapDep = regexp.MustCompile(`\b([A-Za-z]+)\s*\(?\s*group\s*[:=]\s*["']([^"']+)["']\s*,\s*name\s*[:=]\s*["']([^"']+)["'](?:\s*,\s*version\s*[:=]\s*["']([^"']+)["'])?`)
)

// parseGradle reads the dependencies a build.gradle(.kts) declares with
// literal coordinates, in string or map notation. Version catalogs
// (libs.x) and computed notations are out of reach of a parser; comments
// are skipped.
func parseGradle(m *Manifest, data []byte) {
	src := stripComments(data)
	type found struct {
		at  int
		dep Dependency
	}
	var deps []found
	for _, re := range []*regexp.Regexp{gradleDep, gradleMapDep} {
		for _, s := range re.FindAllSubmatchIndex(src, -1) {
			scope, ok := gradleConfigs[string(src[s[2]:s[3]])]
			if !ok {
				continue
			}
			d := Dependency{Name: string(src[s[4]:s[5]]) + ":" + string(src[s[6]:s[7]]), Scope: scope}
			if s[8] >= 0 {
				d.Version = string(src[s[8]:s[9]])
			}
			deps = append(deps, found{s[0], d})
		}
	}
	// The two notations interleave in a file: keep the file's order.
	sort.SliceStable(deps, func(i, j int) bool { return deps[i].at < deps[j].at })
	for _, d := range deps {
		m.Dependencies = append(m.Dependencies, d.dep)
	}
}

var (
	gradleInclude    = regexp.MustCompile(`\binclude\b\s*(\()?`)
	gradleProjectDir = regexp.MustCompile(`project\(\s*["']([^"']+)["']\s*\)\.projectDir\s*=\s*(?:file\(\s*["']([^"']+)["']\s*\))?`)
)

// parseGradleSettings reads the projects a settings.gradle(.kts) includes
// (":a:b" is the directory a/b), across lines, and project directories set
// with file("..."). An include of anything but string literals, or a
// project directory set otherwise, leaves the workspace open.
func parseGradleSettings(m *Manifest, data []byte) {
	src := string(stripComments(data))
	ws := &Workspace{Members: []string{}}
	dirs := map[string]string{} // project path -> directory set in the file
	for _, s := range gradleProjectDir.FindAllStringSubmatch(src, -1) {
		if s[2] == "" {
			ws.Open = true
			continue
		}
		dirs[gradlePath(s[1])] = s[2]
	}
	for _, loc := range gradleInclude.FindAllStringSubmatchIndex(src, -1) {
		args := src[loc[1]:]
		if loc[2] >= 0 { // include(...): up to the closing parenthesis
			if end := strings.IndexByte(args, ')'); end >= 0 {
				args = args[:end]
			}
		} else { // include 'a', 'b': to the end of the line, continued after a trailing comma
			end := 0
			for {
				nl := strings.IndexByte(args[end:], '\n')
				if nl < 0 {
					end = len(args)
					break
				}
				end += nl
				if !strings.HasSuffix(strings.TrimSpace(args[:end]), ",") {
					break
				}
				end++
			}
			args = args[:end]
		}
		for _, part := range strings.Split(args, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			if len(part) < 2 || part[0] != part[len(part)-1] || (part[0] != '"' && part[0] != '\'') {
				ws.Open = true // a variable or an expression: who is included cannot be told
				continue
			}
			p := gradlePath(part[1 : len(part)-1])
			if dir, ok := dirs[p]; ok {
				ws.Members = append(ws.Members, dir)
				continue
			}
			ws.Members = append(ws.Members, p)
		}
	}
	m.Workspace = ws
}

// gradlePath turns a Gradle project path (":a:b") into a relative directory.
func gradlePath(p string) string {
	return strings.ReplaceAll(strings.TrimPrefix(p, ":"), ":", "/")
}

// stripComments blanks the // and /* */ comments of C-like source (Groovy,
// Kotlin, JSON with comments), leaving strings alone.
func stripComments(data []byte) []byte {
	out := make([]byte, len(data))
	copy(out, data)
	var quote byte
	for i := 0; i < len(out); i++ {
		c := out[i]
		if quote != 0 {
			switch c {
			case '\\':
				i++
			case quote, '\n':
				quote = 0
			}
			continue
		}
		switch {
		case c == '"' || c == '\'':
			quote = c
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			out[i], out[i+1] = ' ', ' '
			for i += 2; i < len(out) && !(out[i] == '*' && i+1 < len(out) && out[i+1] == '/'); i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			if i < len(out) {
				out[i], out[i+1] = ' ', ' '
				i++
			}
		}
	}
	return out
}
