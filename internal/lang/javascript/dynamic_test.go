package javascript_test

import (
	"testing"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/javascript"
)

// A require's binding is an import, not a definition: dropping it renumbers
// the definitions, and a dynamic site keeps the function around it.
func TestDynamicSiteAfterRequire(t *testing.T) {
	src := `const fs = require("fs");
const path = require("path");

function run(obj, name) {
  return obj[name]();
}
`
	x := lang.NewExtractor()
	defer x.Close()
	f, err := x.Extract(javascript.Language, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Dynamic) != 1 {
		t.Fatalf("dynamic sites: %+v, want one", f.Dynamic)
	}
	e := f.Dynamic[0].Enclosing
	if e < 0 || int(e) >= len(f.Defs) || f.Defs[e].Name != "run" {
		t.Errorf("the dynamic site's enclosing definition is %d of %d definitions, want run", e, len(f.Defs))
	}
}
