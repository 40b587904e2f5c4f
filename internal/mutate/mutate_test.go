package mutate

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/testenv/testtree"
)

// newEngine makes an engine over a temporary tree holding files.
func newEngine(t *testing.T, files map[string]string) *Engine {
	t.Helper()
	root := t.TempDir()
	testtree.Write(t, root, files)
	root, _ = filepath.EvalSymlinks(root)
	return New(Options{Paths: config.Paths{Root: root, StateDir: t.TempDir()}})
}

func str(s string) *string { return &s }

func read(t *testing.T, e *Engine, p string) string {
	t.Helper()
	data, err := os.ReadFile(e.abs(p))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func mustWrite(t *testing.T, e *Engine, edits ...FileEdit) *Result {
	t.Helper()
	res, err := e.Write(context.Background(), Request{Edits: edits})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func wantKind(t *testing.T, err error, kind errs.Kind) *errs.Error {
	t.Helper()
	if !errs.Is(err, kind) {
		t.Fatalf("error %v, want kind %s", err, kind.Code())
	}
	return errs.As(err)
}

const ten = "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n"

func TestSpanAtStatedLines(t *testing.T) {
	e := newEngine(t, map[string]string{"a.txt": ten})
	res := mustWrite(t, e, FileEdit{Path: "a.txt", Action: Update, Spans: []Span{
		{StartLine: 2, Expected: str("l2\nl3"), NewText: "two\nthree\nthree and a half"},
		{StartLine: 9, EndLine: 9, Expected: str("l9"), NewText: ""},
	}})
	if got, want := read(t, e, "a.txt"), "l1\ntwo\nthree\nthree and a half\nl4\nl5\nl6\nl7\nl8\nl10\n"; got != want {
		t.Errorf("content %q, want %q", got, want)
	}
	d := res.Files[0]
	want := []Hunk{{OldStart: 2, OldLines: 2, NewStart: 2, NewLines: 3}, {OldStart: 9, OldLines: 1, NewStart: 9, NewLines: 0}}
	if diff := cmp.Diff(want, d.Hunks); diff != "" {
		t.Errorf("hunks (-want +got):\n%s", diff)
	}
	if d.LinesAdded != 3 || d.LinesRemoved != 3 || d.Action != "updated" || len(d.Corrections) != 0 {
		t.Errorf("delta %+v", d)
	}
}

func TestSpanDrift(t *testing.T) {
	e := newEngine(t, map[string]string{"a.txt": "new1\nnew2\n" + ten})
	res := mustWrite(t, e, FileEdit{Path: "a.txt", Action: Update, Spans: []Span{{StartLine: 4, Expected: str("l4\nl5\n"), NewText: "X\n"}}})
	if got, want := read(t, e, "a.txt"), "new1\nnew2\nl1\nl2\nl3\nX\nl6\nl7\nl8\nl9\nl10\n"; got != want {
		t.Errorf("content %q, want %q", got, want)
	}
	want := []Correction{{Edit: "edits[0].spans[0]", StatedStart: 4, FoundStart: 6, Lines: 2}}
	if diff := cmp.Diff(want, res.Files[0].Corrections); diff != "" {
		t.Errorf("corrections (-want +got):\n%s", diff)
	}
}

func TestSpanAnchorFails(t *testing.T) {
	e := newEngine(t, map[string]string{"a.txt": "x\ndup\ny\ndup\nz\n"})
	_, err := e.Write(context.Background(), Request{Edits: []FileEdit{{Path: "a.txt", Action: Update,
		Spans: []Span{{StartLine: 3, Expected: str("dup"), NewText: "D"}}}}})
	ee := wantKind(t, err, errs.Precondition)
	if ee.Details["edit"] != "edits[0].spans[0]" || !strings.Contains(ee.Msg, "ambiguous") {
		t.Errorf("ambiguous anchor: %v %v", ee.Msg, ee.Details)
	}
	if diff := cmp.Diff([]int{2, 4}, ee.Details["candidates"]); diff != "" {
		t.Errorf("candidates: %s", diff)
	}
	_, err = e.Write(context.Background(), Request{Edits: []FileEdit{{Path: "a.txt", Action: Update,
		Spans: []Span{{StartLine: 1, Expected: str("x")}, {StartLine: 2, Expected: str("gone"), NewText: "G"}}}}})
	ee = wantKind(t, err, errs.Precondition)
	if ee.Details["edit"] != "edits[0].spans[1]" || !strings.Contains(ee.Msg, "not at lines 2-2") {
		t.Errorf("missing anchor: %v %v", ee.Msg, ee.Details)
	}
	if got := read(t, e, "a.txt"); got != "x\ndup\ny\ndup\nz\n" {
		t.Errorf("a failed batch changed the file: %q", got)
	}
}

func TestSpanOverlapAndInsert(t *testing.T) {
	e := newEngine(t, map[string]string{"a.txt": "a\nb\nc\n"})
	_, err := e.Write(context.Background(), Request{Edits: []FileEdit{{Path: "a.txt", Action: Update,
		Spans: []Span{{StartLine: 1, Expected: str("a\nb"), NewText: ""}, {StartLine: 2, Expected: str("b"), NewText: ""}}}}})
	wantKind(t, err, errs.InvalidArgument)
	_, err = e.Write(context.Background(), Request{Edits: []FileEdit{{Path: "a.txt", Action: Update,
		Spans: []Span{{StartLine: 4, Insert: true, NewText: "d"}}}}})
	wantKind(t, err, errs.InvalidArgument) // an insert needs the file's hash
	mustWrite(t, e, FileEdit{Path: "a.txt", Action: Update, ExpectedSHA256: SHA([]byte("a\nb\nc\n")),
		Spans: []Span{{StartLine: 4, Insert: true, NewText: "d\n"}, {StartLine: 1, Insert: true, NewText: "top"}}})
	if got := read(t, e, "a.txt"); got != "top\na\nb\nc\nd\n" {
		t.Errorf("content %q", got)
	}
}

// Line endings, the byte order mark, a missing final newline and the mode
// survive an edit; the new text takes the file's line ending.
func TestConventionsKept(t *testing.T) {
	e := newEngine(t, map[string]string{"w.txt": "\uFEFFone\r\ntwo\r\nthree"})
	os.Chmod(e.abs("w.txt"), 0o755)
	res := mustWrite(t, e, FileEdit{Path: "w.txt", Action: Update, Spans: []Span{
		{StartLine: 2, Expected: str("two\n"), NewText: "2\n2b\n"},
		{StartLine: 3, Expected: str("three"), NewText: "3"},
	}})
	if got, want := read(t, e, "w.txt"), "\uFEFFone\r\n2\r\n2b\r\n3"; got != want {
		t.Errorf("content %q, want %q", got, want)
	}
	if st, _ := os.Stat(e.abs("w.txt")); st.Mode().Perm() != 0o755 {
		t.Errorf("mode %v", st.Mode())
	}
	if res.Files[0].LineEnding != "crlf" {
		t.Errorf("line ending %q", res.Files[0].LineEnding)
	}
	// Whole content: LF text becomes CRLF, the BOM stays.
	mustWrite(t, e, FileEdit{Path: "w.txt", Action: Update, Content: str("a\nb\n")})
	if got, want := read(t, e, "w.txt"), "\uFEFFa\r\nb\r\n"; got != want {
		t.Errorf("content %q, want %q", got, want)
	}
	// Appending after a last line without a newline gives it one.
	e2 := newEngine(t, map[string]string{"n.txt": "a\nb"})
	mustWrite(t, e2, FileEdit{Path: "n.txt", Action: Update, ExpectedSHA256: SHA([]byte("a\nb")),
		Spans: []Span{{StartLine: 3, Insert: true, NewText: "c"}}})
	if got := read(t, e2, "n.txt"); got != "a\nb\nc" {
		t.Errorf("content %q", got)
	}
}

func TestCreateDeleteAndConflict(t *testing.T) {
	e := newEngine(t, map[string]string{"old.txt": "bye\n", "keep.txt": "k\n"})
	res := mustWrite(t, e,
		FileEdit{Path: "dir/sub/new.txt", Action: Create, Content: str("hello\n")},
		FileEdit{Path: "old.txt", Action: Delete, ExpectedSHA256: SHA([]byte("bye\n"))})
	if read(t, e, "dir/sub/new.txt") != "hello\n" {
		t.Error("not created")
	}
	if _, err := os.Stat(e.abs("old.txt")); !os.IsNotExist(err) {
		t.Error("not deleted")
	}
	var actions []string
	for _, f := range res.Files {
		actions = append(actions, f.Path+" "+f.Action)
	}
	if diff := cmp.Diff([]string{"dir/sub/new.txt created", "old.txt deleted"}, actions); diff != "" {
		t.Errorf("files: %s", diff)
	}
	_, err := e.Write(context.Background(), Request{Edits: []FileEdit{{Path: "keep.txt", Action: Update, Content: str("x"),
		ExpectedSHA256: SHA([]byte("other"))}}})
	ee := wantKind(t, err, errs.Conflict)
	if ee.Details["current_sha256"] != SHA([]byte("k\n")) {
		t.Errorf("details %v", ee.Details)
	}
	_, err = e.Write(context.Background(), Request{Edits: []FileEdit{{Path: "keep.txt", Action: Create, Content: str("x")}}})
	wantKind(t, err, errs.Precondition)
	// Nothing is left behind: no temporary files, no journal.
	assertClean(t, e)
}

func TestPolicy(t *testing.T) {
	e := newEngine(t, map[string]string{"a.txt": "a\n", ".cairnignore": "secret/\n*.log\n"})
	outside := t.TempDir()
	os.Symlink(outside, e.abs("out"))
	os.Mkdir(e.abs(".git"), 0o755)
	for _, tc := range []struct {
		path string
		kind errs.Kind
	}{
		{"../x.txt", errs.OutsideRepo},
		{"/etc/passwd", errs.OutsideRepo},
		{"out/x.txt", errs.OutsideRepo},
		{".git/config", errs.Refused},
		{"sub/.git/HEAD", errs.Refused},
		{".env", errs.Refused},
		{"keys/id_rsa", errs.Refused},
		{"x.log", errs.Refused},
		{".cairn-b1-0.new.tmp", errs.Refused},
	} {
		_, err := e.Write(context.Background(), Request{Edits: []FileEdit{{Path: tc.path, Action: Create, Content: str("x")}}})
		wantKind(t, err, tc.kind)
	}
}

// Writers racing for one file with the hash they read: exactly one wins,
// the others get CONFLICT with the winner's hash.
func TestConcurrentWriters(t *testing.T) {
	e := newEngine(t, map[string]string{"a.txt": "base\n"})
	base := SHA([]byte("base\n"))
	const n = 8
	errc := make(chan error, n)
	start := make(chan struct{})
	for i := range n {
		go func() {
			<-start
			_, err := e.Write(context.Background(), Request{Edits: []FileEdit{{Path: "a.txt", Action: Update,
				Content: str(strings.Repeat("w", i+1) + "\n"), ExpectedSHA256: base}}})
			errc <- err
		}()
	}
	close(start)
	wins := 0
	for range n {
		err := <-errc
		if err == nil {
			wins++
			continue
		}
		// A loser saw the winner's hash, or (on a machine so slow that the
		// winner held the file past lockWait) the file still locked.
		ee := wantKind(t, err, errs.Conflict)
		if cur := ee.Details["current_sha256"]; cur == base && ee.Details["reason"] != "locked" {
			t.Errorf("a loser saw the old hash: %v", ee.Details)
		}
	}
	if wins != 1 {
		t.Fatalf("%d writers won, want 1", wins)
	}
}

// A writer without expected_sha256 that finds the file locked fails at once.
func TestLockedFile(t *testing.T) {
	e := newEngine(t, map[string]string{"a.txt": "a\n"})
	l, err := e.lockFiles([]lockReq{{path: "a.txt"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Write(context.Background(), Request{Edits: []FileEdit{{Path: "a.txt", Action: Update, Content: str("b\n")}}})
	ee := wantKind(t, err, errs.Conflict)
	if ee.Details["reason"] != "locked" || ee.Details["pid"] != os.Getpid() {
		t.Errorf("details %v", ee.Details)
	}
	l.release()
	mustWrite(t, e, FileEdit{Path: "a.txt", Action: Update, Content: str("b\n")})
}

func TestUndo(t *testing.T) {
	e := newEngine(t, map[string]string{"a.txt": "a1\n", "b.txt": "b1\n"})
	mustWrite(t, e, FileEdit{Path: "a.txt", Action: Update, Content: str("a2\n")}, FileEdit{Path: "c.txt", Action: Create, Content: str("c\n")})
	mustWrite(t, e, FileEdit{Path: "a.txt", Action: Update, Content: str("a3\n")}, FileEdit{Path: "b.txt", Action: Delete})
	mustWrite(t, e, FileEdit{Path: "c.txt", Action: Update, Content: str("c2\n")})
	// Undo the newest two as one batch.
	res, err := e.Undo(context.Background(), 2, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Undone) != 2 || !res.Applied {
		t.Errorf("result %+v", res)
	}
	if read(t, e, "a.txt") != "a2\n" || read(t, e, "b.txt") != "b1\n" || read(t, e, "c.txt") != "c\n" {
		t.Errorf("after undo: %q %q %q", read(t, e, "a.txt"), read(t, e, "b.txt"), read(t, e, "c.txt"))
	}
	// The first batch is next; a file changed since refuses it.
	os.WriteFile(e.abs("c.txt"), []byte("by hand\n"), 0o644)
	_, err = e.Undo(context.Background(), 1, false)
	ee := wantKind(t, err, errs.Precondition)
	if !strings.Contains(ee.Msg, "c.txt") || strings.Contains(ee.Msg, "a.txt") {
		t.Errorf("message %q", ee.Msg)
	}
	os.WriteFile(e.abs("c.txt"), []byte("c\n"), 0o644)
	if _, err := e.Undo(context.Background(), 1, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(e.abs("c.txt")); !os.IsNotExist(err) || read(t, e, "a.txt") != "a1\n" {
		t.Error("first batch not undone")
	}
	_, err = e.Undo(context.Background(), 1, false)
	wantKind(t, err, errs.NotFound)
	assertClean(t, e)
}

func TestUndoRetention(t *testing.T) {
	e := newEngine(t, map[string]string{"a.txt": "0\n"})
	e.opts.KeepBatches = 3
	for i := 1; i <= 5; i++ {
		mustWrite(t, e, FileEdit{Path: "a.txt", Action: Update, Content: str(strings.Repeat("x", i) + "\n")})
	}
	entries, _ := e.entries()
	if len(entries) != 3 {
		t.Fatalf("%d entries kept, want 3", len(entries))
	}
	blobs, _ := os.ReadDir(e.blobDir())
	if len(blobs) != 3 {
		t.Errorf("%d old contents kept, want 3", len(blobs))
	}
	if _, err := e.Undo(context.Background(), 4, false); !errs.Is(err, errs.NotFound) {
		t.Errorf("undo past the record: %v", err)
	}
}

// errCrash stops a batch at a crash point, in process.
type errCrash struct{}

// TestRecoverEveryPoint stops a multi-file batch at every crash point in
// turn (and recovery at every point of its own), then recovers: each time
// the files are all old or all new.
func TestRecoverEveryPoint(t *testing.T) {
	old := map[string]string{"a.txt": "a old\n", "d/b.txt": "b old\n", "gone.txt": "gone\n"}
	edits := []FileEdit{
		{Path: "a.txt", Action: Update, Content: str("a new\n")},
		{Path: "d/b.txt", Action: Update, Spans: []Span{{StartLine: 1, Expected: str("b old"), NewText: "b new"}}},
		{Path: "gone.txt", Action: Delete},
		{Path: "n/e/w.txt", Action: Create, Content: str("w\n")},
	}
	want := map[string]string{"a.txt": "a new\n", "d/b.txt": "b new\n", "n/e/w.txt": "w\n"}
	defer func() { crashHook = nil }()
	stopAt := func(k int) func() {
		n := 0
		return func() {
			if n++; n == k {
				panic(errCrash{})
			}
		}
	}
	run := func(f func()) (stopped bool) {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(errCrash); !ok {
					panic(r)
				}
				stopped = true
			}
		}()
		f()
		return false
	}
	outcomes := map[string]int{}
	for k := 1; ; k++ {
		e := newEngine(t, old)
		crashHook = stopAt(k)
		stopped := run(func() { e.Write(context.Background(), Request{Edits: edits}) })
		if !stopped {
			crashHook = nil
			break
		}
		// Recovery itself interrupted once, at a point that grows with k.
		for r := 1; ; r++ {
			crashHook = stopAt(r + k%3)
			if !run(func() { e.Recover(context.Background()) }) {
				break
			}
		}
		crashHook = nil
		if w, err := e.Recover(context.Background()); err != nil {
			t.Fatalf("point %d: recover: %v %v", k, err, w)
		}
		got := testtree.Read(t, e.opts.Paths.Root)
		switch {
		case cmp.Equal(got, old):
			outcomes["old"]++
		case cmp.Equal(got, want):
			outcomes["new"]++
			if entries, _ := e.entries(); len(entries) != 1 {
				t.Errorf("point %d: applied batch recorded %d times", k, len(entries))
			}
		default:
			t.Fatalf("point %d: mixed state %v", k, got)
		}
		assertClean(t, e)
	}
	if outcomes["old"] == 0 || outcomes["new"] == 0 {
		t.Errorf("outcomes %v: both should occur", outcomes)
	}
	t.Logf("outcomes over every crash point: %v", outcomes)
}

// assertClean checks that no temporary file, empty created directory or
// journal is left.
func assertClean(t *testing.T, e *Engine) {
	t.Helper()
	var left []string
	filepath.Walk(e.opts.Paths.Root, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if isTemp(info.Name()) {
			left = append(left, p)
		}
		if info.IsDir() && p != e.opts.Paths.Root {
			if des, _ := os.ReadDir(p); len(des) == 0 {
				left = append(left, p+"/")
			}
		}
		return nil
	})
	des, _ := os.ReadDir(e.journalDir())
	for _, de := range des {
		left = append(left, de.Name())
	}
	sort.Strings(left)
	if len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

// Writing is handed, as the write starts, the new content of every file the
// batch creates or updates (as written, line endings adapted), and nothing
// for a file it deletes or for a dry run; its end is called once the write
// is done.
func TestWritingSeesNewContents(t *testing.T) {
	e := newEngine(t, map[string]string{"a.txt": "one\r\ntwo\r\n", "gone.txt": "bye\n"})
	var got []map[string][]byte
	ended := 0
	e.opts.Writing = func(files map[string][]byte) func() {
		got = append(got, files)
		return func() { ended++ }
	}
	if _, err := e.Write(context.Background(), Request{DryRun: true, Edits: []FileEdit{{Path: "a.txt", Action: Update, Content: str("x\n")}}}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Fatalf("a dry run handed %d batches to Writing", len(got))
	}
	mustWrite(t, e,
		FileEdit{Path: "a.txt", Action: Update, Content: str("one\nthree\n")},
		FileEdit{Path: "n/new.go", Action: Create, Content: str("package n\n")},
		FileEdit{Path: "gone.txt", Action: Delete})
	if len(got) != 1 || ended != 1 {
		t.Fatalf("Writing called %d times and its end %d times, want once each", len(got), ended)
	}
	want := map[string]string{"a.txt": "one\r\nthree\r\n", "n/new.go": "package n\n"}
	seen := map[string]string{}
	for p, c := range got[0] {
		seen[p] = string(c)
	}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("contents handed to Writing (-want +got):\n%s", diff)
	}
	for p, c := range want {
		if read(t, e, p) != c {
			t.Errorf("%s holds %q, not what Writing was told", p, read(t, e, p))
		}
	}
}
