package refactor

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/graph"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/plural"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// RenameRequest renames a symbol: its definition and every reference.
type RenameRequest struct {
	Symbol  *query.Resolved
	NewName string
	// IncludeDocs adds the documentation sweep's high and medium confidence
	// mentions to the plan's edits.
	IncludeDocs bool
}

// maxRefs bounds the references one rename plans: past it the plan is
// refused rather than cut (a partial rename breaks the build).
const maxRefs = 200000

// Rename plans a rename and stores the plan: it gathers the symbol's
// references and the declarations renamed with it, turns the certain ones
// into edits, refuses what would break, groups the candidates a decision
// must settle, sweeps the documentation, and gates the plan (finish).
func (env *Env) Rename(ctx context.Context, req RenameRequest) (*Plan, error) {
	rn, err := env.newRenaming(ctx, req)
	if err != nil {
		return nil, err
	}
	for _, phase := range []func(context.Context) error{
		rn.gather, rn.certainEdits, rn.check, rn.candidates, rn.witness, rn.documentation, rn.moves,
	} {
		if err := phase(ctx); err != nil {
			return nil, err
		}
	}
	return env.finish(ctx, rn.p, rn.layer, string(rn.card.Location.Path))
}

// renaming is one rename being planned.
type renaming struct {
	env  *Env
	req  RenameRequest
	r    *query.Resolved
	card *query.SymbolCard
	old  string
	p    *Plan
	// layer is the layer each changed file's edits come from.
	layer map[string]string
	refs  *query.RefsResult
	// anchored are the references syntax did not attribute: candidates.
	anchored []query.RefLocation
	// overriding are the methods tied to the symbol by overriding or
	// implementation, anonymous the anonymous classes' members among them
	// and outsideBases the bases outside the repository.
	overriding, anonymous []*query.Resolved
	outsideBases          []string
	mergedIDs             map[int64]bool
}

// newRenaming resolves what a rename renames and checks the new name.
func (env *Env) newRenaming(ctx context.Context, req RenameRequest) (*renaming, error) {
	r, err := env.constructedType(ctx, req.Symbol)
	if err != nil {
		return nil, err
	}
	card, err := env.Engine.Card(ctx, r, query.CardLimits{Members: 1, Calls: 1})
	if err != nil {
		return nil, err
	}
	old := card.Name
	if err := checkNewName(card.Language, old, req.NewName); err != nil {
		return nil, err
	}
	if req.NewName == old {
		return nil, errs.E(errs.InvalidArgument, "%s is already named %s", card.QName, old)
	}
	if err := checkCalledByName(card, r, req.NewName); err != nil {
		return nil, err
	}
	return &renaming{env: env, req: req, r: r, card: card, old: old, layer: map[string]string{},
		p: &Plan{Op: OpRename, Symbol: &card.SymbolRef, NewName: req.NewName, Edits: []Edit{}, Groups: []Group{}}}, nil
}

// gather finds the references of the symbol and of the declarations
// renamed with it: its family by implementation (an interface method with
// the methods implementing it, declarations included, as the compiler
// needs them in step), the declarations merged with it (TypeScript), and
// the methods tied to it by overriding or implementation.
func (rn *renaming) gather(ctx context.Context) error {
	env, card, r := rn.env, rn.card, rn.r
	refs, err := env.renameRefs(ctx, card, r)
	if err != nil {
		return err
	}
	merged, err := env.mergedDeclarations(ctx, r)
	if err != nil {
		return err
	}
	if rn.overriding, rn.anonymous, rn.outsideBases, err = env.overrideFamily(ctx, card, r); err != nil {
		return err
	}
	merged = append(merged, rn.overriding...)
	rn.mergedIDs = map[int64]bool{}
	for _, m := range merged {
		rn.mergedIDs[m.Row.ID] = true
		more, err := env.renameRefs(ctx, card, m)
		if err != nil {
			return err
		}
		refs.Locations = append(refs.Locations, more.Locations...)
	}
	if len(merged) > 0 {
		refs.Locations = uniqueLocations(refs.Locations)
	}
	rn.refs = refs
	return env.checkOverloads(ctx, card, r, refs.Locations)
}

// certainEdits turns the attributed references into edits (through the
// accessor a reference spells, where it does) and sets the anchored ones
// apart.
func (rn *renaming) certainEdits(ctx context.Context) error {
	env, p := rn.env, rn.p
	for _, l := range rn.refs.Locations {
		path := string(l.Path)
		if l.Tier == index.TierAnchored.String() {
			rn.anchored = append(rn.anchored, l)
			continue
		}
		var e Edit
		ok := false
		if u, use := env.accessorSpelling(rn.card, rn.r, l, rn.old, rn.req.NewName); use {
			var err error
			if e, ok, err = env.accessorEdit(ctx, rn.card, l, u, rn.req.NewName); err != nil {
				return err
			}
		} else {
			e, ok = env.tokenEdit(ctx, l, rn.old, rn.req.NewName)
		}
		if !ok {
			if !env.delegation(l) {
				p.Warnings = append(p.Warnings, fmt.Sprintf("%s:%d:%d does not spell %s on disk; left alone", path, l.Line, l.Col, rn.old))
			}
			continue
		}
		p.Edits = append(p.Edits, e)
		if l.Layer == query.LayerSemantic || rn.layer[path] == "" {
			rn.layer[path] = l.Layer
		}
	}
	return nil
}

// check refuses a rename the code would not survive (a clash, an import
// two names share, an accessor partner, the hierarchy) and warns of the
// methods renamed with the symbol.
func (rn *renaming) check(ctx context.Context) error {
	env, card, r, p, newName := rn.env, rn.card, rn.r, rn.p, rn.req.NewName
	if err := env.checkRename(ctx, card, p.Edits, rn.anchored, newName); err != nil {
		return err
	}
	if err := env.keepSharedImports(ctx, r, p, rn.old, newName); err != nil {
		return err
	}
	if err := env.checkAccessorPartners(ctx, card, r, newName); err != nil {
		return err
	}
	for _, m := range rn.overriding {
		if err := env.checkRename(ctx, &query.SymbolCard{SymbolRef: m.Ref(), Language: m.File.Lang}, p.Edits, rn.anchored, newName); err != nil {
			return err
		}
	}
	if err := env.checkHierarchy(ctx, card, r, rn.overriding, newName); err != nil {
		return err
	}
	if len(rn.overriding) > 0 {
		tied := make([]string, 0, len(rn.overriding))
		for _, m := range rn.overriding {
			tied = append(tied, describeAt(m.Row.QName, m))
		}
		sort.Strings(tied)
		if n := len(tied) - maxNamedTied; n > 0 {
			tied = append(tied[:maxNamedTied], fmt.Sprintf("and %d more", n))
		}
		p.Warnings = append(p.Warnings, tiedWarning(r, len(rn.overriding), strings.Join(tied, ", ")))
	}
	if w := outsideBasesWarning(card, r, rn.outsideBases); w != "" {
		p.Warnings = append(p.Warnings, w)
	}
	return nil
}

// candidates groups what a decision must settle: the anchored references,
// the method family, the members of anonymous classes, the structural
// family, and the shorthands each of them spells.
func (rn *renaming) candidates(ctx context.Context) error {
	env, card, r, p, newName := rn.env, rn.card, rn.r, rn.p, rn.req.NewName
	p.Witness.Facts = env.nameFacts(ctx, card)
	extended := ""
	if r.Def != nil {
		extended = r.Def.Extends
	}
	var outside string
	p.Groups, outside = env.groupAnchored(ctx, card, rn.anchored, newName, p.Witness.Facts, extended)
	if outside != "" {
		p.Warnings = append(p.Warnings, outside)
	}
	family, tied, err := env.methodFamily(ctx, card, r, rn.mergedIDs, rn.refs.Semantic.State, newName)
	if err != nil {
		return err
	}
	p.Groups = append(p.Groups, family...)
	p.Edits = append(p.Edits, tied...)
	anonGroups, err := env.memberGroups(ctx, card, rn.anonymous, newName)
	if err != nil {
		return err
	}
	p.Groups = append(p.Groups, anonGroups...)
	files := newECMAFiles()
	defer files.close()
	env.shorthands(ctx, files, card, r, p, rn.old, newName)
	env.rustShorthands(card, p, rn.old, newName)
	structural, err := env.structuralFamily(ctx, card, r, p, rn.mergedIDs, newName)
	if err != nil {
		return err
	}
	if structural, err = env.proveStructural(ctx, p, structural, card.QName); err != nil {
		return err
	}
	env.structuralShorthands(ctx, files, card, structural, rn.old, newName)
	p.Groups = append(p.Groups, structural...)
	for _, e := range p.Edits {
		if rn.layer[e.Path] == "" {
			rn.layer[e.Path] = e.Layer
		}
	}
	if len(p.Groups) == 0 && card.Language == "go" {
		// A plan with groups writes nothing before a decision, and its
		// apply verifies what was chosen.
		return env.proveInterfaceRename(ctx, p, card.QName)
	}
	return nil
}

// witness numbers the groups and records what the plan stands on: the
// semantic layer's state and, for groups, the question a decision answers.
func (rn *renaming) witness(context.Context) error {
	p := rn.p
	for i := range p.Groups {
		p.Groups[i].ID = fmt.Sprintf("g%d", i+1)
		for _, e := range p.Groups[i].Edits {
			if rn.layer[e.Path] == "" {
				rn.layer[e.Path] = query.LayerSyntactic
			}
		}
	}
	p.Witness.Semantic = rn.refs.Semantic.State
	if rn.refs.Semantic.Reason != "" {
		p.Witness.Semantic += ": " + rn.refs.Semantic.Reason
	}
	if len(p.Groups) > 0 {
		p.Witness.Checklist = []Question{{
			Question:    fmt.Sprintf("Does the receiver of each candidate group hold a %s (so that .%s is this symbol)?", ownerName(rn.card), rn.old),
			FactNeeded:  "receiver_resolution",
			HowToVerify: "read each group's exemplar locations and trace the receiver's declaration or assignment back to its type",
		}}
	}
	return nil
}

// documentation sweeps the comments and documents that mention the old
// name; the language's own doc comment of the declaration (Go) is renamed
// with it, and with IncludeDocs so are the confident mentions.
func (rn *renaming) documentation(ctx context.Context) error {
	p := rn.p
	p.Docs = rn.env.docSweep(ctx, rn.old, rn.req.NewName, rn.card, p)
	if lang.Of(rn.card.Language).RenamesDocComment {
		takeDocComments(p, rn.layer)
	}
	if rn.req.IncludeDocs {
		p.Docs.Included = true
		for _, h := range p.Docs.Hits {
			if h.Confidence != "low" {
				p.Edits = append(p.Edits, h.Edit)
				if rn.layer[h.Path] == "" {
					rn.layer[h.Path] = "text"
				}
			}
		}
	}
	return nil
}

// moves adds the file a Java class's rename renames with it.
func (rn *renaming) moves(ctx context.Context) error {
	mv, err := rn.env.javaFileMove(ctx, rn.r, rn.req.NewName)
	if err != nil {
		return err
	}
	if mv != nil {
		rn.p.Moves = append(rn.p.Moves, *mv)
	}
	return nil
}

// constructedType is the type a constructor named like it builds, which a
// rename of the constructor renames (its name is the type's); r itself for
// any other symbol.
func (env *Env) constructedType(ctx context.Context, r *query.Resolved) (*query.Resolved, error) {
	t, ok, err := env.Engine.TypeOfConstructor(ctx, r.Row)
	if err != nil || !ok || t.Name != r.Row.Name {
		return r, err
	}
	return env.Engine.Load(ctx, t)
}

// checkOverloads refuses renaming one of several overloads when syntax
// cannot tell which of them a call runs: put(1) and put("x") pass as many
// arguments, so renaming put(int) at both would break the call of
// put(String). Calls that only one overload takes by their number of
// arguments, and calls the semantic layer resolved (precise), are certain.
func (env *Env) checkOverloads(ctx context.Context, card *query.SymbolCard, r *query.Resolved, locs []query.RefLocation) error {
	var unsure *query.RefLocation
	for i, l := range locs {
		if l.Relation == query.RelationOverload && l.Tier != index.TierPrecise.String() {
			unsure = &locs[i]
			break
		}
	}
	if unsure == nil {
		return nil
	}
	rows, err := env.Engine.SymbolsByQName(ctx, r.Row.QName)
	if err != nil {
		return err
	}
	rows = slices.DeleteFunc(rows, func(o store.SymbolRow) bool { return o.ID == r.Row.ID || o.Kind != r.Row.Kind })
	others, err := env.located(ctx, rows, func(o *query.Resolved) string { return o.Def.Signature })
	if err != nil {
		return err
	}
	return &errs.Error{Kind: errs.Precondition,
		Msg: fmt.Sprintf("cannot rename %s alone: it has overloads, %s, and syntax does not tell which one a call runs (%s:%d passes as many arguments as another takes), so the rename could change the others' calls too",
			card.QName, strings.Join(others, ", "), unsure.Path, unsure.Line),
		Details: map[string]any{"reason": "overloaded", "overloads": others},
		Fixes:   []string{"rename where the semantic layer is current for these files (cairn index --semantic, with an indexer for the language)", "or rename the calls by hand (write_source)"}}
}

// checkHierarchy refuses a new name that a supertype or a subtype of the
// renamed method's class (or of a class of its family) already gives a
// method taking as many arguments: the renamed method would start
// overriding it, or being overridden by it, and calls would run other code.
func (env *Env) checkHierarchy(ctx context.Context, card *query.SymbolCard, r *query.Resolved, family []*query.Resolved, name string) error {
	if !graph.Overridable(r) || query.StaticMember(r) {
		return nil
	}
	ms := []store.SymbolRow{r.Row}
	for _, m := range family {
		ms = append(ms, m.Row)
	}
	taken, err := graph.InHierarchy(ctx, env.Engine, ms, name)
	if err != nil || len(taken) == 0 {
		return err
	}
	names, err := env.located(ctx, taken, func(o *query.Resolved) string { return o.Row.QName })
	if err != nil {
		return err
	}
	return &errs.Error{Kind: errs.Precondition,
		Msg: fmt.Sprintf("cannot rename %s to %s: %s, in a class above or below it, would then override it or be overridden by it",
			card.QName, name, strings.Join(names, ", ")),
		Details: map[string]any{"reason": "name_collision", "existing": names},
		Fixes:   []string{"choose another name"}}
}

// tiedWarning tells that n members named are renamed with r: methods
// tied by overriding or implementation, or the fields of its name that
// classes above and below its own assign, one attribute of every object.
func tiedWarning(r *query.Resolved, n int, named string) string {
	if lang.DefKind(r.Row.Kind) == lang.KindMethod {
		return fmt.Sprintf("renamed with the %s tied to it by overriding or implementation: %s", plural.Count(n, "method", "methods"), named)
	}
	return fmt.Sprintf("renamed with the %s of its name in classes above or below its own, the same attribute of an object: %s", plural.Count(n, "field", "fields"), named)
}

// rootBases are the bases every class has, which declare no member a
// rename could clash with (their special methods aside).
var rootBases = map[string]map[string]bool{
	"python": {"object": true, "Generic": true, "Protocol": true, "ABC": true},
	"ruby":   {"Object": true, "BasicObject": true},
}

// outsideBasesWarning warns, in a language whose methods do not say that
// they override (Python, Ruby, PHP), that the renamed member's family
// stands on classes extending bases outside the repository (as written),
// whose members it may override: the rename would leave theirs behind.
func outsideBasesWarning(card *query.SymbolCard, r *query.Resolved, outside []string) string {
	if overrideMarks[r.File.Lang] != "" {
		return ""
	}
	var named []string
	for _, b := range outside {
		if base, _, _ := strings.Cut(b, "["); !rootBases[r.File.Lang][base] {
			named = append(named, b)
		}
	}
	if len(named) == 0 {
		return ""
	}
	return fmt.Sprintf("%s's class extends %s, not in the repository: if %s overrides a member of it, code there calling it would no longer reach the renamed one",
		card.QName, strings.Join(named, ", "), card.Name)
}

// maxNamedTied bounds the tied methods a plan's warning names.
const maxNamedTied = 8

// overrideFamily loads the methods tied to r by overriding or
// implementation (graph.OverrideFamily), which a rename carries along: one
// renamed alone would stop overriding (breaking @Override, override) or
// leave a type no longer implementing its interface. Refused: a family too
// large to list whole, and one that says it overrides a method the
// repository does not declare (Object.toString, a library's interface),
// which no rename here can change. anonymous are the methods of anonymous
// classes that may override one of them (graph.Family.Anonymous): each is a
// candidate group.
func (env *Env) overrideFamily(ctx context.Context, card *query.SymbolCard, r *query.Resolved) (tied, anonymous []*query.Resolved, outside []string, err error) {
	if query.StaticMember(r) {
		return nil, nil, nil, nil
	}
	f, err := graph.OverrideFamily(ctx, env.Engine, r)
	if err != nil {
		return nil, nil, nil, err
	}
	tied, anonymous, err = env.checkOverrideFamily(ctx, card, r, f)
	return tied, anonymous, f.Outside, err
}

// checkOverrideFamily refuses a family a rename cannot keep whole and
// loads the members it renames with r.
func (env *Env) checkOverrideFamily(ctx context.Context, card *query.SymbolCard, r *query.Resolved, f graph.Family) (tied, anonymous []*query.Resolved, err error) {
	if f.More {
		return nil, nil, &errs.Error{Kind: errs.Precondition,
			Msg:     fmt.Sprintf("cannot rename %s: more than %d methods are tied to it by overriding or implementation, too many for one plan", card.QName, len(f.Methods)),
			Details: map[string]any{"reason": "overriding", "tied": len(f.Methods)},
			Fixes:   []string{"rename them by hand (write_source): each declaration and the calls of each (refs_find)"}}
	}
	if f.SelfAnonymous {
		if mark := env.overrideMark(r); mark != "" {
			return nil, nil, &errs.Error{Kind: errs.Precondition,
				Msg:     fmt.Sprintf("cannot rename %s: it is declared in an anonymous class and says %s, so it overrides a method of the class's base type, which is declared outside the repository or which syntax does not resolve", card.QName, mark),
				Details: map[string]any{"reason": "anonymous_override"},
				Fixes:   []string{"rename the method it overrides (its plan offers this one as a candidate)"}}
		}
	}
	if len(f.Anonymous) > maxFamilyGroups {
		return nil, nil, &errs.Error{Kind: errs.Precondition,
			Msg: fmt.Sprintf("cannot rename %s from syntax alone: %d methods of anonymous classes are named %s, and syntax does not tell which of them override it",
				card.QName, len(f.Anonymous), card.Name),
			Details: map[string]any{"reason": "method_family_unknown", "methods": len(f.Anonymous)},
			Fixes:   []string{"rename by hand with the compiler's help"}}
	}
	tops, err := env.loadAll(ctx, f.Tops)
	if err != nil {
		return nil, nil, err
	}
	if err := env.checkRustTraits(ctx, card, r, f, tops); err != nil {
		return nil, nil, err
	}
	for _, t := range tops {
		if root := rootMethod(t); root != "" {
			return nil, nil, &errs.Error{Kind: errs.Precondition,
				Msg: fmt.Sprintf("cannot rename %s: %s overrides %s, which every class inherits and a rename cannot change",
					card.QName, who(t, r), root),
				Details: map[string]any{"reason": "external_family", "external": root},
				Fixes:   []string{"keep the name: the method outside the repository fixes it"}}
		}
		if mark := env.overrideMark(t); mark != "" {
			return nil, nil, &errs.Error{Kind: errs.Precondition,
				Msg: fmt.Sprintf("cannot rename %s: %s says %s but overrides no method of the repository, so it overrides one declared outside it, which a rename cannot change",
					card.QName, who(t, r), mark),
				Details: map[string]any{"reason": "external_family", "external": t.Row.QName},
				Fixes:   []string{"keep the name: the method outside the repository fixes it"}}
		}
	}
	if err := checkPlatformMembers(card, r, tops); err != nil {
		return nil, nil, err
	}
	if tied, err = env.loadAll(ctx, f.Methods); err != nil {
		return nil, nil, err
	}
	anonymous, err = env.loadAll(ctx, f.Anonymous)
	return tied, anonymous, err
}

// who names t in a refusal about renaming r: "it" when t is r.
func who(t, r *query.Resolved) string {
	if t.Row.ID == r.Row.ID {
		return "it"
	}
	return describeAt(t.Row.QName, t) + ", tied to it,"
}

// rootMethods are the methods of the class every class extends without
// saying so (java.lang.Object, System.Object, kotlin.Any), by language:
// name -> how many arguments they take.
var rootMethods = map[string]struct {
	root    string
	methods map[string]int
}{
	"java":   {"java.lang.Object", map[string]int{"equals": 1, "hashCode": 0, "toString": 0, "clone": 0, "finalize": 0}},
	"kotlin": {"kotlin.Any", map[string]int{"equals": 1, "hashCode": 0, "toString": 0}},
	"csharp": {"System.Object", map[string]int{"Equals": 1, "GetHashCode": 0, "ToString": 0, "Finalize": 0}},
}

// rootMethod is the root class's method a method overrides by its name and
// number of parameters alone (java.lang.Object.hashCode), or "".
func rootMethod(o *query.Resolved) string {
	r, ok := rootMethods[o.File.Lang]
	if !ok || o.Def == nil {
		return ""
	}
	n, ok := r.methods[o.Row.Name]
	if a := lang.ArityOf(o.Def.Signature, o.Row.Name); !ok || !a.Known || a.Min != n || a.Max != n {
		return ""
	}
	return r.root + "." + o.Row.Name
}

// overrideMarks are the words with which a method says it overrides:
// Java's annotation, the modifier of Kotlin and C#, C++'s specifier.
var overrideMarks = map[string]string{"java": "@Override", "kotlin": "override", "csharp": "override", "cpp": "override"}

// overrideMark is the word with which o says it overrides a method, as
// its declaration's header spells it ("" when it does not).
func (env *Env) overrideMark(o *query.Resolved) string {
	mark := overrideMarks[o.File.Lang]
	if mark == "" || o.Def == nil {
		return ""
	}
	header := o.Def.Signature
	if data, ok := env.read(o.File.Path); ok {
		starts := lang.LineStarts(data)
		d := o.Def
		a := offset(starts, len(data), int(d.Span.Start.Line), int(d.Span.Start.Col))
		b := offset(starts, len(data), int(d.NameSpan.Start.Line), int(d.NameSpan.Start.Col))
		if a >= 0 && b >= a {
			header += " " + string(data[a:b])
		}
	}
	words := strings.FieldsFunc(header, func(c rune) bool { return c != '@' && (c >= utf8.RuneSelf || !lang.IsWordByte(byte(c))) })
	if slices.Contains(words, mark) {
		return mark
	}
	return ""
}

// describeAt is a label followed by where o is declared.
func describeAt(label string, o *query.Resolved) string {
	return fmt.Sprintf("%s (%s:%d)", label, o.File.Path, o.Def.NameSpan.Start.Line)
}

// located describes symbols for a refusal, each as its label followed by
// where it is declared: void put(int k) (src/acme/Box.java:6).
func (env *Env) located(ctx context.Context, rows []store.SymbolRow, label func(*query.Resolved) string) ([]string, error) {
	var out []string
	for _, row := range rows {
		o, err := env.Engine.Load(ctx, row)
		if err != nil {
			return nil, err
		}
		if o != nil && o.Def != nil {
			out = append(out, describeAt(label(o), o))
		}
	}
	return out, nil
}

// renameRefs finds what a rename of r changes (the family included) and
// refuses what cannot be renamed as a whole: references not all found in
// time, a family member declared outside the repository, too many
// references.
func (env *Env) renameRefs(ctx context.Context, card *query.SymbolCard, r *query.Resolved) (*query.RefsResult, error) {
	refs, err := env.Engine.Refs(ctx, r, query.RefsParams{Limit: maxRefs, Anchored: true, Receivers: true, Family: true})
	if err != nil {
		return nil, err
	}
	if refs.Partial {
		return nil, &errs.Error{Kind: errs.Timeout, Msg: fmt.Sprintf("the references of %s could not all be found within the deadline: a partial rename would break the code", card.QName),
			Fixes: []string{"repeat with a larger timeout_ms"}}
	}
	if ext := refs.Semantic.External; len(ext) > 0 {
		return nil, &errs.Error{Kind: errs.Precondition,
			Msg: fmt.Sprintf("cannot rename %s: it is tied by implementation to %s, declared outside the repository, which a rename cannot change (the types would no longer implement it)",
				card.QName, strings.Join(ext, ", ")),
			Details: map[string]any{"reason": "external_family", "external": ext},
			Fixes:   []string{"keep the name, or rename by hand where the outside interface is not needed"}}
	}
	if refs.More {
		return nil, &errs.Error{Kind: errs.Precondition, Msg: fmt.Sprintf("%s has more than %d references: too many for one plan", card.QName, maxRefs)}
	}
	return refs, nil
}

// uniqueLocations keeps one of the locations at each position: the first,
// or, where a position is found both linked and anchored (the call of one
// method of a family, a candidate use of another), the linked one.
func uniqueLocations(locs []query.RefLocation) []query.RefLocation {
	sort.SliceStable(locs, func(i, j int) bool {
		return locs[i].Tier != index.TierAnchored.String() && locs[j].Tier == index.TierAnchored.String()
	})
	return firstByKey(locs, func(l query.RefLocation) [3]any { return [3]any{l.Path, l.Line, l.Col} })
}

// finish sorts a plan, runs the gate, attaches a cached decision and stores
// the plan.
func (env *Env) finish(ctx context.Context, p *Plan, layer map[string]string, defPath string) (*Plan, error) {
	sortEdits(p.Edits)
	p.Edits = dedupEdits(p.Edits)
	counts := map[string]int{}
	ambiguous := map[string]bool{}
	files := map[string]bool{}
	for _, e := range p.Edits {
		counts[e.Path]++
		files[e.Path] = true
	}
	for _, g := range p.Groups {
		p.Counts.GroupEdits += len(g.Edits)
		for _, e := range g.Edits {
			counts[e.Path]++
			files[e.Path] = true
			ambiguous[e.Path] = true
		}
	}
	for _, m := range p.Moves {
		files[m.From] = true
	}
	list := make([]string, 0, len(files))
	for f := range files {
		list = append(list, f)
	}
	if err := env.gate(ctx, p, list, layer, counts, ambiguous, defPath); err != nil {
		return nil, err
	}
	p.Counts.Files, p.Counts.Edits, p.Counts.Groups, p.Counts.Docs, p.Counts.Moves = len(list), len(p.Edits), len(p.Groups), p.Docs.Total, len(p.Moves)
	p.Languages = env.languages(ctx, list, p.Moves)
	if p.Docs.Hits == nil {
		p.Docs.Hits = []DocHit{}
	}
	sym := ""
	if p.Symbol != nil {
		sym = p.Symbol.QName
	}
	p.Signature = signature(p.Op, sym, p.Groups)
	p.Offered = env.Store.offer(p)
	if err := env.Store.Save(p); err != nil {
		return nil, err
	}
	return p, nil
}

// languages lists the languages of the files a plan changes.
func (env *Env) languages(ctx context.Context, files []string, moves []Move) []string {
	seen := map[string]bool{}
	for _, f := range files {
		if row, ok, err := env.Snap.Store().FileByPath(ctx, f); err == nil && ok && row.Lang != "" {
			seen[row.Lang] = true
		}
	}
	out := []string{}
	for l := range seen {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// delegation reports whether location l is this(...) or super(...) in a
// constructor: a call of a constructor of the class (or of the class it
// extends) that names no class, so a rename of the class leaves it alone.
func (env *Env) delegation(l query.RefLocation) bool {
	data, ok := env.read(string(l.Path))
	if !ok {
		return false
	}
	at := offset(lang.LineStarts(data), len(data), l.Line, l.Col)
	if at < 0 {
		return false
	}
	for _, kw := range []string{"this", "super"} {
		if after, ok := bytes.CutPrefix(data[at:], []byte(kw)); ok {
			return bytes.HasPrefix(bytes.TrimLeft(after, " \t"), []byte("("))
		}
	}
	return false
}

// tokenEdit turns a reference into the edit that renames it, checking that
// the file on disk spells the old name there.
func (env *Env) tokenEdit(ctx context.Context, l query.RefLocation, old, name string) (Edit, bool) {
	e := Edit{Path: string(l.Path), Line: l.Line, Col: l.Col, EndLine: l.Line, EndCol: l.Col + len(old),
		Old: old, New: name, Kind: l.Kind, Tier: l.Tier, Layer: l.Layer}
	data, ok := env.read(e.Path)
	if !ok {
		return e, true // gone: the gate blocks the plan
	}
	starts := lang.LineStarts(data)
	a, b, ok := span(starts, len(data), e)
	if !ok || string(data[a:b]) != old {
		// A location that differs on disk only because the file changed
		// since it was indexed is kept: the gate blocks the plan.
		return e, !env.matchesIndex(ctx, e.Path)
	}
	return e, true
}

// ownerName names what a member belongs to, for questions.
func ownerName(card *query.SymbolCard) string {
	if card.Parent == nil {
		return card.Name
	}
	if k := card.Parent.Kind; k == lang.KindNamespace.String() || k == lang.KindModule.String() {
		// a member defined out of its type, inside a namespace (C++'s
		// void A::m() {}): its type is the segment before its name
		segs := strings.Split(card.QName[strings.IndexByte(card.QName, '#')+1:], ".")
		if len(segs) >= 2 {
			return segs[len(segs)-2]
		}
	}
	return card.Parent.Name
}

// checkNewName refuses a new name that is not an identifier of the language
// or is one of its keywords. A Ruby instance variable (@host) keeps its @:
// without it the new name would read as a local or a method.
func checkNewName(language, old, name string) error {
	if language == "ruby" && strings.HasPrefix(old, "@") {
		rest, ok := strings.CutPrefix(name, "@")
		if !ok || strings.HasPrefix(rest, "@") {
			return errs.E(errs.InvalidArgument, "%s is an instance variable: its new name starts with a single @ too (@%s)", old, strings.TrimLeft(name, "@"))
		}
		return checkIdent(language, rest)
	}
	return checkIdent(language, name)
}

// checkCalledByName refuses renaming a member the language's runtime calls
// by its name (Python's __str__, Ruby's to_s, JavaScript's constructor), or
// renaming one to such a name: either would change what runs without a
// call site saying so.
func checkCalledByName(card *query.SymbolCard, r *query.Resolved, name string) error {
	l := lang.Of(r.File.Lang)
	if k := lang.DefKind(r.Row.Kind); l.CalledByName == nil || k != lang.KindMethod && k != lang.KindFunction && k != lang.KindConstructor {
		return nil
	}
	title := l.DisplayName()
	if l.CalledByName(card.Name) {
		return &errs.Error{Kind: errs.Precondition,
			Msg:     fmt.Sprintf("cannot rename %s: %s calls %s by its name, so under another name it would no longer run", card.QName, title, card.Name),
			Details: map[string]any{"reason": "called_by_name", "name": card.Name},
			Fixes:   []string{"keep the name: the language fixes it"}}
	}
	if l.CalledByName(name) {
		return &errs.Error{Kind: errs.Precondition,
			Msg:     fmt.Sprintf("cannot rename %s to %s: %s calls %s by its name, so the renamed member would start running where no call says so", card.QName, name, title, name),
			Details: map[string]any{"reason": "called_by_name", "name": name},
			Fixes:   []string{"choose another name"}}
	}
	return nil
}

// checkIdent refuses a new name that is not an identifier of the language
// or is one of its keywords.
func checkIdent(language, name string) error {
	if name == "" {
		return errs.E(errs.InvalidArgument, "the new name is empty")
	}
	for i, r := range name {
		ok := r == '_' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r)) || (r == '$' && isECMA(language))
		if !ok {
			return errs.E(errs.InvalidArgument, "%q is not an identifier", name)
		}
	}
	if keywords[language][name] {
		return errs.E(errs.InvalidArgument, "%q is a keyword of %s", name, language)
	}
	return nil
}

func isECMA(l string) bool { return l == "typescript" || l == "tsx" || l == "javascript" }

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

var ecmaKeywords = words("break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await")

var keywords = map[string]map[string]bool{
	"go":         words("break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var"),
	"python":     words("False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield"),
	"typescript": ecmaKeywords,
	"tsx":        ecmaKeywords,
	"javascript": ecmaKeywords,
	"java":       words("abstract assert boolean break byte case catch char class const continue default do double else enum extends final finally float for goto if implements import instanceof int interface long native new package private protected public return short static strictfp super switch synchronized this throw throws transient try void volatile while true false null var yield record"),
	// Kotlin's hard keywords (soft ones are identifiers where a name goes)
	"kotlin": words("as break class continue do else false for fun if in interface is null object package return super this throw true try typealias typeof val var when while"),
	"csharp": words("abstract as base bool break byte case catch char checked class const continue decimal default delegate do double else enum event explicit extern false finally fixed float for foreach goto if implicit in int interface internal is lock long namespace new null object operator out override params private protected public readonly ref return sbyte sealed short sizeof stackalloc static string struct switch this throw true try typeof uint ulong unchecked unsafe ushort using virtual void volatile while"),
	"rust":   words("as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while abstract become box do final macro override priv try typeof unsized virtual yield"),
	"c":      cKeywords,
	"cpp":    words("alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t char32_t class compl concept const consteval constexpr constinit const_cast continue co_await co_return co_yield decltype default delete do double dynamic_cast else enum explicit export extern false float for friend goto if inline int long mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected public register reinterpret_cast requires return short signed sizeof static static_assert static_cast struct switch template this thread_local throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t while xor xor_eq"),
}

var cKeywords = words("auto break case char const continue default do double else enum extern float for goto if inline int long register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while _Bool _Complex _Imaginary")

// isExported reports whether a Go name is exported.
func isExported(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(r)
}

// checkRename refuses renames the language would reject: a name already
// taken in the symbol's scope, and (Go) a change of exportedness while
// other packages refer to the symbol.
func (env *Env) checkRename(ctx context.Context, card *query.SymbolCard, edits []Edit, anchored []query.RefLocation, name string) error {
	defPath := string(card.Location.Path)
	row, ok, err := env.Snap.Store().FileByPath(ctx, defPath)
	if err != nil || !ok {
		return err
	}
	facts, err := env.Snap.Facts(ctx, row.BlobID)
	if err != nil || facts == nil {
		return err
	}
	def := defAt(facts, card.Location.Line, card.Location.Col)
	if def == nil {
		return nil
	}
	if card.Language == "go" {
		return env.checkGo(ctx, card, row.Pkg, def, facts, edits, anchored, name)
	}
	for i := range facts.Defs {
		d := &facts.Defs[i]
		if d != def && d.Name == name && d.Parent == def.Parent {
			return collision(card, name, defPath, d)
		}
	}
	return nil
}

// defAt finds the definition whose name starts at a position.
func defAt(f *lang.Facts, line, col int) *lang.Def {
	for i := range f.Defs {
		d := &f.Defs[i]
		if int(d.NameSpan.Start.Line) == line && int(d.NameSpan.Start.Col) == col {
			return d
		}
	}
	return nil
}

func collision(card *query.SymbolCard, name, p string, d *lang.Def) error {
	return &errs.Error{Kind: errs.Precondition, Path: p,
		Msg:     fmt.Sprintf("cannot rename %s to %s: %s %s is already declared at %s:%d", card.QName, name, d.Kind, d.Path, p, d.NameSpan.Start.Line),
		Details: map[string]any{"reason": "name_collision", "existing": map[string]any{"path": p, "line": d.NameSpan.Start.Line, "kind": d.Kind.String(), "name": d.Path}},
		Fixes:   []string{"choose another name"}}
}

// checkGo applies Go's rules: names are unique per package (top-level) or
// per type (methods and fields), and a change between exported and
// unexported breaks every other package that refers to the symbol.
func (env *Env) checkGo(ctx context.Context, card *query.SymbolCard, pkg string, def *lang.Def, facts *lang.Facts, edits []Edit, anchored []query.RefLocation, name string) error {
	defPath := string(card.Location.Path)
	dir := path.Dir(defPath)
	owner := ""
	if def.Parent >= 0 {
		owner = facts.Defs[def.Parent].Name
	} else if def.Receiver != "" {
		owner = def.Receiver
	}
	files, err := env.packageFiles(ctx, dir, pkg)
	if err != nil {
		return err
	}
	for _, f := range files {
		ff, err := env.Snap.Facts(ctx, f.BlobID)
		if err != nil || ff == nil {
			continue
		}
		for i := range ff.Defs {
			d := &ff.Defs[i]
			if d.Name != name {
				continue
			}
			dOwner := d.Receiver
			if d.Parent >= 0 {
				dOwner = ff.Defs[d.Parent].Name
			}
			if owner == "" && d.Parent < 0 && d.Receiver == "" && d.Kind != lang.KindMethod {
				return collision(card, name, f.Path, d)
			}
			if owner != "" && dOwner == owner {
				return collision(card, name, f.Path, d)
			}
		}
	}
	if isExported(card.Name) == isExported(name) {
		return nil
	}
	var outside []string
	seen := map[string]bool{}
	check := func(p string, line int) {
		if env.samePackage(ctx, p, dir, pkg) {
			return
		}
		loc := fmt.Sprintf("%s:%d", p, line)
		if !seen[loc] {
			seen[loc] = true
			outside = append(outside, loc)
		}
	}
	for _, e := range edits {
		check(e.Path, e.Line)
	}
	for _, a := range anchored {
		check(string(a.Path), a.Line)
	}
	if len(outside) == 0 {
		return nil
	}
	sort.Strings(outside)
	total := len(outside)
	if len(outside) > 10 {
		outside = outside[:10]
	}
	what := "unexported"
	if isExported(name) {
		what = "exported"
	}
	return &errs.Error{Kind: errs.Precondition, Path: defPath,
		Msg: fmt.Sprintf("cannot rename %s to %s: it would become %s, and %d references in other packages would no longer compile (first: %s)",
			card.QName, name, what, total, outside[0]),
		Details: map[string]any{"reason": "exportedness_change", "other_package_references": outside, "total": total},
		Fixes:   []string{"keep the name's case, or move the other packages' uses first"}}
}

// packageFiles lists the indexed Go files of one package: the directory's
// files with the same package clause (an external _test package is another
// package).
func (env *Env) packageFiles(ctx context.Context, dir, pkg string) ([]fileRow, error) {
	prefix := dir + "/"
	if dir == "." {
		prefix = ""
	}
	rows, err := env.Snap.Store().FilesUnder(ctx, prefix)
	if err != nil {
		return nil, err
	}
	var out []fileRow
	for _, r := range rows {
		if r.Lang == "go" && path.Dir(r.Path) == dir && r.Pkg == pkg {
			out = append(out, fileRow{Path: r.Path, BlobID: r.BlobID, Pkg: r.Pkg})
		}
	}
	return out, nil
}

// fileRow is the part of an indexed file's row the planner reads.
type fileRow struct {
	Path   string
	BlobID int64
	Pkg    string
}

// samePackage reports whether a Go file belongs to the package in dir with
// clause pkg.
func (env *Env) samePackage(ctx context.Context, p, dir, pkg string) bool {
	if path.Dir(p) != dir {
		return false
	}
	row, ok, err := env.Snap.Store().FileByPath(ctx, p)
	return err == nil && ok && row.Pkg == pkg
}

// nameFacts are the definition and the other definitions of its name: what
// an agent weighs when it decides about anchored candidates.
func (env *Env) nameFacts(ctx context.Context, card *query.SymbolCard) []Fact {
	out := []Fact{{Type: "definition", Symbol: card.QName, Path: string(card.Location.Path), Line: card.Location.Line,
		Content: firstLine(card.Signature, card.Kind+" "+card.QName), Provenance: card.Layer, Confidence: 1}}
	res, err := env.Engine.Search(ctx, query.SearchParams{Query: card.Name, Mode: "definitions", Limit: 20})
	if err != nil {
		return out
	}
	for _, h := range res.Hits {
		if h.Symbol == nil || h.Symbol.ID == card.ID {
			continue
		}
		out = append(out, Fact{Type: "other_definition", Symbol: h.Symbol.QName, Path: string(h.Location.Path), Line: h.Location.Line,
			Content: firstLine(h.Signature, h.Symbol.Kind+" "+h.Symbol.QName), Provenance: "syntactic", Confidence: 1})
	}
	return out
}

func firstLine(s, alt string) string {
	if s == "" {
		return alt
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
