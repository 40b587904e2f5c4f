package query_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/testenv"
)

// twoPackages is a Go module with a name in two packages (New), one only
// in one (Serve), a method, and a path that is the suffix of another.
var twoPackages = map[string]string{
	"go.mod": "module example.com/app\n\ngo 1.22\n",
	"server/server.go": `package server

// Server serves.
type Server struct{}

// New makes a server.
func New() *Server { return &Server{} }

// Serve serves on addr.
func (s *Server) Serve(addr string) error { return nil }
`,
	"client/client.go": `package client

// New makes a client.
func New() int { return 1 }
`,
	"util/strings.go":          "package util\n\n// Trim trims.\nfunc Trim(s string) string { return s }\n",
	"vendored/util/strings.go": "package util\n\n// Trim trims too.\nfunc Trim(s string) string { return s }\n",
}

// Resolve takes a canonical qualified name, a unique suffix of one, a
// path#name or a symbol id; an exact path wins over paths that end with
// it, and a name left to two symbols is AMBIGUOUS with both as candidates.
func TestResolve(t *testing.T) {
	e := testenv.OpenIndex(t, twoPackages).Engine(t)
	ctx := context.Background()
	for _, tc := range []struct{ name, wantQName, wantPath string }{
		{"example.com/app/server.Server.Serve", "example.com/app/server.Server.Serve", "server/server.go"},
		{"server.Server.Serve", "example.com/app/server.Server.Serve", "server/server.go"},
		{"Server.Serve", "example.com/app/server.Server.Serve", "server/server.go"},
		{"  Serve ", "example.com/app/server.Server.Serve", "server/server.go"},
		{"server.New", "example.com/app/server.New", "server/server.go"},
		{"client/client.go#New", "example.com/app/client.New", "client/client.go"},
		{"(*Server).Serve", "example.com/app/server.Server.Serve", "server/server.go"},
		{"server.(*Server).Serve(addr)", "example.com/app/server.Server.Serve", "server/server.go"},
		{"server.(Server).Serve", "example.com/app/server.Server.Serve", "server/server.go"},
		{"util/strings.go#Trim", "example.com/app/util.Trim", "util/strings.go"},
	} {
		r, err := e.Resolve(ctx, tc.name)
		if err != nil {
			t.Errorf("Resolve(%q): %v", tc.name, err)
			continue
		}
		if r.Row.QName != tc.wantQName || r.File.Path != tc.wantPath {
			t.Errorf("Resolve(%q) = %s in %s, want %s in %s", tc.name, r.Row.QName, r.File.Path, tc.wantQName, tc.wantPath)
			continue
		}
		byID, err := e.Resolve(ctx, string(r.ID()))
		if err != nil || byID.Row.ID != r.Row.ID {
			t.Errorf("Resolve of %s's id %s: %v", tc.name, r.ID(), err)
		}
	}
	_, err := e.Resolve(ctx, "New")
	if !errs.Is(err, errs.Ambiguous) || len(errs.As(err).Candidates) != 2 {
		t.Errorf("Resolve(New) = %v, want AMBIGUOUS with 2 candidates", err)
	}
	// A file's path: NOT_FOUND, saying so, with the file's top-level symbols.
	fileErr := errs.As(func() error { _, err := e.Resolve(ctx, "./server/server.go"); return err }())
	if fileErr == nil || fileErr.Kind != errs.NotFound || !strings.Contains(fileErr.Msg, "server/server.go is a file, not a symbol") ||
		!reflect.DeepEqual(fileErr.Details["did_you_mean"], []string{"example.com/app/server.Server", "example.com/app/server.New"}) {
		t.Errorf("Resolve(./server/server.go) = %#v, want NOT_FOUND naming the file's symbols", fileErr)
	}
	dirErr := errs.As(func() error { _, err := e.Resolve(ctx, "server/"); return err }())
	if dirErr == nil || dirErr.Kind != errs.NotFound || !strings.Contains(dirErr.Msg, "server is a directory, not a symbol") ||
		!reflect.DeepEqual(dirErr.Details["did_you_mean"], []string{"example.com/app/server.Server", "example.com/app/server.New"}) {
		t.Errorf("Resolve(server/) = %#v, want NOT_FOUND naming the directory's symbols", dirErr)
	}
	for name, kind := range map[string]errs.Kind{"": errs.InvalidArgument, "   ": errs.InvalidArgument, "NoSuchName": errs.NotFound, "server.Missing": errs.NotFound} {
		if _, err := e.Resolve(ctx, name); !errs.Is(err, kind) {
			t.Errorf("Resolve(%q) = %v, want %s", name, err, kind)
		}
	}
}

// A name spelled with a language's own separators, as its code and docs
// spell it, names the symbol stored under the dotted name: Rust's and
// PHP's Type::method, Ruby's Module::Class and Class#method.
func TestResolveLanguageSeparators(t *testing.T) {
	e := testenv.OpenIndex(t, map[string]string{
		"src/parse.rs":        "pub struct Parser;\n\nimpl Parser {\n    pub fn parse(&self) {}\n}\n",
		"lib/request.rb":      "module Rack\n  class Request\n    def get_header(name)\n      name\n    end\n  end\nend\n",
		"src/Application.php": "<?php\nnamespace App;\n\nclass Application\n{\n    public function doRun() {}\n}\n",
		"src/acme/Shape.java": "package acme;\n\npublic class Shape {\n    public int area(int scale) { return scale; }\n}\n",
		"src/acme/Foo.kt":     "package acme\n\nclass Foo {\n    companion object {\n        fun make(): Foo = Foo()\n    }\n}\n",
	}).Engine(t)
	ctx := context.Background()
	checkResolves(t, e, map[string]string{
		"Parser::parse":              "src/parse.rs#Parser.parse",
		"Rack::Request":              "lib/request.rb#Rack.Request",
		"Rack::Request#get_header":   "lib/request.rb#Rack.Request.get_header",
		"Application::doRun":         "src/Application.php#Application.doRun",
		`App\Application`:            "src/Application.php#Application",
		`\App\Application::doRun`:    "src/Application.php#Application.doRun",
		"request.rb#Rack::Request":   "lib/request.rb#Rack.Request",
		"Application::doRun()":       "src/Application.php#Application.doRun",
		"Parser::parse(&self)":       "src/parse.rs#Parser.parse",
		"Foo.Companion.make":         "acme.Foo.make",
		"Shape#area":                 "acme.Shape.area",
		"acme.Shape.area(int)":       "acme.Shape.area",
		"Shape<T>#area":              "acme.Shape.area",
		"acme.Shape<Map<K, V>>.area": "acme.Shape.area",
	})
	if _, err := e.Resolve(ctx, `Other\Application`); !errs.Is(err, errs.NotFound) {
		t.Errorf("Resolve(Other\\Application) = %v, want NOT_FOUND: the file declares namespace App", err)
	}
	err := errs.As(func() error { _, err := e.Resolve(ctx, "Application::noSuch"); return err }())
	if err == nil || err.Kind != errs.NotFound || len(err.Fixes) == 0 || err.Fixes[0] != `cairn search "noSuch" --mode symbol` {
		t.Errorf("Resolve(Application::noSuch) = %v, want NOT_FOUND suggesting a search for noSuch", err)
	}
	if _, err := e.Resolve(ctx, "Application::noSuch()"); err == nil || errs.As(err).Fixes[0] != `cairn search "noSuch" --mode symbol` {
		t.Errorf("Resolve(Application::noSuch()) = %v, want NOT_FOUND suggesting a search for noSuch", err)
	}
}

// A name may reach a symbol the way its users import it: through a module
// or a file that imports it into its own namespace or re-exports it.
func TestResolveThroughReexports(t *testing.T) {
	e := testenv.OpenIndex(t, map[string]string{
		"shop/__init__.py":        "from shop.models.base import Model\n",
		"shop/models/__init__.py": "from .base import Model\nfrom .fields import Field as Column\n",
		"shop/models/base.py":     "class Model:\n    def save(self):\n        pass\n",
		"shop/models/fields.py":   "class Field:\n    pass\n",
		"web/package.json":        `{"name": "web"}`,
		"web/src/index.ts":        "export { Widget } from './widget';\nexport { Widget as Gadget } from './widget';\n",
		"web/src/widget.ts":       "export class Widget {\n  render(): void {}\n}\n\nexport function make<T>(a: T): T;\n/** @deprecated */\nexport function make<T>(a: T, b: number): T;\nexport function make(a: any, b?: number) { return a; }\n",
		"web/src/all.ts":          "export * from './widget';\n",
		"shop/forms/__init__.py":  "from .widgets import *\n",
		"shop/forms/widgets.py":   "from shop.forms.base import *\n",
		"shop/forms/base.py":      "class Input:\n    def render(self):\n        pass\n",
		"shop/cyc/__init__.py":    "from .a import *\n",
		"shop/cyc/a.py":           "from shop.cyc import *\n",
	}).Engine(t)
	ctx := context.Background()
	checkResolves(t, e, map[string]string{
		"shop.models.Model.save":         "shop.models.base.Model.save",
		"shop.models.base:Model":         "shop.models.base.Model",
		"shop.models.Model":              "shop.models.base.Model",
		"shop.Model":                     "shop.models.base.Model",
		"shop/models/__init__.py#Model":  "shop.models.base.Model",
		"web/src/index.ts#Widget.render": "web/src/widget.ts#Widget.render",
		"shop.models.Column":             "shop.models.fields.Field",
		"web/src/index.ts#Gadget":        "web/src/widget.ts#Widget",
		"src/index.ts#Widget":            "web/src/widget.ts#Widget",
		"Widget.prototype.render":        "web/src/widget.ts#Widget.render",
		"shop.forms.Input":               "shop.forms.base.Input",
		"forms.Input.render":             "shop.forms.base.Input.render",
		"models.Column":                  "shop.models.fields.Field",
		"web/src/all.ts#Widget":          "web/src/widget.ts#Widget",
		"web.Widget":                     "web/src/widget.ts#Widget",
		"web.Gadget.render":              "web/src/widget.ts#Widget.render",
		"web.all.Widget":                 "web/src/widget.ts#Widget",
	})
	for _, name := range []string{"shop.models.Missing", "shop.models.Model.missing", "shop.models.Field", "web/src/index.ts#Missing", "shop.cyc.Missing", "forms.Missing", "web.Missing", "other.Widget"} {
		if _, err := e.Resolve(ctx, name); !errs.Is(err, errs.NotFound) {
			t.Errorf("Resolve(%q) = %v, want NOT_FOUND", name, err)
		}
	}
	// The overloads of make are one suggestion.
	_, err := e.Resolve(ctx, "Nope.make")
	if got := errs.As(err).Details["did_you_mean"]; !reflect.DeepEqual(got, []string{"web/src/widget.ts#make"}) {
		t.Errorf("Resolve(Nope.make) suggests %v, want [web/src/widget.ts#make] once", got)
	}
}

// checkResolves checks the qualified name each name resolves to.
func checkResolves(t *testing.T, e *query.Engine, want map[string]string) {
	t.Helper()
	for name, qname := range want {
		r, err := e.Resolve(context.Background(), name)
		if err != nil {
			t.Errorf("Resolve(%q): %v", name, err)
		} else if r.Row.QName != qname {
			t.Errorf("Resolve(%q) = %s, want %s", name, r.Row.QName, qname)
		}
	}
}

// A Rust item is named by its module path as Rust code names it: from the
// crate's root (crate::, or the package's name with dashes read as
// underscores) or from the root without them, through mod.rs files, and
// through the crate root's pub use.
func TestResolveRustItemPaths(t *testing.T) {
	e := testenv.OpenIndex(t, map[string]string{
		"Cargo.toml":       "[package]\nname = \"my-crate\"\nversion = \"0.1.0\"\n",
		"src/lib.rs":       "pub mod ast;\npub mod hir;\nmod parser;\n\npub use crate::parser::{Parser, ParserBuilder};\n",
		"src/hir/mod.rs":   "pub mod lit;\n\npub struct Hir;\n\nimpl Hir {\n    pub fn new() -> Hir { Hir }\n}\n",
		"src/hir/lit.rs":   "pub struct Literal;\n",
		"src/parser.rs":    "pub struct Parser;\npub struct ParserBuilder;\n",
		"src/ast/mod.rs":   "pub mod parse;\n",
		"src/ast/parse.rs": "pub struct Parser;\n",
	}).Engine(t)
	checkResolves(t, e, map[string]string{
		"my_crate::hir::Hir":      "src/hir/mod.rs#Hir",
		"crate::hir::Hir::new":    "src/hir/mod.rs#Hir.new",
		"hir::lit::Literal":       "src/hir/lit.rs#Literal",
		"ast::parse::Parser":      "src/ast/parse.rs#Parser",
		"my_crate::Parser":        "src/parser.rs#Parser",
		"crate::parser::Parser":   "src/parser.rs#Parser",
		"my_crate::ParserBuilder": "src/parser.rs#ParserBuilder",
	})
	for _, name := range []string{"other_crate::hir::Hir", "hir::Nope", "my_crate::Nope"} {
		if _, err := e.Resolve(context.Background(), name); !errs.Is(err, errs.NotFound) {
			t.Errorf("Resolve(%q) = %v, want NOT_FOUND", name, err)
		}
	}
	if _, err := e.Resolve(context.Background(), "Parser"); !errs.Is(err, errs.Ambiguous) {
		t.Errorf("Resolve(Parser) = %v, want AMBIGUOUS: two modules define one", err)
	}
}
