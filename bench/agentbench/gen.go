package agentbench

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Repo is one corpus the questions are asked about.
type Repo struct {
	Name, Lang string
	// Corpus is the name bench/corpora.sh prints for it.
	Corpus  string
	Version string
	// Dir is the sub-tree the pools are read from ("." for the whole tree).
	Dir string
}

// Repos are the corpora, in report order.
var Repos = []Repo{
	{"gin", "go", "go_small", "github.com/gin-gonic/gin v1.10.0 (module proxy)", "."},
	{"client-go", "go", "go_med", "k8s.io/client-go v0.31.0 (module proxy)", "."},
	{"kubernetes", "go", "go_large", "k8s.io/kubernetes v1.31.0 (module proxy; vendor/ and go.work removed, the staging modules required at v0.31.0 so the module builds; questions and items outside staging/)", "."},
	{"rxjs", "ts", "ts_small", "rxjs 7.8.1 (npm; src/, tsconfig.json, package.json)", "src"},
	{"effect", "ts", "ts", "effect 3.10.0 (npm; src/ and package.json, with the tsconfig.json run.sh writes)", "src"},
	{"django", "py", "py", "Django 3.2 (Debian python3-django; the package under django/)", "django"},
}

// Plan is the fixed quota: for each kind, the repository of each question.
var Plan = map[string][]string{
	KindCallers:      {"gin", "client-go", "kubernetes", "rxjs", "effect", "django"},
	KindCallees:      {"gin", "client-go", "kubernetes", "rxjs", "effect", "django"},
	KindImpls:        {"gin", "client-go", "kubernetes", "rxjs", "effect", "django"},
	KindImporters:    {"gin", "client-go", "kubernetes", "rxjs", "effect", "django"},
	KindDependents:   {"gin", "client-go", "client-go", "kubernetes", "kubernetes", "django"},
	KindDefinition:   {"gin", "client-go", "kubernetes", "rxjs", "effect", "django"},
	KindReferences:   {"gin", "client-go", "kubernetes", "rxjs", "effect", "django"},
	KindBuildVariant: {"gin", "gin", "kubernetes", "kubernetes", "kubernetes", "kubernetes"},
}

// Bounds on the size of a truth set, per kind: a drawn target whose oracle
// answer falls outside is put back and the next candidate is tried.
var Bounds = map[string][2]int{
	KindCallers:      {1, 30},
	KindCallees:      {2, 30},
	KindImpls:        {1, 30},
	KindImporters:    {1, 40},
	KindDependents:   {1, 40},
	KindDefinition:   {1, 5},
	KindReferences:   {2, 50},
	KindBuildVariant: {2, 10},
}

// Gen draws the questions and computes their ground truth.
type Gen struct {
	Seed   uint64
	Work   map[string]string // repo name -> work copy
	Node   string            // directory holding node_modules with typescript
	GoEnv  []string          // environment for gopls
	Log    func(format string, args ...any)
	Tries  int               // candidates tried per question at most
	Oracle map[string]string // oracle name -> version
}

func (g *Gen) rng(parts ...string) *rand.Rand {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return rand.New(rand.NewPCG(g.Seed, h.Sum64()))
}

// Run draws every question of the plan, repository by repository (one
// oracle process per repository).
func (g *Gen) Run(ctx context.Context, only []string) (*Set, error) {
	set := &Set{Version: 1, Seed: g.Seed, Generated: time.Now().UTC().Format("2006-01-02"),
		Quota: map[string]int{}, Corpora: map[string]string{}, Oracles: g.Oracle}
	for k, rs := range Plan {
		set.Quota[k] = len(rs)
	}
	for _, r := range Repos {
		set.Corpora[r.Name] = r.Version
	}
	for _, r := range Repos {
		if len(only) > 0 && !contains(only, r.Name) {
			continue
		}
		qs, err := g.repo(ctx, r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.Name, err)
		}
		set.Questions = append(set.Questions, qs...)
	}
	return set, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// candidate is a drawn target and how to ask it.
type candidate struct {
	key  string // for the draw order
	ask  func(ctx context.Context) (*Question, error)
	name string
}

func (g *Gen) repo(ctx context.Context, r Repo) ([]Question, error) {
	root := g.Work[r.Name]
	g.Log("%s: reading the sources", r.Name)
	var lang langPools
	var err error
	if r.Lang == "go" {
		lang.gp, err = LoadGoPool(root)
	} else {
		lang.sp, err = LoadSrcPool(r.Lang, root, r.Dir, g.Node)
	}
	if err != nil {
		return nil, err
	}
	g.Log("%s: starting the oracle", r.Name)
	t0 := time.Now()
	var env []string
	if r.Lang == "go" {
		env = g.GoEnv
	}
	o, err := StartOracle(ctx, r.Lang, root, env)
	if err != nil {
		return nil, err
	}
	defer o.Close()
	g.Log("%s: %s ready in %s", r.Name, o.Name, time.Since(t0).Round(time.Second))
	b := &builder{g: g, r: r, o: o, langPools: lang, root: root}
	b.index()
	var out []Question
	for _, kind := range Kinds {
		n := 0
		for i, rn := range Plan[kind] {
			if rn != r.Name {
				continue
			}
			n++
			cands := b.candidates(kind)
			rng := g.rng(kind, r.Name, strconv.Itoa(n))
			rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
			var q *Question
			tries := 0
			for _, c := range cands {
				if b.used[kind+" "+c.key] {
					continue
				}
				if tries >= g.Tries {
					break
				}
				tries++
				cctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
				t := time.Now()
				q, err = c.ask(cctx)
				cancel()
				if err != nil {
					g.Log("  %s %s: %v", kind, c.name, err)
					q = nil
				}
				b.used[kind+" "+c.key] = true
				if q != nil {
					q.ID = fmt.Sprintf("%s-%s-%d", kind, r.Name, n)
					g.Log("  %s %s: %d true items (%s)", kind, c.name, len(q.Truth), time.Since(t).Round(time.Millisecond))
					break
				}
				g.Log("  %s %s: put back (%s)", kind, c.name, time.Since(t).Round(time.Millisecond))
			}
			if q == nil {
				return nil, fmt.Errorf("%s question %d: no candidate fits after %d tries", kind, i, tries)
			}
			out = append(out, *q)
		}
	}
	return out, nil
}

type langPools struct {
	gp *GoPool
	sp *SrcPool
}

// builder draws one repository's questions.
type builder struct {
	g *Gen
	r Repo
	o *Oracle
	langPools
	root string
	used map[string]bool
	// defs counts the definitions of each bare name (functions, methods,
	// classes, types): a name defined more than once is a decoy for grep.
	defs map[string]int
	// calls counts call sites per bare name.
	calls map[string]int
}

func (b *builder) index() {
	b.used = map[string]bool{}
	b.defs = map[string]int{}
	b.calls = map[string]int{}
	if b.gp != nil {
		for _, f := range b.gp.Files {
			for _, fn := range f.Funcs {
				b.defs[fn.Name]++
			}
			for _, v := range f.Values {
				b.defs[v.Name]++
			}
			for _, c := range f.Calls {
				b.calls[c.Name]++
			}
		}
		return
	}
	for _, f := range b.sp.Files {
		for _, fn := range f.Funcs {
			b.defs[fn.Name]++
		}
		for _, c := range f.Classes {
			b.defs[c.Name]++
		}
		for _, c := range f.Calls {
			b.calls[c.Name]++
		}
	}
}

// goDefault reports whether gopls, in its default configuration
// (linux/amd64, no custom tags), compiles a Go file: only those files can
// hold a question's target or site.
func goDefault(f *GoFile) bool {
	return matchConfig(f, "linux", "amd64", true, nil) || matchConfig(f, "linux", "amd64", false, nil)
}

func isTestPath(p string) bool {
	return strings.HasSuffix(p, "_test.go") || strings.Contains(p, "/tests/") || strings.HasSuffix(p, ".spec.ts") || strings.Contains(p, "/testing/")
}

// symbolName is the name an agent writes for a declaration: Go
// `pkg.Type.Method` (the full import path when the short form names several
// declarations), TypeScript `path#Class.method`, Python
// `dotted.module.Class.method`.
func (b *builder) goName(f *GoFile, recv, name string) string {
	short := f.Pkg + "."
	if recv != "" {
		short += recv + "."
	}
	short += name
	n := 0
	for _, g := range b.gp.Files {
		if g.Pkg != f.Pkg {
			continue
		}
		for _, fn := range g.Funcs {
			if fn.Name == name && fn.Recv == recv {
				n++
			}
		}
		if recv == "" {
			for _, v := range g.Values {
				if v.Name == name {
					n++
				}
			}
		}
	}
	if n > 1 || b.r.Name == "kubernetes" && f.Pkg == "v1" {
		full := b.gp.ImportPath(f.Dir) + "."
		if recv != "" {
			full += recv + "."
		}
		return full + name
	}
	return short
}

func (b *builder) srcName(f *SrcFile, class, name string) string {
	q := name
	if class != "" {
		q = class + "." + name
	}
	if b.r.Lang == "py" {
		return f.Module + "." + q
	}
	return f.Path + "#" + q
}

// enclosingGo is the function declaration of a Go file holding a line.
func (b *builder) enclosingGo(p string, line int) (GoFunc, bool) {
	for _, f := range b.gp.Files {
		if f.Path != p {
			continue
		}
		var best GoFunc
		ok := false
		for _, fn := range f.Funcs {
			if fn.Line <= line && line <= fn.EndLine {
				best, ok = fn, true
			}
		}
		return best, ok
	}
	return GoFunc{}, false
}

func (b *builder) baseQuestion(kind, target string) *Question {
	return &Question{Kind: kind, Repo: b.r.Name, Lang: b.r.Lang, Target: target, Oracle: b.o.Name}
}

func inBounds(kind string, n int) bool { bd := Bounds[kind]; return n >= bd[0] && n <= bd[1] }

func keys(ps []Pos) []string {
	var out []string
	for _, p := range ps {
		out = append(out, LocKey(p.Path, p.Line))
	}
	return dedupe(out)
}

// funcCands lists functions and methods with bodies in non-test files of
// the scope whose bare name is defined more than once (a decoy for grep)
// and called between lo and hi times by name.
type funcCand struct {
	path, class, name string
	pos               Pos
	qname             string
}

func (b *builder) funcCands(lo, hi int) []funcCand {
	var out []funcCand
	if b.gp != nil {
		for _, f := range b.gp.Files {
			if isTestPath(f.Path) || !InScope(b.r.Name, f.Path) || f.Pkg == "main" || !goDefault(f) {
				continue
			}
			for _, fn := range f.Funcs {
				if !fn.HasBody || fn.Name == "init" || fn.Name == "_" || b.defs[fn.Name] < 2 || b.calls[fn.Name] < lo || b.calls[fn.Name] > hi {
					continue
				}
				out = append(out, funcCand{f.Path, fn.Recv, fn.Name, Pos{f.Path, fn.Line, fn.Col}, b.goName(f, fn.Recv, fn.Name)})
			}
		}
		return out
	}
	for _, f := range b.sp.Files {
		if isTestPath(f.Path) || !InScope(b.r.Name, f.Path) {
			continue
		}
		for _, fn := range f.Funcs {
			if b.defs[fn.Name] < 2 || b.calls[fn.Name] < lo || b.calls[fn.Name] > hi || strings.HasPrefix(fn.Name, "__") {
				continue
			}
			out = append(out, funcCand{f.Path, fn.Class, fn.Name, Pos{f.Path, fn.Line, fn.Col}, b.srcName(f, fn.Class, fn.Name)})
		}
	}
	return out
}

func (b *builder) candidates(kind string) []candidate {
	var cs []candidate
	switch kind {
	case KindCallers, KindCallees, KindReferences:
		lo, hi := 1, 40
		if kind == KindCallees {
			lo, hi = 0, 1000
		}
		if kind == KindReferences {
			lo, hi = 1, 60
		}
		for _, fc := range b.funcCands(lo, hi) {
			fc := fc
			cs = append(cs, candidate{key: fc.qname, name: fc.qname, ask: func(ctx context.Context) (*Question, error) {
				switch kind {
				case KindCallers:
					return b.askCallers(ctx, fc)
				case KindCallees:
					return b.askCallees(ctx, fc)
				}
				return b.askRefs(ctx, fc)
			}})
		}
	case KindImpls:
		cs = b.implCands()
	case KindImporters, KindDependents:
		cs = b.importCands(kind)
	case KindDefinition:
		cs = b.defCands()
	case KindBuildVariant:
		cs = b.variantCands()
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].key < cs[j].key })
	return cs
}

func (b *builder) askCallers(ctx context.Context, fc funcCand) (*Question, error) {
	calls, err := b.o.Calls(ctx, fc.pos, true)
	if err != nil {
		return nil, err
	}
	var truth []string
	for _, c := range calls {
		if c.External {
			continue
		}
		if b.gp != nil {
			// gopls names a call inside a function literal by the literal;
			// the caller is the declared function holding it
			for _, s := range c.Sites {
				fn, ok := b.enclosingGo(s.Path, s.Line)
				if !ok {
					return nil, nil // a call outside every function
				}
				if InScope(b.r.Name, s.Path) {
					truth = append(truth, LocKey(s.Path, fn.Line))
				}
			}
			continue
		}
		if c.Other.Kind == 1 || c.Other.Kind == 2 { // File, Module: a top-level call
			return nil, nil
		}
		if InScope(b.r.Name, c.Other.Path) {
			truth = append(truth, LocKey(c.Other.Path, c.Other.Line))
		}
	}
	truth = dedupe(truth)
	if !inBounds(KindCallers, len(truth)) {
		return nil, nil
	}
	q := b.baseQuestion(KindCallers, fc.qname)
	q.Text = "Which functions call " + fc.qname + " directly?"
	q.Command = []string{"callers", fc.qname, "--depth", "1", "--json"}
	q.Baseline = fc.name
	q.Oracle += " callHierarchy/incomingCalls (callers: the declared function or method holding each call)"
	q.Truth = truth
	return q, nil
}

func (b *builder) askCallees(ctx context.Context, fc funcCand) (*Question, error) {
	calls, err := b.o.Calls(ctx, fc.pos, false)
	if err != nil {
		return nil, err
	}
	var truth []string
	for _, c := range calls {
		if c.External || !InScope(b.r.Name, c.Other.Path) {
			continue
		}
		truth = append(truth, LocKey(c.Other.Path, c.Other.Line))
	}
	truth = dedupe(truth)
	if !inBounds(KindCallees, len(truth)) {
		return nil, nil
	}
	q := b.baseQuestion(KindCallees, fc.qname)
	q.Text = "Which functions and methods of the repository does " + fc.qname + " call directly?"
	q.Command = []string{"callees", fc.qname, "--depth", "1", "--json"}
	q.Baseline = fc.name
	q.Oracle += " callHierarchy/outgoingCalls (callees declared in the repository)"
	q.Truth = truth
	return q, nil
}

func (b *builder) askRefs(ctx context.Context, fc funcCand) (*Question, error) {
	refs, err := b.o.References(ctx, fc.pos)
	if err != nil {
		return nil, err
	}
	var in []Pos
	for _, p := range refs {
		if InScope(b.r.Name, p.Path) {
			in = append(in, p)
		}
	}
	truth := keys(in)
	if !inBounds(KindReferences, len(truth)) {
		return nil, nil
	}
	q := b.baseQuestion(KindReferences, fc.qname)
	q.Text = fmt.Sprintf("Where is %s used (its declaration and every reference)? %d declarations in the repository share the name %s.", fc.qname, b.defs[fc.name], fc.name)
	q.Command = []string{"refs", fc.qname, "--json"}
	q.Baseline = fc.name
	q.Oracle += " textDocument/references (declaration included)"
	q.Truth = truth
	return q, nil
}

// implCands: Go interfaces (concrete implementations), TypeScript and
// Python classes named in some class's heritage clause (direct subclasses).
func (b *builder) implCands() []candidate {
	var cs []candidate
	if b.gp != nil {
		ifaces := map[string]bool{}
		for _, f := range b.gp.Files {
			for _, it := range f.Interfaces {
				ifaces[LocKey(f.Path, it.Line)] = true
			}
		}
		for _, f := range b.gp.Files {
			if isTestPath(f.Path) || !InScope(b.r.Name, f.Path) || !goDefault(f) {
				continue
			}
			for _, it := range f.Interfaces {
				f, it := f, it
				qn := b.goName(f, "", it.Name)
				cs = append(cs, candidate{key: qn, name: qn, ask: func(ctx context.Context) (*Question, error) {
					locs, _, err := b.o.Locations(ctx, "textDocument/implementation", Pos{f.Path, it.Line, it.Col})
					if err != nil {
						return nil, err
					}
					var truth []string
					for _, l := range locs {
						k := LocKey(l.Path, l.Line)
						if InScope(b.r.Name, l.Path) && !ifaces[k] {
							truth = append(truth, k)
						}
					}
					truth = dedupe(truth)
					if !inBounds(KindImpls, len(truth)) {
						return nil, nil
					}
					q := b.baseQuestion(KindImpls, qn)
					q.Text = "Which concrete types implement the interface " + qn + "?"
					q.Command = []string{"hierarchy", qn, "--json"}
					q.Baseline = it.Name
					q.Oracle += " textDocument/implementation (concrete types in the repository)"
					q.Truth = truth
					return q, nil
				}})
			}
		}
		return cs
	}
	// heritage positions -> the class declaring them
	heritage := map[string]string{}
	named := map[string]bool{}
	for _, f := range b.sp.Files {
		for _, c := range f.Classes {
			for _, base := range c.Bases {
				heritage[fmt.Sprintf("%s:%d:%d", f.Path, base.Line, base.Col)] = LocKey(f.Path, c.Line)
				named[base.Name] = true
			}
		}
	}
	for _, f := range b.sp.Files {
		if isTestPath(f.Path) || !InScope(b.r.Name, f.Path) {
			continue
		}
		for _, c := range f.Classes {
			if c.Interface || c.Nested || !named[c.Name] {
				continue
			}
			f, c := f, c
			qn := b.srcName(f, "", c.Name)
			cs = append(cs, candidate{key: qn, name: qn, ask: func(ctx context.Context) (*Question, error) {
				refs, err := b.o.References(ctx, Pos{f.Path, c.Line, c.Col})
				if err != nil {
					return nil, err
				}
				var truth []string
				for _, r := range refs {
					if k, ok := heritage[fmt.Sprintf("%s:%d:%d", r.Path, r.Line, r.Col)]; ok && InScope(b.r.Name, r.Path) {
						truth = append(truth, k)
					}
				}
				truth = dedupe(truth)
				if !inBounds(KindImpls, len(truth)) {
					return nil, nil
				}
				q := b.baseQuestion(KindImpls, qn)
				q.Text = "Which classes extend " + qn + " directly?"
				q.Command = []string{"hierarchy", qn, "--json"}
				q.Baseline = c.Name
				q.Oracle += " textDocument/references at the class, kept where the reference is a name in a class's heritage clause (the language's parser)"
				q.Truth = truth
				return q, nil
			}})
		}
	}
	return cs
}

// importCands: Go packages, TypeScript and Python module files (importers);
// Go packages and Python package directories (dependents).
func (b *builder) importCands(kind string) []candidate {
	var cs []candidate
	add := func(key, target string, truth []string, q *Question) {
		cs = append(cs, candidate{key: key, name: target, ask: func(ctx context.Context) (*Question, error) {
			if !inBounds(kind, len(truth)) {
				return nil, nil
			}
			q.Truth = truth
			return q, nil
		}})
	}
	if b.gp != nil {
		dirs := make([]string, 0, len(b.gp.ByDir))
		for d := range b.gp.ByDir {
			dirs = append(dirs, d)
		}
		sort.Strings(dirs)
		for _, d := range dirs {
			if !InScope(b.r.Name, d+"/") || b.gp.ByDir[d][0].Pkg == "main" {
				continue
			}
			files := b.gp.Importers(d)
			var truth []string
			for _, f := range files {
				if !InScope(b.r.Name, f) {
					continue
				}
				if kind == KindImporters {
					truth = append(truth, f)
				} else if path.Dir(f) != d {
					truth = append(truth, path.Dir(f))
				}
			}
			truth = dedupe(truth)
			ip := b.gp.ImportPath(d)
			q := b.baseQuestion(kind, d)
			q.Oracle = "go/parser import specs (an import path names one package of the module)"
			q.Baseline, q.BaselineFixed = `"`+ip+`"`, true
			q.Command = []string{"importers", d, "--json"}
			if kind == KindImporters {
				q.Text = "Which files import the package " + ip + "?"
			} else {
				q.Text = "Which packages (directories) import the package " + ip + " directly?"
			}
			add(d, d, truth, q)
		}
		return cs
	}
	if kind == KindImporters {
		for _, f := range b.sp.Files {
			if !InScope(b.r.Name, f.Path) || isTestPath(f.Path) {
				continue
			}
			var truth []string
			for _, im := range b.sp.Importers(f.Path) {
				if InScope(b.r.Name, im) {
					truth = append(truth, im)
				}
			}
			q := b.baseQuestion(kind, f.Path)
			leaf := strings.TrimSuffix(path.Base(f.Path), path.Ext(f.Path))
			if b.r.Lang == "py" {
				q.Oracle = "Python's ast: the modules each import statement names (`import a.b`, `from a import b`), resolved by Python's rules"
				q.Text = "Which files import the module " + f.Module + " (" + f.Path + ")?"
				if leaf == "__init__" {
					leaf = path.Base(path.Dir(f.Path))
				}
			} else {
				q.Oracle = "TypeScript compiler API (typescript 5.9.3): ts.resolveModuleName of every import/export specifier with the project's tsconfig.json"
				q.Text = "Which files import " + f.Path + "?"
				if leaf == "index" {
					leaf = path.Base(path.Dir(f.Path))
				}
			}
			q.Baseline = leaf
			q.Command = []string{"importers", f.Path, "--json"}
			add(f.Path, f.Path, dedupe(truth), q)
		}
		return cs
	}
	// Python package directories: dependents are the directories of files
	// importing a module directly in the package directory.
	pkgs := map[string]bool{}
	for _, f := range b.sp.Files {
		if path.Base(f.Path) == "__init__.py" {
			pkgs[path.Dir(f.Path)] = true
		}
	}
	var dirs []string
	for d := range pkgs {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		var truth []string
		for _, f := range b.sp.Files {
			for _, im := range f.Imports {
				if path.Dir(im) == d && path.Dir(f.Path) != d {
					truth = append(truth, path.Dir(f.Path))
					break
				}
			}
		}
		q := b.baseQuestion(kind, d)
		mod := strings.ReplaceAll(d, "/", ".")
		q.Oracle = "Python's ast: the modules each import statement names, resolved by Python's rules; a package is a directory with __init__.py"
		q.Text = "Which packages (directories) import a module of the package " + mod + " directly?"
		q.Baseline, q.BaselineFixed = mod, true
		q.Command = []string{"importers", d, "--json"}
		add(d, d, dedupe(truth), q)
	}
	return cs
}

// defCands: call sites of names defined more than once in the repository.
func (b *builder) defCands() []candidate {
	var cs []candidate
	type site struct {
		p    Pos
		name string
	}
	var sites []site
	if b.gp != nil {
		for _, f := range b.gp.Files {
			if !InScope(b.r.Name, f.Path) || !goDefault(f) {
				continue
			}
			for _, c := range f.Calls {
				if c.Recv != "" && b.defs[c.Name] >= 2 {
					sites = append(sites, site{Pos{f.Path, c.Line, c.Col}, c.Name})
				}
			}
		}
	} else {
		for _, f := range b.sp.Files {
			if !InScope(b.r.Name, f.Path) {
				continue
			}
			for _, c := range f.Calls {
				if b.defs[c.Name] >= 2 {
					sites = append(sites, site{Pos{f.Path, c.Line, c.Col}, c.Name})
				}
			}
		}
	}
	for _, s := range sites {
		s := s
		at := fmt.Sprintf("%s:%d:%d", s.p.Path, s.p.Line, s.p.Col)
		cs = append(cs, candidate{key: at, name: at + " " + s.name, ask: func(ctx context.Context) (*Question, error) {
			locs, ext, err := b.o.Locations(ctx, "textDocument/definition", s.p)
			if err != nil {
				return nil, err
			}
			var truth []string
			for _, l := range locs {
				if InScope(b.r.Name, l.Path) {
					truth = append(truth, LocKey(l.Path, l.Line))
				}
			}
			truth = dedupe(truth)
			if ext > 0 || len(truth) != len(locs) || !inBounds(KindDefinition, len(truth)) {
				return nil, nil
			}
			q := b.baseQuestion(KindDefinition, at)
			q.Text = fmt.Sprintf("Where is the %s called at %s defined? %d declarations in the repository share the name.", s.name, at, b.defs[s.name])
			q.Command = []string{"symbol", "--at", at, "--json"}
			q.Baseline = s.name
			q.Oracle += " textDocument/definition"
			q.Truth = truth
			return q, nil
		}})
	}
	return cs
}

// variantCands: Go names declared at package level in two or more files of
// one package under build constraints or platform file names.
func (b *builder) variantCands() []candidate {
	var cs []candidate
	if b.gp == nil {
		return nil
	}
	plats, err := Platforms()
	if err != nil {
		return nil
	}
	dirs := make([]string, 0, len(b.gp.ByDir))
	for d := range b.gp.ByDir {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		files := b.gp.ByDir[d]
		if !InScope(b.r.Name, d+"/") {
			continue
		}
		conditional := func(f *GoFile) bool {
			base := path.Base(f.Path)
			return f.Constraint != nil || !goodOSArchFile(base, "linux", "amd64") || !goodOSArchFile(base, "windows", "amd64") || !goodOSArchFile(base, "darwin", "arm64")
		}
		tags := CustomTags(files)
		decls := map[string][]Pos{}
		anyCond := map[string]bool{}
		for _, f := range files {
			if isTestPath(f.Path) || !Buildable(f, plats, tags) {
				continue
			}
			for _, fn := range f.Funcs {
				k := fn.Name
				if fn.Recv != "" {
					k = fn.Recv + "." + fn.Name
				}
				decls[k] = append(decls[k], Pos{f.Path, fn.Line, fn.Col})
				if conditional(f) {
					anyCond[k] = true
				}
			}
			for _, v := range f.Values {
				decls[v.Name] = append(decls[v.Name], Pos{f.Path, v.Line, v.Col})
				if conditional(f) {
					anyCond[v.Name] = true
				}
			}
		}
		names := make([]string, 0, len(decls))
		for k := range decls {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			ps := decls[k]
			if len(ps) < 2 || !anyCond[k] || !inBounds(KindBuildVariant, len(ps)) || k == "init" {
				continue
			}
			ps, k, d := ps, k, d
			recv, name, _ := strings.Cut(k, ".")
			if name == "" {
				recv, name = "", k
			}
			pkgFile := b.gp.ByDir[d][0]
			qn := pkgFile.Pkg + "." + k
			if b.dirsWithPkg(pkgFile.Pkg, k) > 1 || b.r.Name == "kubernetes" && pkgFile.Pkg == "v1" {
				qn = b.gp.ImportPath(d) + "." + k
			}
			cs = append(cs, candidate{key: d + " " + k, name: qn, ask: func(ctx context.Context) (*Question, error) {
				return b.askVariant(ctx, d, recv, name, qn, ps)
			}})
		}
	}
	return cs
}

func (b *builder) dirsWithPkg(pkg, k string) int {
	n := 0
	for _, files := range b.gp.ByDir {
		if files[0].Pkg != pkg {
			continue
		}
		found := false
		for _, f := range files {
			for _, fn := range f.Funcs {
				kk := fn.Name
				if fn.Recv != "" {
					kk = fn.Recv + "." + fn.Name
				}
				found = found || kk == k
			}
			for _, v := range f.Values {
				found = found || v.Name == k
			}
		}
		if found {
			n++
		}
	}
	return n
}

func (b *builder) askVariant(ctx context.Context, dir, recv, name, qn string, ps []Pos) (*Question, error) {
	truth := keys(ps)
	// a call site outside the package's conditional files: go to definition
	ip := b.gp.ImportPath(dir)
	pkg := b.gp.ByDir[dir][0].Pkg
	var at *Pos
	for _, f := range b.gp.Files {
		if f.Constraint != nil || !InScope(b.r.Name, f.Path) || !goDefault(f) {
			continue
		}
		same := f.Dir == dir
		imports := false
		for _, im := range f.Imports {
			imports = imports || im == ip
		}
		if !same && !imports {
			continue
		}
		for _, c := range f.Calls {
			if c.Name != name {
				continue
			}
			if recv == "" && (same && c.Recv == "" || !same && c.Recv == pkg) || recv != "" && c.Recv != "" && same {
				p := Pos{f.Path, c.Line, c.Col}
				at = &p
				break
			}
		}
		if at != nil {
			break
		}
	}
	q := b.baseQuestion(KindBuildVariant, qn)
	q.Baseline = name
	q.Oracle = "go/build/constraint and the toolchain's file-name rules over every GOOS/GOARCH of `go tool dist list`, cgo on and off, and every set of the package's own build tags (a declaration counts when some configuration compiles its file)"
	if at != nil {
		// gopls answers for its one configuration: it must be one of them
		locs, _, err := b.o.Locations(ctx, "textDocument/definition", *at)
		if err != nil {
			return nil, err
		}
		if len(locs) == 1 && !contains(truth, LocKey(locs[0].Path, locs[0].Line)) {
			return nil, nil
		}
		s := fmt.Sprintf("%s:%d:%d", at.Path, at.Line, at.Col)
		q.Target = s
		q.Text = fmt.Sprintf("Where is the %s called at %s defined, in every build configuration?", name, s)
		q.Command = []string{"symbol", "--at", s, "--json"}
	} else {
		q.Text = "Where is " + qn + " defined, in every build configuration?"
		q.Command = []string{"symbol", qn, "--json"}
	}
	q.Truth = truth
	return q, nil
}

// WorkDirs maps repository names to work copies under a directory.
func WorkDirs(dir string) map[string]string {
	m := map[string]string{}
	for _, r := range Repos {
		m[r.Name] = filepath.Join(dir, r.Name)
	}
	return m
}
