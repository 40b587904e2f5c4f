package golang

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// fieldType is a field's declared type from its signature: "store Store",
// "a, b int", with any struct tag left out.
func fieldType(sig, name string) string {
	rest := strings.TrimSpace(strings.TrimPrefix(sig, name))
	rest = strings.TrimPrefix(rest, ",")
	if i := strings.IndexByte(rest, '`'); i >= 0 {
		rest = rest[:i]
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return ""
	}
	return fields[len(fields)-1]
}

// paramTypes reads the declared types of a function's parameters and of a
// method's receiver from its signature, by name.
func paramTypes(sig, name string) map[string]string {
	out := map[string]string{}
	if strings.HasPrefix(sig, "func (") {
		if recv, rest, ok := lang.Balanced(sig[len("func "):], '(', ')'); ok {
			addParams(out, recv)
			sig = rest
		}
	}
	if params, ok := lang.ParamList(sig, name); ok {
		addParams(out, params)
	}
	return out
}

// addParams parses a parameter list "a, b int, r io.Reader": names without
// a type take the next one's.
func addParams(out map[string]string, list string) {
	var pending []string
	for _, p := range lang.SplitTop(list, false) {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		f := strings.Fields(p)
		if len(f) == 1 {
			pending = append(pending, f[0])
			continue
		}
		typ := strings.TrimSpace(p[len(f[0]):])
		for _, name := range append(pending, f[0]) {
			out[name] = typ
		}
		pending = nil
	}
}
