package manifest

import "testing"

func TestParseCargo(t *testing.T) {
	runParse(t, []parseCase{
		{
			name: "package, every dependency table, dotted and per-target tables",
			file: "crates/core/Cargo.toml",
			text: `[package]
name = "acme-core"
version = "0.1.0"

[dependencies]
serde = { version = "1", features = ["derive"] }
anyhow = "1"
local = { path = "../local" }
renamed = { package = "real-name", version = "2" }
shared = { workspace = true }

[dependencies.tokio]
version = "1"
features = ["full"]

[dev-dependencies]
proptest = "1"

[build-dependencies]
cc = "1.0"

[target.'cfg(unix)'.dependencies]
libc = "0.2"
`,
			want: &Manifest{Format: Cargo, Ecosystem: EcoRust, Name: "acme-core", Dependencies: []Dependency{
				{Name: "anyhow", Version: "1", Scope: ScopeRuntime},
				{Name: "local", Scope: ScopeRuntime},
				{Name: "renamed", Version: "2", Scope: ScopeRuntime},
				{Name: "serde", Version: "1", Scope: ScopeRuntime},
				{Name: "shared", Scope: ScopeRuntime},
				{Name: "tokio", Version: "1", Scope: ScopeRuntime},
				{Name: "proptest", Version: "1", Scope: ScopeDev},
				{Name: "cc", Version: "1.0", Scope: ScopeBuild},
				{Name: "libc", Version: "0.2", Scope: ScopeRuntime},
			}},
		},
		{
			name: "a virtual workspace with exclusions and shared dependencies",
			file: "Cargo.toml",
			text: `[workspace]
members = [
    "crates/*",
    "tools/gen",
]
exclude = ["crates/old"]

[workspace.dependencies]
serde = "1"
`,
			want: &Manifest{Format: Cargo, Ecosystem: EcoRust,
				Dependencies: []Dependency{{Name: "serde", Version: "1", Scope: ScopeRuntime}},
				Workspace:    &Workspace{Members: []string{"crates/*", "tools/gen"}, Exclude: []string{"crates/old"}}},
		},
		{
			name: "a workspace without members lists none",
			file: "Cargo.toml",
			text: "[package]\nname = \"root\"\n\n[workspace]\n",
			want: &Manifest{Format: Cargo, Ecosystem: EcoRust, Name: "root", Workspace: &Workspace{Members: []string{}}},
		},
		{name: "not TOML", file: "Cargo.toml", text: "[package\n", want: &Manifest{Format: Cargo, Ecosystem: EcoRust}, wantErr: true},
	})
}
