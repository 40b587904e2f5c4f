package cards

import (
	"context"
	"slices"
	"sort"
	"sync"

	"github.com/cairnhq/cairn/internal/bug"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/store"
)

// model is everything the card tables hold for one version of the index,
// in memory: cards, their labels and relations, the registries and the
// links. It is small next to the code index (hundreds of cards, thousands
// of links) and built once per epoch; the code side is read per request.
type model struct {
	// key is the store and the revision of its card tables the model was
	// built from: epochs that leave the card tables alone share it.
	key    modelKey
	cards  []*CardInfo            // by key, then path
	byKey  map[string][]*CardInfo // a key several files define has several
	rels   map[string][]store.CardRel
	links  []store.CardLink
	byLink map[string][]int // card key -> indexes into links
	byPath map[string][]int // code path -> indexes into links
	// registry holds the registered names per kind; problems the files
	// that could not be read, by path.
	registry map[uint8]map[string]Entry
	regDups  map[uint8]map[string][]string // names registered by several files
	problems map[string]string
}

type modelKey struct {
	store uint64
	rev   int64
}

// versionData is what requests on one version of the index share: the
// import map and the code entities resolved so far (a traversal resolves
// the same files and symbols again and again).
type versionData struct {
	version index.Version
	imps    importers
	files   vmap[string, *store.FileRow]
	syms    vmap[int64, []store.SymbolRow]
	ents    vmap[string, *Entity]
	byID    vmap[int64, *Entity]
}

// importers maps a file or directory (a Go package) to the files that
// import it.
type importers struct {
	mu sync.Mutex          // guards by
	by map[string][]string // nil until built
}

// vmap is a map shared by concurrent requests, bounded: past maxShared
// entries it starts again.
type vmap[K comparable, V any] struct {
	mu sync.Mutex // guards m
	m  map[K]V
}

const maxShared = 200000

func (c *vmap[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *vmap[K, V]) put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxShared {
		c.m = map[K]V{}
	}
	c.m[k] = v
}

// load returns k's value, computing it with f and keeping it when it is not
// there yet; a failed f keeps nothing, so the next request tries again.
func (c *vmap[K, V]) load(k K, f func() (V, error)) (V, error) {
	if v, ok := c.get(k); ok {
		return v, nil
	}
	v, err := f()
	if err != nil {
		return v, err
	}
	c.put(k, v)
	return v, nil
}

// CardInfo is a card as the index holds it (without its body).
type CardInfo struct {
	ID          int64
	Path        string
	Key         string
	Summary     string
	Status      string
	Constraints []string
	Tags        []string
	Keywords    []string
	Problem     string
	// Relations are the outgoing relations its file declares, in order.
	Relations []Relation
}

// modelCache keeps the models of the latest versions (a few: requests in
// flight may still see an older epoch).
var modelCache struct {
	mu     sync.Mutex // guards models
	models []*model
}

const modelCacheSize = 4

// loadModel returns the model of a snapshot's card tables.
func loadModel(ctx context.Context, snap *index.Snapshot) (*model, error) {
	rev, err := snap.Store().CardRevision(ctx)
	if err != nil {
		return nil, err
	}
	key := modelKey{store: snap.Version().Store, rev: rev}
	modelCache.mu.Lock()
	for _, m := range modelCache.models {
		if m.key == key {
			modelCache.mu.Unlock()
			return m, nil
		}
	}
	modelCache.mu.Unlock()
	m, err := buildModel(ctx, snap.Store(), key)
	if err != nil {
		return nil, err
	}
	modelCache.mu.Lock()
	defer modelCache.mu.Unlock()
	modelCache.models = append([]*model{m}, modelCache.models...)
	if len(modelCache.models) > modelCacheSize {
		modelCache.models = modelCache.models[:modelCacheSize]
	}
	return m, nil
}

// versionCache keeps the shared data of the latest versions.
var versionCache struct {
	mu   sync.Mutex // guards list
	list []*versionData
}

func dataFor(v index.Version) *versionData {
	versionCache.mu.Lock()
	defer versionCache.mu.Unlock()
	for _, d := range versionCache.list {
		if d.version == v {
			return d
		}
	}
	d := &versionData{version: v}
	versionCache.list = append([]*versionData{d}, versionCache.list...)
	if len(versionCache.list) > modelCacheSize {
		versionCache.list = versionCache.list[:modelCacheSize]
	}
	return d
}

func buildModel(ctx context.Context, r *store.Reader, key modelKey) (*model, error) {
	m := &model{key: key, byKey: map[string][]*CardInfo{}, rels: map[string][]store.CardRel{},
		byLink: map[string][]int{}, byPath: map[string][]int{}, problems: map[string]string{},
		registry: map[uint8]map[string]Entry{store.LabelKeyword: {}, store.LabelTag: {}},
		regDups:  map[uint8]map[string][]string{store.LabelKeyword: {}, store.LabelTag: {}}}
	rows, err := r.Cards(ctx)
	if err != nil {
		return nil, err
	}
	byID := map[int64]*CardInfo{}
	for _, row := range rows {
		c := &CardInfo{ID: row.ID, Path: row.Path, Key: row.Key, Summary: row.Summary, Status: row.Status, Problem: row.Problem}
		bug.Unmarshal([]byte(row.Constraints), &c.Constraints, "cards: card %d: constraints", row.ID) // written by the reindex
		byID[c.ID] = c
		m.cards = append(m.cards, c)
		if c.Key != "" {
			m.byKey[c.Key] = append(m.byKey[c.Key], c)
		}
	}
	sort.SliceStable(m.cards, func(i, j int) bool {
		if m.cards[i].Key != m.cards[j].Key {
			return m.cards[i].Key < m.cards[j].Key
		}
		return m.cards[i].Path < m.cards[j].Path
	})
	labels, err := r.CardLabels(ctx)
	if err != nil {
		return nil, err
	}
	for _, l := range labels {
		if c := byID[l.CardID]; c != nil {
			if l.Kind == store.LabelKeyword {
				c.Keywords = append(c.Keywords, l.Name)
			} else {
				c.Tags = append(c.Tags, l.Name)
			}
		}
	}
	rels, err := r.CardRels(ctx)
	if err != nil {
		return nil, err
	}
	for _, rel := range rels {
		m.rels[rel.Src] = append(m.rels[rel.Src], rel)
		if c := byID[rel.CardID]; c != nil && !rel.Reverse {
			c.Relations = append(c.Relations, Relation{Type: rel.Type, Target: rel.Dst})
		}
	}
	reg, err := r.Registry(ctx)
	if err != nil {
		return nil, err
	}
	for _, e := range reg {
		if e.Name == "" {
			m.problems[e.Path] = e.Description
			continue
		}
		if _, dup := m.registry[e.Kind][e.Name]; dup {
			m.regDups[e.Kind][e.Name] = append(m.regDups[e.Kind][e.Name], e.Path)
			continue
		}
		m.registry[e.Kind][e.Name] = Entry{Name: e.Name, Description: e.Description}
	}
	if m.links, err = r.CardLinks(ctx); err != nil {
		return nil, err
	}
	for i, l := range m.links {
		m.byLink[l.Key] = append(m.byLink[l.Key], i)
		m.byPath[l.Path] = append(m.byPath[l.Path], i)
	}
	return m, nil
}

// card returns the card of a key (the first file by path when several
// define it).
func (m *model) card(key string) *CardInfo {
	if cs := m.byKey[key]; len(cs) > 0 {
		return cs[0]
	}
	return nil
}

// linksOf returns the links to a card key.
func (m *model) linksOf(key string) []store.CardLink {
	var out []store.CardLink
	for _, i := range m.byLink[key] {
		out = append(out, m.links[i])
	}
	return out
}

// importersOf returns the files importing a file or a directory (a Go
// package), from the resolved imports of every file: built once per
// version, when a traversal first needs it.
func (im *importers) of(ctx context.Context, r *store.Reader, target string) ([]string, error) {
	im.mu.Lock()
	defer im.mu.Unlock()
	if im.by == nil {
		all, err := r.AllImports(ctx)
		if err != nil {
			return nil, err // not kept: the next request tries again
		}
		files, err := r.Files(ctx)
		if err != nil {
			return nil, err
		}
		pathOf := make(map[int64]string, len(files))
		for _, f := range files {
			pathOf[f.ID] = f.Path
		}
		by := map[string][]string{}
		for id, b := range all {
			edges, err := index.DecodeImports(b)
			if err != nil {
				continue
			}
			for _, e := range edges {
				if e.TargetPath != "" && pathOf[id] != "" {
					by[e.TargetPath] = append(by[e.TargetPath], pathOf[id])
				}
			}
		}
		for k := range by {
			sort.Strings(by[k])
			by[k] = slices.Compact(by[k])
		}
		im.by = by
	}
	out := im.by[target]
	if dir := lang.DirOf(target); dir != target {
		out = append(append([]string(nil), out...), im.by[dir]...)
	}
	return out, nil
}
