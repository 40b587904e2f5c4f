package semantic

import (
	"reflect"
	"testing"
)

func TestPackRoundTrip(t *testing.T) {
	occs := []Occ{
		{Sym: 7, Doc: 2, Line: 10, Col: 5, EndLine: 10, EndCol: 9, Roles: RoleDefinition},
		{Sym: -3, Doc: 0, Line: 1, Col: 1, EndLine: 2, EndCol: 4, Roles: 0},
		{Sym: 7, Doc: 2, Line: 3, Col: 2, EndLine: 3, EndCol: 6, Roles: RoleRead},
		{Sym: 9, Doc: 5, Line: 1, Col: 3, EndLine: 1, EndCol: 4, Roles: RoleWrite | RoleTest},
	}
	doc := append([]Occ(nil), occs...)
	got, err := DecodeDocOccs(EncodeDocOccs(doc))
	if err != nil {
		t.Fatal(err)
	}
	for i := range doc {
		doc[i].Doc = 0 // not stored per document
	}
	if !reflect.DeepEqual(got, doc) {
		t.Errorf("document occurrences:\n got %+v\nwant %+v", got, doc)
	}
	sym := append([]Occ(nil), occs...)
	enc := EncodeSymbolOccs(sym)
	back, err := DecodeSymbolOccs(enc, 42)
	if err != nil {
		t.Fatal(err)
	}
	for i := range sym {
		sym[i].Sym = 42
	}
	if !reflect.DeepEqual(back, sym) {
		t.Errorf("symbol occurrences:\n got %+v\nwant %+v", back, sym)
	}
	if _, err := DecodeSymbolOccs(enc[:len(enc)-2], 1); err == nil {
		t.Error("a truncated encoding decoded")
	}
}

func TestSymbolNames(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"scip-go gomod k8s.io/client-go . `k8s.io/client-go/rest`/Config#", true},
		{"scip-typescript npm rxjs 7.8.1 src/internal/operators/`map.ts`/map().", true},
		{"local 12", false},
		{"k8s.io/client-go/rest.Config", false},
		{"rest.Config Host", false},
	} {
		if got := LooksLikeSymbol(c.in); got != c.want {
			t.Errorf("LooksLikeSymbol(%q) = %v", c.in, got)
		}
	}
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"scip-go gomod k8s.io/client-go . `k8s.io/client-go/rest`/Config#Host.",
			[]string{"k8s.io/client-go/rest.Config.Host", "k8s.io/client-go/rest#Config.Host", "Config.Host"}},
		{"scip-typescript npm rxjs 7.8.1 src/internal/operators/`map.ts`/map().",
			[]string{"src/internal/operators/map.ts.map", "src/internal/operators/map.ts#map", "src.internal.operators.map.ts.map", "map"}},
		{"scip-python python django 3.2 `django.db.models.base`/Model#save().",
			[]string{"django.db.models.base.Model.save", "django.db.models.base#Model.save", "Model.save"}},
		{"scip-go gomod m v `m/a`/F().(x)", nil},
	} {
		if got := NameGuesses(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("NameGuesses(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestByteOffset(t *testing.T) {
	li := newLineIndex([]byte("héllo 😀 x\nabc"), 2, "scip-typescript") // UTF-16
	// "x" is at UTF-16 unit 9 (é is 1 unit, 😀 is 2) and byte 12 (é is 2 bytes, 😀 is 4).
	if line, col, ok := li.pos(0, 9); !ok || line != 1 || col != 13 {
		t.Errorf("pos = %d:%d %v, want 1:13", line, col, ok)
	}
	if _, _, ok := li.pos(1, 9); ok {
		t.Error("a column past the end of the line converted")
	}
}
