package layers_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// lifetimeContexts are the struct fields allowed to hold a context.Context,
// as "<package dir>.<Type>.<field>": contexts that are the lifetime of a
// long-lived value (cancelled when it closes), not a request's or an
// operation's. Everything else takes ctx as its first parameter
// (CONVENTIONS "Context and concurrency"): a stored context outlives the
// call it came with, and its cancellation and deadline stop meaning what
// the caller asked.
var lifetimeContexts = map[string]bool{
	"internal/service.Service.bg": true, // the service's background work, cancelled by Close
}

// TestNoStoredContext fails when a struct type in a non-test file of
// internal/ gets a context.Context field, named or embedded, that is not a
// lifetime context.
func TestNoStoredContext(t *testing.T) {
	var got []string
	err := eachSourceFile(".", func(p string) error {
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fields, err := contextFields(p, src)
		if err != nil {
			return err
		}
		dir := "internal/" + filepath.ToSlash(filepath.Dir(p))
		for _, f := range fields {
			if !lifetimeContexts[dir+"."+f] {
				got = append(got, filepath.ToSlash(filepath.Join("internal", p))+": "+f)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) > 0 {
		t.Errorf("struct fields holding a context.Context (pass ctx as a parameter instead):\n  %s", strings.Join(got, "\n  "))
	}
}

// TestContextFields checks the detector itself on a file that has each
// form of a stored context and a few that are not one.
func TestContextFields(t *testing.T) {
	src := `package p

import (
	"context"
	stdctx "context"
)

type named struct {
	ctx context.Context
	n   int
}

type embedded struct {
	context.Context
}

type renamed struct{ a, b stdctx.Context }

type fine struct {
	cancel context.CancelFunc
	run    func(ctx context.Context) error
	ctxs   []context.Context
}

func f() {
	type local struct{ ctx context.Context }
	_ = struct{ inline context.Context }{}
}
`
	got, err := contextFields("p.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"embedded.Context", "local.ctx", "named.ctx", "renamed.a", "renamed.b", "struct{}.inline"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("contextFields (-want +got):\n%s", diff)
	}
}

// contextFields lists the fields of type context.Context (named or
// embedded) of every struct type in a Go file, as "Type.field" (an
// anonymous struct is "struct{}"), sorted.
func contextFields(name string, src []byte) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	ctxPkg := map[string]bool{}
	for _, im := range f.Imports {
		if p, _ := strconv.Unquote(im.Path.Value); p == "context" {
			local := "context"
			if im.Name != nil {
				local = im.Name.Name
			}
			ctxPkg[local] = true
		}
	}
	if len(ctxPkg) == 0 {
		return nil, nil
	}
	isContext := func(e ast.Expr) bool {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Context" {
			return false
		}
		id, ok := sel.X.(*ast.Ident)
		return ok && ctxPkg[id.Name]
	}
	var out []string
	named := map[*ast.StructType]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeSpec:
			if st, ok := n.Type.(*ast.StructType); ok {
				named[st] = n.Name.Name
			}
		case *ast.StructType:
			typ, ok := named[n]
			if !ok {
				typ = "struct{}"
			}
			for _, fld := range n.Fields.List {
				if !isContext(fld.Type) {
					continue
				}
				if len(fld.Names) == 0 {
					out = append(out, typ+".Context")
				}
				for _, id := range fld.Names {
					out = append(out, fmt.Sprintf("%s.%s", typ, id.Name))
				}
			}
		}
		return true
	})
	sort.Strings(out)
	return out, nil
}
