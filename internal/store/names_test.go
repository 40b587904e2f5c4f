package store

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Name postings find exactly the files whose references use a name: case,
// underscores, digits, '$' and non-ASCII bytes are kept apart (the
// tokenizer would fold or split them), and substrings or other names
// sharing the letters do not match.
func TestNameCandidates(t *testing.T) {
	ctx := context.Background()
	db, _ := openTemp(t)
	with := func(content string, names ...string) BlobRow {
		r := blobRow(content, "go", BlobParsed, []byte("facts"))
		r.Names = names
		return r
	}
	ids := insertBlobs(t, db, 1,
		with("a", "ReadFile", "get_x", "$scope", "naïve", "x0"),
		with("b", "readFile", "ReadFileAt", "get x", "Get_x"),
		with("c"),
	)
	commit(t, db, func(tx *Tx) error {
		for i, p := range []string{"z/a.go", "b.go", "c.go", "y/a2.go"} {
			if _, err := tx.PutFile(fileRow(p, p, "go", ids[[]int{0, 1, 2, 0}[i]], 0, 1)); err != nil {
				return err
			}
		}
		return nil
	})
	for name, want := range map[string][]string{
		"ReadFile":   {"y/a2.go", "z/a.go"},
		"readFile":   {"b.go"},
		"ReadFileAt": {"b.go"},
		"Read":       nil,
		"get_x":      {"y/a2.go", "z/a.go"},
		"Get_x":      {"b.go"},
		"get x":      {"b.go"},
		"getx":       nil,
		"$scope":     {"y/a2.go", "z/a.go"},
		"scope":      nil,
		"naïve":      {"y/a2.go", "z/a.go"},
		"naive":      nil,
		"x0":         {"y/a2.go", "z/a.go"},
		"x030":       nil,
		"":           nil,
	} {
		hits, err := db.NameCandidates(ctx, name)
		if err != nil {
			t.Fatal(name, err)
		}
		var got []string
		for _, h := range hits {
			got = append(got, h.Path)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("NameCandidates(%q) (-want +got):\n%s", name, diff)
		}
	}
}

// NameToken is one-to-one: distinct names never share a token.
func TestNameTokenDistinct(t *testing.T) {
	seen := map[string]string{}
	for _, n := range []string{"a", "A", "0", "030", "a0", "a_", "_a", "é", "\xc3", "x y", "x_y", "Z9", "z9"} {
		tok := NameToken(n)
		if other, ok := seen[tok]; ok {
			t.Errorf("%q and %q share the token %q", n, other, tok)
		}
		seen[tok] = n
	}
}
