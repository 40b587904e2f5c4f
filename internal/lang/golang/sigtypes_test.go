package golang

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFieldType: the engines read a Go field's declared type through the
// language's FieldType hook.
func TestFieldType(t *testing.T) {
	for _, tc := range []struct{ sig, name, want string }{
		{"store Store", "store", "Store"},
		{"a, b int", "a", "int"},
		{"items map[string]*Item `json:\"items\"`", "items", "map[string]*Item"},
		{"store", "store", ""},
	} {
		if got := Language.FieldType(tc.sig, tc.name); got != tc.want {
			t.Errorf("fieldType(%q, %q) = %q, want %q", tc.sig, tc.name, got, tc.want)
		}
	}
}

// TestParamTypes: the engines read a Go function's parameter and receiver
// types through the language's ParamTypes hook.
func TestParamTypes(t *testing.T) {
	for _, tc := range []struct {
		sig, name string
		want      map[string]string
	}{
		{"func (s *Server) Handle(w http.ResponseWriter, r *http.Request) error", "Handle",
			map[string]string{"s": "*Server", "w": "http.ResponseWriter", "r": "*http.Request"}},
		{"func Copy(dst, src io.ReadWriter, n int)", "Copy", map[string]string{"dst": "io.ReadWriter", "src": "io.ReadWriter", "n": "int"}},
		{"func Map[T any, U comparable](xs []T, f func(T) U) []U", "Map", map[string]string{"xs": "[]T", "f": "func(T) U"}},
		{"func Recv(c <-chan int)", "Recv", map[string]string{"c": "<-chan int"}},
		{"func None()", "None", map[string]string{}},
	} {
		if diff := cmp.Diff(tc.want, Language.ParamTypes(tc.sig, tc.name)); diff != "" {
			t.Errorf("paramTypes(%q) (-want +got):\n%s", tc.sig, diff)
		}
	}
}
