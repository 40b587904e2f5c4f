package main

import (
	"context"
	"fmt"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/repomap"
)

// archCheck is one assertion about a real repository's architecture.
type archCheck struct {
	Check string `json:"check"`
	OK    bool   `json:"ok"`
	Got   string `json:"got"`
}

// edgeWant is an edge that must exist.
type edgeWant struct {
	depth    int
	from, to string
	class    string
}

// archExpectations are what the manifests and imports of the benchmark
// corpora say; the benchmark checks that architecture reports them.
var archExpectations = map[string]struct {
	modules  []string // module names that must be found (kind:name)
	detached []string // module roots that must be detached from their workspace
	edges    []edgeWant
	unknown  float64 // the largest acceptable share of unknown import edges
}{
	"go_large": {
		modules: []string{"go:k8s.io/kubernetes"},
		edges: []edgeWant{
			{3, "go:cmd/kubelet", "go:pkg/kubelet", index.EdgeLocalFile},
			{3, "go:pkg/kubelet", "go:pkg/volume", index.EdgeLocalFile},
			{2, "go:pkg", "external:k8s.io/client-go", index.EdgeExternal},
			{2, "go:pkg", "external:k8s.io/apimachinery", index.EdgeExternal},
			{2, "go:pkg", "stdlib:fmt", index.EdgeStdlib},
		},
		unknown: 0.01,
	},
	"go_med": {
		modules: []string{"go:k8s.io/client-go"},
		edges: []edgeWant{
			{2, "go:kubernetes", "go:rest", index.EdgeLocalFile},
			{2, "go:tools", "external:k8s.io/apimachinery", index.EdgeExternal},
		},
		unknown: 0.01,
	},
	"js_workspace": {
		modules: []string{"javascript:consul-ui", "javascript:consul-acls", "javascript:consul-hcp", "javascript:consul-nspaces",
			"javascript:consul-partitions", "javascript:consul-peerings", "javascript:consul-lock-sessions"},
		detached: []string{"packages/consul-ui/lib/block-slots"},
		edges: []edgeWant{
			{1, "javascript:packages/consul-hcp", "javascript:packages/consul-ui", index.EdgeWorkspacePackage},
			{1, "javascript:packages/consul-ui", "javascript:packages/consul-ui/lib/block-slots", index.EdgeLocalModule},
			{1, "javascript:packages/consul-ui", "external:ember-cli-page-object", index.EdgeExternal},
		},
		// @ember/* and @glimmer/* are virtual modules of ember-source, not
		// packages a manifest declares: a third of the imports stay unknown.
		unknown: 0.35,
	},
	"py": {
		modules: []string{"dir:django"},
		edges: []edgeWant{
			{2, "dir:contrib", "dir:utils", index.EdgeLocalFile},
			{2, "dir:db", "dir:utils", index.EdgeLocalFile},
			{2, "dir:db", "stdlib:decimal", index.EdgeStdlib},
		},
		unknown: 0.05,
	},
}

// archChecks runs the expectations of one corpus.
func archChecks(ctx context.Context, name, repo, state string) ([]archCheck, error) {
	want, ok := archExpectations[name]
	if !ok {
		return nil, nil
	}
	ix, err := openCurrent(ctx, repo, state)
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	e, release, err := query.New(ix).Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	var out []archCheck
	db, releaseDB := ix.Acquire()
	defer releaseDB()
	mods, err := db.Modules(ctx)
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	var list []string
	for _, m := range mods {
		have[m.Kind+":"+m.Name] = true
		list = append(list, m.Kind+":"+m.Name)
	}
	for _, m := range want.modules {
		out = append(out, archCheck{Check: "module " + m, OK: have[m], Got: fmt.Sprint(list)})
	}
	for _, root := range want.detached {
		c := archCheck{Check: "detached from its workspace: " + root, Got: "no such module"}
		for _, m := range mods {
			if m.Root == root {
				c.OK, c.Got = m.Detached, fmt.Sprintf("detached=%v workspace=%q", m.Detached, m.Workspace)
			}
		}
		out = append(out, c)
	}
	byDepth := map[int]*repomap.ArchResult{}
	for _, ew := range want.edges {
		res := byDepth[ew.depth]
		if res == nil {
			if res, err = repomap.Architecture(ctx, e, repomap.ArchParams{Depth: ew.depth, IncludeExternal: true}); err != nil {
				return nil, err
			}
			byDepth[ew.depth] = res
		}
		c := archCheck{Check: fmt.Sprintf("depth %d: %s -> %s [%s]", ew.depth, ew.from, ew.to, ew.class), Got: "missing"}
		for _, ed := range res.Edges {
			if ed.From == ew.from && ed.To == ew.to {
				c.Got = fmt.Sprintf("[%s] %d imports in %d files", ed.Class, ed.Imports, ed.Files)
				c.OK = ed.Class == ew.class
			}
		}
		out = append(out, c)
	}
	res := byDepth[2]
	if res == nil {
		res = byDepth[1]
	}
	if res != nil {
		total := 0
		for _, n := range res.EdgeClasses {
			total += n
		}
		share := float64(res.EdgeClasses[index.EdgeUnknown]) / float64(max(total, 1))
		out = append(out, archCheck{Check: fmt.Sprintf("unknown import edges <= %.0f%%", 100*want.unknown), OK: share <= want.unknown,
			Got: fmt.Sprintf("%d of %d (%.2f%%); by class %v", res.EdgeClasses[index.EdgeUnknown], total, 100*share, res.EdgeClasses)})
	}
	return out, nil
}
