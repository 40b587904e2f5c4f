package refactor_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cairnhq/cairn/internal/refactor"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
	"github.com/cairnhq/cairn/internal/tools"
	"github.com/google/go-cmp/cmp"
)

// tsFixture is the TypeScript project the semantic layer's tests use
// (internal/semantic/testdata/tsfixture) and, with semantic, its SCIP index
// (tsfixture.scip, made from it by scip-typescript: gen-ts.sh) imported.
func tsFixture(t *testing.T, semantic bool) (*service.Service, string) {
	t.Helper()
	testenv.Isolate(t)
	return tsRepo(t, testenv.SemanticFiles(t, "tsfixture"), semantic)
}

// tsRepo opens a repository of files, with the fixture's SCIP index
// imported when semantic.
func tsRepo(t *testing.T, files map[string]string, semantic bool) (*service.Service, string) {
	t.Helper()
	testenv.Isolate(t)
	root := testenv.Repo(t, files)
	s := testenv.Open(t, root, service.Options{})
	invoke(t, s, "index_ensure", nil)
	if semantic {
		invoke(t, s, "index_ensure", map[string]any{"scip": testenv.SemanticIndex(t, "tsfixture"), "wait": true})
	}
	return s, root
}

// planAt plans renaming the declaration at path:line:col, with time for
// tsc on a loaded machine.
func planAt(t *testing.T, s *service.Service, path string, line, col int, name string) *refactor.Plan {
	t.Helper()
	env := invoke(t, s, "refactor_rename", map[string]any{"at": map[string]any{"path": path, "line": line, "col": col}, "new_name": name, "timeout_ms": 600000})
	out, ok := env.Data.(*tools.PlanOut)
	if !ok {
		t.Fatalf("no plan: %s", env.Answer)
	}
	return out.Plan
}

func editList(es []refactor.Edit) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, fmt.Sprintf("%s:%d:%d %s -> %s", e.Path, e.Line, e.Col, e.Old, e.New))
	}
	return out
}

func groupList(p *refactor.Plan) []string {
	out := []string{}
	for _, g := range p.Groups {
		out = append(out, strings.Join(editList(g.Edits), "; "))
	}
	return out
}

func layerName(semantic bool) string {
	if semantic {
		return "semantic"
	}
	return "syntactic"
}

// TypeScript renames in both layers, as tsserver renames them (asked for
// no aliases) where that builds: declarations merged with the renamed one,
// statics apart from the class hierarchy, a destructured property with the
// local it declares, overriding methods; an object literal's shorthand, which
// tsserver renames into a property without a value, is a decision.
func TestRenameTypeScript(t *testing.T) {
	cases := []struct {
		name      string
		path      string
		line, col int
		status    string
		edits     []string
		groups    []string
	}{
		{"interface merged with a const", "src/errors.ts", 1, 18, "ready", []string{
			"src/errors.ts:1:18 NotFound -> X", "src/errors.ts:4:26 NotFound -> X", "src/errors.ts:7:14 NotFound -> X",
			"src/fail.ts:1:10 NotFound -> X", "src/fail.ts:3:25 NotFound -> X", "src/fail.ts:4:14 NotFound -> X"}, nil},
		{"static member, not the subclass's", "src/observable.ts", 4, 10, "ready", []string{"src/observable.ts:4:10 create -> X"}, nil},
		{"destructured property and its local", "src/observable.ts", 2, 13, "ready", []string{
			"src/observable.ts:2:13 _value -> X", "src/observable.ts:13:13 _value -> X", "src/observable.ts:14:12 _value -> X"}, nil},
		{"object literal shorthand", "src/options.ts", 2, 3, "needs_decision", []string{"src/options.ts:2:3 body -> X"},
			[]string{"src/options.ts:7:12 body -> X: body"}},
		{"method and its override", "src/observable.ts", 8, 3, "ready", []string{
			"src/observable.ts:8:3 request -> X", "src/observable.ts:23:3 request -> X", "src/observable.ts:24:18 request -> X"}, nil},
	}
	for _, sem := range []bool{true, false} {
		t.Run(layerName(sem), func(t *testing.T) {
			s, _ := tsFixture(t, sem)
			for _, c := range cases {
				p := planAt(t, s, c.path, c.line, c.col, "X")
				if p.Status != c.status {
					t.Errorf("%s: status %s (%s), want %s", c.name, p.Status, p.Reason, c.status)
				}
				if d := cmp.Diff(c.edits, editList(p.Edits)); d != "" {
					t.Errorf("%s: edits (-want +got):\n%s", c.name, d)
				}
				want := c.groups
				if want == nil {
					want = []string{}
				}
				if d := cmp.Diff(want, groupList(p)); d != "" {
					t.Errorf("%s: groups (-want +got):\n%s", c.name, d)
				}
			}
		})
	}
}

// Without the semantic layer, a method of a type the declared hierarchy
// does not tie to the renamed one, and a destructuring of a value of a type
// syntax cannot tell, are decisions, not edits; a destructuring of this in
// a subclass is an edit, in an unrelated class none (the class's own member
// of that name is a question: a structural match may tie it).
func TestRenameTypeScriptUndecided(t *testing.T) {
	s, _ := tsRepo(t, map[string]string{
		"tsconfig.json": `{"include": ["src"]}`,
		"src/base.ts": `export class Base {
  _v = 1;

  run(): number {
    return this._v;
  }
}
`,
		"src/sub.ts": `import { Base } from "./base";

export class Sub extends Base {
  run(): number {
    const { _v } = this;
    return _v;
  }
}
`,
		"src/other.ts": `export class Other {
  _v = 2;

  run(): number {
    const { _v } = this;
    return _v;
  }
}

export function read(h: { _v: number }): number {
  const { _v } = h;
  return _v;
}
`,
	}, false)
	p := planAt(t, s, "src/base.ts", 4, 3, "go")
	if p.Status != "needs_decision" {
		t.Errorf("run: status %s, want needs_decision", p.Status)
	}
	if d := cmp.Diff([]string{"src/base.ts:4:3 run -> go", "src/sub.ts:4:3 run -> go"}, editList(p.Edits)); d != "" {
		t.Errorf("run: edits (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"src/other.ts:4:3 run -> go"}, groupList(p)); d != "" {
		t.Errorf("run: groups (-want +got):\n%s", d)
	}
	p = planAt(t, s, "src/base.ts", 2, 3, "w")
	if p.Status != "needs_decision" {
		t.Errorf("_v: status %s, want needs_decision", p.Status)
	}
	if d := cmp.Diff([]string{"src/base.ts:2:3 _v -> w", "src/base.ts:5:17 _v -> w", "src/sub.ts:5:13 _v -> w", "src/sub.ts:6:12 _v -> w"}, editList(p.Edits)); d != "" {
		t.Errorf("_v: edits (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"src/other.ts:10:27 _v -> w", "src/other.ts:11:11 _v -> w; src/other.ts:12:10 _v -> w",
		// Other's own destructuring of this and its local's use move with Other._v
		"src/other.ts:2:3 _v -> w; src/other.ts:5:13 _v -> w; src/other.ts:6:12 _v -> w"}, groupList(p)); d != "" {
		t.Errorf("_v: groups (-want +got):\n%s", d)
	}
}

// A TypeScript class matches an interface by structure: renaming a member
// of the class that a use of the class as an interface needs does not
// compile, and the interface's member of the same name is a decision; when
// the renamed code compiles without it (tsc), it is not.
func TestRenameTypeScriptStructural(t *testing.T) {
	tscOnPath(t)
	s, _ := tsRepo(t, map[string]string{
		"tsconfig.json": `{"compilerOptions": {"strict": true, "noEmit": true}, "include": ["src"]}`,
		"src/person.ts": "export class Person {\n  name = \"x\";\n  tag = 1;\n}\n",
		"src/named.ts": `import { Person } from "./person";

export interface Named {
  name: string;
}

export interface Tagged {
  tag: string;
}

export function show(n: Named): string {
  return "" + n;
}

show(new Person());
`,
	}, false)
	p := planAt(t, s, "src/person.ts", 2, 3, "label")
	if p.Status != "needs_decision" {
		t.Errorf("name: status %s, want needs_decision", p.Status)
	}
	if d := cmp.Diff([]string{"src/named.ts:4:3 name -> label"}, groupList(p)); d != "" {
		t.Errorf("name: groups (-want +got):\n%s", d)
	}
	p = planAt(t, s, "src/person.ts", 3, 3, "mark")
	if p.Status != "ready" {
		t.Errorf("tag: status %s (%v), want ready", p.Status, p.Warnings)
	}
	if d := cmp.Diff([]string{"src/person.ts:3:3 tag -> mark"}, editList(p.Edits)); d != "" {
		t.Errorf("tag: edits (-want +got):\n%s", d)
	}
}
