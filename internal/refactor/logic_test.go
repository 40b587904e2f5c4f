package refactor

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
)

func TestApplyEdits(t *testing.T) {
	src := []byte("a := Foo(1)\r\nb := x.Foo + Foo\n")
	ed := func(line, col int, old, new string) Edit {
		return Edit{Path: "f", Line: line, Col: col, EndLine: line, EndCol: col + len(old), Old: old, New: new}
	}
	got, err := applyEdits("f", src, []Edit{ed(2, 14, "Foo", "Bar"), ed(1, 6, "Foo", "Bar"), ed(2, 8, "Foo", "Bar"), ed(2, 8, "Foo", "Bar")})
	if err != nil {
		t.Fatal(err)
	}
	if want := "a := Bar(1)\r\nb := x.Bar + Bar\n"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// an anchor that no longer holds its text fails the whole file
	if _, err := applyEdits("f", src, []Edit{ed(1, 6, "Foo", "Bar"), ed(2, 9, "Foo", "Bar")}); !errs.Is(err, errs.Precondition) {
		t.Errorf("moved anchor: err = %v, want PRECONDITION_FAILED", err)
	}
	// a position past its line is not in the file
	if _, err := applyEdits("f", src, []Edit{ed(1, 20, "", "x")}); !errs.Is(err, errs.Precondition) {
		t.Errorf("past the line: err = %v", err)
	}
	// two different edits of one span overlap
	if _, err := applyEdits("f", src, []Edit{ed(1, 6, "Foo", "Bar"), ed(1, 6, "Foo", "Baz")}); err == nil {
		t.Error("overlapping edits applied")
	}
}

func TestGroupKey(t *testing.T) {
	for _, tc := range []struct {
		loc                 query.RefLocation
		recv, encl, wantKey string
	}{
		{query.RefLocation{Receiver: "ident:c", Enclosing: "Server.Stop"}, "ident:c", "Server", "Close|ident:c|Server"},
		{query.RefLocation{Receiver: "ident:c", Enclosing: "main"}, "ident:c", "", "Close|ident:c|"},
		{query.RefLocation{Enclosing: "a.b.C.m"}, "bare", "a.b.C", "Close|bare|a.b.C"},
		// the position is not part of the key: the same ambiguity elsewhere in the file is one group
		{query.RefLocation{Location: protocol.Location{Path: "x.go", Line: 9}, Receiver: "call:f()"}, "call:f()", "", "Close|call:f()|"},
	} {
		recv, encl, key := groupKey("Close", tc.loc)
		if recv != tc.recv || encl != tc.encl || key != tc.wantKey {
			t.Errorf("groupKey(%+v) = %q %q %q, want %q %q %q", tc.loc, recv, encl, key, tc.recv, tc.encl, tc.wantKey)
		}
	}
	if got := receiverText("call:getter()"); got != "getter()." {
		t.Errorf("receiverText = %q", got)
	}
}

func TestSignature(t *testing.T) {
	a := []Group{{Key: "k1"}, {Key: "k2"}}
	b := []Group{{Key: "k2"}, {Key: "k1"}}
	if signature(OpRename, "p.S", a) != signature(OpRename, "p.S", b) {
		t.Error("the signature depends on the groups' order")
	}
	if signature(OpRename, "p.S", a) == signature(OpRename, "p.T", a) || signature(OpRename, "p.S", a) == signature(OpRename, "p.S", a[:1]) {
		t.Error("different ambiguities share a signature")
	}
	if signature(OpRename, "p.S", nil) != "" {
		t.Error("no groups, yet a signature")
	}
}

func TestStoreExpiryAndDecisions(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	st := NewStore(t.TempDir(), func() time.Time { return now }, 10*time.Minute)
	p := &Plan{Op: OpRename, Groups: []Group{{ID: "g1", Key: "a"}, {ID: "g2", Key: "b"}}}
	p.Signature = signature(p.Op, "x", p.Groups)
	if err := st.Save(p); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Load(p.ID); err != nil {
		t.Fatalf("fresh plan: %v", err)
	}
	if _, err := st.Load("../../etc/passwd"); !errs.Is(err, errs.InvalidArgument) {
		t.Errorf("bad id: %v", err)
	}
	if st.offer(p) != nil {
		t.Error("an offer before any decision")
	}
	st.Decided(p.Signature, []string{"b"}, p.ID)
	// the same ambiguity in another plan, its groups listed in another order
	q := &Plan{Op: OpRename, Groups: []Group{{ID: "g1", Key: "b"}, {ID: "g2", Key: "a"}}}
	q.Signature = signature(q.Op, "x", q.Groups)
	o := st.offer(q)
	if o == nil || !cmp.Equal(o.Groups, []string{"g1"}) || o.PlanID != p.ID {
		t.Errorf("offer = %+v, want group g1 (key b) from %s", o, p.ID)
	}
	now = now.Add(10 * time.Minute)
	if _, err := st.Load(p.ID); !errs.Is(err, errs.Precondition) {
		t.Errorf("expired plan: err = %v, want PRECONDITION_FAILED", err)
	}
	if _, err := st.Load(p.ID); !errs.Is(err, errs.NotFound) {
		t.Errorf("expired plan loaded twice: err = %v, want NOT_FOUND (removed)", err)
	}
}

func TestChoose(t *testing.T) {
	p := &Plan{ID: "rf_1", Groups: []Group{{ID: "g1", Key: "a"}, {ID: "g2", Key: "b"}}}
	if _, _, err := choose(p, ApplyRequest{}); !errs.Is(err, errs.Precondition) {
		t.Errorf("undecided: %v", err)
	}
	sel, rev, err := choose(p, ApplyRequest{Groups: []string{"g2"}})
	if err != nil || len(sel) != 1 || sel[0].ID != "g2" || len(rev) != 1 || rev[0].ID != "g1" {
		t.Errorf("choose g2 = %v %v %v", sel, rev, err)
	}
	sel, rev, err = choose(p, ApplyRequest{ForceSyntactic: true})
	if err != nil || len(sel) != 0 || len(rev) != 2 {
		t.Errorf("force_syntactic = %v %v %v", sel, rev, err)
	}
	if _, _, err := choose(p, ApplyRequest{Groups: []string{"g9"}}); !errs.Is(err, errs.InvalidArgument) {
		t.Errorf("unknown group: %v", err)
	}
}

func TestSpecifiers(t *testing.T) {
	files := map[string]bool{"src/lib/date.ts": true, "src/lib/pad.ts": true, "src/ui/index.tsx": true}
	exists := func(p string) bool { return files[p] }
	for _, tc := range []struct {
		from, spec, target string
		style              specStyle
		newFrom, newTarget string
		want               string
	}{
		{"src/app/main.ts", "../lib/date", "src/lib/date.ts", styleNoExt, "src/app/main.ts", "src/time/date.ts", "../time/date"},
		{"src/app/main.ts", "../lib/pad.js", "src/lib/pad.ts", styleJSExt, "src/app/main.ts", "src/pad.ts", "../pad.js"},
		{"src/app/main.ts", "../ui", "src/ui/index.tsx", styleIndex, "src/main.ts", "src/view/index.tsx", "./view"},
		{"src/lib/date.ts", "./pad", "src/lib/pad.ts", styleNoExt, "src/time/date.ts", "src/lib/pad.ts", "../lib/pad"},
		{"src/lib/date.ts", "./pad.ts", "src/lib/pad.ts", styleExact, "date.ts", "src/lib/pad.ts", "./src/lib/pad.ts"},
	} {
		target, style, ok := resolveSpec(tc.from, tc.spec, exists)
		if !ok || target != tc.target || style != tc.style {
			t.Errorf("resolveSpec(%s, %s) = %s %v %v", tc.from, tc.spec, target, style, ok)
			continue
		}
		if got := specFor(tc.newFrom, tc.newTarget, style); got != tc.want {
			t.Errorf("specFor(%s, %s) = %s, want %s", tc.newFrom, tc.newTarget, got, tc.want)
		}
	}
}

func TestPythonModules(t *testing.T) {
	if got, ok := pyRelative("pkg/main.py", ".util.strings"); !ok || !cmp.Equal(got, []string{"pkg", "util", "strings"}) {
		t.Errorf("pyRelative = %v %v", got, ok)
	}
	if got, ok := pyRelative("pkg/sub/a.py", ".."); !ok || !cmp.Equal(got, []string{"pkg"}) {
		t.Errorf("pyRelative .. = %v %v", got, ok)
	}
	if _, ok := pyRelative("a.py", ".."); ok {
		t.Error("a relative import above the root resolved")
	}
	if got := pyRelativeSpec("pkg/main.py", []string{"pkg", "text", "case"}); got != ".text.case" {
		t.Errorf("pyRelativeSpec = %s", got)
	}
	if got := pyRelativeSpec("pkg/sub/a.py", []string{"pkg", "text"}); got != "..text" {
		t.Errorf("pyRelativeSpec up = %s", got)
	}
	// an absolute name keeps its root: src/ stays off the dotted name
	if got, ok := pyRename("src/pkg/util.py", "src/pkg/tools/util.py", []string{"pkg", "util"}); !ok || !cmp.Equal(got, []string{"pkg", "tools", "util"}) {
		t.Errorf("pyRename = %v %v", got, ok)
	}
	if _, ok := pyRename("src/pkg/util.py", "lib/util.py", []string{"pkg", "util"}); ok {
		t.Error("a module moved out of its root renamed")
	}
	// the end of a from-import: its line, its parentheses, its backslashes
	for _, c := range []struct{ src, want string }{
		{"from a import b, c\nx = 1\n", "from a import b, c"},
		{"from a import (\n    b,\n    c,\n)\nx = 1\n", "from a import (\n    b,\n    c,\n)"},
		{"from a import b, \\\n    c\nx = 1\n", "from a import b, \\\n    c"},
		{"from a import b", "from a import b"},
	} {
		if got := c.src[:pyStatementEnd([]byte(c.src), 5)]; got != c.want {
			t.Errorf("pyStatementEnd(%q) ends at %q, want %q", c.src, got, c.want)
		}
	}
}

func TestDeclarationEdit(t *testing.T) {
	src := []byte("package p\n\n// Old is old.\nfunc Old() {}\n\nfunc Keep() {}\n")
	e, ok := declarationEdit("p.go", src, protocol.Location{Line: 4, Col: 1, EndLine: 4, EndCol: 14})
	if !ok {
		t.Fatal("not found")
	}
	got, err := applyEdits("p.go", src, []Edit{e})
	if err != nil {
		t.Fatal(err)
	}
	if want := "package p\n\nfunc Keep() {}\n"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// sharing its line with other code, only the span goes
	src = []byte("var a, b = 1, 2 // x\n")
	e, _ = declarationEdit("p.go", src, protocol.Location{Line: 1, Col: 8, EndLine: 1, EndCol: 9})
	if e.Old != "b" || e.Line != 1 || e.Col != 8 {
		t.Errorf("inline edit = %+v", e)
	}
}

// tsc run in a copy names the files of the linked node_modules by their
// real paths: they are rewritten as a run in the tree names them, so that
// the tree's own errors there are not taken for the change's.
func TestFromCopy(t *testing.T) {
	root := t.TempDir()
	tmp := filepath.Join(t.TempDir(), "copy")
	rel, err := filepath.Rel(tmp, filepath.Join(root, "node_modules", "@types", "x", "index.d.ts"))
	if err != nil {
		t.Fatal(err)
	}
	ds := []Diagnostic{{Path: filepath.ToSlash(rel)}, {Path: "src/a.ts"}}
	fromCopy(ds, tmp, root)
	if d := cmp.Diff([]string{"node_modules/@types/x/index.d.ts", "src/a.ts"}, []string{ds[0].Path, ds[1].Path}); d != "" {
		t.Errorf("paths (-want +got):\n%s", d)
	}
}

// TestImplHeaderTrait reads the trait out of Rust impl headers, generics,
// arrows and line breaks included.
func TestImplHeaderTrait(t *testing.T) {
	for header, want := range map[string]string{
		"impl<T: Clone> fmt::Display for Foo<T> ": "fmt::Display",
		"unsafe impl Send for Foo":                "Send",
		"impl !Sync for Foo":                      "Sync",
		"impl Foo":                                "",
		"impl<T> Foo<T> where T: Clone ":          "",
		"impl<T> From<Vec<T>> for Bag<T>":         "From",
		"impl<F: Fn() -> u32> Tr for W<F>":        "Tr",
		"impl Tr<fn() -> u32> for X":              "Tr",
		"impl\n    Iterator\n    for Counter\n":   "Iterator",
		"impl<'a> Tr<'a> for &'a str":             "Tr",
		"implement for X":                         "",
		"trait Shape":                             "",
	} {
		if got := implHeaderTrait(header); got != want {
			t.Errorf("implHeaderTrait(%q) = %q, want %q", header, got, want)
		}
	}
}
