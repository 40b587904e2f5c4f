package query

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseGoMod(t *testing.T) {
	got := parseGoMod([]byte(`module example.com/m

go 1.24

require github.com/a/b v1.2.3
require (
	github.com/c/d v0.1.0 // indirect
	"github.com/e/f" v2.0.0+incompatible
	// a comment line
)
tool golang.org/x/tools/cmd/stringer
replace github.com/a/b => ../b
`))
	want := []Dependency{
		{Name: "github.com/a/b", Version: "v1.2.3", Scope: "runtime"},
		{Name: "github.com/c/d", Version: "v0.1.0", Scope: "indirect"},
		{Name: "github.com/e/f", Version: "v2.0.0+incompatible", Scope: "runtime"},
		{Name: "golang.org/x/tools/cmd/stringer", Scope: "tool"},
	}
	if diff := cmp.Diff(want, got.deps); diff != "" {
		t.Errorf("deps (-want +got):\n%s", diff)
	}
}

func TestParsePackageJSON(t *testing.T) {
	tests := []struct {
		name    string
		json    string
		entries []declared
		deps    []Dependency
	}{
		{
			name:    "bin string takes the unscoped package name",
			json:    `{"name": "@s/tool", "bin": "cli.js", "dependencies": {"b": "1", "a": "^2"}, "devDependencies": {"jest": "29"}}`,
			entries: []declared{{kind: "npm_bin", name: "tool", target: "cli.js"}},
			deps:    []Dependency{{Name: "a", Version: "^2", Scope: "runtime"}, {Name: "b", Version: "1", Scope: "runtime"}, {Name: "jest", Version: "29", Scope: "dev"}},
		},
		{
			name: "main, module, bin map and subpath exports with conditions",
			json: `{"main": "dist/i.js", "module": "esm/i.js", "bin": {"x": "bin/x.js"},
				"exports": {".": {"types": "./t.d.ts", "import": "./esm/i.js", "require": "./cjs/i.js"}, "./util": "./util.js", "./feat/*": "./feat/*.js"}}`,
			entries: []declared{
				{kind: "npm_bin", name: "x", target: "bin/x.js"},
				{kind: "npm_exports", name: ".", target: "./esm/i.js"},
				{kind: "npm_exports", name: "./util", target: "./util.js"},
				{kind: "npm_main", name: "main", target: "dist/i.js"},
				{kind: "npm_main", name: "module", target: "esm/i.js"},
			},
		},
		{
			name:    "exports as conditions only",
			json:    `{"exports": {"node": "./n.js", "default": "./d.js"}}`,
			entries: []declared{{kind: "npm_exports", name: ".", target: "./d.js"}},
		},
		{name: "not JSON", json: `{`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := parsePackageJSON([]byte(tc.json))
			sortDeclared(got.entries)
			sortDeps(got.deps)
			if diff := cmp.Diff(tc.entries, got.entries, cmp.AllowUnexported(declared{})); diff != "" {
				t.Errorf("entries (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.deps, got.deps); diff != "" {
				t.Errorf("deps (-want +got):\n%s", diff)
			}
		})
	}
}

func sortDeclared(ds []declared) {
	for i := 1; i < len(ds); i++ {
		for j := i; j > 0 && (ds[j].kind < ds[j-1].kind || ds[j].kind == ds[j-1].kind && ds[j].name < ds[j-1].name); j-- {
			ds[j], ds[j-1] = ds[j-1], ds[j]
		}
	}
}

func TestParsePyproject(t *testing.T) {
	got := parsePyproject([]byte(`[build-system]
requires = ["setuptools"]

[project]
name = "tool"  # the name
dependencies = [
    "requests[socks]>=2.0; python_version >= '3.8'",  # http, with a ] in a comment
    'click',
]

[project.optional-dependencies]
test = ["pytest>=7", "hypothesis"]

[project.scripts]
tool = "tool.cli:main"

[dependency-groups]
lint = ["ruff"]

[tool.poetry.dependencies]
python = "^3.10"
httpx = { version = "^0.27", optional = true }

[tool.poetry.group.dev.dependencies]
black = "24.1"
`))
	want := []Dependency{
		{Name: "requests", Version: ">=2.0; python_version >= '3.8'", Scope: "runtime"},
		{Name: "click", Scope: "runtime"},
		{Name: "pytest", Version: ">=7", Scope: "optional"},
		{Name: "hypothesis", Scope: "optional"},
		{Name: "ruff", Scope: "dev"},
		{Name: "httpx", Version: "^0.27", Scope: "runtime"},
		{Name: "black", Version: "24.1", Scope: "dev"},
	}
	if diff := cmp.Diff(want, got.deps); diff != "" {
		t.Errorf("deps (-want +got):\n%s", diff)
	}
	wantEntries := []declared{{kind: "python_script", name: "tool", target: "tool.cli:main"}}
	if diff := cmp.Diff(wantEntries, got.entries, cmp.AllowUnexported(declared{})); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
}

func TestParseRequirements(t *testing.T) {
	got := parseManifest("py/requirements-dev.txt", []byte(`# tools
-r requirements.txt
--index-url https://example.com/simple
pytest==8.0  # pinned
black
git+https://github.com/x/y.git
-e .
`))
	want := []Dependency{{Name: "pytest", Version: "==8.0", Scope: "dev"}, {Name: "black", Scope: "dev"}}
	if diff := cmp.Diff(want, got.deps); diff != "" {
		t.Errorf("deps (-want +got):\n%s", diff)
	}
}

func TestTestConvention(t *testing.T) {
	tests := []struct{ path, lang, want string }{
		{"pkg/a_test.go", "go", "*_test.go"},
		{"pkg/a.go", "go", ""},
		{"pkg/testdata/x_test.go", "go", ""},
		{"tests/test_a.py", "python", "test_*.py"},
		{"a/b_test.py", "python", "*_test.py"},
		{"tests/conftest.py", "python", "conftest.py"},
		{"tests/helpers.py", "python", "tests/ dir"},
		{"src/a.test.ts", "typescript", "*.test.*"},
		{"src/a.spec.js", "javascript", "*.spec.*"},
		{"src/__tests__/a.tsx", "tsx", "__tests__/"},
		{"test/util.js", "javascript", "test/ dir"},
		{"tests/data.json", "", ""},
		{"src/contest.py", "python", ""},
	}
	for _, tc := range tests {
		if got := testConvention(tc.path, tc.lang); got != tc.want {
			t.Errorf("testConvention(%q, %q) = %q, want %q", tc.path, tc.lang, got, tc.want)
		}
	}
}

func TestDedupeEntries(t *testing.T) {
	got := dedupeEntries([]EntryPoint{
		{Path: "web/src/index.ts", Kind: "index_file", Name: "index.ts", Module: "web"},
		{Path: "web/src/index.ts", Kind: "npm_exports", Name: ".", Module: "web"},
		{Path: "cmd/x/main.go", Kind: "main_file", Name: "main.go", Module: "m"},
		{Path: "cmd/x/main.go", Kind: "go_main", Name: "main", Module: "m"},
		{Path: "web/bin/a.js", Kind: "npm_bin", Name: "b", Module: "web"},
		{Path: "web/bin/a.js", Kind: "npm_bin", Name: "a", Module: "web"},
		{Path: "web/bin/a.js", Kind: "npm_bin", Name: "a", Module: "web"},
	})
	want := []EntryPoint{
		{Path: "cmd/x/main.go", Kind: "go_main", Name: "main", Module: "m"},
		{Path: "web/bin/a.js", Kind: "npm_bin", Name: "a", Module: "web"},
		{Path: "web/bin/a.js", Kind: "npm_bin", Name: "b", Module: "web"},
		{Path: "web/src/index.ts", Kind: "npm_exports", Name: ".", Module: "web"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestUTF8Check(t *testing.T) {
	text := []byte("héllo wörld → ok")
	for split := 0; split <= len(text); split++ {
		var u utf8Check
		u.write(text[:split])
		u.write(text[split:])
		if !u.valid() {
			t.Errorf("split at %d: valid text reported invalid", split)
		}
	}
	var u utf8Check
	u.write([]byte("ok \xff"))
	if u.valid() {
		t.Error("invalid byte not reported")
	}
	u = utf8Check{}
	u.write([]byte("cut \xe2\x86")) // an arrow missing its last byte at the end
	if u.valid() {
		t.Error("truncated rune at the end not reported")
	}
}
