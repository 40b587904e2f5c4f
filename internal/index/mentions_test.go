package index

import (
	"slices"
	"testing"

	"github.com/cairnhq/cairn/internal/lang"
)

// A blob's name postings hold the names its facts mention outside its
// references too: the words of import sources, names and aliases, of type
// relation targets and of qualifiers, so that a change to a symbol of that
// name relinks the file (relinkSet finds files by their postings only).
func TestMentionsCoverImportsTypeRelationsQualifiers(t *testing.T) {
	x := lang.NewExtractor()
	defer x.Close()
	for _, tc := range []struct {
		path, src string
		want      []string // mentioned, whether or not a reference uses them
	}{
		{"b.py", "from a.Config import thing\nimport x.Settings as S\n\nclass K(mod.Base):\n    pass\n",
			[]string{"Config", "thing", "Settings", "S", "mod", "Base"}},
		{"src/b.rs", "use crate::config::Config as Cfg;\nuse a::b::{C, D as E};\n\npub fn take(_c: Cfg, _e: E) {}\n",
			[]string{"config", "Config", "Cfg", "C", "D", "E"}},
		{"B.cs", "using A.Config;\nusing X = B.Y;\n\nclass K : N.Base, M.IFace {}\n",
			[]string{"Config", "X", "Y", "Base", "IFace"}},
		{"b.go", "package b\n\nimport cfg \"example.com/m/Config\"\n\ntype S struct {\n\tpkg.Embedded\n}\n\nvar _ = cfg.Outer.Inner\n",
			[]string{"Config", "cfg", "Embedded", "Outer", "Inner"}},
	} {
		l := lang.ForPath(tc.path)
		if l == nil {
			t.Fatalf("%s: no language", tc.path)
		}
		facts, err := x.Extract(l, []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		got := mentions(facts)
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%s: %q is not among the mentions %q", tc.path, w, got)
			}
		}
	}
}
