package manifest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseNPM(t *testing.T) {
	runParse(t, []parseCase{
		{
			name: "bin string takes the unscoped package name; every dependency map",
			file: "package.json",
			text: `{"name": "@s/tool", "bin": "cli.js", "dependencies": {"b": "1", "a": "^2"}, "devDependencies": {"jest": "29"},
				"peerDependencies": {"react": ">=18"}, "optionalDependencies": {"fsevents": "2"}}`,
			want: &Manifest{Format: PackageJSON, Ecosystem: EcoJavaScript, Name: "@s/tool",
				Dependencies: []Dependency{
					{Name: "a", Version: "^2", Scope: ScopeRuntime}, {Name: "b", Version: "1", Scope: ScopeRuntime},
					{Name: "jest", Version: "29", Scope: ScopeDev}, {Name: "react", Version: ">=18", Scope: ScopePeer},
					// Optional dependencies are declared too: their imports are
					// external, not unknown.
					{Name: "fsevents", Version: "2", Scope: ScopeOptional},
				},
				Entries: []Entry{{Kind: "npm_bin", Name: "tool", Target: "cli.js"}}},
		},
		{
			name: "main, module, bin map and subpath exports with conditions",
			file: "web/package.json",
			text: `{"main": "dist/i.js", "module": "esm/i.js", "bin": {"y": "bin/y.js", "x": "bin/x.js"},
				"exports": {".": {"types": "./t.d.ts", "import": "./esm/i.js", "require": "./cjs/i.js"}, "./util": "./util.js", "./feat/*": "./feat/*.js"}}`,
			want: &Manifest{Format: PackageJSON, Ecosystem: EcoJavaScript, Entries: []Entry{
				{Kind: "npm_main", Name: "main", Target: "dist/i.js"},
				{Kind: "npm_main", Name: "module", Target: "esm/i.js"},
				{Kind: "npm_bin", Name: "x", Target: "bin/x.js"},
				{Kind: "npm_bin", Name: "y", Target: "bin/y.js"},
				{Kind: "npm_exports", Name: ".", Target: "./esm/i.js"},
				{Kind: "npm_exports", Name: "./util", Target: "./util.js"},
			}},
		},
		{
			name: "exports as conditions only",
			file: "package.json",
			text: `{"exports": {"node": "./n.js", "default": "./d.js"}}`,
			want: &Manifest{Format: PackageJSON, Ecosystem: EcoJavaScript, Entries: []Entry{{Kind: "npm_exports", Name: ".", Target: "./d.js"}}},
		},
		{
			name: "workspaces as a list, with an exclusion",
			file: "package.json",
			text: `{"name": "root", "private": true, "workspaces": ["packages/*", "!packages/legacy", "apps/web"]}`,
			want: &Manifest{Format: PackageJSON, Ecosystem: EcoJavaScript, Name: "root",
				Workspace: &Workspace{Members: []string{"packages/*", "apps/web"}, Exclude: []string{"packages/legacy"}}},
		},
		{
			name: "Yarn's workspaces object",
			file: "package.json",
			text: `{"workspaces": {"packages": ["libs/**"], "nohoist": ["**/react-native"]}}`,
			want: &Manifest{Format: PackageJSON, Ecosystem: EcoJavaScript, Workspace: &Workspace{Members: []string{"libs/**"}}},
		},
		{
			name: "an empty workspace list still fences",
			file: "package.json",
			text: `{"workspaces": []}`,
			want: &Manifest{Format: PackageJSON, Ecosystem: EcoJavaScript, Workspace: &Workspace{Members: []string{}}},
		},
		{name: "not JSON", file: "package.json", text: `{`, want: &Manifest{Format: PackageJSON, Ecosystem: EcoJavaScript}, wantErr: true},
		{
			name: "pnpm block list with quotes and an exclusion",
			file: "pnpm-workspace.yaml",
			text: "# workspace\npackages:\n  - 'packages/*'\n  - \"apps/*\"   # apps\n  - '!**/test/**'\ncatalog:\n  react: ^18\n",
			want: &Manifest{Format: PnpmWorkspace, Ecosystem: EcoJavaScript,
				Workspace: &Workspace{Members: []string{"packages/*", "apps/*"}, Exclude: []string{"**/test/**"}}},
		},
		{
			// A flow list is a list too: reading only "- item" lines gives an
			// empty workspace that detaches every package.
			name: "pnpm flow list",
			file: "pnpm-workspace.yaml",
			text: "packages: ['packages/*', tools]\n",
			want: &Manifest{Format: PnpmWorkspace, Ecosystem: EcoJavaScript, Workspace: &Workspace{Members: []string{"packages/*", "tools"}}},
		},
		{
			name:    "pnpm file that does not parse leaves its workspace open",
			file:    "pnpm-workspace.yaml",
			text:    "packages: [\n",
			want:    &Manifest{Format: PnpmWorkspace, Ecosystem: EcoJavaScript, Workspace: &Workspace{Members: []string{}, Open: true}},
			wantErr: true,
		},
		{
			name: "composer require and require-dev without platform packages",
			file: "composer.json",
			text: `{"name": "acme/php", "require": {"php": ">=8.1", "ext-json": "*", "monolog/monolog": "^3", "composer-plugin-api": "^2"},
				"require-dev": {"phpunit/phpunit": "^10"}}`,
			want: &Manifest{Format: Composer, Ecosystem: EcoPHP, Name: "acme/php", Dependencies: []Dependency{
				{Name: "monolog/monolog", Version: "^3", Scope: ScopeRuntime}, {Name: "phpunit/phpunit", Version: "^10", Scope: ScopeDev},
			}},
		},
		{name: "composer not JSON", file: "composer.json", text: `{"name": }`, want: &Manifest{Format: Composer, Ecosystem: EcoPHP}, wantErr: true},
	})
}

func TestParseTSConfig(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		want    *TSConfig
		wantErr bool
	}{
		{
			name: "comments and trailing commas",
			text: `{
  // shared settings
  "extends": "../../tsconfig.base.json",
  /* where imports start */
  "compilerOptions": {
    "baseUrl": "src",
    "paths": { "@app/*": ["app/*"], },
  },
}`,
			want: &TSConfig{Extends: []string{"../../tsconfig.base.json"}, BaseURL: "src", Paths: map[string][]string{"@app/*": {"app/*"}}},
		},
		{
			// The "//" of a URL and the "/*" of a paths pattern are inside
			// strings: taken for comments, they cut the config after
			// "https:" and from "@/*" to the next "*/", and it no longer
			// parses.
			name: "comment markers inside strings",
			text: `{
  "$schema": "https://json.schemastore.org/tsconfig",
  "compilerOptions": {
    "paths": {"@/*": ["./src/*"]} /* aliases */
  }
}`,
			want: &TSConfig{Paths: map[string][]string{"@/*": {"./src/*"}}},
		},
		{
			name: "a string with an escaped quote and a comma before a bracket",
			text: `{"compilerOptions": {"baseUrl": "a\",]b", "paths": {"x": ["y",
				// last
			]}}}`,
			want: &TSConfig{BaseURL: `a",]b`, Paths: map[string][]string{"x": {"y"}}},
		},
		{
			// TypeScript 5.0 accepts a list; decoding a string would reject
			// the whole config.
			name: "extends as a list",
			text: `{"extends": ["./a.json", "@tsconfig/node20/tsconfig.json"]}`,
			want: &TSConfig{Extends: []string{"./a.json", "@tsconfig/node20/tsconfig.json"}},
		},
		{name: "not JSON", text: `{"compilerOptions": `, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseTSConfig([]byte(tc.text))
			if (err != nil) != tc.wantErr {
				t.Fatalf("error = %v, want error %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
