package repomap

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// ArchParams shapes an architecture view.
type ArchParams struct {
	Depth           int  // 1: modules; n > 1: directories up to n-1 levels inside each module
	IncludeExternal bool // list external dependencies and the standard library as nodes
	MaxNodes        int
	MaxEdges        int
	// Module keeps one module (node id, name or root) and its edges.
	Module string
}

// ArchNode is a module, a directory inside one, or an external package.
type ArchNode struct {
	ID     string `json:"id"`
	Module string `json:"module"`
	// Kind is the module's family (go, javascript, python, ...) for a module
	// and for a directory holding its code; dir for a directory that holds
	// none (.github, docs); external or stdlib for a dependency.
	Kind      string         `json:"kind"`
	Root      string         `json:"root,omitempty"`
	Manifest  string         `json:"manifest,omitempty"`
	Files     int            `json:"files"`
	Languages map[string]int `json:"languages,omitempty"`
	Workspace string         `json:"workspace,omitempty"`
	Detached  bool           `json:"detached,omitempty"`
}

// ArchEdge is a dependency between nodes, with its class and strength.
type ArchEdge struct {
	From    string `json:"from"`
	To      string `json:"to"`
	Class   string `json:"class"`
	Imports int    `json:"imports"` // import statements along the edge
	Files   int    `json:"files"`   // importing files
}

// ArchResult is the architecture payload.
type ArchResult struct {
	Nodes       []ArchNode     `json:"nodes"`
	Edges       []ArchEdge     `json:"edges"`
	EdgeClasses map[string]int `json:"edge_classes"` // import statements per class
	NodesTotal  int            `json:"nodes_total"`
	EdgesTotal  int            `json:"edges_total"`
}

// archNodeID names the node a path belongs to at a depth, as the module's
// family: the prefix of a directory holding no code of it is changed to
// dir once the files are placed (placeFiles).
func archNodeID(m store.ModuleRow, p string, depth int, isDir bool) string {
	id := m.Root
	if depth > 1 {
		rel := strings.TrimPrefix(strings.TrimPrefix(p, m.Root), "/")
		parts := strings.Split(rel, "/")
		if !isDir {
			parts = parts[:len(parts)-1] // the directory, not the file
		}
		if len(parts) > depth-1 {
			parts = parts[:depth-1]
		}
		if len(parts) > 0 && parts[0] != "" {
			id = strings.TrimPrefix(m.Root+"/"+strings.Join(parts, "/"), "/")
		}
	}
	if id == "" {
		id = "."
	}
	return m.Kind + ":" + id
}

// Architecture aggregates the classified import edges of every file into a
// module (or directory) graph.
func Architecture(ctx context.Context, e *query.Engine, p ArchParams) (*ArchResult, error) {
	if p.Depth < 1 {
		return nil, errs.E(errs.InvalidArgument, "depth must be at least 1")
	}
	g, err := placeFiles(ctx, e, p)
	if err != nil {
		return nil, err
	}
	res := &ArchResult{EdgeClasses: map[string]int{}, Nodes: []ArchNode{}, Edges: []ArchEdge{}}
	if err := g.addImports(ctx, e, res); err != nil {
		return nil, err
	}
	keep := func(string) bool { return true }
	if p.Module != "" {
		if keep, err = g.focus(p.Module); err != nil {
			return nil, err
		}
	}
	g.list(res, keep)
	res.NodesTotal, res.EdgesTotal = len(res.Nodes), len(res.Edges)
	if p.MaxNodes > 0 && len(res.Nodes) > p.MaxNodes {
		res.Nodes = res.Nodes[:p.MaxNodes]
	}
	if p.MaxEdges > 0 && len(res.Edges) > p.MaxEdges {
		res.Edges = res.Edges[:p.MaxEdges]
	}
	return res, nil
}

// archGraph is the architecture graph being built.
type archGraph struct {
	p        ArchParams
	modByID  map[int64]store.ModuleRow
	nodes    map[string]*ArchNode
	fileNode map[int64]string // file -> the node it counts in
	// renamed maps the id a directory of no code of its module's family was
	// placed under to its dir: id.
	renamed map[string]string
	edges   map[archKey]*ArchEdge
	// edgeFiles are the files making each edge's imports.
	edgeFiles map[archKey]map[int64]bool
}

type archKey struct{ from, to, class string }

// placeFiles counts every file in its module's node (or its directory's,
// below the module root, to p.Depth).
func placeFiles(ctx context.Context, e *query.Engine, p ArchParams) (*archGraph, error) {
	files, mods, err := e.FilesAndModules(ctx)
	if err != nil {
		return nil, err
	}
	g := &archGraph{p: p, modByID: map[int64]store.ModuleRow{}, nodes: map[string]*ArchNode{}, fileNode: map[int64]string{},
		edges: map[archKey]*ArchEdge{}, edgeFiles: map[archKey]map[int64]bool{}, renamed: map[string]string{}}
	for _, m := range mods {
		g.modByID[m.ID] = m
	}
	for _, f := range files {
		m, ok := g.modByID[f.ModuleID]
		if !ok {
			continue
		}
		id := archNodeID(m, f.Path, p.Depth, false)
		n := g.node(m, id)
		n.Files++
		if f.Lang != "" {
			n.Languages[f.Lang]++
		}
		g.fileNode[f.ID] = id
	}
	g.nameDirs()
	return g, nil
}

// nameDirs gives the directories below a module's root that hold no file
// of the module's family the kind dir: a Go module's docs/ is no Go package.
func (g *archGraph) nameDirs() {
	ids := slices.Sorted(maps.Keys(g.nodes))
	for _, id := range ids {
		n := g.nodes[id]
		if n.Kind == "dir" || id == n.Kind+":"+cmp.Or(n.Root, ".") {
			continue // a module without a manifest, or a module's own node
		}
		own := false
		for l := range n.Languages {
			own = own || lang.Of(l).Ecosystem == n.Kind
		}
		if own {
			continue
		}
		to := "dir:" + strings.TrimPrefix(id, n.Kind+":")
		n.ID, n.Kind = to, "dir"
		delete(g.nodes, id)
		g.nodes[to] = n
		g.renamed[id] = to
	}
	for f, id := range g.fileNode {
		if to, ok := g.renamed[id]; ok {
			g.fileNode[f] = to
		}
	}
}

// node returns the node of a module (or of a directory in it), made on first use.
func (g *archGraph) node(m store.ModuleRow, id string) *ArchNode {
	n := g.nodes[id]
	if n == nil {
		n = &ArchNode{ID: id, Module: m.Name, Kind: m.Kind, Root: m.Root, Manifest: m.Manifest, Languages: map[string]int{},
			Workspace: m.Workspace, Detached: m.Detached}
		g.nodes[id] = n
	}
	return n
}

// addImports turns every import edge into an edge between nodes, counted
// by class in res: local ones to the node of their target, external and
// standard-library ones (when asked for) to a node of their dependency.
func (g *archGraph) addImports(ctx context.Context, e *query.Engine, res *ArchResult) error {
	placed := func(id int64) bool { _, ok := g.fileNode[id]; return ok }
	return e.Imports(ctx, placed, func(fileID int64, list []index.ImportEdge) {
		from := g.fileNode[fileID]
		for _, im := range list {
			res.EdgeClasses[im.Class]++
			to, ok := g.target(im)
			if !ok || to == from {
				continue
			}
			k := archKey{from, to, im.Class}
			ed := g.edges[k]
			if ed == nil {
				ed = &ArchEdge{From: from, To: to, Class: im.Class}
				g.edges[k] = ed
				g.edgeFiles[k] = map[int64]bool{}
			}
			ed.Imports++
			g.edgeFiles[k][fileID] = true
		}
	})
}

// target is the node an import leads to; ok is false for one the graph
// leaves out.
func (g *archGraph) target(im index.ImportEdge) (string, bool) {
	switch im.Class {
	case index.EdgeLocalFile, index.EdgeLocalModule, index.EdgeWorkspacePackage:
		m, ok := g.modByID[im.TargetModule]
		if !ok {
			return "", false
		}
		isDir := !strings.Contains(pathBase(im.TargetPath), ".")
		to := archNodeID(m, im.TargetPath, g.p.Depth, isDir)
		if r, ok := g.renamed[to]; ok {
			return r, true
		}
		g.node(m, to)
		return to, true
	case index.EdgeExternal, index.EdgeStdlib:
		if !g.p.IncludeExternal {
			return "", false
		}
		name := im.Dep
		kind := "external"
		if im.Class == index.EdgeStdlib {
			name, kind = stdlibRoot(im.Source), "stdlib"
		}
		to := kind + ":" + name
		if g.nodes[to] == nil {
			g.nodes[to] = &ArchNode{ID: to, Module: name, Kind: kind}
		}
		return to, true
	}
	return "", false
}

// focus keeps the edges of one module's node (by id, name or root) and
// returns which nodes stay: it and its neighbours.
func (g *archGraph) focus(module string) (func(string) bool, error) {
	want := ""
	for id, n := range g.nodes {
		if id == module || (n.Kind != "external" && n.Kind != "stdlib" && (n.Module == module || n.Root == module)) {
			if want == "" || id < want {
				want = id
			}
		}
	}
	if want == "" {
		return nil, &errs.Error{Kind: errs.NotFound, Msg: "no module " + module, Fixes: []string{"cairn arch"}}
	}
	linked := map[string]bool{want: true}
	for k := range g.edges {
		if k.from == want || k.to == want {
			linked[k.from], linked[k.to] = true, true
		}
	}
	for k := range g.edges {
		if k.from != want && k.to != want {
			delete(g.edges, k)
		}
	}
	return func(id string) bool { return linked[id] }, nil
}

// list puts the edges (most imports first) and the kept nodes (most files
// first) in the result.
func (g *archGraph) list(res *ArchResult, keep func(string) bool) {
	for k, ed := range g.edges {
		ed.Files = len(g.edgeFiles[k])
		res.Edges = append(res.Edges, *ed)
	}
	sort.Slice(res.Edges, func(i, j int) bool {
		a, b := res.Edges[i], res.Edges[j]
		return cmp.Or(cmp.Compare(b.Imports, a.Imports), cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To), cmp.Compare(a.Class, b.Class)) < 0
	})
	for id, n := range g.nodes {
		if !keep(id) {
			continue
		}
		if len(n.Languages) == 0 {
			n.Languages = nil
		}
		res.Nodes = append(res.Nodes, *n)
	}
	sort.Slice(res.Nodes, func(i, j int) bool {
		return cmp.Or(cmp.Compare(res.Nodes[j].Files, res.Nodes[i].Files), cmp.Compare(res.Nodes[i].ID, res.Nodes[j].ID)) < 0
	})
}

func pathBase(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// stdlibRoot names a standard-library import by its top package.
func stdlibRoot(s string) string {
	s = strings.TrimPrefix(s, "node:")
	for _, sep := range []string{"/", "::", "."} {
		if i := strings.Index(s, sep); i > 0 {
			return s[:i]
		}
	}
	return s
}

// DefaultArchDepth is the depth an architecture view starts at when none is
// asked for: the first that shows more than one node of the repository (a
// single-module repository shows its directories), at most maxDepth.
func DefaultArchDepth(ctx context.Context, e *query.Engine, maxDepth int) (int, error) {
	files, mods, err := e.FilesAndModules(ctx)
	if err != nil {
		return 0, err
	}
	byID := map[int64]store.ModuleRow{}
	for _, m := range mods {
		byID[m.ID] = m
	}
	for d := 1; d < maxDepth; d++ {
		first, more := "", false
		for _, f := range files {
			m, ok := byID[f.ModuleID]
			if !ok {
				continue
			}
			id := archNodeID(m, f.Path, d, false)
			if first == "" {
				first = id
			} else if id != first {
				more = true
				break
			}
		}
		if more || first == "" {
			return d, nil
		}
	}
	return maxDepth, nil
}
