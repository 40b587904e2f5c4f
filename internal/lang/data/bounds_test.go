package data_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/data"
)

// A huge file gives at most MaxKeys definitions, nested at most MaxDepth deep.
func TestBounds(t *testing.T) {
	var js, ym, tm, md strings.Builder
	js.WriteString(`{"deep": {"a": {"b": {"c": {"d": {"e": 1}}}}}`)
	for i := 0; i < 3*data.MaxKeys; i++ {
		fmt.Fprintf(&js, `, "k%d": {"v": %d}`, i, i)
		fmt.Fprintf(&ym, "k%d:\n  v: %d\n", i, i)
		fmt.Fprintf(&tm, "[t%d]\nv = %d\n", i, i)
		fmt.Fprintf(&md, "# H%d\n\n## Sub\n\n", i)
	}
	js.WriteString("}")
	x := lang.NewExtractor()
	defer x.Close()
	for _, c := range []struct {
		l   *lang.Language
		src string
	}{{data.JSON, js.String()}, {data.YAML, ym.String()}, {data.TOML, tm.String()}, {data.Markdown, md.String()}} {
		f, err := x.Extract(c.l, []byte(c.src))
		if err != nil {
			t.Fatalf("%s: %v", c.l.Name, err)
		}
		if len(f.Defs) != data.MaxKeys || f.ParseErrors != 0 || f.Lang != c.l.Name {
			t.Errorf("%s: %d defs, %d parse errors, lang %q; want %d, 0", c.l.Name, len(f.Defs), f.ParseErrors, f.Lang, data.MaxKeys)
		}
		for _, d := range f.Defs {
			if n := strings.Count(d.Path, ".") + 1; n > data.MaxDepth {
				t.Errorf("%s: %s is deeper than %d", c.l.Name, d.Path, data.MaxDepth)
			}
		}
	}
}

// A byte order mark does not hide the first key or heading.
func TestBOM(t *testing.T) {
	x := lang.NewExtractor()
	defer x.Close()
	for _, c := range []struct {
		l   *lang.Language
		src string
	}{{data.JSON, `{"a": 1}`}, {data.YAML, "a: 1\n"}, {data.TOML, "a = 1\n"}, {data.Markdown, "# a\n"}} {
		f, err := x.Extract(c.l, []byte("\ufeff"+c.src))
		if err != nil || f.ParseErrors != 0 || len(f.Defs) != 1 || f.Defs[0].Name != "a" {
			t.Errorf("%s: %v, %d parse errors, defs %+v", c.l.Name, err, f.ParseErrors, f.Defs)
		}
	}
}
