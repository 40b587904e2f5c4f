package tools

import (
	"cmp"
	"context"
	"strings"

	"github.com/cairnhq/cairn/internal/change"
	"github.com/cairnhq/cairn/internal/graph"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/scan"
)

// RefsIn are the arguments of refs_find.
type RefsIn struct {
	Symbol   string    `json:"symbol,omitempty" jsonschema:"id, qualified name, path#Name, unique suffix, or a file or directory path"`
	At       *Position `json:"at,omitempty" jsonschema:"a position instead of a name"`
	Anchored bool      `json:"anchored,omitempty" jsonschema:"also list unproven same-name references"`
	Merge    string    `json:"merge,omitempty" jsonschema:"prefer (default: the best layer per file) or union (both, with conflicts)"`
	Layer    string    `json:"layer,omitempty" jsonschema:"syntactic or semantic only"`
	Common
	View
}

func init() {
	Register(Tool{
		Name: "refs_find", Group: "read", Fresh: true, Cache: CacheQuery, Paged: true,
		Summary: "References of a symbol with tier and layer, grouped by module and file, plus paged locations. Use before changing a symbol.",
		Doc: "locations lists the definition and every precise, proven or strong reference, sorted by path and position, 50 per page by default (at most 500). " +
			"With an imported SCIP index (cairn index --semantic) files it describes as they are now answer from the semantic layer (tier precise); files changed since, or not in it, answer from syntax and are listed in semantic.fallback_files. " +
			"A documentation comment's link to the symbol (JSDoc {@link X}, @throws {X}; Javadoc {@link X#m(T)}, @see X; KDoc [X.m]; a C# cref) is a reference of kind doc, kept beside the semantic layer, which records none. " +
			"anchored groups list same-name references that syntax cannot attribute (method calls on unknown receivers), grouped by receiver shape with a few exemplars; pass anchored: true to list them too. " +
			"Of several overloads (Java, Kotlin, C#) a call counts for the one that takes as many arguments as it passes; a call that more than one takes (or none) is an anchored candidate of each that may take it, with relation overload. " +
			"A Kotlin extension function or property and a C# extension method count the member-style uses (b.twice(), source.Where(f)) whose receiver has a type the source declares (or, in Kotlin, the lambda of x.let, x.apply, with(x) gives) and that type and its bases have no member of the name; extensions of one name for different types are told apart by the type they extend, and a C# call b.M(x) passes one argument fewer than Owner.M(b, x). " +
			"A Java or C# constructor counts the instantiations of its class (new Box(4); also this(4) in another constructor of the class, super(4) in one of a class extending it, and a Kotlin class header's : Box(4)) that pass a number of arguments only it takes; one another constructor takes too is an anchored candidate with relation overload. " +
			"A Java getter or setter counts Kotlin's property uses of it (b.foo, b.foo = v for getFoo(), setFoo(v)), and a Kotlin property Java's accessor calls (b.getFoo(), b.setFoo(v)), with relation accessor: the location spans the name as that use spells it. " +
			"merge: union combines both layers everywhere and lists their conflicts. " +
			"A path names a file or a package (a directory: its own files, or every file below it when it has none of its own) and wins over a symbol name: " +
			"the answer counts the proven and strong references into it from other files by referencing package and file (non-test first), and pages their locations, each with the symbol it references.",
		When:     []string{"before changing or removing a symbol, to see every use", "tracing how a function or type is used across modules"},
		WhenNot:  []string{"plain text occurrences (comments, strings): search", "who calls whom several levels deep: graph_callers"},
		Examples: []string{`{"symbol": "rest.Config"}`, `{"symbol": "sym_0123456789abcdef", "limit": 500}`, `{"symbol": "internal/store"}`},
	}, refsFind)
}

func refsFind(ctx context.Context, c *Call, in RefsIn) (any, error) {
	if in.At == nil && isPathTarget(ctx, c, in.Symbol) {
		return unitRefs(ctx, c, in)
	}
	r, err := resolveArg(ctx, c, in.Symbol, in.At)
	if err != nil {
		return nil, err
	}
	limit := c.Clamp("limit", in.Limit, ReferencesBudget)
	pg, err := c.pager(ctx, "refs", r.ID(), in.Anchored, limit, in.Merge, in.Layer)
	if err != nil {
		return nil, err
	}
	var related []query.RelatedMethod
	if in.Layer != query.LayerSemantic {
		if related, err = graph.RelatedMethods(ctx, c.Engine(), r); err != nil {
			return nil, err
		}
	}
	res, err := c.Engine().Refs(ctx, r, query.RefsParams{Limit: limit, Offset: pg.offset, Anchored: in.Anchored, Merge: in.Merge, Layer: in.Layer,
		Related: related})
	if err != nil {
		return nil, err
	}
	c.Saved(res.BytesCovered)
	total := res.Summary.Total
	if in.Anchored {
		total += res.AnchoredTotal
	}
	pg.done(ctx, "locations", len(res.Locations), res.NextOffset, total, res.More)
	if res.Partial {
		c.Truncated("locations", len(res.Locations), 0, "deadline", "")
		defer c.Complete(0.5, "the deadline stopped the search; files after it were not examined")
	}
	if res.Summary.ByTier["precise"] > 0 {
		c.Answer("%s: %d references (%d precise, %d proven, %d strong), %d anchored candidates", res.Symbol.QName, res.Summary.Total,
			res.Summary.ByTier["precise"], res.Summary.ByTier["proven"], res.Summary.ByTier["strong"], res.AnchoredTotal)
	} else {
		c.Answer("%s: %d references (%d proven, %d strong), %d anchored candidates", res.Symbol.QName, res.Summary.Total,
			res.Summary.ByTier["proven"], res.Summary.ByTier["strong"], res.AnchoredTotal)
	}
	if n := res.Summary.ByName; n > 0 {
		c.Answer("%s; %d more listed by name (anchored, but only it and its related methods declare the name)", c.answer, n)
	}
	if len(res.Layers) > 0 {
		c.Layers(res.Layers...)
	}
	refsCompleteness(c, res)
	sem := res.Semantic
	switch sem.State {
	case "used", "partial":
		semanticWarnings(ctx, c)
		if sem.FallbackTotal > 0 {
			var paths []string
			for _, f := range sem.Fallback {
				if f.Reason != "not in the semantic index" {
					paths = append(paths, f.Path)
				}
			}
			if len(paths) > 0 {
				c.Warn("answered from syntactic facts because they changed since the semantic index: %s", strings.Join(paths, ", "))
			}
			c.Next("index_ensure", map[string]any{"semantic": true}, "refresh the semantic index for the files that changed")
		}
	case "stale":
		c.Warn("semantic layer not used: %s", sem.Reason)
		c.Next("index_ensure", map[string]any{"semantic": true}, "refresh the semantic index")
	}
	if sem.ConflictsTotal > 0 {
		c.Warn("the layers disagree on %d locations (semantic.conflicts)", sem.ConflictsTotal)
	}
	if res.AnchoredTotal > 0 && !in.Anchored {
		c.Next("refs_find", map[string]any{"symbol": res.Symbol.ID, "anchored": true}, "list the anchored candidates too")
	}
	res.Compact()
	return res, nil
}

// isPathTarget reports whether a target argument is an indexed file or a
// directory of indexed files: an exact path, which wins over a symbol name.
func isPathTarget(ctx context.Context, c *Call, arg string) bool {
	if arg == "" {
		return false
	}
	if change.FileExists(ctx, c.Engine(), arg) {
		return true
	}
	_, ok := change.PackageDir(ctx, c.Engine(), arg)
	return ok
}

// unitRefs answers refs_find for a file or package: every reference into it.
func unitRefs(ctx context.Context, c *Call, in RefsIn) (*change.UnitRefsResult, error) {
	rp, err := scan.Contain(ctx, c.Env.Index.Paths().Root, in.Symbol)
	if err != nil {
		return nil, err
	}
	if in.Anchored || in.Merge != "" || in.Layer != "" {
		c.Warn("anchored, merge and layer apply to a symbol: the references into a file or package are the proven and strong ones of the syntactic layer")
	}
	limit := c.Clamp("limit", in.Limit, ReferencesBudget)
	pg, err := c.pager(ctx, "unit_refs", string(rp), limit)
	if err != nil {
		return nil, err
	}
	target := cmp.Or(string(rp), ".")
	res, err := change.UnitRefs(ctx, c.Engine(), c.Env.Changes, change.UnitRefsParams{Target: target, Limit: limit, Offset: pg.offset})
	if err != nil {
		return nil, err
	}
	c.Saved(res.BytesCovered)
	s := res.Summary
	c.Answer("%s %s: %d references (%d proven, %d strong) from %d files in %d packages", res.Target.Kind, res.Target.Path, s.Total,
		s.ByTier["proven"], s.ByTier["strong"], s.Files, len(s.ByPackage))
	pg.done(ctx, "locations", len(res.Locations), res.NextOffset, s.Total, res.More)
	return res, nil
}
