package graph_test

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/graph"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/testenv"
)

// shop is a small Go module: an interface with two implementations, a
// service calling through the interface, and a method calling another twice.
var shop = map[string]string{
	"go.mod": "module example.com/shop\n\ngo 1.22\n",
	"store/store.go": `package store

// Store keeps items.
type Store interface {
	Get(id string) (string, bool)
}

// Memory is a Store in memory.
type Memory struct{ items map[string]string }

// NewMemory makes an empty Memory.
func NewMemory() *Memory { return &Memory{items: map[string]string{}} }

// Get looks an item up.
func (m *Memory) Get(id string) (string, bool) {
	v, ok := m.items[id]
	return v, ok
}

// Disk is a Store on disk.
type Disk struct{ dir string }

// Get reads an item.
func (d *Disk) Get(id string) (string, bool) { return read(d.dir, id) }

func read(dir, id string) (string, bool) { return "", open(dir) }

func open(dir string) bool { return dir != "" }
`,
	"service/service.go": `package service

import "example.com/shop/store"

// Service answers lookups.
type Service struct{ s store.Store }

// New makes a Service over memory.
func New() *Service { return &Service{s: store.NewMemory()} }

// Lookup finds an item through the store.
func (v *Service) Lookup(id string) string {
	x, _ := v.s.Get(id)
	return x
}

// Twice looks an item up twice.
func (v *Service) Twice(id string) string { return v.Lookup(id) + v.Lookup(id) }
`,
}

// mod prefixes the qualified names of the module's symbols.
const mod = "example.com/shop/"

func open(t *testing.T) (*query.Engine, func(string) *query.Resolved) {
	t.Helper()
	e := testenv.OpenIndex(t, shop).Engine(t)
	resolve := func(name string) *query.Resolved {
		t.Helper()
		r, err := e.Resolve(context.Background(), name)
		if err != nil {
			t.Fatalf("resolve %s: %v", name, err)
		}
		return r
	}
	return e, resolve
}

// names lists the qualified names of a graph's nodes below the root, by depth.
func names(res *graph.Result) []string {
	var out []string
	for _, n := range res.Nodes[1:] {
		out = append(out, fmt.Sprintf("%d %s", n.Depth, n.QName))
	}
	return out
}

func TestCallers(t *testing.T) {
	e, resolve := open(t)
	ctx := context.Background()
	res, err := graph.CallGraph(ctx, e, resolve("service.Service.Lookup"), graph.Params{Direction: graph.Callers, Depth: 2})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"1 " + mod + "service.Service.Twice"}, names(res)); diff != "" {
		t.Errorf("callers (-want +got):\n%s", diff)
	}
	if len(res.Edges) != 1 || res.Edges[0].Count != 2 || res.Edges[0].Kind != "call" {
		t.Errorf("edges = %+v, want one call edge counting both sites", res.Edges)
	}
	want := []graph.Level{{Depth: 1, Found: 1, Kept: 1}, {Depth: 2, Found: 0, Kept: 0}}
	if diff := cmp.Diff(want, res.Levels); diff != "" {
		t.Errorf("levels (-want +got):\n%s", diff)
	}
	if res.Partial {
		t.Error("a finished walk is marked partial")
	}
}

// TestCalleesThroughInterface checks that a call through an interface
// value is dynamic, its candidates the types whose method sets cover it.
func TestCalleesThroughInterface(t *testing.T) {
	e, resolve := open(t)
	res, err := graph.CallGraph(context.Background(), e, resolve("service.Service.Lookup"), graph.Params{Direction: graph.Callees})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Dynamic) != 1 {
		t.Fatalf("dynamic calls = %+v, want the call of Get", res.Dynamic)
	}
	d := res.Dynamic[0]
	var cands []string
	for _, c := range d.Candidates {
		cands = append(cands, c.QName)
	}
	sort.Strings(cands)
	if d.Kind != "interface" || d.Name != "Get" || d.CandidatesFrom != "method_set" {
		t.Errorf("dynamic call = %+v", d)
	}
	if diff := cmp.Diff([]string{mod + "store.Disk.Get", mod + "store.Memory.Get"}, cands); diff != "" {
		t.Errorf("candidates (-want +got):\n%s", diff)
	}
}

// deadlineAfter is a context whose deadline passes at the n-th check a
// level of the walk makes before expanding a node (checks made elsewhere,
// by the store or its driver, do not count: they vary from run to run).
// From then on every check fails, as with a real deadline.
type deadlineAfter struct {
	context.Context
	left   atomic.Int32
	passed atomic.Bool
}

func (c *deadlineAfter) Err() error {
	if c.passed.Load() {
		return context.DeadlineExceeded
	}
	pc, _, _, _ := runtime.Caller(1)
	if f := runtime.FuncForPC(pc); f == nil || !strings.HasSuffix(f.Name(), ".(*levels).level") {
		return nil
	}
	if c.left.Add(-1) < 0 {
		c.passed.Store(true)
		return context.DeadlineExceeded
	}
	return nil
}

// TestLevelDroppedAtDeadline checks that whenever the deadline passes, the
// answer is the levels walked before it, whole, marked partial.
func TestLevelDroppedAtDeadline(t *testing.T) {
	e, resolve := open(t)
	r := resolve("store.open")
	p := graph.Params{Direction: graph.Callers, Depth: 3, Layer: query.LayerSyntactic}
	full, err := graph.CallGraph(context.Background(), e, r, p)
	if err != nil {
		t.Fatal(err)
	}
	// Service.Lookup calls Disk.Get through the Getter interface.
	if diff := cmp.Diff([]string{"1 " + mod + "store.read", "2 " + mod + "store.Disk.Get", "3 " + mod + "service.Service.Lookup"}, names(full)); diff != "" {
		t.Fatalf("callers (-want +got):\n%s", diff)
	}
	cut := map[int]bool{} // levels kept by the walks the deadline stopped
	for n := int32(0); n <= 3; n++ {
		ctx := &deadlineAfter{Context: context.Background()}
		ctx.left.Store(n)
		res, err := graph.CallGraph(ctx, e, r, p)
		if err != nil {
			t.Fatalf("deadline at check %d: %v", n, err)
		}
		if !res.Partial {
			continue
		}
		cut[len(res.Levels)] = true
		kept := len(res.Levels)
		if diff := cmp.Diff(full.Levels[:kept], res.Levels); diff != "" {
			t.Errorf("deadline at check %d: levels (-want +got):\n%s", n, diff)
		}
		nodes := 1
		for _, l := range res.Levels {
			nodes += l.Kept
		}
		if diff := cmp.Diff(full.Nodes[:nodes], res.Nodes); diff != "" {
			t.Errorf("deadline at check %d: nodes (-want +got):\n%s", n, diff)
		}
	}
	if diff := cmp.Diff(map[int]bool{0: true, 1: true, 2: true}, cut); diff != "" {
		t.Errorf("levels kept by the walks the deadline stopped (-want +got):\n%s", diff)
	}
}

func TestBadParams(t *testing.T) {
	e, resolve := open(t)
	r := resolve("service.Service.Lookup")
	for _, p := range []graph.Params{{Direction: "sideways"}, {Direction: graph.Callers, Layer: "both"}} {
		if _, err := graph.CallGraph(context.Background(), e, r, p); err == nil {
			t.Errorf("%+v: no error", p)
		}
	}
}

func TestHierarchy(t *testing.T) {
	e, resolve := open(t)
	ctx := context.Background()
	res, err := graph.Hierarchy(ctx, e, resolve("store.Store"), graph.HierarchyParams{})
	if err != nil {
		t.Fatal(err)
	}
	var impls []string
	for _, l := range res.Implementations {
		impls = append(impls, l.Name+" "+l.Source)
	}
	if diff := cmp.Diff([]string{mod + "store.Disk syntax_method_set", mod + "store.Memory syntax_method_set"}, impls); diff != "" {
		t.Errorf("implementations of Store (-want +got):\n%s", diff)
	}
	if !res.IsInterface || len(res.Methods) != 1 || res.Methods[0] != "Get" {
		t.Errorf("Store: interface=%v methods=%v", res.IsInterface, res.Methods)
	}
}

func TestTrace(t *testing.T) {
	e, resolve := open(t)
	res, err := graph.Trace(context.Background(), e, resolve("service.Service.Twice"), graph.TraceParams{Depth: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Entry.Children) != 1 {
		t.Fatalf("children of Twice = %d, want Lookup", len(res.Entry.Children))
	}
	lookup := res.Entry.Children[0]
	if lookup.QName != mod+"service.Service.Lookup" || lookup.Count != 2 || lookup.Dynamic != 1 {
		t.Errorf("Lookup node = %s count %d dynamic %d, want Service.Lookup, 2 calls, 1 dynamic", lookup.QName, lookup.Count, lookup.Dynamic)
	}
	if res.Nodes != 2 || res.Truncate {
		t.Errorf("nodes = %d, truncated = %v", res.Nodes, res.Truncate)
	}
}

// indexed indexes files and resolves one symbol in them.
func indexed(t *testing.T, files map[string]string, symbol string) (*query.Engine, *query.Resolved) {
	t.Helper()
	e := testenv.OpenIndex(t, files).Engine(t)
	r, err := e.Resolve(context.Background(), symbol)
	if err != nil {
		t.Fatalf("resolve %s: %v", symbol, err)
	}
	return e, r
}

// callGraphOf walks the call graph of one symbol of files.
func callGraphOf(t *testing.T, files map[string]string, symbol string, p graph.Params) *graph.Result {
	t.Helper()
	e, r := indexed(t, files, symbol)
	res, err := graph.CallGraph(context.Background(), e, r, p)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestRepeatableNamesAreNoVariants: a Go package declares init any number
// of times, each its own function: no init is a build variant of another.
func TestRepeatableNamesAreNoVariants(t *testing.T) {
	res := callGraphOf(t, map[string]string{
		"go.mod":    "module example.com/boot\n\ngo 1.22\n",
		"boot/a.go": "package boot\n\nfunc init() { first() }\n\nfunc first() {}\n",
		"boot/b.go": "package boot\n\nfunc init() { second() }\n\nfunc second() {}\n",
	}, "boot.first", graph.Params{Direction: graph.Callers})
	if len(res.Nodes) != 2 || res.Nodes[1].Location.Path != "boot/a.go" || len(res.Nodes[1].Variants) != 0 {
		t.Errorf("callers of first: %+v, want a.go's init alone, without variants", res.Nodes[1:])
	}
}

// TestCalleesThroughSelfField: a method calling through a field of its own
// object (this.store.get(), self.store.get()) whose declared type is an
// interface makes a dynamic call, its candidates the implementations.
func TestCalleesThroughSelfField(t *testing.T) {
	for _, c := range []struct {
		lang, method, impl string
		files              map[string]string
	}{
		{"python", "app.Service.lookup", "app.Memory.get", map[string]string{
			"app.py": "from typing import Protocol\n\n\nclass Store(Protocol):\n    def get(self, key: str) -> str: ...\n\n\nclass Memory:\n    def get(self, key: str) -> str:\n        return key\n\n\nclass Service:\n    store: Store\n\n    def lookup(self, key: str) -> str:\n        return self.store.get(key)\n",
		}},
		{"typescript", "app.ts#Service.lookup", "app.ts#Memory.get", map[string]string{
			"app.ts": "interface Store {\n  get(key: string): string;\n}\n\nclass Memory implements Store {\n  get(key: string): string { return key; }\n}\n\nexport class Service {\n  private store: Store;\n  lookup(key: string): string { return this.store.get(key); }\n}\n",
		}},
		{"kotlin", "app.Service.lookup", "app.Memory.get", map[string]string{
			"src/app/App.kt": "package app\n\ninterface Store {\n    fun get(key: String): String\n}\n\nclass Memory : Store {\n    override fun get(key: String): String = key\n}\n\nclass Service(private val store: Store) {\n    fun lookup(key: String): String = this.store.get(key)\n}\n",
		}},
		{"java", "app.Service.lookup", "app.Memory.get", map[string]string{
			"src/app/Store.java":   "package app;\n\npublic interface Store {\n    String get(String key);\n}\n",
			"src/app/Memory.java":  "package app;\n\npublic class Memory implements Store {\n    public String get(String key) { return key; }\n}\n",
			"src/app/Service.java": "package app;\n\npublic class Service {\n    private Store store;\n\n    public String lookup(String key) { return this.store.get(key); }\n}\n",
		}},
	} {
		t.Run(c.lang, func(t *testing.T) {
			res := callGraphOf(t, c.files, c.method, graph.Params{Direction: graph.Callees})
			var got []string
			for _, d := range res.Dynamic {
				for _, cand := range d.Candidates {
					got = append(got, d.Kind+" "+d.Name+" "+cand.QName)
				}
			}
			if want := []string{"interface get " + c.impl}; !slices.Equal(got, want) {
				t.Errorf("dynamic calls %q, want %q", got, want)
			}
		})
	}
}

// TestRelatedRefsReach: a Go method's references include the calls of the
// interface methods it satisfies, but only from the packages that can
// reach it (gopls's scope): a call through the interface in a package that
// imports neither the method's package nor an importer of it cannot run it,
// and stays a candidate by name.
func TestRelatedRefsReach(t *testing.T) {
	e, r := indexed(t, map[string]string{
		"go.mod":    "module example.com/reach\n\ngo 1.22\n",
		"a/a.go":    "package a\n\n// Getter gets.\ntype Getter interface{ Get() int }\n",
		"b/b.go":    "package b\n\nimport \"example.com/reach/a\"\n\n// Impl is a Getter.\ntype Impl struct{}\n\n// Get returns one.\nfunc (Impl) Get() int { return 1 }\n\n// Via calls through the interface.\nfunc Via(g a.Getter) int { return g.Get() }\n",
		"c/c.go":    "package c\n\nimport \"example.com/reach/a\"\n\n// Apart cannot reach b.\nfunc Apart(g a.Getter) int { return g.Get() }\n",
		"main/m.go": "package main\n\nimport (\n\t\"example.com/reach/a\"\n\t\"example.com/reach/b\"\n)\n\nfunc main() { var g a.Getter = b.Impl{}; _ = g.Get() }\n",
	}, "b.Impl.Get")
	ctx := context.Background()
	related, err := graph.RelatedMethods(ctx, e, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(related) != 1 || !strings.HasSuffix(related[0].QName, "a.Getter.Get") {
		t.Fatalf("related methods %+v, want a.Getter.Get", related)
	}
	res, err := e.Refs(ctx, r, query.RefsParams{Related: related, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var via []string
	for _, l := range res.Locations {
		via = append(via, fmt.Sprintf("%s %s %s", l.Path, l.Tier, l.Via))
	}
	want := []string{
		"b/b.go proven ", "b/b.go strong example.com/reach/a.Getter.Get", "main/m.go strong example.com/reach/a.Getter.Get",
		"c/c.go anchored ", // a candidate by name only, not a call that runs it
	}
	if diff := cmp.Diff(want, via); diff != "" {
		t.Errorf("references (-want +got):\n%s", diff)
	}
}

// TestGoMethodsAreNotVirtual: a Go type embedding another and declaring a
// method of the same name shadows it; it does not override it, so a call
// of the embedded type's method runs that method and nothing else.
func TestGoMethodsAreNotVirtual(t *testing.T) {
	res := callGraphOf(t, map[string]string{
		"go.mod":   "module example.com/embed\n\ngo 1.22\n",
		"e/e.go":   "package e\n\ntype Base struct{}\n\nfunc (Base) M() int { return 1 }\n\ntype Derived struct{ Base }\n\nfunc (Derived) M() int { return 2 }\n",
		"e/use.go": "package e\n\nfunc F() int {\n\tvar b Base\n\treturn b.M()\n}\n",
	}, "e.F", graph.Params{Direction: graph.Callees})
	if len(res.Nodes) != 2 || !strings.HasSuffix(res.Nodes[1].QName, "e.Base.M") || len(res.Dynamic) != 0 {
		t.Errorf("callees of F: nodes %+v, dynamic %+v; want Base.M alone", res.Nodes[1:], res.Dynamic)
	}
}

// TestGoTypeCallsConvert: in Go, calling a type converts a value to it.
func TestGoTypeCallsConvert(t *testing.T) {
	res := callGraphOf(t, map[string]string{
		"go.mod": "module example.com/conv\n\ngo 1.22\n",
		"c/c.go": "package c\n\ntype Celsius float64\n\nfunc F() Celsius { return Celsius(21.5) }\n",
	}, "c.F", graph.Params{Direction: graph.Callees})
	if len(res.Edges) != 1 || res.Edges[0].Kind != "conversion" {
		t.Errorf("edges of F: %+v, want one conversion to Celsius", res.Edges)
	}
}

// TestGoMethodsInOtherFiles: a Go type's methods may be declared in any
// file of its package, and they count in its method set.
func TestGoMethodsInOtherFiles(t *testing.T) {
	e, closer := indexed(t, map[string]string{
		"go.mod":        "module example.com/apart\n\ngo 1.22\n",
		"p/iface.go":    "package p\n\ntype Closer interface{ Close() error }\n",
		"p/file.go":     "package p\n\ntype File struct{ fd int }\n",
		"p/file_ops.go": "package p\n\nfunc (f *File) Close() error { return nil }\n",
	}, "p.Closer")
	res, err := graph.Hierarchy(context.Background(), e, closer, graph.HierarchyParams{})
	if err != nil {
		t.Fatal(err)
	}
	var impls []string
	for _, l := range res.Implementations {
		impls = append(impls, l.Name)
	}
	if diff := cmp.Diff([]string{"example.com/apart/p.File"}, impls); diff != "" {
		t.Errorf("implementations of Closer (-want +got):\n%s", diff)
	}
}

// TestUnknownLayer: the call graph and the type hierarchy refuse a layer
// they do not know, as references do, rather than answer for another.
func TestUnknownLayer(t *testing.T) {
	e, r := indexed(t, shop, "store.Store")
	ctx := context.Background()
	_, err := graph.Hierarchy(ctx, e, r, graph.HierarchyParams{Layer: "bogus"})
	if !errs.Is(err, errs.InvalidArgument) {
		t.Errorf("hierarchy with layer bogus: %v, want INVALID_ARGUMENT", err)
	}
	_, err = graph.CallGraph(ctx, e, r, graph.Params{Direction: graph.Callers, Layer: "bogus"})
	if !errs.Is(err, errs.InvalidArgument) {
		t.Errorf("callers with layer bogus: %v, want INVALID_ARGUMENT", err)
	}
}
