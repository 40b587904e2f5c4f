package manifest

import "testing"

func TestParsePython(t *testing.T) {
	runParse(t, []parseCase{
		{
			name: "pyproject: PEP 621, PEP 735 and Poetry",
			file: "pyproject.toml",
			text: `[build-system]
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

[project.gui-scripts]
tool-gui = "tool.gui:run"

[dependency-groups]
lint = ["ruff"]
all = [{include-group = "lint"}, "mypy"]

[tool.poetry.dependencies]
python = "^3.10"
httpx = { version = "^0.27", optional = true }
anyio = [{ version = "^4", python = "^3.10" }]

[tool.poetry.group.dev.dependencies]
black = "24.1"

[tool.poetry.scripts]
legacy = "tool.old:main"
`,
			want: &Manifest{Format: Pyproject, Ecosystem: EcoPython, Name: "tool",
				Dependencies: []Dependency{
					{Name: "requests", Version: ">=2.0; python_version >= '3.8'", Scope: ScopeRuntime},
					{Name: "click", Scope: ScopeRuntime},
					{Name: "pytest", Version: ">=7", Scope: ScopeOptional},
					{Name: "hypothesis", Scope: ScopeOptional},
					{Name: "mypy", Scope: ScopeDev},
					{Name: "ruff", Scope: ScopeDev},
					{Name: "anyio", Scope: ScopeRuntime},
					{Name: "httpx", Version: "^0.27", Scope: ScopeRuntime},
					{Name: "black", Version: "24.1", Scope: ScopeDev},
				},
				Entries: []Entry{
					{Kind: "python_script", Name: "tool", Target: "tool.cli:main"},
					{Kind: "python_script", Name: "tool-gui", Target: "tool.gui:run"},
					{Kind: "python_script", Name: "legacy", Target: "tool.old:main"},
				}},
		},
		{
			// The comment after the name is no part of it, and a line of a
			// multi-line string is no key.
			name: "pyproject: a commented name, a multi-line string",
			file: "pyproject.toml",
			text: "[project]\nname = \"right\"  # the name\ndescription = \"\"\"\nname = \"wrong\"\n\"\"\"\n",
			want: &Manifest{Format: Pyproject, Ecosystem: EcoPython, Name: "right"},
		},
		{
			name: "pyproject: Poetry's name",
			file: "pyproject.toml",
			text: "[tool.poetry]\nname = \"poetic\"\n",
			want: &Manifest{Format: Pyproject, Ecosystem: EcoPython, Name: "poetic"},
		},
		{name: "pyproject not TOML", file: "pyproject.toml", text: "[project\nname = 1", want: &Manifest{Format: Pyproject, Ecosystem: EcoPython}, wantErr: true},
		{
			// install_requires goes on over indented lines only: the keys
			// and sections after it ("python_requires", "yaml") are no
			// requirements.
			name: "setup.cfg",
			file: "setup.cfg",
			text: `[metadata]
name = acme-cfg
version = 1.0

[options]
install_requires =
    requests>=2
    # a comment
    attrs
python_requires = >=3.8
tests_require = pytest

[options.extras_require]
yaml = pyyaml>=6
`,
			want: &Manifest{Format: SetupCfg, Ecosystem: EcoPython, Name: "acme-cfg", Dependencies: []Dependency{
				{Name: "requests", Version: ">=2", Scope: ScopeRuntime}, {Name: "attrs", Scope: ScopeRuntime},
				{Name: "pyyaml", Version: ">=6", Scope: ScopeOptional}, {Name: "pytest", Scope: ScopeTest},
			}},
		},
		{
			// name= is a whole word: distname is another variable.
			name: "setup.py literal name and requirement lists",
			file: "setup.py",
			text: `from setuptools import setup
distname = "not-this"
setup(
    name="acme-py",
    install_requires=["requests>=2", 'attrs'],
    tests_require=[
        "pytest",
    ],
)
`,
			want: &Manifest{Format: SetupPy, Ecosystem: EcoPython, Name: "acme-py", Dependencies: []Dependency{
				{Name: "requests", Version: ">=2", Scope: ScopeRuntime}, {Name: "attrs", Scope: ScopeRuntime}, {Name: "pytest", Scope: ScopeTest},
			}},
		},
		{
			// A continued line ends before its --hash option; a local path
			// names no package; a named requirement may point at a URL.
			name: "requirements: options, includes, URLs, continuations and hashes",
			file: "py/requirements-dev.txt",
			text: `# tools
-r requirements.txt
--index-url https://example.com/simple
pytest==8.0  # pinned
black
git+https://github.com/x/y.git
-e .
./local/pkg
flask==3.0 \
    --hash=sha256:abc
pip @ https://example.com/pip.whl
`,
			want: &Manifest{Format: Requirements, Ecosystem: EcoPython, Dependencies: []Dependency{
				{Name: "pytest", Version: "==8.0", Scope: ScopeDev}, {Name: "black", Scope: ScopeDev},
				{Name: "flask", Version: "==3.0", Scope: ScopeDev}, {Name: "pip", Version: "@ https://example.com/pip.whl", Scope: ScopeDev},
			}},
		},
		{
			name: "requirements for tests",
			file: "requirements-test.txt",
			text: "pytest\n",
			want: &Manifest{Format: Requirements, Ecosystem: EcoPython, Dependencies: []Dependency{{Name: "pytest", Scope: ScopeTest}}},
		},
	})
}
