package renamebench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// JavaStrata are the kinds of Java methods a sample draws from: those that
// say they override, those an interface or an abstract class declares
// without a body, and the other instance methods.
var JavaStrata = []string{"method_override", "method_abstract", "method"}

// javaMethod matches a method declaration's line up to its name: modifiers,
// type parameters, a result type, the name and its parenthesis.
var javaMethod = regexp.MustCompile(`^\s*((?:public|protected|private|static|final|abstract|synchronized|native|default|strictfp)\s+)*(<[^>]*>\s+)?[\w$][\w.$<>\[\], ?]*?\s+(\w+)\s*\(`)

// javaKeywords are words the method pattern could take for a name.
var javaKeywords = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true, "synchronized": true,
	"super": true, "this": true, "return": true, "new": true, "throw": true, "else": true, "case": true, "try": true, "do": true}

// JavaSymbols lists the method declarations of the Java files under dir,
// grouped by stratum: a line scan (Java declares one method a line in
// practice), skipping statements that only look like declarations
// (return, new, throw, assignments) and static and private methods, which
// no other method overrides.
func JavaSymbols(dir string) (map[string][]Symbol, error) {
	keep := func(p string) bool { return strings.HasSuffix(p, ".java") && !strings.HasSuffix(p, "module-info.java") }
	return scanFiles(dir, keep, func(rel string, lines []string) []Symbol {
		var out []Symbol
		iface, prev := false, ""
		for i, line := range lines {
			if strings.Contains(line, " interface ") {
				iface = true
			}
			kind := javaKind(line, prev, iface)
			if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "*") && !strings.HasPrefix(t, "/") {
				prev = t
			}
			if kind == "" {
				continue
			}
			m := javaMethod.FindStringSubmatchIndex(line)
			out = append(out, Symbol{Path: rel, Line: i + 1, Col: m[6] + 1, Name: line[m[6]:m[7]], Kind: kind})
		}
		return out
	})
}

// scanFiles lists the symbols scan finds in the lines of each file under
// dir that keep accepts (scan gets the file's slash path relative to dir),
// grouped by kind and sorted.
func scanFiles(dir string, keep func(p string) bool, scan func(rel string, lines []string) []Symbol) (map[string][]Symbol, error) {
	byKind := map[string][]Symbol{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !keep(p) {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		lines := strings.Split(string(data), "\n")
		for i, l := range lines {
			lines[i] = strings.TrimSuffix(l, "\r")
		}
		for _, s := range scan(filepath.ToSlash(rel), lines) {
			byKind[s.Kind] = append(byKind[s.Kind], s)
		}
		return nil
	})
	for k := range byKind {
		sortSymbols(byKind[k])
	}
	return byKind, err
}

// javaKind is the stratum of a line that declares a method ("" for any
// other line); prev is the code line before it.
func javaKind(line, prev string, iface bool) string {
	m := javaMethod.FindStringSubmatch(line)
	if m == nil || javaKeywords[m[3]] {
		return ""
	}
	t := strings.TrimSpace(line)
	for _, w := range []string{"return ", "new ", "throw ", "else ", "case "} {
		if strings.HasPrefix(t, w) || strings.Contains(t, " "+w) {
			return ""
		}
	}
	if strings.Contains(t, "=") || strings.Contains(t, "static ") || strings.Contains(t, "private ") || strings.HasPrefix(t, ".") {
		return ""
	}
	switch {
	case strings.HasPrefix(prev, "@Override"):
		return "method_override"
	case strings.Contains(t, "abstract ") || iface && strings.HasSuffix(t, ";") && !strings.Contains(t, "default "):
		return "method_abstract"
	case strings.HasSuffix(t, "{") || strings.HasSuffix(t, ")"):
		return "method"
	}
	return ""
}

// javaError is a javac error line: file, line, message.
var javaError = regexp.MustCompile(`^(.+\.java):\d+: error: (.*)$`)

// Javac compiles the work copy's Java files (srcArgs: javac's arguments
// before the file list, such as --patch-module java.base=.) into a
// scratch directory and returns its errors without their lines (file and
// message), which a rename does not move.
func (w *Work) Javac(ctx context.Context, srcArgs []string) (map[string]int, error) {
	var files []string
	filepath.WalkDir(w.Dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".java") && !strings.HasSuffix(p, "module-info.java") {
			files = append(files, p)
		}
		return nil
	})
	out, err := os.MkdirTemp("", "renamebench-javac")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(out)
	list := filepath.Join(out, "files.txt")
	if err := os.WriteFile(list, []byte(strings.Join(files, "\n")), 0o644); err != nil {
		return nil, err
	}
	args := append([]string{"-nowarn", "-Xmaxerrs", "1000", "-d", filepath.Join(out, "classes")}, srcArgs...)
	cmd := exec.CommandContext(ctx, "javac", append(args, "@"+list)...)
	cmd.Dir, cmd.Env = w.Dir, w.Env
	b, _ := cmd.CombinedOutput()
	errs := map[string]int{}
	for _, l := range strings.Split(string(b), "\n") {
		if m := javaError.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			rel, _ := filepath.Rel(w.Dir, m[1])
			errs[rel+" "+m[2]]++
		}
	}
	if len(errs) == 0 && strings.Contains(string(b), "error") {
		return nil, fmt.Errorf("javac: %s", firstLines(string(b), 5))
	}
	return errs, nil
}

// RunJava measures Java renames of methods on one source tree, without the
// semantic layer (no Java indexer here) and without a language server to
// compare with: javac judges each applied rename (an error the baseline
// compile does not have breaks it). javacArgs are javac's arguments before
// the file list.
func RunJava(ctx context.Context, c Config, javacArgs []string) (*Result, error) {
	return runJudged(ctx, c, judged{lang: "java", judge: "javac", strata: JavaStrata, symbols: JavaSymbols,
		errors:  func(ctx context.Context) (map[string]int, error) { return c.Work.Javac(ctx, javacArgs) },
		command: "javac " + strings.Join(javacArgs, " ")})
}

// judged is a language whose renames a compiler judges, with no language
// server to compare with: its strata, how its symbols are listed, and the
// compiler's errors (file and message) on the work copy.
type judged struct {
	lang, judge string
	strata      []string
	symbols     func(dir string) (map[string][]Symbol, error)
	errors      func(ctx context.Context) (map[string]int, error)
	command     string
}

// runJudged measures the renames of a sample of j's symbols on the
// syntactic layer alone: a rename that is applied breaks when the
// compiler then reports an error its baseline run does not have.
func runJudged(ctx context.Context, c Config, j judged) (*Result, error) {
	res := &Result{Corpus: c.Corpus, Lang: j.lang, Seed: c.Seed, PerKind: c.N, TimingMS: map[string]int64{}}
	if err := c.Work.Restore(ctx); err != nil {
		return nil, err
	}
	byKind, err := j.symbols(c.Work.Dir)
	if err != nil {
		return nil, err
	}
	res.Symbols = Draw(byKind, j.strata, c.N, c.Seed, c.Corpus, "Rb")
	c.Log("%s: %d symbols drawn", c.Corpus, len(res.Symbols))
	t := time.Now()
	base, err := j.errors(ctx)
	if err != nil {
		return nil, err
	}
	res.TimingMS[j.judge+"_baseline"] = time.Since(t).Milliseconds()
	c.Log("%s: %s baseline: %d errors, %d ms", c.Corpus, j.judge, len(base), res.TimingMS[j.judge+"_baseline"])
	oracle := map[string]OracleAnswer{}
	for _, s := range res.Symbols {
		oracle[key(s)] = OracleAnswer{Err: "no " + j.lang + " language server here: " + j.judge + " judges"}
	}
	st := filepath.Join(c.State, c.Corpus+"-syntactic")
	os.RemoveAll(st)
	cr := &Cairn{Bin: c.Cairn, Repo: c.Work.Dir, State: st, Env: c.Work.Env}
	t = time.Now()
	if err := cr.CLI(ctx, "index"); err != nil {
		return nil, err
	}
	res.TimingMS["cairn_index_syntactic"] = time.Since(t).Milliseconds()
	if err := cr.Start(ctx); err != nil {
		return nil, err
	}
	defer cr.Close()
	run := &RenameRun{Lang: j.lang, Work: c.Work, Sessions: []Session{{Layer: "syntactic", C: cr}}, Oracle: oracle, Log: c.Log,
		Check: func(ctx context.Context, _ []string) Check { return compileCheck(ctx, j, base) }}
	run.Progress = func(o []Outcome) { res.Outcomes = o; write(c.Out, res) }
	t = time.Now()
	res.Outcomes, err = run.RunAll(ctx, res.Symbols)
	res.TimingMS["renames"] = time.Since(t).Milliseconds()
	if werr := write(c.Out, res); werr != nil && err == nil {
		err = werr
	}
	return res, err
}

// compileCheck compiles and compares the errors with the baseline's.
func compileCheck(ctx context.Context, j judged, base map[string]int) Check {
	t := time.Now()
	c := Check{OK: true, Command: j.command}
	errs, err := j.errors(ctx)
	if err != nil {
		c.OK, c.Output = false, err.Error()
	} else if fresh := newErrors(errs, base); len(fresh) > 0 {
		c.OK, c.Output = false, firstLines(strings.Join(fresh, "\n"), 12)
	}
	c.MS = time.Since(t).Milliseconds()
	return c
}
