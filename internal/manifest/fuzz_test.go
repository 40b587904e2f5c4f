package manifest

import "testing"

// manifestNames are the file names of every format Parse reads.
var manifestNames = []string{"go.mod", "go.work", "package.json", "pnpm-workspace.yaml", "pyproject.toml", "setup.cfg", "setup.py",
	"requirements.txt", "requirements-dev.txt", "Cargo.toml", "pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle",
	"settings.gradle.kts", "app.csproj", "app.fsproj", "app.sln", "Gemfile", "app.gemspec", "composer.json"}

// FuzzParse feeds every manifest format mutated text: Parse never panics
// and always returns a manifest of the file's format.
func FuzzParse(f *testing.F) {
	seeds := map[string]string{
		"go.mod":         "module example.com/m\n\ngo 1.22\n\nrequire (\n\tgolang.org/x/mod v0.20.0\n)\nreplace a => ../a\n",
		"package.json":   `{"name":"app","version":"1.0.0","dependencies":{"react":"^18"},"devDependencies":{"vitest":"1"},"workspaces":["packages/*"]}`,
		"pyproject.toml": "[project]\nname = \"app\"\ndependencies = [\"requests>=2\"]\n[tool.poetry.dependencies]\npython = \"^3.11\"\n",
		"Cargo.toml":     "[package]\nname = \"app\"\n[dependencies]\nserde = { version = \"1\", features = [\"derive\"] }\n[workspace]\nmembers = [\"crates/*\"]\n",
		"pom.xml":        "<project><groupId>g</groupId><artifactId>a</artifactId><dependencies><dependency><groupId>x</groupId><artifactId>y</artifactId><version>1</version></dependency></dependencies></project>",
		"app.csproj":     `<Project Sdk="Microsoft.NET.Sdk"><ItemGroup><PackageReference Include="Newtonsoft.Json" Version="13.0.1" /></ItemGroup></Project>`,
		"Gemfile":        "source 'https://rubygems.org'\ngem 'rails', '~> 7.0'\ngroup :test do\n  gem 'rspec'\nend\n",
		"composer.json":  `{"name":"v/p","require":{"php":">=8.1","monolog/monolog":"^3"}}`,
		"build.gradle":   "dependencies {\n  implementation 'com.google.guava:guava:32.0.0-jre'\n}\n",
		"app.sln":        "Project(\"{FAE04EC0}\") = \"App\", \"App\\App.csproj\", \"{1}\"\nEndProject\n",
	}
	for i, name := range manifestNames {
		text, ok := seeds[name]
		if !ok {
			text = seeds["go.mod"]
		}
		f.Add(uint8(i), []byte(text))
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		name := manifestNames[int(which)%len(manifestNames)]
		m, _ := Parse(name, data)
		if m == nil {
			t.Fatalf("Parse(%s) returned no manifest", name)
		}
		if m.Format != FormatOf(name) {
			t.Fatalf("Parse(%s): format %v", name, m.Format)
		}
	})
}
