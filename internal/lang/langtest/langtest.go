// Package langtest runs language fixtures: txtar archives whose source files are
// extracted and summarised as JSON, compared with a golden "want.json" section.
// Run the tests with -update to rewrite the goldens.
package langtest

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/cairnhq/cairn/internal/lang"
)

var update = flag.Bool("update", false, "rewrite golden want.json sections")

// Summary is the readable form of a file's facts used by goldens.
type Summary struct {
	Package  string   `json:"package,omitempty"`
	Errors   int      `json:"parse_errors,omitempty"`
	Defs     []string `json:"defs"`
	Imports  []string `json:"imports,omitempty"`
	Refs     []string `json:"refs,omitempty"`
	TypeRels []string `json:"type_relations,omitempty"`
	Locals   []string `json:"locals,omitempty"`
	Build    string   `json:"build,omitempty"`
	Dynamic  []string `json:"dynamic,omitempty"`
	Surfaces []string `json:"surfaces,omitempty"`
	// Anonymous: each anonymous class body and the type it extends
	Anonymous []string `json:"anonymous,omitempty"`
}

// Summarize renders facts: one line per fact, positions first.
func Summarize(f *lang.Facts) Summary {
	s := Summary{Package: f.Package, Errors: f.ParseErrors, Defs: []string{}}
	for _, d := range f.Defs {
		line := fmt.Sprintf("%d:%d %s %s vis=%s", d.NameSpan.Start.Line, d.NameSpan.Start.Col, d.Kind, d.Path, d.Visibility)
		if d.Type != "" {
			line += " type=" + d.Type
		}
		if d.Extends != "" {
			line += " extends=" + d.Extends
		}
		if d.Signature != "" {
			line += " sig=" + strconvQuote(d.Signature)
		}
		if d.Doc != "" {
			line += " doc=" + strconvQuote(d.Doc)
		}
		s.Defs = append(s.Defs, line)
	}
	for _, im := range f.Imports {
		line := fmt.Sprintf("%d:%d %s %q", im.Pos.Line, im.Pos.Col, im.Kind, im.Source)
		if im.Name != "" {
			line += " name=" + im.Name
		}
		if im.Alias != "" {
			line += " as=" + im.Alias
		}
		s.Imports = append(s.Imports, line)
	}
	for _, r := range f.Refs {
		line := fmt.Sprintf("%d:%d %s %s", r.Pos.Line, r.Pos.Col, f.Names[r.Name], r.Role)
		if r.Shape != lang.QualNone {
			line += fmt.Sprintf(" on=%s(%s)", r.Shape, f.Names[r.Qualifier])
			if r.QualBound {
				line += "!local"
			}
		}
		line += viaText(f, r.Via)
		switch {
		case r.BindLocal >= 0:
			lo := f.Locals[r.BindLocal]
			line += fmt.Sprintf(" -> local@%d:%d", lo.Pos.Line, lo.Pos.Col)
		case r.BindDef >= 0:
			line += " -> def " + f.Defs[r.BindDef].Path
			if d := f.Defs[r.BindDef].Dup; d > 0 {
				line += fmt.Sprintf("#%d", d) // a later definition of the same path
			}
		case r.BindImp >= 0:
			line += " -> import " + f.Imports[r.BindImp].Source
		}
		if r.Enclosing >= 0 {
			line += " in " + f.Defs[r.Enclosing].Path
		}
		s.Refs = append(s.Refs, line)
	}
	for _, t := range f.TypeRels {
		s.TypeRels = append(s.TypeRels, fmt.Sprintf("%s %s %s", f.Defs[t.Def].Path, t.Kind, t.Target))
	}
	for _, a := range f.Anonymous {
		b := f.Refs[a.Base]
		s.Anonymous = append(s.Anonymous, fmt.Sprintf("%d:%d-%d:%d extends %s@%d:%d", a.Body.Start.Line, a.Body.Start.Col,
			a.Body.End.Line, a.Body.End.Col, f.Names[b.Name], b.Pos.Line, b.Pos.Col))
	}
	for _, lo := range f.Locals {
		line := fmt.Sprintf("%d:%d %s", lo.Pos.Line, lo.Pos.Col, f.Names[lo.Name])
		if lo.Type != "" {
			line += " type=" + lo.Type
		}
		if lo.From != (lang.Pos{}) {
			line += fmt.Sprintf(" from=%d:%d", lo.From.Line, lo.From.Col)
		}
		line += viaText(f, lo.Via)
		s.Locals = append(s.Locals, line)
	}
	s.Build = f.Build
	for _, d := range f.Dynamic {
		line := fmt.Sprintf("%d:%d %s %s", d.Pos.Line, d.Pos.Col, d.Kind, strconvQuote(d.Text))
		if d.Enclosing >= 0 {
			line += " in " + f.Defs[d.Enclosing].Path
		}
		s.Dynamic = append(s.Dynamic, line)
	}
	for _, x := range f.Surfaces {
		s.Surfaces = append(s.Surfaces, SurfaceLine(f, x))
	}
	return s
}

// viaText renders the reference a Ref's or a Local's Via points to (1 +
// its index into Refs): " via=name@line:col", or "" for none.
func viaText(f *lang.Facts, via int32) string {
	if via <= 0 || int(via) > len(f.Refs) {
		return ""
	}
	r := f.Refs[via-1]
	return fmt.Sprintf(" via=%s@%d:%d", f.Names[r.Name], r.Pos.Line, r.Pos.Col)
}

// SurfaceLine renders one surface: position, kind, method, value, framework,
// confidence, then detail, flags and the enclosing definition.
func SurfaceLine(f *lang.Facts, x lang.Surface) string {
	line := fmt.Sprintf("%d:%d %s", x.Pos.Line, x.Pos.Col, x.Kind)
	if x.Method != "" {
		line += " " + x.Method
	}
	line += " " + rawQuote(x.Value) + " " + x.Framework + " " + x.Confidence.String()
	if x.Detail != "" {
		line += " detail=" + rawQuote(x.Detail)
	}
	if x.Flags&lang.SurfPathRoute != 0 {
		line += " path-route"
	}
	if x.Flags&lang.SurfAppTable != 0 {
		line += " app-table"
	}
	if x.Def >= 0 && int(x.Def) < len(f.Defs) {
		line += " in " + f.Defs[x.Def].Path
	}
	return line
}

// rawQuote quotes like JSON without escaping <, > and & (route patterns).
func rawQuote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Extract extracts the facts of src in language l with an extractor of its
// own; an error is fatal.
func Extract(t testing.TB, l *lang.Language, src []byte) *lang.Facts {
	t.Helper()
	x := lang.NewExtractor()
	defer x.Close()
	f, err := x.Extract(l, src)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// File is one file of a fixture archive.
type File struct {
	Archive string // the archive's path, as matched
	txtar.File
}

// Files lists the files of every fixture archive matching the glob pattern
// (want.json sections included), archive by archive in the order of the
// glob; no archive at all is a fatal error.
func Files(t testing.TB, pattern string) []File {
	t.Helper()
	archives, err := filepath.Glob(pattern)
	if err != nil || len(archives) == 0 {
		t.Fatalf("no fixtures match %s: %v", pattern, err)
	}
	var out []File
	for _, a := range archives {
		ar, err := txtar.ParseFile(a)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			out = append(out, File{Archive: a, File: f})
		}
	}
	return out
}

// Run runs every testdata/*.txtar fixture in dir against the registered languages.
func Run(t *testing.T, dir string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in %s", dir)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			runFixture(t, file)
		})
	}
}

func runFixture(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	x := lang.NewExtractor()
	defer x.Close()
	got := map[string]Summary{}
	var names []string
	wantIdx := -1
	for i, f := range ar.Files {
		if f.Name == "want.json" {
			wantIdx = i
			continue
		}
		l := lang.ForFile(f.Name, f.Data)
		if l == nil {
			t.Fatalf("%s: no language for %s", file, f.Name)
		}
		facts, err := x.Extract(l, f.Data)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		// Round-trip through the codec: what is stored must be what was extracted.
		back, err := lang.Decode(lang.Encode(facts))
		if err != nil {
			t.Fatalf("%s: decode: %v", f.Name, err)
		}
		if diff := cmp.Diff(facts, back); diff != "" {
			t.Fatalf("%s: codec round trip (-extracted +decoded):\n%s", f.Name, diff)
		}
		got[f.Name] = Summarize(facts)
		names = append(names, f.Name)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	enc.Encode(got)
	if *update {
		if wantIdx < 0 {
			ar.Files = append(ar.Files, txtar.File{Name: "want.json"})
			wantIdx = len(ar.Files) - 1
		}
		ar.Files[wantIdx].Data = buf.Bytes()
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if wantIdx < 0 {
		t.Fatalf("%s has no want.json section; run with -update", file)
	}
	var want map[string]Summary
	if err := json.Unmarshal(ar.Files[wantIdx].Data, &want); err != nil {
		t.Fatalf("bad want.json: %v", err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: facts differ (-want +got):\n%s", file, diff)
	}
}
