package manifest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// parseCase is one manifest text and what Parse must make of it.
type parseCase struct {
	name    string // test name
	file    string // the manifest's file name
	text    string
	want    *Manifest
	wantErr bool // the text is malformed: Parse says so and still returns want
}

func runParse(t *testing.T, tests []parseCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.file, []byte(tc.text))
			if (err != nil) != tc.wantErr {
				t.Fatalf("Parse(%s) error = %v, want error %v", tc.file, err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Parse(%s) (-want +got):\n%s", tc.file, diff)
			}
		})
	}
}

func TestFormatOf(t *testing.T) {
	tests := []struct {
		name   string
		want   Format
		eco    Ecosystem
		module bool
	}{
		{"go.mod", GoMod, EcoGo, true},
		{"svc/go.work", GoWork, EcoGo, false},
		{"web/package.json", PackageJSON, EcoJavaScript, true},
		{"pnpm-workspace.yaml", PnpmWorkspace, EcoJavaScript, false},
		{"py/pyproject.toml", Pyproject, EcoPython, true},
		{"setup.cfg", SetupCfg, EcoPython, true},
		{"setup.py", SetupPy, EcoPython, true},
		{"requirements.txt", Requirements, EcoPython, false},
		{"py/requirements-dev.txt", Requirements, EcoPython, false},
		{"Cargo.toml", Cargo, EcoRust, true},
		{"pom.xml", Pom, EcoJVM, true},
		{"app/build.gradle.kts", Gradle, EcoJVM, true},
		{"settings.gradle.kts", GradleSettings, EcoJVM, false},
		{"Api/Api.csproj", MSBuild, EcoDotnet, true},
		{"Lib.fsproj", MSBuild, EcoDotnet, true},
		{"Acme.sln", Solution, EcoDotnet, false},
		{"Gemfile", Gemfile, EcoRuby, true},
		{"acme.gemspec", Gemspec, EcoRuby, true},
		{"composer.json", Composer, EcoPHP, true},
		{"tsconfig.json", "", "", false},
		{"requirements.in", "", "", false},
		{"go.sum", "", "", false},
	}
	for _, tc := range tests {
		got := FormatOf(tc.name)
		if got != tc.want || got.Ecosystem() != tc.eco || got.DefinesModule() != tc.module {
			t.Errorf("FormatOf(%q) = %q (%q, module %v), want %q (%q, module %v)", tc.name,
				got, got.Ecosystem(), got.DefinesModule(), tc.want, tc.eco, tc.module)
		}
	}
}

func TestParseNotAManifest(t *testing.T) {
	got, err := Parse("README.md", []byte("# hi"))
	if err == nil {
		t.Error("Parse(README.md): no error")
	}
	if diff := cmp.Diff(&Manifest{}, got); diff != "" {
		t.Errorf("Parse(README.md) (-want +got):\n%s", diff)
	}
}

func TestSortDependencies(t *testing.T) {
	got := []Dependency{
		{Name: "z", Scope: ScopeIndirect}, {Name: "b", Scope: ScopeDev}, {Name: "t", Scope: ScopeTest},
		{Name: "b", Version: "2", Scope: ScopeRuntime}, {Name: "b", Version: "1", Scope: ScopeRuntime},
		{Name: "p", Scope: ScopePeer}, {Name: "tool", Scope: ScopeTool}, {Name: "o", Scope: ScopeOptional}, {Name: "x", Scope: ScopeBuild},
	}
	SortDependencies(got)
	want := []Dependency{
		{Name: "b", Version: "1", Scope: ScopeRuntime}, {Name: "b", Version: "2", Scope: ScopeRuntime},
		{Name: "p", Scope: ScopePeer}, {Name: "o", Scope: ScopeOptional}, {Name: "b", Scope: ScopeDev}, {Name: "t", Scope: ScopeTest},
		{Name: "x", Scope: ScopeBuild}, {Name: "tool", Scope: ScopeTool}, {Name: "z", Scope: ScopeIndirect},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
