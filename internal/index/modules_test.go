package index

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/testenv/testtree"
)

func TestDetectModules(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"go.work":                      "go 1.22\n\nuse (\n\t./svc\n\t./lib\n)\n",
		"svc/go.mod":                   "module example.com/svc\n\nrequire (\n\texample.com/lib v0.0.0\n\tgithub.com/x/y v1.2.3 // indirect\n)\n",
		"svc/main.go":                  "package main\n",
		"lib/go.mod":                   "module example.com/lib\n",
		"tools/go.mod":                 "module example.com/tools\n",
		"web/package.json":             `{"name": "web-root", "workspaces": ["packages/*"], "devDependencies": {"typescript": "5"}}`,
		"web/packages/ui/package.json": `{"name": "@acme/ui", "dependencies": {"react": "18"}}`,
		"web/packages/ui/index.ts":     "export {}",
		"web/scratch/package.json":     `{"name": "scratch"}`,
		"py/pyproject.toml":            "[project]\nname = \"acme-py\"\ndependencies = [\n  \"requests>=2\",\n  \"click\",\n]\n",
		"py/acme/__init__.py":          "",
		"rs/Cargo.toml":                "[workspace]\nmembers = [\"crates/*\"]\n",
		"rs/crates/core/Cargo.toml":    "[package]\nname = \"acme-core\"\n\n[dependencies]\nserde = \"1\"\n",
		"jvm/settings.gradle":          "rootProject.name = 'acme'\ninclude ':app', ':lib'\n",
		"jvm/app/build.gradle":         "dependencies { implementation 'com.google.guava:guava:33.0' }\n",
		"jvm/lib/pom.xml":              "<project><groupId>com.acme</groupId><artifactId>lib</artifactId><dependencies><dependency><groupId>junit</groupId><artifactId>junit</artifactId></dependency></dependencies></project>",
		"dotnet/Acme.sln":              "Project(\"{FAE}\") = \"Api\", \"Api\\\\Api.csproj\", \"{1}\"\n",
		"dotnet/Api/Api.csproj":        "<Project><ItemGroup><PackageReference Include=\"Newtonsoft.Json\" Version=\"13\" /></ItemGroup></Project>",
		"rb/Gemfile":                   "source 'https://rubygems.org'\ngem 'rack'\ngem \"rails\", '~> 7'\n",
		"php/composer.json":            `{"name": "acme/php", "require": {"monolog/monolog": "^3"}}`,
	}
	paths := writeTree(t, root, files)
	type mod struct {
		Root, Name, Kind, Workspace string
		Detached                    bool
		Deps                        []string
	}
	var got []mod
	for _, m := range detectModules(root, paths) {
		got = append(got, mod{m.Root, m.Name, m.Kind, m.Workspace, m.Detached, m.Deps})
	}
	want := []mod{
		{"", filepath.Base(root), "dir", "", false, nil},
		{"dotnet/Api", "Api", "dotnet", "dotnet", false, []string{"Newtonsoft.Json"}},
		{"jvm/app", "jvm/app", "jvm", "jvm", false, []string{"com.google.guava:guava"}},
		{"jvm/lib", "com.acme:lib", "jvm", "jvm", false, []string{"junit:junit"}},
		{"lib", "example.com/lib", "go", ".", false, nil},
		{"php", "acme/php", "php", "", false, []string{"monolog/monolog"}},
		{"py", "acme-py", "python", "", false, []string{"requests", "click"}},
		{"rb", "rb", "ruby", "", false, []string{"rack", "rails"}},
		{"rs", "rs", "rust", "rs", false, nil},
		{"rs/crates/core", "acme-core", "rust", "rs", false, []string{"serde"}},
		{"svc", "example.com/svc", "go", ".", false, []string{"example.com/lib", "github.com/x/y"}},
		{"tools", "example.com/tools", "go", ".", true, nil},
		{"web", "web-root", "javascript", "web", false, []string{"typescript"}},
		{"web/packages/ui", "@acme/ui", "javascript", "web", false, []string{"react"}},
		{"web/scratch", "scratch", "javascript", "web", true, nil},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("modules (-want +got):\n%s", diff)
	}
}

func TestModuleOfByFamily(t *testing.T) {
	mods := []Module{{Root: "", Kind: "dir"}, {Root: "a", Kind: "go", Name: "g"}, {Root: "a", Kind: "javascript", Name: "j"}, {Root: "a/b", Kind: "python", Name: "p"}}
	by := byRoot(mods)
	for _, tt := range []struct{ path, lang, want string }{
		{"a/x.go", "go", "g"}, {"a/x.ts", "typescript", "j"}, {"a/b/x.go", "go", "g"}, {"a/b/x.py", "python", "p"},
		{"a/b/README.md", "", "p"}, {"z.go", "go", ""},
	} {
		if got := moduleOf(by, tt.path, tt.lang).Name; got != tt.want {
			t.Errorf("moduleOf(%s, %s) = %q, want %q", tt.path, tt.lang, got, tt.want)
		}
	}
}

// TestDetectModulesFences covers workspace manifests whose members a line
// reader gets wrong: a multi-line Gradle include next to an includeBuild, a
// pnpm flow list, exclusions (npm "!pattern", Cargo exclude), and a name
// followed by a comment.
func TestDetectModulesFences(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"jvm/settings.gradle.kts":          "includeBuild(\"build-logic\")\ninclude(\n    \":app\",\n)\n",
		"jvm/app/build.gradle.kts":         "",
		"jvm/stray/build.gradle.kts":       "",
		"pn/pnpm-workspace.yaml":           "packages: ['pkgs/*']\n",
		"pn/pkgs/a/package.json":           `{"name": "a"}`,
		"pn/other/package.json":            `{"name": "other"}`,
		"npm/package.json":                 `{"name": "npm-root", "workspaces": ["packages/*", "!packages/legacy"]}`,
		"npm/packages/ui/package.json":     `{"name": "ui"}`,
		"npm/packages/legacy/package.json": `{"name": "legacy"}`,
		"rs/Cargo.toml":                    "[workspace]\nmembers = [\"crates/*\"]\nexclude = [\"crates/old\"]\n",
		"rs/crates/new/Cargo.toml":         "[package]\nname = \"new\" # the crate\n",
		"rs/crates/old/Cargo.toml":         "[package]\nname = \"old\"\n",
		"py/requirements.txt":              "requests\n",
	}
	var got []string
	for _, m := range detectModules(root, writeTree(t, root, files)) {
		got = append(got, fmt.Sprintf("%s %s %s workspace=%q detached=%v", m.Root, m.Name, m.Kind, m.Workspace, m.Detached))
	}
	want := []string{
		" " + filepath.Base(root) + ` dir workspace="" detached=false`, // the root module is named after its directory
		"jvm/app jvm/app jvm workspace=\"jvm\" detached=false",
		"jvm/stray jvm/stray jvm workspace=\"jvm\" detached=true",
		"npm npm-root javascript workspace=\"npm\" detached=false",
		"npm/packages/legacy legacy javascript workspace=\"npm\" detached=true",
		"npm/packages/ui ui javascript workspace=\"npm\" detached=false",
		"pn/other other javascript workspace=\"pn\" detached=true",
		"pn/pkgs/a a javascript workspace=\"pn\" detached=false",
		"rs rs rust workspace=\"rs\" detached=false",
		"rs/crates/new new rust workspace=\"rs\" detached=false",
		"rs/crates/old old rust workspace=\"rs\" detached=true",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("modules (-want +got):\n%s", diff)
	}
}

// writeTree writes files under root and returns their paths.
func writeTree(t *testing.T, root string, files map[string]string) []string {
	t.Helper()
	testtree.Write(t, root, files)
	return slices.Collect(maps.Keys(files))
}
