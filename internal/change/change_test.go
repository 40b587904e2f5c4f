package change_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/cairnhq/cairn/internal/change"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/testenv"
)

// app is a small Go module: a server package with its test, an api package
// importing it, with its test, and a command importing the api.
var app = map[string]string{
	"go.mod": "module example.com/app\n\ngo 1.22\n",
	"server/server.go": `package server

// Serve serves on addr.
func Serve(addr string) error { return nil }

func helper() int { return 1 }
`,
	"server/server_test.go": `package server

import "testing"

func TestServe(t *testing.T) { _ = Serve(":0") }
`,
	"api/api.go": `package api

import "example.com/app/server"

// Start starts the server.
func Start() error { return server.Serve(":1") }
`,
	"api/api_test.go": `package api

import "testing"

func TestStart(t *testing.T) { _ = Start() }
`,
	"cmd/app/main.go": `package main

import "example.com/app/api"

func main() { _ = api.Start() }
`,
	"README.md": "# app\n",
}

// tests lists the tests a result names, with why and how sure.
func tests(res *change.AffectedResult) []string {
	var out []string
	for _, m := range res.Tests {
		out = append(out, fmt.Sprintf("%s %s %d %s", m.Path, m.Reason, m.Depth, m.Confidence))
	}
	return out
}

// affectedEach checks the tests affected by a change of each file alone.
func affectedEach(t *testing.T, e *query.Engine, want map[string][]string) {
	t.Helper()
	for file, w := range want {
		res, err := change.AffectedTests(context.Background(), e, nil, change.AffectedParams{Files: []string{file}})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(w, tests(res)); diff != "" {
			t.Errorf("tests of %s (-want +got):\n%s", file, diff)
		}
	}
}

func TestAffectedTests(t *testing.T) {
	e := testenv.OpenIndex(t, app).Engine(t)
	res, err := change.AffectedTests(context.Background(), e, nil, change.AffectedParams{Files: []string{"server/server.go", "README.md"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"server/server_test.go same_package 1 high",
		"api/api_test.go transitive 2 low",
	}
	if diff := cmp.Diff(want, tests(res)); diff != "" {
		t.Errorf("tests (-want +got):\n%s", diff)
	}
	if res.Total != 2 || res.High != 1 || res.Low != 1 || res.Confidence != "complete" || len(res.CoverageGaps) != 0 {
		t.Errorf("total %d high %d low %d confidence %s gaps %v", res.Total, res.High, res.Low, res.Confidence, res.CoverageGaps)
	}
	var status []string
	for _, c := range res.Changed {
		status = append(status, c.Path+" "+c.Status)
	}
	if diff := cmp.Diff([]string{"README.md not_code", "server/server.go indexed"}, status); diff != "" {
		t.Errorf("changed files (-want +got):\n%s", diff)
	}
}

// TestAffectedTestsBounded checks the walk's bounds: a depth that stops
// before a test says so, and a page leaves the rest for the next offset.
func TestAffectedTestsBounded(t *testing.T) {
	e := testenv.OpenIndex(t, app).Engine(t)
	ctx := context.Background()
	res, err := change.AffectedTests(ctx, e, nil, change.AffectedParams{Files: []string{"server/server.go"}, MaxDepth: 1})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"server/server_test.go same_package 1 high"}, tests(res)); diff != "" {
		t.Errorf("tests at depth 1 (-want +got):\n%s", diff)
	}
	if res.Confidence != "partial" || len(res.Reasons) != 1 {
		t.Errorf("confidence %s, reasons %q: want partial, for max_depth", res.Confidence, res.Reasons)
	}
	res, err = change.AffectedTests(ctx, e, nil, change.AffectedParams{Files: []string{"server/server.go"}, Limit: 1, Offset: 1})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"api/api_test.go transitive 2 low"}, tests(res)); diff != "" || res.More || res.NextOffset != 2 {
		t.Errorf("second page: more %v next %d (-want +got):\n%s", res.More, res.NextOffset, diff)
	}
}

// TestCacheFollowsTheIndex checks that the views a Cache keeps are those
// of the index version the request sees: a test added since is found.
func TestCacheFollowsTheIndex(t *testing.T) {
	x := testenv.OpenIndex(t, app)
	cache := change.NewCache()
	ctx := context.Background()
	p := change.AffectedParams{Files: []string{"server/server.go"}}
	before, err := change.AffectedTests(ctx, x.Engine(t), cache, p)
	if err != nil {
		t.Fatal(err)
	}
	x.Write(t, "cmd/app/main_test.go", "package main\n\nimport \"testing\"\n\nfunc TestMain(t *testing.T) { main() }\n")
	after, err := change.AffectedTests(ctx, x.Engine(t), cache, p)
	if err != nil {
		t.Fatal(err)
	}
	if before.Total != 2 || after.Total != 3 {
		t.Errorf("tests before %v, after adding cmd/app/main_test.go %v", tests(before), tests(after))
	}
}

// diffLines compares the tree with its last commit and writes each change
// as a line.
func diffLines(t *testing.T, x *testenv.Index, p change.DiffParams, line func(change.StructuralChange) string) (*change.DiffResult, []string) {
	t.Helper()
	res, err := change.Diff(context.Background(), x.Engine(t), nil, p)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range res.Changes {
		out = append(out, line(c))
	}
	return res, out
}

func TestDiff(t *testing.T) {
	x := testenv.OpenIndex(t, app)
	x.Write(t, "server/server.go", `package server

// Serve serves on addr, n times.
func Serve(addr string, n int) error { return nil }

// Extra is new.
func Extra() {}
`)
	res, got := diffLines(t, x, change.DiffParams{Impact: true}, func(c change.StructuralChange) string {
		return fmt.Sprintf("%s %s %s %s", c.Path, c.QName, c.Change, c.Severity)
	})
	want := []string{
		"server/server.go Serve signature_changed breaking",
		"server/server.go helper removed non_breaking",
		"server/server.go Extra added non_breaking",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	if res.Base.Kind != "git" || res.Target.Kind != "worktree" || res.FilesChanged != 1 || res.Breaking != 1 {
		t.Errorf("base %s target %s files %d breaking %d", res.Base.Kind, res.Target.Kind, res.FilesChanged, res.Breaking)
	}
	if c := res.Changes[0]; c.Impact == nil || len(c.Impact.ImportingFiles) == 0 {
		t.Errorf("Serve: no blast radius: %+v", c.Impact)
	}
}

// TestAffectedTestsDeclaredPackages: a Kotlin test sees the Java classes of
// its package without importing them (one package space on the JVM), and a
// C# using directive or a JVM import a.b.* makes a file depend on every file
// of the namespace.
func TestAffectedTestsDeclaredPackages(t *testing.T) {
	e := testenv.OpenIndex(t, map[string]string{
		"src/main/java/com/acme/Greeter.java":     "package com.acme;\n\npublic class Greeter {\n    public String greet() { return \"hi\"; }\n}\n",
		"src/test/kotlin/com/acme/GreeterTest.kt": "package com.acme\n\nclass GreeterTest {\n    fun greets() { Greeter().greet() }\n}\n",
		"Lib/Greeting.cs":                         "namespace Acme.Lib\n{\n    public class Greeting { public string Text() => \"hi\"; }\n}\n",
		"Lib/Farewell.cs":                         "namespace Acme.Lib\n{\n    public class Farewell { public string Text() => \"bye\"; }\n}\n",
		"Lib.Tests/GreetingTests.cs":              "using Acme.Lib;\n\nnamespace Acme.Lib.Tests\n{\n    public class GreetingTests { public void Texts() { new Greeting().Text(); } }\n}\n",
		"src/main/java/com/acme/util/Pad.java":    "package com.acme.util;\n\npublic class Pad {}\n",
		"src/test/java/com/other/PadTest.java":    "package com.other;\n\nimport com.acme.util.*;\n\npublic class PadTest {}\n",
	}).Engine(t)
	affectedEach(t, e, map[string][]string{
		"src/main/java/com/acme/Greeter.java":  {"src/test/kotlin/com/acme/GreeterTest.kt same_package 1 high"},
		"src/main/java/com/acme/util/Pad.java": {"src/test/java/com/other/PadTest.java imports_changed 1 high"},
		"Lib/Greeting.cs":                      {"Lib.Tests/GreetingTests.cs imports_changed 1 high"},
		"Lib/Farewell.cs":                      {"Lib.Tests/GreetingTests.cs imports_changed 1 high"},
	})
}

// TestImpactImportPath: a target is named as its language's code names it —
// a Go import path, a Python dotted module, a declared JVM package or .NET
// namespace (none when the directory's files declare different ones) — and
// a TypeScript module has no such name.
// named holds a package, a module or a namespace of each language that
// names them in code; its Go module has no root package.
var named = map[string]string{
	"go.mod":                              "module example.com/app\n\ngo 1.22\n",
	"store/store.go":                      "package store\n\nfunc Get() {}\n",
	"pkg/__init__.py":                     "",
	"pkg/util.py":                         "def f():\n    pass\n",
	"src/main/java/com/acme/Greeter.java": "package com.acme;\n\npublic class Greeter {}\n",
	"src/main/java/com/acme/Helper.java":  "package com.acme;\n\npublic class Helper {}\n",
	"mixed/A.java":                        "package one;\n\npublic class A {}\n",
	"mixed/B.java":                        "package two;\n\npublic class B {}\n",
	"Lib/Greeting.cs":                     "namespace Acme.Lib\n{\n    public class Greeting {}\n}\n",
	"web/package.json":                    `{"name": "webapp", "version": "1.0.0"}`,
	"web/app.ts":                          "export const x = 1;\n",
}

func TestImpactImportPath(t *testing.T) {
	e := testenv.OpenIndex(t, named).Engine(t)
	for target, want := range map[string]string{
		"store":                               "example.com/app/store",
		"pkg/util.py":                         "pkg.util",
		"src/main/java/com/acme":              "com.acme",
		"src/main/java/com/acme/Greeter.java": "com.acme",
		"mixed":                               "",
		"Lib/Greeting.cs":                     "Acme.Lib",
		"web/app.ts":                          "",
	} {
		res, err := change.ImpactOfPath(context.Background(), e, nil, target, change.ImpactParams{})
		if err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		if res.Target.ImportPath != want {
			t.Errorf("import path of %s = %q, want %q", target, res.Target.ImportPath, want)
		}
	}
}

// TestAffectedTestsRustCrate: a crate's integration tests (tests/) exercise
// every file of the crate, imported or not, and a file with an inline
// #[cfg(test)] module is a test of itself; another crate's tests are not
// affected.
func TestAffectedTestsRustCrate(t *testing.T) {
	e := testenv.OpenIndex(t, map[string]string{
		"Cargo.toml":         "[package]\nname = \"shapes\"\nversion = \"0.1.0\"\n",
		"src/lib.rs":         "pub mod util;\n\npub fn area(w: u32, h: u32) -> u32 { util::mul(w, h) }\n",
		"src/util.rs":        "pub fn mul(a: u32, b: u32) -> u32 { a * b }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn muls() { assert_eq!(super::mul(2, 3), 6); }\n}\n",
		"src/plain.rs":       "pub fn one() -> u32 { 1 }\n",
		"tests/area.rs":      "#[test]\nfn areas() { assert_eq!(shapes::area(2, 3), 6); }\n",
		"other/Cargo.toml":   "[package]\nname = \"other\"\nversion = \"0.1.0\"\n",
		"other/src/lib.rs":   "pub fn two() -> u32 { 2 }\n",
		"other/tests/two.rs": "#[test]\nfn twos() { assert_eq!(other::two(), 2); }\n",
	}).Engine(t)
	affectedEach(t, e, map[string][]string{
		"src/util.rs":  {"src/util.rs changed 0 high", "tests/area.rs crate_integration_test 2 low"},
		"src/plain.rs": {"tests/area.rs crate_integration_test 2 low"},
	})
}

// TestDiffGoAPI: what Go keeps out of a package's API is not breaking to
// change. A method's receiver name is not part of its signature, a method
// of an unexported type is out of reach, and so is package main.
func TestDiffGoAPI(t *testing.T) {
	x := testenv.OpenIndex(t, map[string]string{
		"go.mod": "module example.com/lib\n\ngo 1.22\n",
		"lib/lib.go": `package lib

type Server struct{ n int }

func (s *Server) Run(n int) error { return nil }

type cache struct{}

func (c *cache) Get() int { return 0 }
`,
		"cmd/tool/main.go": "package main\n\nfunc Helper() {}\n\nfunc main() {}\n",
	})
	x.Write(t, "lib/lib.go", `package lib

type Server struct{ n int }

func (srv *Server) Run(n int) error { return nil }

type cache struct{}
`)
	x.Write(t, "cmd/tool/main.go", "package main\n\nfunc main() {}\n")
	_, got := diffLines(t, x, change.DiffParams{}, func(c change.StructuralChange) string {
		return fmt.Sprintf("%s %s [%s] %s", c.QName, c.Change, c.Visibility, c.Severity)
	})
	want := []string{
		"Helper removed [main-package] non_breaking",
		"Server.Run body_changed [public] non_breaking",
		"cache.Get removed [private] non_breaking",
	}
	if diff := cmp.Diff(want, got, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
}

// TestAffectedTestsGoPackage: Go imports directory packages by the module's
// path. A deleted file leaves its package behind, so the package's tests are
// still affected; and a test importing a package of the module's own path
// that is not there makes the answer partial, since it may reach the change.
func TestAffectedTestsGoPackage(t *testing.T) {
	files := maps.Clone(app)
	files["server/extra.go"] = "package server\n\nfunc Extra() {}\n"
	files["other/other_test.go"] = "package other\n\nimport (\n\t\"testing\"\n\n\t\"example.com/app/gone\"\n)\n\nfunc TestOther(t *testing.T) { gone.X() }\n"
	x := testenv.OpenIndex(t, files)
	if err := os.Remove(filepath.Join(x.Root, "server", "extra.go")); err != nil {
		t.Fatal(err)
	}
	res, err := change.AffectedTests(context.Background(), x.Engine(t), nil, change.AffectedParams{Files: []string{"server/extra.go"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"server/server_test.go same_package 1 high", "api/api_test.go transitive 2 low"}
	if diff := cmp.Diff(want, tests(res)); diff != "" {
		t.Errorf("tests (-want +got):\n%s", diff)
	}
	if c := res.Changed[0]; c.Status != "deleted" || c.Language != "go" {
		t.Errorf("the deleted file: %+v", c)
	}
	if res.Confidence != "partial" || !slices.ContainsFunc(res.Reasons, func(r string) bool { return strings.Contains(r, "did not resolve") }) {
		t.Errorf("confidence %s, reasons %q: want partial for other/other_test.go's import of example.com/app/gone", res.Confidence, res.Reasons)
	}
}

// TestImportersTargetNames: a target may be named as code names it. A Go
// import path names a package directory, and a Go module's name is the
// import path of its root package (named has none); a dotted Python module
// names its file; another module's name names its whole tree.
func TestImportersTargetNames(t *testing.T) {
	e := testenv.OpenIndex(t, named).Engine(t)
	importers := func(target string) (*change.ImportersResult, error) {
		return change.Importers(context.Background(), e, nil, change.ImportersParams{Target: target})
	}
	for target, want := range map[string]string{
		"example.com/app/store": "package store",
		"pkg.util":              "file pkg/util.py",
		"webapp":                "directory web",
		"com.acme":              "package src/main/java/com/acme",
		"Acme.Lib":              "package Lib",
		"com.acme.Greeter":      "file src/main/java/com/acme/Greeter.java",
		"Acme.Lib.Greeting":     "file Lib/Greeting.cs",
		"store.Get":             "file store/store.go",
	} {
		res, err := importers(target)
		if err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		if got := res.Target.Kind + " " + res.Target.Path; got != want {
			t.Errorf("%s names %q, want %q", target, got, want)
		}
	}
	if _, err := importers("example.com/app"); err == nil || !strings.Contains(err.Error(), "no indexed file, directory, package or module") {
		t.Errorf("example.com/app, a module without a root package: %v", err)
	}
	if _, err := importers("Greet"); !errs.Is(err, errs.NotFound) {
		t.Errorf("Greet, a part of a name: %v, want NOT_FOUND", err)
	}
	if _, err := importers(" "); !errs.Is(err, errs.InvalidArgument) {
		t.Errorf("a blank target: %v, want INVALID_ARGUMENT", err)
	}
}

// TestImportersSharedPackageName: a JVM package and a .NET namespace of the
// same name are one target, with the files of both, and the importers of
// either are its importers: a JVM import of one of its types, a C# using.
func TestImportersSharedPackageName(t *testing.T) {
	e := testenv.OpenIndex(t, map[string]string{
		"jvm/acme/util/Strings.java": "package acme.util;\n\npublic class Strings {}\n",
		"jvm/acme/app/Main.java":     "package acme.app;\n\nimport acme.util.Strings;\n\npublic class Main { Strings s; }\n",
		"net/Util/Text.cs":           "namespace acme.util\n{\n    public class Text {}\n}\n",
		"net/App/Program.cs":         "using acme.util;\n\nnamespace acme.app\n{\n    public class Program { Text t; }\n}\n",
	}).Engine(t)
	res, err := change.Importers(context.Background(), e, nil, change.ImportersParams{Target: "acme.util"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Importers {
		got = append(got, f.Path)
	}
	if res.Target.Files != 2 || !slices.Equal(got, []string{"jvm/acme/app/Main.java", "net/App/Program.cs"}) {
		t.Errorf("acme.util: %d files, importers %v", res.Target.Files, got)
	}
}

// TestImportersPHPNamespace: a PHP namespace is a target by name, spelled
// with PHP's separator or with dots, though it groups no files for linking.
func TestImportersPHPNamespace(t *testing.T) {
	e := testenv.OpenIndex(t, map[string]string{
		"src/Output/Out.php":   "<?php\nnamespace App\\Output;\n\nclass Out {}\n",
		"src/Output/Style.php": "<?php\nnamespace App\\Output;\n\nclass Style {}\n",
		"src/Cli.php":          "<?php\nnamespace App;\n\nuse App\\Output\\Out;\n\nclass Cli { public function run(): Out { return new Out(); } }\n",
	}).Engine(t)
	for _, target := range []string{`App\Output`, `\App\Output`, "App.Output"} {
		res, err := change.Importers(context.Background(), e, nil, change.ImportersParams{Target: target})
		if err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		var got []string
		for _, f := range res.Importers {
			got = append(got, f.Path)
		}
		if res.Target.Kind != "package" || res.Target.Files != 2 || !slices.Equal(got, []string{"src/Cli.php"}) {
			t.Errorf("%s: %s with %d files, importers %v", target, res.Target.Kind, res.Target.Files, got)
		}
	}
}

// TestImportersJVM: a JVM import is an edge to the file declaring what it
// names (a type, a nested type, a static member's type, the type whose
// static members it brings in, a Kotlin top-level function), listed with its
// line and the name imported; a whole package (import a.b.*) imports every
// file of the package, as a Go import does.
func TestImportersJVM(t *testing.T) {
	e := testenv.OpenIndex(t, map[string]string{
		"src/acme/util/Strings.java": "package acme.util;\n\npublic class Strings {\n    public static class Pad {}\n    public static String trim(String s) { return s; }\n}\n",
		"src/acme/util/Text.kt":      "package acme.util\n\nfun shout(s: String) = s\n",
		"src/acme/app/Main.java":     "package acme.app;\n\nimport acme.util.Strings;\n\npublic class Main { Strings s; }\n",
		"src/acme/app/Nested.java":   "package acme.app;\n\nimport java.util.List;\nimport acme.util.Strings.Pad;\n\npublic class Nested { Pad p; }\n",
		"src/acme/app/Static.java":   "package acme.app;\n\nimport static acme.util.Strings.trim;\n\npublic class Static { String t = trim(\"x\"); }\n",
		"src/acme/app/All.java":      "package acme.app;\n\nimport acme.util.*;\n\npublic class All {}\n",
		"src/acme/app/Statics.java":  "package acme.app;\n\nimport static acme.util.Strings.*;\n\npublic class Statics { String t = trim(\"x\"); }\n",
		"src/acme/app/Use.kt":        "package acme.app\n\nimport acme.util.shout\n\nfun use() = shout(\"x\")\n",
	}).Engine(t)
	for target, want := range map[string][]string{
		"src/acme/util/Strings.java": {"src/acme/app/All.java:3 ", "src/acme/app/Main.java:3 acme.util.Strings", "src/acme/app/Nested.java:4 acme.util.Strings.Pad",
			"src/acme/app/Static.java:3 acme.util.Strings.trim", "src/acme/app/Statics.java:3 acme.util.Strings"},
		"src/acme/util/Text.kt": {"src/acme/app/All.java:3 ", "src/acme/app/Use.kt:3 acme.util.shout"},
		"acme.util": {"src/acme/app/All.java:3 ", "src/acme/app/Main.java:3 acme.util.Strings", "src/acme/app/Nested.java:4 acme.util.Strings.Pad",
			"src/acme/app/Static.java:3 acme.util.Strings.trim", "src/acme/app/Statics.java:3 acme.util.Strings", "src/acme/app/Use.kt:3 acme.util.shout"},
	} {
		res, err := change.Importers(context.Background(), e, nil, change.ImportersParams{Target: target})
		if err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		var got []string
		for _, f := range res.Importers {
			got = append(got, fmt.Sprintf("%s:%d %s", f.Path, f.Line, f.Import))
		}
		if !slices.Equal(got, want) {
			t.Errorf("importers of %s = %q, want %q", target, got, want)
		}
	}
}
