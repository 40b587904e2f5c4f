package tools

import (
	"context"
	"time"

	"github.com/cairnhq/cairn/internal/refactor"
)

// RenameIn are the arguments of refactor_rename.
type RenameIn struct {
	Symbol      string    `json:"symbol,omitempty" jsonschema:"the symbol to rename: id, qualified name, path#Name or unique suffix"`
	At          *Position `json:"at,omitempty" jsonschema:"a position instead of a name"`
	NewName     string    `json:"new_name" jsonschema:"the new name (an identifier)"`
	IncludeDocs bool      `json:"include_docs,omitempty" jsonschema:"also edit the high and medium confidence mentions in comments, strings and docs (default: only list them; Go's doc comments of the renamed declarations are always edited)"`
	Apply       bool      `json:"apply,omitempty" jsonschema:"apply at once when the plan is ready (as refactor_apply would); otherwise return the plan"`
	Verify      string    `json:"verify,omitempty" jsonschema:"with apply: build (prove it builds first) or none; default build where the toolchain is installed"`
	WorkspaceID string    `json:"workspace_id,omitempty" jsonschema:"with apply: apply into this workspace's overlay instead of the files"`
	Base
}

func init() {
	Register(Tool{
		Name: "refactor_rename", Group: "edit", FreshIfPossible: true,
		Summary: "Plan renaming a symbol (definition and every reference) behind the mutation gate: returns a refactor_id and a status: ready, needs_decision (anchored candidates in groups, each with its edits and a decision capsule) or blocked (files not fresh in the index).",
		Doc: "References come from the semantic layer where it is current for a file, else from the syntactic tiers: precise, proven and strong ones are certain edits; anchored ones (same name, receiver type unknown) become candidate groups by receiver shape and enclosing type, applied only when selected; in Java, Kotlin, C#, Rust and TypeScript, one whose receiver is declared with a type the repository does not declare (String, List<T>) is left out with a warning. " +
			"A type's constructors that spell its name (Java, C#, C++) are renamed with it, and naming such a constructor renames its type; a Java top-level type's file named after it is renamed with it (moves). One overload of several is renamed alone when each of its calls passes a number of arguments only it takes; it is refused while syntax cannot tell a call of it from one of another overload (put(1) from put(\"x\")). An import that names the overloads by name (Kotlin's import a.f, Java's import static a.C.f) stays for the others, and a copy of it names the new name; under an alias the rename is refused. Kotlin extension functions and C# extension methods of one name for different types are told apart by the type they extend, and their candidates are asked about as members of that type. " +
			"A method that overrides, implements or is overridden (Java, Kotlin, C#, C++, PHP, Ruby, Python, Rust) is renamed with every method tied to it that way, transitively (its base and interface methods, their other implementations, the overrides), and the plan names them in a warning; the bodies of enum constants and of Java anonymous classes extending a type of the family count (a method of an anonymous class whose base syntax does not resolve, as in Kotlin, is a candidate group). Refused: a family of more than 512 methods, a method that says it overrides (@Override, override) while overriding no method of the repository (it overrides one outside), a family with a method of the root class every class extends (equals, hashCode, toString of java.lang.Object, System.Object, kotlin.Any: by name and parameter count), a Java or C# method implementing a member of a common platform interface its class names (Runnable.run, Comparable.compareTo, AutoCloseable.close, IDisposable.Dispose, IEquatable.Equals, …: by name and parameter count), and an anonymous class's method that says it overrides while its base is outside the repository or unresolved. " +
			"An attribute is one slot of an object in Python (self.x), Ruby (@x) and JavaScript (this.x), so a field is renamed with the fields of its name that the classes above and below its own assign. Python's special methods (__str__) and Ruby's protocol methods (to_s, initialize) are refused, as is a new name that is one: the runtime calls them by name. In Python, Ruby and PHP, where a method does not say it overrides, a plan warns when its class extends a base outside the repository (threading.Thread), which may declare it too. " +
			"Rust: a method of an impl of a trait that the index does not tie to a trait of the repository (fmt of impl fmt::Display, or an impl of a type declared in another file) is refused, and so is a trait method such an impl implements; a field renamed where a shorthand names it (Counter { n }, let Counter { n } = c) is spelled apart (Counter { count: n }). " +
			"Every affected file is checked against the disk: stale (disk differs from the index), pending_check or unindexed files block the plan with a witness packet and the refresh to run; dirty files (uncommitted changes the index holds) do not block. " +
			"Refused: a name that is not an identifier or is a keyword (a Ruby instance variable's new name keeps its @: @port to @number), a name already declared in the same scope (Go: the package, or the type's methods and fields; for a method of a class hierarchy, also a method of that name and arity in a class above or below, which it would start overriding or be overridden by), and in Go a change between exported and unexported while other packages use the symbol. " +
			"Mentions in comments, strings and docs are listed with a confidence (docs) and edited only with include_docs; in Go, as gopls does, the doc comment right above each renamed declaration is edited too (kind doc). A decision taken on the same ambiguity before is offered (offered_decision), never applied by itself. Plans expire after 30 minutes or when the index changes for a file they touch.",
		When:     []string{"renaming a function, type, method, field or variable everywhere it is used"},
		WhenNot:  []string{"moving a file or package: refactor_move", "changing code by hand: write_source"},
		Examples: []string{`{"symbol": "mux.go#Mux.handle", "new_name": "serve"}`, `{"symbol": "rest.Config", "new_name": "Settings", "apply": true}`},
	}, refactorRename)
}

func refactorRename(ctx context.Context, c *Call, in RenameIn) (*PlanOut, error) {
	r, err := c.refactorTarget(ctx, in.Symbol, in.At)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	p, err := c.refactorEnv().Rename(ctx, refactor.RenameRequest{Symbol: r, NewName: in.NewName, IncludeDocs: in.IncludeDocs})
	c.timing("plan", time.Since(t0))
	if err != nil {
		return nil, err
	}
	return c.planned(ctx, p, "rename "+p.Symbol.QName+" to "+in.NewName, ApplyNow{Apply: in.Apply, Verify: in.Verify, WorkspaceID: in.WorkspaceID})
}
