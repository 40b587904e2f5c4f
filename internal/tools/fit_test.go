package tools

import (
	"reflect"
	"strings"
	"testing"

	"github.com/cairnhq/cairn/internal/protocol"
)

type fitInner struct {
	Items []string `json:"items"`
	Note  string   `json:"note"`
}

type FitEmbedded struct {
	Tags []string `json:"tags"`
}

type fitPayload struct {
	FitEmbedded
	Levels []fitInner           `json:"levels"`
	ByName map[string][]string  `json:"by_name"`
	Ptr    *fitInner            `json:"ptr,omitempty"`
	Hidden []string             `json:"-"`
	Short  string               `json:"short"`
	Pairs  map[string]*fitInner `json:"pairs"`
}

// Every list of two or more items and every long string is a cut, named by
// its JSON path, and its path reaches the very value it names.
func TestCollectCutsNamesAndPaths(t *testing.T) {
	long := strings.Repeat("x", minCutString)
	data := &fitPayload{
		FitEmbedded: FitEmbedded{Tags: []string{"a", "b"}},
		Levels:      []fitInner{{Items: []string{"1"}}, {Items: []string{"1", "2"}, Note: long}},
		ByName:      map[string][]string{"k": {"x", "y"}},
		Ptr:         &fitInner{Items: []string{"p", "q"}},
		Hidden:      []string{"h", "i"},
		Short:       "s",
		Pairs:       map[string]*fitInner{"z": {Note: long}},
	}
	env := &protocol.Envelope{Answer: long, Data: data}
	want := map[string]reflect.Value{
		"answer":          reflect.ValueOf(env.Answer),
		"tags":            reflect.ValueOf(data.Tags),
		"levels":          reflect.ValueOf(data.Levels),
		"levels[1].items": reflect.ValueOf(data.Levels[1].Items),
		"levels[1].note":  reflect.ValueOf(data.Levels[1].Note),
		"by_name.k":       reflect.ValueOf(data.ByName["k"]),
		"ptr.items":       reflect.ValueOf(data.Ptr.Items),
		"pairs.z.note":    reflect.ValueOf(data.Pairs["z"].Note),
	}
	got := map[string]cut{}
	for _, c := range collectCuts(env) {
		got[c.name] = c
	}
	for name, v := range want {
		c, ok := got[name]
		if !ok {
			t.Errorf("no cut %q", name)
			continue
		}
		if c.size != jsonSize(v.Interface()) {
			t.Errorf("%s: size %d, want %d", name, c.size, jsonSize(v.Interface()))
		}
		if name == "answer" {
			continue
		}
		if at := valueAt(reflect.ValueOf(&env.Data).Elem(), c.path); !at.IsValid() || !reflect.DeepEqual(at.Interface(), v.Interface()) {
			t.Errorf("%s: its path reaches %v, want %v", name, at, v)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("unexpected cut %q", name)
		}
	}
}

// valueAt follows a cut's path from the envelope's data.
func valueAt(v reflect.Value, path []step) reflect.Value {
	for _, s := range path {
		switch {
		case s.elem:
			v = v.Elem()
		case s.field >= 0:
			v = v.Field(s.field)
		case s.index >= 0:
			v = v.Index(s.index)
		case s.key.IsValid():
			v = v.MapIndex(s.key)
		}
	}
	return v
}
