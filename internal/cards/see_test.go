package cards

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/lang"
	_ "github.com/cairnhq/cairn/internal/lang/all"
	"github.com/cairnhq/cairn/internal/lang/langtest"
)

// defsOf extracts a file's definitions with the real extractor.
func defsOf(t *testing.T, language string, src string) []lang.Def {
	t.Helper()
	l := lang.ByName(language)
	if l == nil {
		t.Fatalf("no language %s", language)
	}
	return langtest.Extract(t, l, []byte(src)).Defs
}

// owners lists each link of a file as key@owner, the owner being the
// definition's lexical path or "file".
func owners(t *testing.T, language, src string) []string {
	t.Helper()
	defs := defsOf(t, language, src)
	hits, cms := Scan(language, []byte(src))
	at := Attach([]byte(src), hits, cms, defs)
	out := []string{}
	for i, h := range hits {
		owner := "file"
		if at[i] >= 0 {
			owner = defs[at[i]].Path
		}
		out = append(out, fmt.Sprintf("%s@%s:%d", h.Key, owner, h.Line))
	}
	return out
}

// Each fixture links a doc-commented definition, a definition with a
// comment inside its body, and the file; a @see inside a string literal,
// and Javadoc-style references that are not card keys, are not links.
var seeCases = []struct {
	lang, src string
	want      []string
}{
	{"go", `// Package p does things.
// @see pkg/overview
package p

var s = "@see not/a-link"

// Login signs in.
// @see auth/login
func Login() {
	// @see auth/inner
	_ = s
}

type T struct{} // @see auth/type
`, []string{"pkg/overview@file:2", "auth/login@Login:8", "auth/inner@Login:10", "auth/type@T:14"}},
	{"python", `# @see mod/top

import os

s = "@see not/a-link"

# @see auth/login
@decorator
def login():
    """Sign in. @see auth/doc"""
    return s

class Store:
    # @see store/get
    def get(self):
        pass
`, []string{"mod/top@file:1", "auth/login@login:7", "auth/doc@login:10", "store/get@Store.get:14"}},
	{"typescript", `/** @see mod/top */

const s = "@see not/a-link";
const t = ` + "`@see not/template`" + `;

/**
 * Handles the callback.
 * @see auth/login
 * @see {@link Other} not a card
 */
export function handle(): void {}

export class Svc {
  /** @see svc/run */
  run(): void {}
}
`, []string{"mod/top@file:1", "auth/login@handle:8", "svc/run@Svc.run:14"}},
	{"javascript", `// @see auth/login
function login() {}
const x = '@see nope/nope';
`, []string{"auth/login@login:1"}},
	{"java", `package a;

/**
 * A service.
 * @see auth/login
 * @see String#length()
 */
public class Svc {
    /** @see svc/run */
    @Override
    public void run() { String s = "@see not/a-link"; }
}
`, []string{"auth/login@Svc:5", "svc/run@Svc.run:9"}},
	{"kotlin", `package a

// @see auth/login
fun login() {
    val s = """@see not/a-link"""
}
`, []string{"auth/login@login:3"}},
	{"csharp", `namespace A {
    /// <summary>Runs.</summary>
    /// @see svc/run
    [Obsolete]
    public class Svc {
        public void Run() { var s = "@see not/a-link"; }
    }
}
`, []string{"svc/run@Svc:3"}},
	{"rust", `// @see mod/top

/// Runs it.
/// @see svc/run
#[inline]
pub fn run<'a>(x: &'a str) -> char {
    let s = "@see not/a-link";
    'c'
}
`, []string{"mod/top@file:1", "svc/run@run:4"}},
	{"c", `/* @see mod/top */

/* @see svc/run */
int run(void) { char *s = "@see not/a-link"; return 0; }
`, []string{"mod/top@file:1", "svc/run@run:3"}},
	{"cpp", `// @see svc/run
int run() { return 0; }
`, []string{"svc/run@run:1"}},
	{"ruby", `# @see mod/top

# @see svc/run
def run
  s = "@see not/a-link"
end
`, []string{"mod/top@file:1", "svc/run@run:3"}},
	{"php", `<?php
# @see mod/top

/** @see svc/run */
function run() { $s = '@see not/a-link'; }
`, []string{"mod/top@file:2", "svc/run@run:4"}},
}

func TestScanAndAttach(t *testing.T) {
	for _, tc := range seeCases {
		t.Run(tc.lang, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, owners(t, tc.lang, tc.src)); diff != "" {
				t.Errorf("links (-want +got):\n%s", diff)
			}
		})
	}
}

func TestScanKeys(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{"// @see a/b.", []string{"a/b"}},
		{"// @see a/b, and @see c", []string{"a/b", "c"}},
		{"// @seealso a/b", nil},
		{"// x@see a/b", nil},
		{"// @see http://example.com", nil},
		{"// @see Foo#bar", nil},
		{"/* @see a/b*/", []string{"a/b"}},
		{"// @see", nil},
	} {
		var got []string
		hits, _ := Scan("go", []byte(tc.src))
		for _, h := range hits {
			got = append(got, h.Key)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tc.src, diff)
		}
	}
}

// Adding a link puts it where the scanner attaches it to the target, and
// removing it gives the file back.
func TestAddRemoveLink(t *testing.T) {
	for _, tc := range []struct {
		lang, src, target, want string
	}{
		{"go", "package p\n\n// Login signs in.\nfunc Login() {}\n\nfunc Other() {}\n", "Login", "// Login signs in.\n// @see x/y\nfunc Login() {}"},
		{"go", "package p\n\nfunc Login() {}\n", "", "// @see x/y\npackage p"},
		{"go", "package p\n\ntype T struct {\n\tA int\n}\n\nfunc (T) M() {}\n", "T.M", "// @see x/y\nfunc (T) M() {}"},
		{"python", "def f():\n    pass\n", "", "# @see x/y\n\ndef f():"},
		{"python", "class C:\n    @property\n    def p(self):\n        return 1\n", "C.p", "    # @see x/y\n    @property\n"},
		{"typescript", "/**\n * Does it.\n */\nexport function f(): void {}\n", "f", " * Does it.\n * @see x/y\n */"},
		{"typescript", "/** Does it. */\nexport function f(): void {}\n", "f", "/** Does it. @see x/y */"},
		{"java", "class A {\n    @Override\n    public void m() {}\n}\n", "A.m", "    // @see x/y\n    @Override"},
		{"ruby", "def run\nend\n", "run", "# @see x/y\ndef run"},
		{"rust", "/// Runs.\npub fn run() {}\n", "run", "/// Runs.\n/// @see x/y\npub fn run"},
		{"php", "<?php\n\nfunction run() {}\n", "", "<?php\n// @see x/y\n\nfunction"},
		{"javascript", "// Logs in.\nfunction login() {}\n", "login", "// Logs in.\n// @see x/y\nfunction login"},
		{"kotlin", "package a\n\nfun login() {}\n", "login", "// @see x/y\nfun login"},
		{"csharp", "class Svc {\n    // Runs.\n    public void Run() {}\n}\n", "Svc.Run", "    // Runs.\n    // @see x/y\n    public void Run"},
		{"c", "/* Runs. */\nint run(void) { return 0; }\n", "run", "/* Runs. @see x/y */\nint run"},
		{"cpp", "void run() {}\n", "run", "// @see x/y\nvoid run"},
	} {
		t.Run(tc.lang+"/"+tc.target, func(t *testing.T) {
			defs := defsOf(t, tc.lang, tc.src)
			target := -1
			for i, d := range defs {
				if d.Path == tc.target {
					target = i
				}
			}
			if tc.target != "" && target < 0 {
				t.Fatalf("no definition %s", tc.target)
			}
			out, changed, err := AddLink(tc.lang, []byte(tc.src), defs, target, "x/y")
			if err != nil || !changed {
				t.Fatalf("add: changed %v, %v", changed, err)
			}
			if !strings.Contains(string(out), tc.want) {
				t.Errorf("add gave:\n%s\nwant it to hold:\n%s", out, tc.want)
			}
			again, changed, err := AddLink(tc.lang, out, defsOf(t, tc.lang, string(out)), indexOf(t, tc.lang, string(out), tc.target), "x/y")
			if err != nil || changed || string(again) != string(out) {
				t.Errorf("adding again changed the file: %v %v", changed, err)
			}
			back, n := RemoveLink(tc.lang, out, defsOf(t, tc.lang, string(out)), nil, "x/y")
			if n != 1 || strings.TrimSpace(string(back)) != strings.TrimSpace(tc.src) {
				t.Errorf("remove (%d) gave:\n%s\nwant:\n%s", n, back, tc.src)
			}
		})
	}
}

func indexOf(t *testing.T, language, src, path string) int {
	for i, d := range defsOf(t, language, src) {
		if d.Path == path && path != "" {
			return i
		}
	}
	return -1
}

func TestRemoveLinkKeepsText(t *testing.T) {
	src := "// Login signs in; @see a/b for the rules.\nfunc Login() {}\n"
	out, n := RemoveLink("go", []byte(src), defsOf(t, "go", "package p\n"+src)[:0], nil, "a/b")
	if n != 1 || string(out) != "// Login signs in; for the rules.\nfunc Login() {}\n" {
		t.Errorf("got %d %q", n, out)
	}
}
