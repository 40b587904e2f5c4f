package query

import (
	"cmp"
	"context"
	"path"
	"slices"
	"sort"
	"time"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lexical"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/store"
)

// refsReserve is how much of a call's time left a references search keeps
// for what follows its scan of the files that use the name (the semantic
// layer, module names, snippets). A name used in thousands of files (Name,
// Get, Error on kubernetes) can take the whole deadline on a loaded
// machine: the scan stops when only the reserve is left, and the answer is
// what it found, marked partial, instead of a TIMEOUT with nothing.
var refsReserve = func(left time.Duration) time.Duration { return min(left/5, 5*time.Second) }

// RefsParams pages through references.
type RefsParams struct {
	Limit  int
	Offset int
	// Anchored puts anchored (unproven, same-name) references in the flat
	// locations list too; they are always summarised in groups.
	Anchored bool
	// Merge is how the layers combine: prefer (default: per file, the
	// semantic layer when it describes the file as it is, else the syntactic
	// one) or union (both layers everywhere, with their conflicts).
	Merge string
	// Layer restricts the answer to one layer: "" (the best per file),
	// syntactic or semantic.
	Layer string
	// Receivers fills Receiver on anchored locations (with Anchored).
	Receivers bool
	// Family asks for what a rename must change together instead of what
	// find-references lists: every method related to the symbol by
	// implementation, transitively and in every language, with their
	// declarations, in every package. Family members the index holds no
	// declaration of are listed in Semantic.External.
	Family bool
	// Related are the methods a call of which may run the symbol, or whose
	// declarations belong to its family, as the graph engine finds them
	// from syntax (RelatedMethod): their references are listed too, each
	// with Via and Relation, after the symbol's own.
	Related []RelatedMethod
}

// RelatedMethod is a method related to the symbol by dispatch.
type RelatedMethod struct {
	ID    int64
	QName string
	// Relation: interface (an interface method the symbol implements),
	// base (a base class's method it overrides), override (a method
	// overriding it), sibling (another implementation of an interface or
	// base method it implements or overrides).
	Relation string
	// Decl is the method's declaration (its name), listed as a reference
	// when set: a TypeScript method's family declares one member (what
	// typescript-language-server lists); Go's interface method
	// declarations are no use of the concrete method (gopls), nor is
	// anything in a package that cannot reach it (Reach).
	Decl *protocol.Location
	// Module is the module of Decl's file.
	Module int64
}

// Merge modes and layer choices.
const (
	MergePrefer = "prefer"
	MergeUnion  = "union"
)

// RefLocation is one reference.
type RefLocation struct {
	protocol.Location
	// Kind, Tier and Layer are left out on the wire when the list states
	// them once (RefsResult.Uniform).
	Kind  string `json:"kind,omitempty"` // definition, call, reference, write, import, ...
	Tier  string `json:"tier,omitempty"`
	Layer string `json:"layer,omitempty"` // semantic or syntactic
	Also  string `json:"also,omitempty"`  // union: the other layer's tier when it found the same location
	// Via is the related SCIP symbol this location references (an interface
	// method the symbol implements, or a method implementing it).
	Via       string `json:"via,omitempty"`
	Enclosing string `json:"enclosing,omitempty"`
	Snippet   string `json:"snippet"`
	// Relation says how Via is related to the symbol when syntax found the
	// reference through it (RelatedMethod.Relation).
	Relation string `json:"relation,omitempty"`
	// Receiver is the shape of what stands before an anchored reference
	// (bare, ident:x, self, ...), when asked for (RefsParams.Receivers).
	Receiver string `json:"receiver,omitempty"`
}

// AnchoredGroup gathers same-name references that syntax cannot attribute:
// same token and receiver shape, with a few exemplars.
type AnchoredGroup struct {
	Token     string        `json:"token"`
	Receiver  string        `json:"receiver"`
	Count     int           `json:"count"`
	Exemplars []RefLocation `json:"exemplars"`
}

// FileCount is a per-file count.
type FileCount struct {
	Path  string `json:"path"`
	Count int    `json:"count"`
}

// ModuleCount groups counts by module.
type ModuleCount struct {
	Module string      `json:"module"`
	Count  int         `json:"count"`
	Files  []FileCount `json:"files,omitempty"`
}

// RefsSummary is the compressed view.
type RefsSummary struct {
	Total int `json:"total"` // precise, proven and strong references, plus the definition
	// Anchored counts the anchored candidates (on the wire, Compact).
	Anchored int `json:"anchored,omitempty"`
	// ByName counts the anchored references listed because only the
	// symbol and its related methods declare the name (RelationName).
	ByName int `json:"by_name,omitempty"`
	// ByTier, ByKind and ByLayer, and the files of ByModule, are left out
	// on the wire when the locations hold every reference (Compact).
	ByTier   map[string]int `json:"by_tier,omitempty"`
	ByKind   map[string]int `json:"by_kind,omitempty"`
	ByLayer  map[string]int `json:"by_layer,omitempty"`
	ByModule []ModuleCount  `json:"by_module"`
}

// RefsResult is refs_find's payload.
type RefsResult struct {
	Symbol     SymbolRef       `json:"symbol"`
	Summary    RefsSummary     `json:"summary"`
	Uniform    *Uniform        `json:"uniform,omitempty"` // what every location shares (Compact)
	Locations  []RefLocation   `json:"locations"`
	Anchored   []AnchoredGroup `json:"anchored"`
	Layers     []string        `json:"-"` // the layers that contributed (the provenance's)
	Semantic   SemanticUse     `json:"semantic"`
	More       bool            `json:"more"`
	NextOffset int             `json:"-"`
	// BytesCovered is the size of the files holding references (what reading them would cost).
	BytesCovered int64 `json:"-"`
	// AnchoredTotal counts anchored references.
	AnchoredTotal int `json:"-"`
	// Partial is set when the deadline stopped the search early.
	Partial bool `json:"-"`
}

const (
	maxAnchoredGroups = 20
	maxExemplars      = 3
	maxFilesPerModule = 10
)

type foundRef struct {
	loc    RefLocation
	module int64
	shape  string
}

// synRef is a syntactic reference with the searched name.
type synRef struct {
	foundRef
	status synStatus
	target int64  // the symbol it is linked to, when linked
	size   int64  // the file's size
	family string // the file's language family (LangFamily)
}

type synStatus uint8

const (
	synMatch    synStatus = iota // linked to the symbol (proven or strong), or its definition
	synAnchored                  // unresolved, same name
	synOther                     // linked or bound to something else
)

type locKey struct {
	path      protocol.RepoPath
	line, col int
}

func keyOf(l protocol.Location) locKey { return locKey{l.Path, l.Line, l.Col} }

// Refs finds the references of a symbol: per file from the semantic layer
// when it describes the file as it is now, else from the syntactic layer.
func (e *Engine) Refs(ctx context.Context, r *Resolved, p RefsParams) (*RefsResult, error) {
	if p.Merge == "" {
		p.Merge = MergePrefer
	}
	if p.Merge != MergePrefer && p.Merge != MergeUnion {
		return nil, errs.E(errs.InvalidArgument, "merge must be prefer or union, got %q", p.Merge)
	}
	if err := CheckLayer(p.Layer); err != nil {
		return nil, err
	}
	if e.ov != nil && len(e.ov.files) > 0 {
		if p.Layer == "" {
			p.Layer = LayerSyntactic // the semantic layer describes the baseline's files
		}
		e.ov.Note("references in files outside the overlay are linked on the baseline index")
	}
	res := &RefsResult{Symbol: r.Ref(), Locations: []RefLocation{}, Anchored: []AnchoredGroup{}, Layers: []string{},
		Summary: RefsSummary{ByTier: map[string]int{}, ByKind: map[string]int{}, ByLayer: map[string]int{}, ByModule: []ModuleCount{}}}
	syn, err := e.syntacticRefs(ctx, r, p.Related, res)
	if err != nil {
		return nil, err
	}
	var v *SemView
	if p.Layer != LayerSyntactic {
		if v, err = e.Semantic(ctx); err != nil {
			return nil, err
		}
	}
	plan, err := e.planLayers(ctx, v, r, syn, p)
	if err != nil {
		return nil, err
	}
	res.Semantic = plan.use
	found, anchored := plan.found, plan.anchored
	res.AnchoredTotal = len(anchored)
	sizes := map[protocol.RepoPath]int64{}
	for _, s := range syn {
		sizes[s.loc.Path] = s.size
	}
	counted := map[protocol.RepoPath]bool{}
	for _, f := range append(found, anchored...) {
		if counted[f.loc.Path] {
			continue
		}
		counted[f.loc.Path] = true
		if sz, ok := sizes[f.loc.Path]; ok {
			res.BytesCovered += sz
		} else if fr, ok := v.FileRow(f.loc.Path); ok {
			res.BytesCovered += fr.Size
		}
	}
	if p.Anchored {
		for _, a := range anchored {
			if p.Receivers {
				a.loc.Receiver = a.shape
			}
			found = append(found, a)
		}
	}
	rankRefs(found, r)
	mods, err := e.moduleNames(ctx)
	if err != nil {
		return nil, err
	}
	e.summarise(res, found, anchored, mods)
	for l := range res.Summary.ByLayer {
		res.Layers = append(res.Layers, l)
	}
	sort.Strings(res.Layers)
	snip := e.snippets(ctx)
	res.Anchored = groupAnchored(anchored, r.Row.Name)
	for _, g := range res.Anchored {
		for i := range g.Exemplars {
			snip(&g.Exemplars[i])
		}
	}
	page, more := Page(found, p.Offset, p.Limit)
	res.More = more
	for _, f := range page {
		snip(&f.loc)
		res.Locations = append(res.Locations, f.loc)
	}
	res.NextOffset = p.Offset + len(res.Locations)
	return res, nil
}

// FileRow finds the current row of a path in the view (false without one).
func (v *SemView) FileRow(p protocol.RepoPath) (*store.FileRow, bool) {
	if v == nil || v.files == nil {
		return nil, false
	}
	f, ok := v.files[string(p)]
	return f, ok
}

// snippets returns a function that fills a location's snippet, reading each
// file's content once.
func (e *Engine) snippets(ctx context.Context) func(*RefLocation) {
	content := map[protocol.RepoPath][]byte{}
	return func(l *RefLocation) {
		if l.Snippet != "" {
			return
		}
		c, ok := content[l.Path]
		if f, held := e.ovFile(string(l.Path)); held && !ok {
			c, ok = f.content, true
			content[l.Path] = c
		}
		if !ok {
			if f, found, err := e.Store().FileByPath(ctx, string(l.Path)); err == nil && found {
				c, _ = e.Store().BlobText(ctx, f.BlobID)
			}
			content[l.Path] = c
		}
		l.Snippet = snippet(lexical.LineText(c, l.Line), l.Col)
	}
}

// syntacticRefs lists every syntactic reference carrying the symbol's name:
// its definition, the references linked to it, the anchored candidates, and
// (for conflict reports) those linked or bound to something else.
func (e *Engine) syntacticRefs(ctx context.Context, r *Resolved, rel []RelatedMethod, res *RefsResult) ([]synRef, error) {
	c, err := e.newRefClassifier(ctx, r, rel)
	if err != nil {
		return nil, err
	}
	variants, err := e.Variants(ctx, r) // the variants of its name (variants.go)
	if err != nil {
		return nil, err
	}
	out := c.definitions(append([]*Resolved{r}, variants...), rel)
	late := deadlineNear(ctx, res)
	var aliases []alias // the local names renamed imports of name give it
	err = e.eachNamedRef(ctx, c.name, late, func(nf *NameFile, ri int, ref lang.Ref, s synRef) {
		if r.Def != nil && nf.File.Path == r.File.Path && ref.Pos == r.Def.NameSpan.Start && ref.Shape != lang.QualNone {
			return // a member the definition's own name reads (const { a } = x): listed as the definition
		}
		if a, ok := renamedImport(nf, ref, c.name); ok && r.Row.Parent == 0 && s.family == LangFamily(r.File.Lang) {
			aliases = append(aliases, a)
		}
		out = append(out, c.classify(nf, ri, ref, s))
	})
	if err != nil {
		return nil, err
	}
	accessed, err := e.accessorRefs(ctx, r, c.match, late)
	if err != nil {
		return nil, err
	}
	out = append(out, accessed...)
	aliased, err := e.aliasRefs(ctx, r, aliases, c.match, late)
	if err != nil {
		return nil, err
	}
	out = append(out, aliased...)
	if len(rel) > 0 && c.member {
		only, err := e.onlyFamily(ctx, r, c.match, c.related)
		if err != nil {
			return nil, err
		}
		for i := range out {
			if s := &out[i]; only && s.status == synAnchored && s.family == LangFamily(r.File.Lang) {
				s.status, s.loc.Relation = synMatch, RelationName
			}
		}
	}
	return out, nil
}

// deadlineNear reports, once the request's deadline nears (less than its
// reserve left), that the answer is partial, marking res so.
func deadlineNear(ctx context.Context, res *RefsResult) func() bool {
	var stop time.Time
	if d, ok := ctx.Deadline(); ok {
		stop = d.Add(-refsReserve(time.Until(d)))
	}
	return func() bool {
		if ctx.Err() != nil || (!stop.IsZero() && !time.Now().Before(stop)) {
			res.Partial = true // summarise what was found
		}
		return res.Partial
	}
}

// refClassifier says what each reference spelled like a symbol is to it:
// a match, an anchored candidate, or something else.
type refClassifier struct {
	r *Resolved
	// name is the name its references spell: the class's for a
	// constructor named apart from it (byClass: TypeScript's constructor,
	// PHP's __construct, run by the calls of the class's name).
	name, byClass string
	member        bool
	// match holds the symbol and the variants of its name; merged its
	// merged declarations; related the methods related to it (reach the
	// directories where a call through them may run it).
	match, merged map[int64]bool
	related       map[int64]RelatedMethod
	reach         map[string]bool
	overloads     *OverloadSet
	dispatch      func(target int64) bool
	otherArity    func(ref lang.Ref) bool
}

func (e *Engine) newRefClassifier(ctx context.Context, r *Resolved, rel []RelatedMethod) (*refClassifier, error) {
	c := &refClassifier{r: r, name: r.Row.Name, member: IsMemberKind(lang.DefKind(r.Row.Kind)), match: map[int64]bool{r.Row.ID: true}}
	var err error
	if c.byClass, err = e.instantiatedAs(ctx, r); err != nil {
		return nil, err
	}
	if c.byClass != "" {
		c.name = c.byClass
	}
	c.dispatch = e.dispatchCheck(ctx, r.Row, r.File.Lang)
	if c.related, c.reach, err = e.relatedRefs(ctx, r, rel); err != nil {
		return nil, err
	}
	if c.overloads, err = e.Overloads(ctx, r); err != nil {
		return nil, err
	}
	c.otherArity = e.callsOtherArity(ctx, r, rel)
	if c.merged, err = e.mergedDeclarations(ctx, r); err != nil {
		return nil, err
	}
	return c, nil
}

// definitions lists the definitions of the symbol and its variants (each
// then a match) and the declarations of the related methods.
func (c *refClassifier) definitions(defs []*Resolved, rel []RelatedMethod) []synRef {
	var out []synRef
	for _, d := range defs {
		c.match[d.Row.ID] = true
		if d.Def != nil {
			out = append(out, synRef{foundRef: foundRef{loc: RefLocation{Location: spanLoc(d.File.Path, d.Def.NameSpan), Kind: "definition",
				Tier: index.TierProven.String(), Layer: LayerSyntactic}, module: d.File.ModuleID}, status: synMatch, target: d.Row.ID, size: d.File.Size})
		}
	}
	for _, m := range rel {
		if m.Decl != nil {
			out = append(out, synRef{foundRef: foundRef{loc: RefLocation{Location: *m.Decl, Kind: "definition", Tier: index.TierStrong.String(),
				Layer: LayerSyntactic, Via: m.QName, Relation: m.Relation}, module: m.Module}, status: synMatch, target: m.ID})
		}
	}
	return out
}

// namesModule reports whether ref is the local name of a module or package
// the file imports whole (Effect in Effect.map with import * as Effect,
// strings in strings.Cut, os in os.path): it names that module, not a
// symbol, unless the symbol asked for is a namespace or module itself.
func (c *refClassifier) namesModule(facts *lang.Facts, ref lang.Ref) bool {
	if ref.Shape != lang.QualNone || ref.BindImp < 0 || int(ref.BindImp) >= len(facts.Imports) {
		return false
	}
	switch lang.DefKind(c.r.Row.Kind) {
	case lang.KindNamespace, lang.KindModule:
		return false
	}
	im := facts.Imports[ref.BindImp]
	local := im.LocalName() // none for a Go import, whose name its package declares
	return (im.Kind == lang.ImportModule || im.Kind == lang.ImportNamespace) && (local == "" || facts.Names[ref.Name] == local)
}

// classify sets the status, tier and relation of reference ri of a file.
func (c *refClassifier) classify(nf *NameFile, ri int, ref lang.Ref, s synRef) synRef {
	r, facts := c.r, nf.Facts
	if c.byClass != "" && ref.Role != lang.RoleCall {
		s.status = synOther // the class named, not instantiated
	} else if l, ok := nf.Links[ri]; ok {
		s = c.linked(nf, ref, l, s)
	} else if parameterProperty(r, nf.File.Path, facts, ref) {
		// the parameter that declares the property (constructor(private x: T)):
		// one declaration, so its uses in the constructor are the property's
		s.loc.Tier = index.TierProven.String()
	} else if ref.BindLocal >= 0 || ref.BindDef >= 0 || (c.member && ref.Shape == lang.QualNone) || c.namesModule(facts, ref) {
		s.status = synOther // bound to something else, or cannot be a member access
	} else {
		s.status = synAnchored
		s.loc.Tier = index.TierAnchored.String()
	}
	if c.overloads == nil && s.status == synAnchored && c.otherArity(ref) {
		s.status = synOther // a call the symbol cannot take: a method of another arity
	}
	if c.overloads != nil && s.status == synAnchored && s.loc.Relation == "" && (ref.Role == lang.RoleCall || ref.Role == lang.RoleDoc) {
		// a call of the name syntax did not link: which overload
		// takes its arguments, if any
		switch ov := c.overloads.For(facts, ref, r.Row.ID); {
		case ov == nil:
		case !ov.Takes(r.Row.ID, ref.Args):
			s.status = synOther
		case !ov.Only(r.Row.ID, ref.Args) && ref.Role == lang.RoleDoc:
			s.status = synOther // a doc link that does not tell the overloads apart: prose
		case !ov.Only(r.Row.ID, ref.Args):
			s.loc.Relation = RelationOverload
		}
	}
	return s
}

// linked classifies a reference the linker linked (l).
func (c *refClassifier) linked(nf *NameFile, ref lang.Ref, l index.Link, s synRef) synRef {
	r := c.r
	s.target = l.Target
	s.loc.Tier = l.Tier.String()
	if ov := c.overloads.For(nf.Facts, ref, r.Row.ID); ov != nil && overloadCandidate(ov, r.Row.ID, l.Target, ref) {
		s.status, s.loc.Relation = synAnchored, RelationOverload
		s.loc.Tier = index.TierAnchored.String()
		if ref.Role == lang.RoleDoc {
			s.status = synOther // a doc link that does not tell the overloads apart: prose, no candidate
		}
	} else if Instantiates(r, l.Target, ref) {
		s.status, s.loc.Relation, s.loc.Tier = instantiation(c.overloads, r.Row.ID, ref.Args, s.loc.Tier)
	} else if c.merged[l.Target] && ref.Role == lang.RoleImport {
		// import { X } brings in every declaration of X
	} else if m, ok := c.related[l.Target]; ok && !c.match[l.Target] && (c.reach == nil || c.reach[path.Dir(nf.File.Path)]) {
		s.loc.Via, s.loc.Relation = m.QName, m.Relation // a call through it may run the symbol
	} else if !c.match[l.Target] {
		s.status = synOther // linked elsewhere, or outside the repository (Target 0)
		if l.Target != 0 && c.dispatch(l.Target) && !c.otherArity(ref) {
			// a call through an interface may reach the symbol
			s.status = synAnchored
			s.loc.Tier = index.TierAnchored.String()
		}
	}
	return s
}

// eachNamedRef calls fn for each reference spelled name in the files whose
// name postings hold it (not a scan), with the location syntax gives it,
// until late says the deadline nears.
func (e *Engine) eachNamedRef(ctx context.Context, name string, late func() bool, fn func(nf *NameFile, ri int, ref lang.Ref, s synRef)) error {
	cands, err := e.Store().NameCandidates(ctx, name)
	if err != nil {
		return err
	}
	for _, c := range e.ovTextHits(cands, nil) {
		if late() {
			return nil
		}
		if c.Lang == "" {
			continue
		}
		nf, err := e.NameFileOf(ctx, c.FileID, name)
		if err != nil || nf == nil {
			continue // gone since the text search, or no such identifier
		}
		f, facts := nf.File, nf.Facts
		for ri, ref := range facts.Refs {
			if int(ref.Name) != nf.NameID {
				continue
			}
			s := synRef{foundRef: foundRef{loc: RefLocation{Location: RefLoc(f.Path, ref.Pos, name), Kind: ref.Role.String(), Layer: LayerSyntactic},
				module: f.ModuleID, shape: ShapeKey(facts, ref)}, size: f.Size, family: LangFamily(c.Lang)}
			if ref.Enclosing >= 0 {
				s.loc.Enclosing = facts.Defs[ref.Enclosing].Path
			}
			fn(nf, ri, ref, s)
		}
	}
	return nil
}

// callsOtherArity reports whether a call passes a number of arguments
// symbol r does not take: then it runs another method of the name, not r or
// a method tied to it (add(i, e) is never add(e)). Only where the
// definition says the arity of every call that runs it: in Java, whose
// methods have no defaults and whose overrides repeat the parameters, when
// every method tied to it (rel) is Java's too; in Kotlin and C# for a
// method nothing is tied to (an override there leaves out the defaults its
// base declares); never in C++, whose definitions in .cpp files leave out
// the defaults their headers declare.
func (e *Engine) callsOtherArity(ctx context.Context, r *Resolved, rel []RelatedMethod) func(ref lang.Ref) bool {
	exact := false
	switch r.File.Lang {
	case "java":
		exact = len(rel) == 0 || e.allJava(ctx, rel)
	case "kotlin", "csharp":
		exact = len(rel) == 0
	}
	if r.Def == nil || !exact {
		return func(lang.Ref) bool { return false }
	}
	a := lang.ArityOf(r.Def.Signature, r.Row.Name)
	return func(ref lang.Ref) bool {
		return a.Known && ref.Role == lang.RoleCall && ref.Args > 0 && !a.Takes(int(ref.Args)-1)
	}
}

// allJava reports whether every method of rel is declared in a Java file
// (two batched reads; false when one is not found).
func (e *Engine) allJava(ctx context.Context, rel []RelatedMethod) bool {
	ids := make([]int64, len(rel))
	for i, m := range rel {
		ids[i] = m.ID
	}
	rows, err := e.Store().SymbolsByIDs(ctx, ids)
	if err != nil || len(rows) != len(rel) {
		return false
	}
	fileIDs := make([]int64, 0, len(rows))
	for _, row := range rows {
		fileIDs = append(fileIDs, row.FileID)
	}
	fileIDs = slices.Compact(slices.Sorted(slices.Values(fileIDs)))
	files, err := e.Store().FilesByIDs(ctx, fileIDs)
	if err != nil || len(files) != len(fileIDs) {
		return false
	}
	for _, f := range files {
		if f.Lang != "java" {
			return false
		}
	}
	return true
}

// overloadCandidate reports whether a call linked to target may run
// overload id without syntax being sure of it: linked to id although
// another overload takes its arguments too (or none does), or linked to
// the first overload while id takes them.
func overloadCandidate(o *OverloadSet, id, target int64, ref lang.Ref) bool {
	if ref.Role != lang.RoleCall && ref.Role != lang.RoleDoc { // a doc link names an overload by arity too: #put(K, V)
		return false
	}
	switch target {
	case id:
		return !o.Only(id, ref.Args)
	case o.First:
		return o.Takes(id, ref.Args)
	}
	return false
}

// RelationName marks an anchored reference listed because the repository
// declares its name, in the symbol's language, only on the symbol and its
// related methods: whatever the receiver is, if the call reaches the
// repository's code it reaches one of them.
const RelationName = "name"

// maxNameOwners bounds the same-name symbols onlyFamily looks at; a name
// declared more often is common, and never the family's alone.
const maxNameOwners = 200

// onlyFamily reports whether every member of the repository with the
// symbol's name in its language is the symbol, a variant of it or one of
// its related methods.
func (e *Engine) onlyFamily(ctx context.Context, r *Resolved, match map[int64]bool, related map[int64]RelatedMethod) (bool, error) {
	rows, err := e.Store().SymbolsByName(ctx, r.Row.Name)
	if err != nil || len(rows) > maxNameOwners {
		return false, err
	}
	fam := LangFamily(r.File.Lang)
	for _, row := range rows {
		if _, ok := related[row.ID]; ok || match[row.ID] || !IsMemberKind(lang.DefKind(row.Kind)) {
			continue
		}
		f, found, err := e.Store().FileByID(ctx, row.FileID)
		if err != nil {
			return false, err
		}
		if found && LangFamily(f.Lang) == fam {
			return false, nil
		}
	}
	return true, nil
}

// relatedRefs indexes the related methods by id and, where they are related
// through dispatch (a Go method's), the package directories that can reach
// it (its own and those importing it, directly or not): a call through an
// interface elsewhere cannot run it (gopls's scope). reach is nil when any
// package may.
func (e *Engine) relatedRefs(ctx context.Context, r *Resolved, rel []RelatedMethod) (map[int64]RelatedMethod, map[string]bool, error) {
	if len(rel) == 0 {
		return nil, nil, nil
	}
	related := make(map[int64]RelatedMethod, len(rel))
	for _, m := range rel {
		related[m.ID] = m
	}
	if lang.Of(r.File.Lang).RelatedRefs != lang.RelatedDispatch {
		return related, nil, nil
	}
	v, err := e.Semantic(ctx)
	if err != nil {
		return nil, nil, err
	}
	reach, err := e.dependents(ctx, v, r.File.Lang, path.Dir(r.File.Path))
	return related, reach, err
}

// dispatchCheck returns a test for references linked to another symbol
// that may still reach sym at run time: sym is a method and the other is a
// method of the same name, one of them an interface's and the other not (a
// call through the interface may dispatch to the concrete method). Where
// types say what they implement (Java, C#, PHP), only
// when one of the two types extends or implements the other; elsewhere (Go)
// syntax does not know which types implement which interfaces.
func (e *Engine) dispatchCheck(ctx context.Context, sym store.SymbolRow, language string) func(target int64) bool {
	if lang.DefKind(sym.Kind) != lang.KindMethod {
		return func(int64) bool { return false }
	}
	parentKind := map[int64]lang.DefKind{}
	inInterface := func(row store.SymbolRow) bool {
		if row.Parent == 0 {
			return false
		}
		k, ok := parentKind[row.Parent]
		if !ok {
			if p, found, err := e.Store().SymbolByID(ctx, row.Parent); err == nil && found {
				k = lang.DefKind(p.Kind)
			}
			parentKind[row.Parent] = k
		}
		return k == lang.KindInterface
	}
	own := inInterface(sym)
	// Java, C# and the other languages whose types say what they implement:
	// only an interface the symbol's type implements, or a class
	// implementing the symbol's interface, dispatches to it
	// (TypeScript's match by structure, and says so by RelatedFamily)
	l := lang.Of(language)
	nominal := l.Dispatch == lang.DispatchHierarchy && l.RelatedRefs == lang.RelatedNone
	seen := map[int64]bool{}
	related := map[int64]bool{} // by the other method's type
	return func(target int64) bool {
		if ok, done := seen[target]; done {
			return ok
		}
		row, found, err := e.Store().SymbolByID(ctx, target)
		ok := err == nil && found && lang.DefKind(row.Kind) == lang.KindMethod && row.Name == sym.Name && inInterface(row) != own
		if ok && nominal {
			r, done := related[row.Parent]
			if !done {
				r = e.typeRelated(ctx, sym.Parent, row.Parent)
				related[row.Parent] = r
			}
			ok = r
		}
		seen[target] = ok
		return ok
	}
}

// maxRelatedTypes bounds the subtypes typeRelated walks from each side.
const maxRelatedTypes = 4096

// typeRelated reports whether one of two types extends or implements the
// other, transitively, by the repository's type edges.
func (e *Engine) typeRelated(ctx context.Context, a, b int64) bool {
	if a == 0 || b == 0 {
		return false
	}
	return a == b || e.subtypeOf(ctx, a, b) || e.subtypeOf(ctx, b, a)
}

// subtypeOf reports whether sub is reached from super by edges of types
// extending or implementing it.
func (e *Engine) subtypeOf(ctx context.Context, sub, super int64) bool {
	seen := map[int64]bool{super: true}
	queue := []int64{super}
	for len(queue) > 0 && len(seen) < maxRelatedTypes {
		t := queue[0]
		queue = queue[1:]
		edges, err := e.EdgesTo(ctx, t, uint8(index.EdgeExtends), uint8(index.EdgeImplements))
		if err != nil {
			return true // unknown: keep the candidate
		}
		for _, ed := range edges {
			if ed.Src == sub {
				return true
			}
			if !seen[ed.Src] {
				seen[ed.Src] = true
				queue = append(queue, ed.Src)
			}
		}
	}
	return len(seen) >= maxRelatedTypes // cut: keep the candidate
}

// IsMemberKind reports whether a definition kind belongs to a type (methods,
// fields, properties, enum members, constructors).
func IsMemberKind(k lang.DefKind) bool {
	switch k {
	case lang.KindMethod, lang.KindField, lang.KindProperty, lang.KindEnumMember, lang.KindConstructor:
		return true
	}
	return false
}

// ShapeKey names a reference's receiver shape with the qualifier's text
// (ident:client, self, path:s.store), or "bare" for an unqualified name.
func ShapeKey(f *lang.Facts, r lang.Ref) string {
	if r.Shape == lang.QualNone {
		return "bare"
	}
	q := f.Names[r.Qualifier]
	if q == "" {
		return r.Shape.String()
	}
	return r.Shape.String() + ":" + q
}

// LessLoc orders locations by path, line and column.
func LessLoc(a, b protocol.Location) bool {
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Col < b.Col
}

func (e *Engine) moduleNames(ctx context.Context) (map[int64]string, error) {
	mods, err := e.Store().Modules(ctx)
	if err != nil {
		return nil, err
	}
	out := map[int64]string{}
	for _, m := range mods {
		out[m.ID] = m.Name
	}
	return out, nil
}

func (e *Engine) summarise(res *RefsResult, found, anchored []foundRef, mods map[int64]string) {
	byModule := map[string]map[string]int{}
	for _, f := range found {
		res.Summary.ByTier[f.loc.Tier]++
		res.Summary.ByKind[f.loc.Kind]++
		res.Summary.ByLayer[f.loc.Layer]++
		if f.loc.Relation == RelationName {
			res.Summary.ByName++
		}
		if f.loc.Tier == index.TierAnchored.String() {
			continue
		}
		res.Summary.Total++
		m := mods[f.module]
		if byModule[m] == nil {
			byModule[m] = map[string]int{}
		}
		byModule[m][string(f.loc.Path)]++
	}
	if len(anchored) > 0 {
		res.Summary.ByTier[index.TierAnchored.String()] = len(anchored)
		if res.Summary.ByLayer[LayerSyntactic] == 0 {
			res.Summary.ByLayer[LayerSyntactic] = 0
		}
	}
	for m, files := range byModule {
		mc := ModuleCount{Module: m, Files: []FileCount{}}
		for p, n := range files {
			mc.Count += n
			mc.Files = append(mc.Files, FileCount{Path: p, Count: n})
		}
		sort.Slice(mc.Files, func(i, j int) bool {
			a, b := mc.Files[i], mc.Files[j]
			if ta, tb := IsTestFile(a.Path), IsTestFile(b.Path); ta != tb {
				return !ta // tests last: a module's file list is cut
			}
			return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Path, b.Path)) < 0
		})
		if len(mc.Files) > maxFilesPerModule {
			mc.Files = mc.Files[:maxFilesPerModule]
		}
		res.Summary.ByModule = append(res.Summary.ByModule, mc)
	}
	sort.Slice(res.Summary.ByModule, func(i, j int) bool {
		a, b := res.Summary.ByModule[i], res.Summary.ByModule[j]
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Module, b.Module)) < 0
	})
}

func groupAnchored(anchored []foundRef, token string) []AnchoredGroup {
	groups := map[string]*AnchoredGroup{}
	for _, a := range anchored {
		g := groups[a.shape]
		if g == nil {
			g = &AnchoredGroup{Token: token, Receiver: a.shape, Exemplars: []RefLocation{}}
			groups[a.shape] = g
		}
		g.Count++
		if len(g.Exemplars) < maxExemplars {
			g.Exemplars = append(g.Exemplars, a.loc)
		}
	}
	out := make([]AnchoredGroup, 0, len(groups))
	for _, g := range groups {
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool {
		return cmp.Or(cmp.Compare(out[j].Count, out[i].Count), cmp.Compare(out[i].Receiver, out[j].Receiver)) < 0
	})
	if len(out) > maxAnchoredGroups {
		out = out[:maxAnchoredGroups]
	}
	return out
}

// rankRefs orders references: the repository's code before its tests, then
// the symbol's own before those through related methods, then the nearest
// the symbol's definition (its directory, then its module),
// then the proven and strong before the anchored candidates, then by
// location (a file's references stay together). Pages follow this order.
func rankRefs(found []foundRef, r *Resolved) {
	type rank struct {
		test bool
		prox int
	}
	ranks := map[protocol.RepoPath]rank{}
	rankOf := func(f foundRef) rank {
		rk, ok := ranks[f.loc.Path]
		if !ok {
			p := string(f.loc.Path)
			rk = rank{IsTestFile(p), Proximity(p, r.File.Path, f.module, r.Row.ModuleID)}
			ranks[f.loc.Path] = rk
		}
		return rk
	}
	anchored := func(f foundRef) bool { return f.loc.Tier == index.TierAnchored.String() }
	sort.SliceStable(found, func(i, j int) bool {
		a, b := found[i], found[j]
		ra, rb := rankOf(a), rankOf(b)
		if ra.test != rb.test {
			return !ra.test
		}
		if ra, rb := a.loc.Relation != "", b.loc.Relation != ""; ra != rb {
			return !ra // the symbol's own references before those through related methods
		}
		if ra.prox != rb.prox {
			return ra.prox < rb.prox
		}
		if aa, ab := anchored(a), anchored(b); aa != ab {
			return !aa
		}
		return LessLoc(a.loc.Location, b.loc.Location)
	})
}

// parameterProperty reports whether ref, a name of file path that binds to
// nothing, names property r in the constructor whose parameter declares it
// (TypeScript's constructor(private x: T) { use(x) }: the parameter and
// the property are one declaration, written once).
func parameterProperty(r *Resolved, path string, facts *lang.Facts, ref lang.Ref) bool {
	if r.Def == nil || lang.DefKind(r.Row.Kind) != lang.KindProperty || path != string(r.File.Path) ||
		ref.Shape != lang.QualNone || ref.BindLocal >= 0 || ref.BindDef >= 0 || ref.BindImp >= 0 || ref.Enclosing < 0 {
		return false
	}
	c := facts.Defs[ref.Enclosing]
	return c.Kind == lang.KindConstructor && c.Parent == r.Def.Parent && c.Span.Contains(r.Def.NameSpan.Start)
}
