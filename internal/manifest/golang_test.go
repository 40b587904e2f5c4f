package manifest

import "testing"

func TestParseGo(t *testing.T) {
	runParse(t, []parseCase{
		{
			// A quoted path must lose its quotes, or no import matches it.
			name: "require lines and blocks, indirect, quoted paths, tool, replace",
			file: "go.mod",
			text: `module example.com/m // the module

go 1.24

require github.com/a/b v1.2.3
require (
	github.com/c/d v0.1.0 // indirect
	"github.com/e/f" v2.0.0+incompatible
	// a comment line
	github.com/g/h v1.0.0 // indirect; for the tests
)
tool golang.org/x/tools/cmd/stringer
replace github.com/a/b => ../b
replace github.com/c/d v0.1.0 => github.com/c/d2 v0.2.0
`,
			want: &Manifest{Format: GoMod, Ecosystem: EcoGo, Name: "example.com/m",
				Dependencies: []Dependency{
					{Name: "github.com/a/b", Version: "v1.2.3", Scope: ScopeRuntime},
					{Name: "github.com/c/d", Version: "v0.1.0", Scope: ScopeIndirect},
					{Name: "github.com/e/f", Version: "v2.0.0+incompatible", Scope: ScopeRuntime},
					{Name: "github.com/g/h", Version: "v1.0.0", Scope: ScopeIndirect},
					{Name: "golang.org/x/tools/cmd/stringer", Scope: ScopeTool},
				},
				Replaces: []Replace{
					{Old: "github.com/a/b", New: "../b"},
					{Old: "github.com/c/d", OldVersion: "v0.1.0", New: "github.com/c/d2", NewVersion: "v0.2.0"},
				},
			},
		},
		{
			name: "a quoted module path, a comment after require (",
			file: "go.mod",
			text: "module \"example.com/q\"\n\nrequire ( // deps\n\tgithub.com/a/b v1.0.0\n)\n",
			want: &Manifest{Format: GoMod, Ecosystem: EcoGo, Name: "example.com/q",
				Dependencies: []Dependency{{Name: "github.com/a/b", Version: "v1.0.0", Scope: ScopeRuntime}}},
		},
		{
			name: "a directive from a newer Go is read leniently",
			file: "go.mod",
			text: "module example.com/new\n\ngo 1.30\n\nfuturedirective x\n\nrequire github.com/a/b v1.0.0\n",
			want: &Manifest{Format: GoMod, Ecosystem: EcoGo, Name: "example.com/new",
				Dependencies: []Dependency{{Name: "github.com/a/b", Version: "v1.0.0", Scope: ScopeRuntime}}},
			wantErr: true,
		},
		{
			name:    "a broken file keeps its module path",
			file:    "go.mod",
			text:    "module example.com/broken\n\nrequire (\n\tgithub.com/a/b\n",
			want:    &Manifest{Format: GoMod, Ecosystem: EcoGo, Name: "example.com/broken"},
			wantErr: true,
		},
		{
			name: "go.work use lines and blocks, replace",
			file: "go.work",
			text: "go 1.22\n\nuse ./svc\nuse (\n\t./lib // the library\n\t\"./odd dir\"\n)\n\nreplace example.com/x => ./x\n",
			want: &Manifest{Format: GoWork, Ecosystem: EcoGo,
				Workspace: &Workspace{Members: []string{"./svc", "./lib", "./odd dir"}},
				Replaces:  []Replace{{Old: "example.com/x", New: "./x"}}},
		},
		{
			name:    "a go.work that does not parse leaves its workspace open",
			file:    "go.work",
			text:    "use (\n",
			want:    &Manifest{Format: GoWork, Ecosystem: EcoGo, Workspace: &Workspace{Members: []string{}, Open: true}},
			wantErr: true,
		},
	})
}
