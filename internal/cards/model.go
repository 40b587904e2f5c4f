package cards

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"sync"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/store"
)

// model is everything the card tables hold for one version of the index,
// in memory: cards, their labels and relations, the registries and the
// links. It is small next to the code index (hundreds of cards, thousands
// of links) and built once per epoch; the code side is read per request.
type model struct {
	version index.Version
	cards   []*CardInfo            // by key, then path
	byKey   map[string][]*CardInfo // a key several files define has several
	rels    map[string][]store.CardRel
	links   []store.CardLink
	byLink  map[string][]int // card key -> indexes into links
	byPath  map[string][]int // code path -> indexes into links
	// registry holds the registered names per kind; problems the files
	// that could not be read, by path.
	registry map[uint8]map[string]Entry
	regDups  map[uint8]map[string][]string // names registered by several files
	problems map[string]string

	importersMu sync.Mutex          // guards importers
	importers   map[string][]string // file or directory -> importing files; nil until built
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

// loadModel returns the model of a snapshot's version.
func loadModel(ctx context.Context, snap *index.Snapshot) (*model, error) {
	v := snap.Version()
	modelCache.mu.Lock()
	for _, m := range modelCache.models {
		if m.version == v {
			modelCache.mu.Unlock()
			return m, nil
		}
	}
	modelCache.mu.Unlock()
	m, err := buildModel(ctx, snap.Store(), v)
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

func buildModel(ctx context.Context, r *store.Reader, v index.Version) (*model, error) {
	m := &model{version: v, byKey: map[string][]*CardInfo{}, rels: map[string][]store.CardRel{},
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
		json.Unmarshal([]byte(row.Constraints), &c.Constraints)
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

// linkedPaths counts the code files with at least one link.
func (m *model) linkedPaths() int { return len(m.byPath) }

// importersOf returns the files importing a file or a directory (a Go
// package), from the resolved imports of every file: built once per
// version, when a traversal first needs it.
func (m *model) importersOf(ctx context.Context, r *store.Reader, target string) ([]string, error) {
	m.importersMu.Lock()
	defer m.importersMu.Unlock()
	if m.importers == nil {
		all, err := r.AllImports(ctx)
		if err != nil {
			return nil, err
		}
		files, err := r.Files(ctx)
		if err != nil {
			return nil, err
		}
		pathOf := make(map[int64]string, len(files))
		for _, f := range files {
			pathOf[f.ID] = f.Path
		}
		imp := map[string][]string{}
		for id, b := range all {
			edges, err := index.DecodeImports(b)
			if err != nil {
				continue
			}
			for _, e := range edges {
				if e.TargetPath != "" && pathOf[id] != "" {
					imp[e.TargetPath] = append(imp[e.TargetPath], pathOf[id])
				}
			}
		}
		for k := range imp {
			sort.Strings(imp[k])
			imp[k] = compactStrings(imp[k])
		}
		m.importers = imp
	}
	out := m.importers[target]
	if dir := dirOf(target); dir != target {
		out = append(append([]string(nil), out...), m.importers[dir]...)
	}
	return out, nil
}

func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

func compactStrings(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
