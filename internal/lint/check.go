package lint

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Run is one linter's run: its diagnostics, or why it could not run.
type Run struct {
	Linter      string       `json:"linter"`
	Dir         string       `json:"dir"`
	Command     []string     `json:"command"`
	Status      string       `json:"status"` // clean, findings, error, skipped
	Error       string       `json:"error,omitempty"`
	DurationMS  int64        `json:"duration_ms"`
	Diagnostics []Diagnostic `json:"-"`
}

// Check runs one linter on paths (repo-relative, inside its project; none:
// the whole project) and returns its diagnostics for those paths.
func Check(ctx context.Context, root string, l Linter, paths []string) Run {
	r := Run{Linter: l.Name, Dir: l.Dir}
	if !l.Available {
		r.Status, r.Error = "skipped", l.Program[0]+" is not installed"
		return r
	}
	rel := make([]string, 0, len(paths))
	for _, p := range paths {
		rel = append(rel, relTo(l.Dir, p))
	}
	argv := l.command(rel)
	r.Command = argv
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = filepath.Join(root, filepath.FromSlash(l.Dir))
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "FORCE_COLOR=0", "CARGO_TERM_COLOR=never")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		r.Status, r.Error = "error", ctx.Err().Error()
		return r
	}
	var ee *exec.ExitError
	if err != nil && !asExit(err, &ee) {
		r.Status, r.Error = "error", err.Error()
		return r
	}
	base := locator{root: filepath.ToSlash(root), dir: l.Dir}
	diags, perr := parse(l.Name, stdout.Bytes(), stderr.Bytes(), base)
	if perr != nil {
		r.Status, r.Error = "error", perr.Error()
		return r
	}
	want := map[string]bool{}
	for _, p := range paths {
		want[p] = true
	}
	for _, d := range diags {
		if len(paths) > 0 && !want[d.Path] && !underAny(d.Path, paths) {
			continue
		}
		d.Linter = l.Name
		r.Diagnostics = append(r.Diagnostics, d)
	}
	sortDiags(r.Diagnostics)
	switch {
	case len(r.Diagnostics) > 0:
		r.Status = "findings"
	case err != nil && len(diags) == 0 && l.Name != "eslint" && l.Name != "flake8" && l.Name != "ruff":
		// A non-zero exit with nothing parsed: the linter itself failed.
		r.Status, r.Error = "error", tailText(stderr.String()+stdout.String(), 20)
	default:
		r.Status = "clean"
	}
	return r
}

func asExit(err error, ee **exec.ExitError) bool {
	e, ok := err.(*exec.ExitError)
	if ok {
		*ee = e
	}
	return ok
}

func underAny(p string, dirs []string) bool {
	for _, d := range dirs {
		if d == "." || strings.HasPrefix(p, strings.TrimSuffix(d, "/")+"/") {
			return true
		}
	}
	return false
}

// command is the linter's command line on paths relative to its project.
func (l Linter) command(rel []string) []string {
	argv := append([]string{}, l.Program...)
	switch l.Name {
	case "go-vet":
		argv = append(argv, "-json")
		return append(argv, goPackages(rel)...)
	case "staticcheck":
		argv = append(argv, "-f", "json")
		return append(argv, goPackages(rel)...)
	case "golangci-lint":
		argv = append(argv, "--out-format", "json")
		return append(argv, goPackages(rel)...)
	case "ruff":
		argv = append(argv, "--output-format", "json", "--no-cache", "--")
	case "flake8":
		argv = append(argv, "--")
	case "eslint":
		argv = append(argv, "-f", "json", "--no-warn-ignored", "--")
	case "biome":
		argv = append(argv, "--reporter=github", "--")
	case "tsc":
		return append(argv, "--noEmit", "--pretty", "false", "-p", ".")
	case "clippy":
		return append(argv, "--quiet", "--message-format=json")
	}
	if len(rel) == 0 {
		return append(argv, ".")
	}
	return append(argv, rel...)
}

// goPackages turns paths into the package patterns that cover them.
func goPackages(rel []string) []string {
	if len(rel) == 0 {
		return []string{"./..."}
	}
	seen := map[string]bool{}
	var out []string
	for _, p := range rel {
		dir := p
		if strings.HasSuffix(p, ".go") {
			dir = path.Dir(p)
		} else {
			dir = strings.TrimSuffix(p, "/") + "/..."
		}
		pkg := "./" + dir
		if dir == "." {
			pkg = "."
		}
		if !seen[pkg] {
			seen[pkg] = true
			out = append(out, pkg)
		}
	}
	sort.Strings(out)
	return out
}

func relTo(dir, p string) string {
	if dir == "." || dir == "" {
		return p
	}
	if p == dir {
		return "."
	}
	return strings.TrimPrefix(p, dir+"/")
}

// locator makes a linter's paths repo-relative.
type locator struct {
	root string // absolute, slash-separated
	dir  string // the project, repo-relative
}

func (l locator) path(p string) string {
	p = filepath.ToSlash(p)
	if strings.HasPrefix(p, l.root+"/") {
		return strings.TrimPrefix(p, l.root+"/")
	}
	if strings.HasPrefix(p, "/") {
		return p
	}
	return path.Clean(path.Join(l.dir, p))
}

func parse(name string, stdout, stderr []byte, l locator) ([]Diagnostic, error) {
	switch name {
	case "go-vet":
		return parseVet(append(append([]byte{}, stdout...), stderr...), l), nil // stdout in newer Go, stderr before
	case "staticcheck":
		return parseStaticcheck(stdout, l), nil
	case "golangci-lint":
		return parseGolangci(stdout, l)
	case "ruff":
		return parseRuff(stdout, l)
	case "flake8":
		return parseColonLines(stdout, l, "flake8"), nil
	case "eslint":
		return parseESLint(stdout, l)
	case "biome":
		return parseGitHubAnnotations(stdout, l), nil
	case "tsc":
		return parseTSC(stdout, l), nil
	case "clippy":
		return parseClippy(stdout, l), nil
	}
	return nil, fmt.Errorf("no parser for %s", name)
}

// parseVet reads go vet -json: "# pkg" lines, then per package an object of
// analyzer -> findings; compile errors come as plain file:line:col lines.
func parseVet(out []byte, l locator) []Diagnostic {
	var diags []Diagnostic
	var body bytes.Buffer
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		if m := colonRE.FindStringSubmatch(line); m != nil && !strings.HasPrefix(strings.TrimSpace(line), "\"") {
			diags = append(diags, colonDiag(m, l, "compile", "error"))
			continue
		}
		body.WriteString(line + "\n")
	}
	dec := json.NewDecoder(&body)
	for {
		var pkgs map[string]map[string]json.RawMessage
		if err := dec.Decode(&pkgs); err != nil {
			break
		}
		for _, analyzers := range pkgs {
			for analyzer, raw := range analyzers {
				var findings []struct {
					Posn    string `json:"posn"`
					Message string `json:"message"`
				}
				if json.Unmarshal(raw, &findings) != nil {
					continue // an {"error": ...} entry
				}
				for _, f := range findings {
					// vet reports likely bugs: go test fails on them too
					d := Diagnostic{Rule: analyzer, Severity: "error", Message: f.Message}
					d.Path, d.Line, d.Col = posn(f.Posn, l)
					diags = append(diags, d)
				}
			}
		}
	}
	return diags
}

// posn splits "file:line:col".
func posn(s string, l locator) (string, int, int) {
	parts := strings.Split(s, ":")
	if len(parts) < 3 {
		return l.path(s), 0, 0
	}
	col, _ := strconv.Atoi(parts[len(parts)-1])
	line, _ := strconv.Atoi(parts[len(parts)-2])
	return l.path(strings.Join(parts[:len(parts)-2], ":")), line, col
}

var colonRE = regexp.MustCompile(`^(?:vet: )?([^\s:][^:]*\.\w+):(\d+):(\d+): (?:([A-Z]+\d+) )?(.*)$`)

func colonDiag(m []string, l locator, rule, sev string) Diagnostic {
	line, _ := strconv.Atoi(m[2])
	col, _ := strconv.Atoi(m[3])
	if m[4] != "" {
		rule = m[4]
	}
	return Diagnostic{Path: l.path(m[1]), Line: line, Col: col, Rule: rule, Severity: sev, Message: m[5]}
}

// parseColonLines reads "path:line:col: CODE message" (flake8).
func parseColonLines(out []byte, l locator, rule string) []Diagnostic {
	var diags []Diagnostic
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if m := colonRE.FindStringSubmatch(sc.Text()); m != nil {
			sev := "warning"
			if strings.HasPrefix(m[4], "E") || strings.HasPrefix(m[4], "F") {
				sev = "error"
			}
			diags = append(diags, colonDiag(m, l, rule, sev))
		}
	}
	return diags
}

// staticcheckFinding is one line of staticcheck -f json.
type staticcheckFinding struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Location struct {
		File   string `json:"file"`
		Line   int    `json:"line"`
		Column int    `json:"column"`
	} `json:"location"`
}

func parseStaticcheck(out []byte, l locator) []Diagnostic {
	var diags []Diagnostic
	jsonLines(out, 1<<22, func(f staticcheckFinding) {
		diags = append(diags, Diagnostic{Path: l.path(f.Location.File), Line: f.Location.Line, Col: f.Location.Column, Rule: f.Code,
			Severity: severity(f.Severity), Message: f.Message})
	})
	return diags
}

// jsonLines calls fn with each line of out (of at most maxLine bytes) that
// decodes as a T, and skips the others.
func jsonLines[T any](out []byte, maxLine int, fn func(T)) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<16), maxLine)
	for sc.Scan() {
		var v T
		if json.Unmarshal(sc.Bytes(), &v) == nil {
			fn(v)
		}
	}
}

func parseGolangci(out []byte, l locator) ([]Diagnostic, error) {
	var r struct {
		Issues []struct {
			FromLinter string `json:"FromLinter"`
			Text       string `json:"Text"`
			Severity   string `json:"Severity"`
			Pos        struct {
				Filename string `json:"Filename"`
				Line     int    `json:"Line"`
				Column   int    `json:"Column"`
			} `json:"Pos"`
		} `json:"Issues"`
	}
	if err := json.Unmarshal(out, &r); err != nil && len(bytes.TrimSpace(out)) > 0 {
		return nil, fmt.Errorf("golangci-lint: unreadable JSON output")
	}
	var diags []Diagnostic
	for _, i := range r.Issues {
		diags = append(diags, Diagnostic{Path: l.path(i.Pos.Filename), Line: i.Pos.Line, Col: i.Pos.Column, Rule: i.FromLinter,
			Severity: severity(i.Severity), Message: i.Text})
	}
	return diags, nil
}

func severity(s string) string {
	switch strings.ToLower(s) {
	case "error", "fatal":
		return "error"
	case "info", "note", "hint":
		return "info"
	}
	return "warning"
}

// parseTSC reads "file(line,col): error TS1234: message".
var tscRE = regexp.MustCompile(`^(.+)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$`)

func parseTSC(out []byte, l locator) []Diagnostic {
	var diags []Diagnostic
	for _, line := range strings.Split(string(out), "\n") {
		if m := tscRE.FindStringSubmatch(line); m != nil {
			ln, _ := strconv.Atoi(m[2])
			col, _ := strconv.Atoi(m[3])
			diags = append(diags, Diagnostic{Path: l.path(m[1]), Line: ln, Col: col, Rule: m[5], Severity: m[4], Message: m[6]})
		}
	}
	return diags
}

// parseGitHubAnnotations reads "::error file=...,line=...,col=...::message"
// (biome --reporter=github).
var annotationRE = regexp.MustCompile(`^::(error|warning|notice) (.*?)::(.*)$`)

func parseGitHubAnnotations(out []byte, l locator) []Diagnostic {
	var diags []Diagnostic
	for _, line := range strings.Split(string(out), "\n") {
		m := annotationRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		d := Diagnostic{Severity: severity(m[1]), Message: m[3]}
		for _, kv := range strings.Split(m[2], ",") {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "title":
				d.Rule = v
			case "file":
				d.Path = l.path(v)
			case "line":
				d.Line, _ = strconv.Atoi(v)
			case "col":
				d.Col, _ = strconv.Atoi(v)
			case "endLine":
				d.EndLine, _ = strconv.Atoi(v)
			case "endColumn":
				d.EndCol, _ = strconv.Atoi(v)
			}
		}
		diags = append(diags, d)
	}
	return diags
}

// cargoMessage is one line of cargo's --message-format json.
type cargoMessage struct {
	Reason  string `json:"reason"`
	Message struct {
		Message string `json:"message"`
		Level   string `json:"level"`
		Code    *struct {
			Code string `json:"code"`
		} `json:"code"`
		Spans []struct {
			File      string `json:"file_name"`
			LineStart int    `json:"line_start"`
			ColStart  int    `json:"column_start"`
			LineEnd   int    `json:"line_end"`
			ColEnd    int    `json:"column_end"`
			Primary   bool   `json:"is_primary"`
		} `json:"spans"`
	} `json:"message"`
}

// parseClippy reads cargo's JSON messages.
func parseClippy(out []byte, l locator) []Diagnostic {
	var diags []Diagnostic
	jsonLines(out, 1<<24, func(m cargoMessage) {
		if m.Reason != "compiler-message" {
			return
		}
		for _, s := range m.Message.Spans {
			if !s.Primary {
				continue
			}
			d := Diagnostic{Path: l.path(s.File), Line: s.LineStart, Col: s.ColStart, EndLine: s.LineEnd, EndCol: s.ColEnd,
				Severity: severity(m.Message.Level), Message: m.Message.Message}
			if m.Message.Code != nil {
				d.Rule = m.Message.Code.Code
			}
			diags = append(diags, d)
			break
		}
	})
	return diags
}

func sortDiags(ds []Diagnostic) {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col), strings.Compare(a.Rule, b.Rule))
	})
}

func tailText(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
