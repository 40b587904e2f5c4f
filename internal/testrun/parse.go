package testrun

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"encoding/xml"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// outcome is what a parser read from a runner's output.
type outcome struct {
	passed, failed, skipped int
	failures                []Failure
	// ran is false when the output holds no test results at all (the
	// runner failed before running anything).
	ran bool
	// timedOut: the runner's own per-test deadline stopped it.
	timedOut bool
}

// count counts one test that ran: passed, failed (fail says where and why)
// or else skipped.
func (o *outcome) count(passed, failed bool, fail func() Failure) {
	o.ran = true
	switch {
	case passed:
		o.passed++
	case failed:
		o.failed++
		o.failures = append(o.failures, fail())
	default:
		o.skipped++
	}
}

// locator turns paths in runner output into repo paths: absolute paths
// under the root, or paths relative to the target's directory.
type locator struct {
	root string // absolute, slash-separated
	dir  string // the target's directory, repo-relative
}

// fileLine finds the first "file:line" in text that names a file of the
// repository outside dependencies, for a failure's location.
var fileLineRE = regexp.MustCompile(`(?:\(|\s|^|File ")((?:/|\.{0,2}/)?[\w.@+\-/]+\.(?:go|py|js|jsx|ts|tsx|mjs|cjs|mts|cts|rs|java|kt|cs|rb))(?:", line |:)(\d+)`)

func (l locator) locate(text string) (string, int) {
	for _, m := range fileLineRE.FindAllStringSubmatch(text, -1) {
		p := m[1]
		if strings.Contains(p, "node_modules/") || strings.HasPrefix(p, "node:") || strings.Contains(p, "/go/src/") || strings.Contains(p, "/usr/lib/") {
			continue
		}
		if rp, ok := l.repoPath(p); ok {
			n, _ := strconv.Atoi(m[2])
			return rp, n
		}
	}
	return "", 0
}

// repoPath makes p repo-relative; false when it is outside the repository.
func (l locator) repoPath(p string) (string, bool) {
	if strings.HasPrefix(p, "/") {
		if !strings.HasPrefix(p, l.root+"/") {
			return "", false
		}
		return strings.TrimPrefix(p, l.root+"/"), true
	}
	joined := path.Clean(path.Join(l.dir, p))
	if strings.HasPrefix(joined, "../") || joined == ".." {
		return "", false
	}
	return joined, true
}

// parseGoJSON reads go test -json events of one or more packages, per
// import path: per-test results with their output, build failures (the
// compiler's output for the package), and a test binary that ran past
// go test's -timeout. Tests print paths relative to their package (its
// directory is the import path's tail below the module, from pkgDir); the
// compiler relative to where go test runs (l's directory).
func parseGoJSON(out []byte, l locator, pkgDir func(pkg string) string) map[string]outcome {
	type event struct {
		Action     string
		Package    string
		ImportPath string
		Test       string
		Output     string
	}
	type pkgState struct {
		o           outcome
		outputs     map[string]*strings.Builder
		out         strings.Builder
		failedTests []string
		failed      bool
	}
	pkgs := map[string]*pkgState{}
	get := func(p string) *pkgState {
		if i := strings.Index(p, " ["); i >= 0 {
			p = p[:i] // "pkg [pkg.test]" in build events
		}
		st := pkgs[p]
		if st == nil {
			st = &pkgState{outputs: map[string]*strings.Builder{}}
			pkgs[p] = st
		}
		return st
	}
	var loose strings.Builder // plain lines: compiler output of older Go
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			loose.Write(line)
			loose.WriteByte('\n')
			continue
		}
		st := get(e.Package + e.ImportPath)
		if e.Test == "" {
			switch e.Action {
			case "output", "build-output":
				st.out.WriteString(e.Output)
			case "fail":
				st.failed = true
			}
			continue
		}
		switch e.Action {
		case "output":
			b := st.outputs[e.Test]
			if b == nil {
				b = &strings.Builder{}
				st.outputs[e.Test] = b
			}
			b.WriteString(e.Output)
		case "pass":
			st.o.ran = true
			if !strings.Contains(e.Test, "/") {
				st.o.passed++
			}
		case "skip":
			st.o.ran = true
			if !strings.Contains(e.Test, "/") {
				st.o.skipped++
			}
		case "fail":
			st.o.ran = true
			st.failedTests = append(st.failedTests, e.Test)
		}
	}
	res := map[string]outcome{}
	for pkg, st := range pkgs {
		inPkg := locator{root: l.root, dir: pkgDir(pkg)}
		o := st.o
		o.timedOut = strings.Contains(st.out.String(), "panic: test timed out after")
		var hung []string // the tests go test's -timeout stopped
		for t, b := range st.outputs {
			if strings.Contains(b.String(), "panic: test timed out after") {
				o.timedOut = true
				hung = append(hung, t)
			}
		}
		sort.Strings(hung)
		for _, t := range st.failedTests {
			// A parent fails with its failing subtests; count and report
			// the leaves.
			parent := false
			for _, u := range st.failedTests {
				if strings.HasPrefix(u, t+"/") {
					parent = true
				}
			}
			if parent {
				continue
			}
			o.failed++
			text := ""
			if b := st.outputs[t]; b != nil {
				text = b.String()
			}
			p, n := inPkg.locate(text)
			o.failures = append(o.failures, Failure{Test: t, Message: goMessage(text), Path: p, Line: n})
		}
		if st.failed && len(st.failedTests) == 0 && !o.timedOut {
			text := st.out.String() + loose.String()
			p, n := l.locate(text)
			o.failures = append(o.failures, Failure{Test: "(build)", Message: goMessage(text), Path: p, Line: n})
		}
		for _, t := range hung {
			msg, _, _ := strings.Cut(st.outputs[t].String()[strings.Index(st.outputs[t].String(), "panic: test timed out"):], "\n")
			o.failures = append(o.failures, Failure{Test: t, Message: msg})
		}
		if o.timedOut && len(hung) == 0 {
			o.failures = append(o.failures, Failure{Test: timedOutTest(st.out.String()), Message: goMessage(firstLinesUntilGoroutines(st.out.String()))})
		}
		res[pkg] = o
	}
	return res
}

// timedOutTest names the tests a -timeout panic lists as running.
func timedOutTest(out string) string {
	_, after, ok := strings.Cut(out, "running tests:\n")
	if !ok {
		return "(timeout)"
	}
	var names []string
	for _, line := range strings.Split(after, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || !strings.HasPrefix(line, "\t") {
			break
		}
		names = append(names, f[0])
	}
	return strings.Join(names, ", ")
}

func firstLinesUntilGoroutines(s string) string {
	before, _, _ := strings.Cut(s, "\ngoroutine ")
	return before
}

// goMessage is a Go test's failure output without the === RUN and
// --- FAIL lines.
func goMessage(text string) string {
	var keep []string
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- FAIL") || strings.HasPrefix(t, "--- PASS") {
			continue
		}
		keep = append(keep, t)
	}
	return trimLines(strings.Join(keep, "\n"), 20)
}

func trimLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "…")
	}
	return strings.Join(lines, "\n")
}

// JUnit XML, as pytest, node --test, Maven Surefire and Gradle write it.
type junitSuites struct {
	Suites []junitSuite `xml:"testsuite"`
	Cases  []junitCase  `xml:"testcase"` // node --test puts cases at the top
}

type junitSuite struct {
	Suites []junitSuite `xml:"testsuite"`
	Cases  []junitCase  `xml:"testcase"`
}

type junitCase struct {
	Name      string         `xml:"name,attr"`
	Classname string         `xml:"classname,attr"`
	File      string         `xml:"file,attr"`
	Line      int            `xml:"line,attr"`
	Failure   *junitProblem  `xml:"failure"`
	Error     *junitProblem  `xml:"error"`
	Skipped   *struct{}      `xml:"skipped"`
	Props     []junitProblem `xml:"system-out"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// parseJUnit reads one or more JUnit XML documents.
func parseJUnit(docs [][]byte, l locator) outcome {
	var o outcome
	var walk func(cases []junitCase, suites []junitSuite)
	walk = func(cases []junitCase, suites []junitSuite) {
		for _, c := range cases {
			failed := c.Failure != nil || c.Error != nil
			o.count(!failed && c.Skipped == nil, failed, func() Failure {
				pr := c.Failure
				if pr == nil {
					pr = c.Error
				}
				name := c.Name
				if c.Classname != "" && c.Classname != "test" {
					name = c.Classname + "." + c.Name
				}
				f := Failure{Test: name, Message: trimLines(firstNonEmpty(pr.Message, pr.Text), 20)}
				if c.File != "" && c.Line > 0 {
					f.Path, _ = l.repoPath(c.File)
					f.Line = c.Line
				} else {
					f.Path, f.Line = l.locate(pr.Text)
				}
				return f
			})
		}
		for _, s := range suites {
			walk(s.Cases, s.Suites)
		}
	}
	for _, doc := range docs {
		var s junitSuites
		if xml.Unmarshal(doc, &s) == nil && (len(s.Suites) > 0 || len(s.Cases) > 0) {
			walk(s.Cases, s.Suites)
			continue
		}
		var one junitSuite // a bare <testsuite> root
		if xml.Unmarshal(doc, &one) == nil {
			walk(one.Cases, one.Suites)
		}
	}
	return o
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s)
		}
	}
	return ""
}

// parseJestJSON reads the JSON report of jest (--json) or vitest
// (--reporter=json), which share its shape.
func parseJestJSON(doc []byte, l locator) outcome {
	var r struct {
		TestResults []struct {
			Name             string `json:"name"`
			Message          string `json:"message"`
			AssertionResults []struct {
				FullName        string   `json:"fullName"`
				Title           string   `json:"title"`
				Status          string   `json:"status"`
				FailureMessages []string `json:"failureMessages"`
				Location        *struct {
					Line int `json:"line"`
				} `json:"location"`
			} `json:"assertionResults"`
		} `json:"testResults"`
	}
	var o outcome
	if json.Unmarshal(doc, &r) != nil {
		return o
	}
	for _, tr := range r.TestResults {
		file, _ := l.repoPath(tr.Name)
		if len(tr.AssertionResults) == 0 && tr.Message != "" {
			// the file did not run (a syntax error, a missing import)
			p, n := l.locate(tr.Message)
			o.failures = append(o.failures, Failure{Test: "(suite) " + file, Message: trimLines(stripANSI(tr.Message), 20), Path: p, Line: n})
			o.failed++
			continue
		}
		for _, a := range tr.AssertionResults {
			// other statuses: pending, skipped, todo, disabled
			o.count(a.Status == "passed", a.Status == "failed", func() Failure {
				msg := stripANSI(strings.Join(a.FailureMessages, "\n"))
				f := Failure{Test: firstNonEmpty(a.FullName, a.Title), Message: trimLines(firstLinesUntilStack(msg), 20)}
				f.Path, f.Line = l.locate(msg)
				if f.Path == "" && a.Location != nil {
					f.Path, f.Line = file, a.Location.Line
				}
				return f
			})
		}
	}
	return o
}

var ansiRE = regexp.MustCompile("\x1b\\[[0-9;]*m")

func stripANSI(s string) string { return ansiRE.ReplaceAllString(s, "") }

// firstLinesUntilStack keeps an error's message, not its stack.
func firstLinesUntilStack(s string) string {
	var keep []string
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "at ") {
			break
		}
		keep = append(keep, line)
	}
	return strings.TrimSpace(strings.Join(keep, "\n"))
}

// parseCargo reads cargo test's (libtest's) text output.
var cargoTestRE = regexp.MustCompile(`^test (\S+) \.\.\. (ok|FAILED|ignored)`)

func parseCargo(out []byte, l locator) outcome {
	var o outcome
	var failed []string
	bodies := map[string]*strings.Builder{}
	var cur *strings.Builder
	for _, line := range strings.Split(string(out), "\n") {
		if m := cargoTestRE.FindStringSubmatch(line); m != nil {
			o.ran = true
			switch m[2] {
			case "ok":
				o.passed++
			case "ignored":
				o.skipped++
			default:
				failed = append(failed, m[1])
			}
			continue
		}
		if strings.HasPrefix(line, "---- ") && strings.HasSuffix(line, " stdout ----") {
			name := strings.TrimSuffix(strings.TrimPrefix(line, "---- "), " stdout ----")
			cur = &strings.Builder{}
			bodies[name] = cur
			continue
		}
		if line == "failures:" || strings.HasPrefix(line, "test result:") {
			cur = nil
		}
		if cur != nil {
			cur.WriteString(line + "\n")
		}
	}
	for _, name := range failed {
		o.failed++
		text := ""
		if b := bodies[name]; b != nil {
			text = b.String()
		}
		f := Failure{Test: name, Message: trimLines(cargoMessage(text), 20)}
		f.Path, f.Line = l.locate(text)
		o.failures = append(o.failures, f)
	}
	if !o.ran && strings.Contains(string(out), "error") {
		p, n := l.locate(string(out))
		o.failures = append(o.failures, Failure{Test: "(build)", Message: trimLines(string(out), 20), Path: p, Line: n})
	}
	return o
}

func cargoMessage(text string) string {
	var keep []string
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "note: run with `RUST_BACKTRACE") || strings.TrimSpace(line) == "" {
			continue
		}
		keep = append(keep, line)
	}
	return strings.Join(keep, "\n")
}

// parseUnittest reads python -m unittest -v output (on stderr).
var unittestHeadRE = regexp.MustCompile(`^(FAIL|ERROR): (\S+) \(([^)]+)\)`)
var unittestRanRE = regexp.MustCompile(`^Ran (\d+) tests? in`)
var unittestSkipRE = regexp.MustCompile(`skipped=(\d+)`)

func parseUnittest(out []byte, l locator) outcome {
	var o outcome
	lines := strings.Split(string(out), "\n")
	total := 0
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if m := unittestRanRE.FindStringSubmatch(line); m != nil {
			total, _ = strconv.Atoi(m[1])
			o.ran = true
		}
		if strings.HasPrefix(line, "FAILED (") || strings.HasPrefix(line, "OK (") {
			if m := unittestSkipRE.FindStringSubmatch(line); m != nil {
				o.skipped, _ = strconv.Atoi(m[1])
			}
		}
		m := unittestHeadRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		var body []string
		for j := i + 1; j < len(lines); j++ {
			if unittestHeadRE.MatchString(lines[j]) || strings.HasPrefix(lines[j], "----------------------------------------------------------------------") && j > i+2 {
				break
			}
			body = append(body, lines[j])
		}
		text := strings.Join(body, "\n")
		f := Failure{Test: m[3], Message: lastNonEmpty(body)}
		f.Path, f.Line = lastLocation(text, l)
		o.failures = append(o.failures, f)
		o.failed++
	}
	o.passed = max(0, total-o.failed-o.skipped)
	return o
}

// lastLocation is the innermost frame of a Python traceback in the repo.
func lastLocation(text string, l locator) (string, int) {
	ms := fileLineRE.FindAllStringSubmatch(text, -1)
	for i := len(ms) - 1; i >= 0; i-- {
		if rp, ok := l.repoPath(ms[i][1]); ok {
			n, _ := strconv.Atoi(ms[i][2])
			return rp, n
		}
	}
	return "", 0
}

func lastNonEmpty(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		if t := strings.TrimSpace(lines[i]); t != "" && !strings.HasPrefix(t, "---") {
			return t
		}
	}
	return ""
}

// parseTRX reads a Visual Studio test results file (dotnet test --logger trx).
func parseTRX(doc []byte, l locator) outcome {
	var r struct {
		Results []struct {
			Name    string `xml:"testName,attr"`
			Outcome string `xml:"outcome,attr"`
			Output  struct {
				Message    string `xml:"ErrorInfo>Message"`
				StackTrace string `xml:"ErrorInfo>StackTrace"`
			} `xml:"Output"`
		} `xml:"Results>UnitTestResult"`
	}
	var o outcome
	if xml.Unmarshal(doc, &r) != nil {
		return o
	}
	for _, t := range r.Results {
		failed := slices.Contains([]string{"Failed", "Error", "Timeout", "Aborted"}, t.Outcome)
		o.count(t.Outcome == "Passed", failed, func() Failure {
			f := Failure{Test: t.Name, Message: trimLines(t.Output.Message, 20)}
			f.Path, f.Line = l.locate(strings.ReplaceAll(t.Output.StackTrace, ":line ", ":"))
			return f
		})
	}
	return o
}

// parseRSpecJSON reads rspec --format json.
func parseRSpecJSON(doc []byte, l locator) outcome {
	var r struct {
		Examples []struct {
			FullDescription string `json:"full_description"`
			Status          string `json:"status"`
			FilePath        string `json:"file_path"`
			LineNumber      int    `json:"line_number"`
			Exception       *struct {
				Message   string   `json:"message"`
				Backtrace []string `json:"backtrace"`
			} `json:"exception"`
		} `json:"examples"`
	}
	var o outcome
	if json.Unmarshal(doc, &r) != nil {
		return o
	}
	for _, e := range r.Examples {
		o.count(e.Status == "passed", e.Status == "failed", func() Failure {
			f := Failure{Test: e.FullDescription}
			if e.Exception != nil {
				f.Message = trimLines(e.Exception.Message, 20)
				f.Path, f.Line = l.locate(strings.Join(e.Exception.Backtrace, "\n"))
			}
			if f.Path == "" {
				f.Path, _ = l.repoPath(strings.TrimPrefix(e.FilePath, "./"))
				f.Line = e.LineNumber
			}
			return f
		})
	}
	return o
}

// sortFailures orders failures by location, then test name.
func sortFailures(fs []Failure) {
	slices.SortStableFunc(fs, func(a, b Failure) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), strings.Compare(a.Test, b.Test))
	})
}
