package langutil_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

func TestDocLinks(t *testing.T) {
	jsdoc := langutil.DocSyntax{Inline: []string{"@link", "@linkcode"}, TypeTags: []string{"@throws", "@param"}, MemberSep: '.'}
	javadoc := langutil.DocSyntax{Inline: []string{"@link"}, NameTags: []string{"@see", "@throws"}, MemberSep: '#', OwnMember: true}
	for _, c := range []struct {
		syntax langutil.DocSyntax
		text   string
		want   []langutil.DocLink
	}{
		{jsdoc, "/** {@link Task} and {@linkcode Task.run | it} */", []langutil.DocLink{
			{Head: "Task", HeadAt: 11, Params: -1}, {Head: "Task", Member: "run", HeadAt: 32, MemberAt: 37, Params: -1}}},
		{jsdoc, "/** @throws {TaskError} when\n * @param {Helper} h */", []langutil.DocLink{
			{Head: "TaskError", HeadAt: 13, Params: -1}, {Head: "Helper", HeadAt: 40, Params: -1}}},
		// prose: a URL, a longer path, a generic type, a tag the syntax does
		// not read; a link left open still names its first word
		{jsdoc, "/** {@link https://x.io/T} {@link A.b.c} @param {Array<T>} x {@link B @returns {C} */", []langutil.DocLink{
			{Head: "B", HeadAt: 68, Params: -1}}},
		{javadoc, "/** Calls {@link Pool#close()} then {@link #open}.\n * @see Pool\n * @throws IOException if */", []langutil.DocLink{
			{Head: "Pool", Member: "close", HeadAt: 17, MemberAt: 22, Params: 0}, {Head: "", Member: "open", HeadAt: 43, MemberAt: 44, Params: -1},
			{Head: "Pool", HeadAt: 59, Params: -1}, {Head: "IOException", HeadAt: 75, Params: -1}}},
		{javadoc, "/** {@link #put(K, V) put} and {@link Map#get(Object)} */", []langutil.DocLink{
			{Head: "", Member: "put", HeadAt: 11, MemberAt: 12, Params: 2, Types: []langutil.DocName{{Name: "K", At: 16}, {Name: "V", At: 19}}},
			{Head: "Map", Member: "get", HeadAt: 38, MemberAt: 42, Params: 1, Types: []langutil.DocName{{Name: "Object", At: 46}}}}},
		{javadoc, "/** {@link #sort(T[], Comparator<T>)} {@link #of(E...)} */", []langutil.DocLink{
			{Head: "", Member: "sort", HeadAt: 11, MemberAt: 12, Params: 2, Types: []langutil.DocName{{Name: "T", At: 17}}},
			{Head: "", Member: "of", HeadAt: 45, MemberAt: 46, Params: 1, Types: []langutil.DocName{{Name: "E", At: 49}}}}},
		{javadoc, "/** {@link java.util.List} {@link #} @see <a href=\"x\">x</a> */", nil},
	} {
		if got := c.syntax.DocLinks(c.text); !cmp.Equal(got, c.want) {
			t.Errorf("DocLinks(%q):\n%s", c.text, cmp.Diff(c.want, got))
		}
	}
}

// AddRefs keeps references in position order and every Via on the
// reference it named.
func TestAddRefs(t *testing.T) {
	at := func(line uint32) lang.Pos { return lang.Pos{Line: line, Col: 1} }
	f := &lang.Facts{
		Names:     []string{"f", "m", "doc"},
		Refs:      []lang.Ref{{Name: 0, Pos: at(2)}, {Name: 1, Pos: at(4), Via: 1}},
		Locals:    []lang.Local{{Pos: at(3), Via: 2}, {Pos: at(5)}},
		Anonymous: []lang.Anonymous{{Base: 1}},
	}
	langutil.AddRefs(f, []lang.Ref{{Name: 2, Pos: at(5)}, {Name: 2, Pos: at(1)}, {Name: 2, Pos: at(3)}})
	var lines []uint32
	for _, r := range f.Refs {
		lines = append(lines, r.Pos.Line)
	}
	if want := []uint32{1, 2, 3, 4, 5}; !cmp.Equal(lines, want) {
		t.Fatalf("lines %v, want %v", lines, want)
	}
	if via := f.Refs[3].Via; f.Names[f.Refs[via-1].Name] != "f" {
		t.Errorf("m's Via names %s, want f", f.Names[f.Refs[via-1].Name])
	}
	if via := f.Locals[0].Via; f.Names[f.Refs[via-1].Name] != "m" {
		t.Errorf("the local's Via names %s, want m", f.Names[f.Refs[via-1].Name])
	}
	if b := f.Anonymous[0].Base; f.Names[f.Refs[b].Name] != "m" {
		t.Errorf("the anonymous class's Base names %s, want m", f.Names[f.Refs[b].Name])
	}
	if f.Locals[1].Via != 0 {
		t.Errorf("a local without Via got %d", f.Locals[1].Via)
	}
}
