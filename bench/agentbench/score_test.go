package agentbench

import (
	"reflect"
	"strings"
	"testing"
)

func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		name          string
		truth, answer []string
		correct       bool
		missing       []string
		extra         []string
	}{
		{"exact", []string{"a.go:1", "b.go:2"}, []string{"b.go:2", "a.go:1"}, true, nil, nil},
		{"duplicates do not count twice", []string{"a.go:1"}, []string{"a.go:1", "a.go:1"}, true, nil, nil},
		{"missing", []string{"a.go:1", "b.go:2"}, []string{"a.go:1"}, false, []string{"b.go:2"}, nil},
		{"extra", []string{"a.go:1"}, []string{"a.go:1", "c.go:3"}, false, nil, []string{"c.go:3"}},
		{"same file other line", []string{"a.go:1"}, []string{"a.go:2"}, false, []string{"a.go:1"}, []string{"a.go:2"}},
		{"empty answer", []string{"a.go:1"}, nil, false, []string{"a.go:1"}, nil},
		{"empty truth is never correct", nil, nil, false, nil, nil},
	} {
		v := Compare(tc.truth, tc.answer)
		if v.Correct != tc.correct || !reflect.DeepEqual(v.Missing, tc.missing) || !reflect.DeepEqual(v.Extra, tc.extra) {
			t.Errorf("%s: got %+v", tc.name, v)
		}
	}
}

func TestInScope(t *testing.T) {
	for _, tc := range []struct {
		repo, path string
		want       bool
	}{
		{"gin", "render/json.go", true},
		{"kubernetes", "pkg/kubelet/kubelet.go", true},
		{"kubernetes", "staging/src/k8s.io/api/core/v1/types.go", false},
		{"rxjs", "src/internal/Observable.ts", true},
		{"rxjs", "dist/types/index.d.ts", false},
		{"django", "django/db/models/base.py", true},
	} {
		if got := InScope(tc.repo, tc.path); got != tc.want {
			t.Errorf("InScope(%s, %s) = %v", tc.repo, tc.path, got)
		}
	}
}

func TestExtract(t *testing.T) {
	callers := `{"answer":"x","data":{"nodes":[
	  {"depth":0,"symbol_id":"s0","location":{"path":"gin.go","line":583,"col":23}},
	  {"depth":1,"symbol_id":"s1","location":{"path":"gin.go","line":10,"col":6}},
	  {"depth":2,"symbol_id":"s2","location":{"path":"x.go","line":5,"col":6}}],
	  "dynamic":[{"from":"s3","through":{"location":{"path":"i.go","line":3}}}]}}`
	got, status, err := Extract(KindCallers, "gin", "", []byte(callers))
	if err != nil || status != "ok" || !reflect.DeepEqual(got, []string{"gin.go:10"}) {
		t.Errorf("callers: %v %s %v", got, status, err)
	}
	// a dynamic caller whose node is listed counts
	dyn := strings.Replace(callers, `"depth":2,"symbol_id":"s2"`, `"depth":2,"symbol_id":"s3"`, 1)
	got, _, _ = Extract(KindCallers, "gin", "", []byte(dyn))
	if !reflect.DeepEqual(got, []string{"gin.go:10", "x.go:5"}) {
		t.Errorf("dynamic callers: %v", got)
	}
	got, _, _ = Extract(KindCallees, "gin", "", []byte(callers))
	if !reflect.DeepEqual(got, []string{"gin.go:10", "i.go:3"}) {
		t.Errorf("callees: %v", got)
	}

	refs := `{"data":{"locations":[{"path":"src/a.ts","line":3},{"path":"src/a.ts","line":3},{"path":"dist/a.d.ts","line":1}]}}`
	got, _, _ = Extract(KindReferences, "rxjs", "", []byte(refs))
	if !reflect.DeepEqual(got, []string{"src/a.ts:3"}) {
		t.Errorf("refs: out-of-scope and duplicate locations must go: %v", got)
	}

	ambiguous := `{"error":{"code":"AMBIGUOUS_SYMBOL","message":"m","candidates":[
	  {"location":{"path":"a_linux.go","line":4}},{"location":{"path":"a_windows.go","line":7}}]}}`
	got, status, _ = Extract(KindBuildVariant, "kubernetes", "", []byte(ambiguous))
	if status != "error AMBIGUOUS_SYMBOL" || !reflect.DeepEqual(got, []string{"a_linux.go:4", "a_windows.go:7"}) {
		t.Errorf("variants from candidates: %v %s", got, status)
	}
	got, _, _ = Extract(KindReferences, "kubernetes", "", []byte(ambiguous))
	if len(got) != 0 {
		t.Errorf("an error answers no references: %v", got)
	}

	hier := `{"data":{"implementations":[{"symbol":{"kind":"struct","location":{"path":"a.go","line":1}}}],
	  "subtypes":[{"depth":1,"symbol":{"location":{"path":"b.go","line":2}}},{"depth":2,"symbol":{"location":{"path":"c.go","line":3}}}]}}`
	got, _, _ = Extract(KindImpls, "gin", "", []byte(hier))
	if !reflect.DeepEqual(got, []string{"a.go:1", "b.go:2"}) {
		t.Errorf("implementations: %v", got)
	}

	impact := `{"data":{"direct":{"modules":[{"packages":[
	  {"dir":"render","sample":["render/json.go","render/html.go"]},
	  {"dir":"","sample":["gin.go"]}]}]}}}`
	got, _, _ = Extract(KindImporters, "gin", "render", []byte(impact))
	if !reflect.DeepEqual(got, []string{"gin.go", "render/html.go", "render/json.go"}) {
		t.Errorf("importers: %v", got)
	}
	got, _, _ = Extract(KindDependents, "gin", "render", []byte(impact))
	if !reflect.DeepEqual(got, []string{"."}) {
		t.Errorf("dependents leave the package itself out: %v", got)
	}

	if _, _, err := Extract(KindReferences, "gin", "", []byte("not json")); err == nil {
		t.Error("no envelope must be an error")
	}
}

func TestBaselineParts(t *testing.T) {
	hits := ParseGrep("./a/b.go:12:\tfoo()\nc.go:3:x:y\nnot a hit\n")
	if !reflect.DeepEqual(hits, []GrepHit{{"a/b.go", 12}, {"c.go", 3}}) {
		t.Errorf("ParseGrep: %v", hits)
	}
	lines := make([]string, 100)
	for i := range lines {
		lines[i] = "l"
	}
	if n := strings.Count(Window(lines, 50), "\n"); n != 41 {
		t.Errorf("a window in the middle of a file is 41 lines, got %d", n)
	}
	if n := strings.Count(Window(lines, 3), "\n"); n != 23 {
		t.Errorf("a window at the top is cut at line 1: got %d lines", n)
	}
	if Tokens(0) != 0 || Tokens(1) != 1 || Tokens(8) != 2 || Tokens(9) != 3 {
		t.Error("Tokens is characters / 4 rounded up")
	}
}
