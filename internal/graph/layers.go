package graph

import (
	"context"
	"sort"

	"github.com/cairnhq/cairn/internal/query"
)

// layerUse records which layer answered for which file of a walk, and the
// semantic documents it read.
type layerUse struct {
	docs     map[string]*query.DocUses // nil value: no usable document
	sem, syn bool                      // the semantic, the syntactic layer answered
	fallback map[string]bool           // files answered from syntax although a semantic index covers them
}

func newLayerUse() layerUse {
	return layerUse{docs: map[string]*query.DocUses{}, fallback: map[string]bool{}}
}

func (w *walker) semDoc(ctx context.Context, path string) (*query.DocUses, error) {
	if w.v == nil {
		w.used.syn = true
		return nil, nil
	}
	if d, ok := w.used.docs[path]; ok {
		w.note(path, d != nil)
		return d, nil
	}
	d, err := w.e.Uses(ctx, w.v, path)
	if err != nil {
		return nil, err
	}
	w.used.docs[path] = d
	w.note(path, d != nil)
	return d, nil
}

func (w *walker) note(path string, semantic bool) {
	if semantic {
		w.used.sem = true
		return
	}
	w.used.syn = true
	if w.v.FallbackReason(path) != "" {
		w.used.fallback[path] = true
	}
}

// usable reports whether the semantic layer answers for a path.
func (w *walker) usable(path string) bool {
	return w.v != nil && w.layer != query.LayerSyntactic && w.v.Usable(path)
}

// layersUsed reports the layers that answered, the semantic state and the
// files that fell back to syntax.
func (w *walker) layersUsed() ([]string, string, []string) {
	var layers []string
	if w.used.sem {
		layers = append(layers, query.LayerSemantic)
	}
	if w.used.syn || !w.used.sem {
		layers = append(layers, query.LayerSyntactic)
	}
	sort.Strings(layers)
	state := "unavailable"
	switch {
	case w.layer == query.LayerSyntactic:
		state = "off"
	case w.used.sem && len(w.used.fallback) > 0:
		state = "partial"
	case w.used.sem:
		state = "used"
	case len(w.used.fallback) > 0:
		state = "stale"
	}
	fb := make([]string, 0, len(w.used.fallback))
	for p := range w.used.fallback {
		fb = append(fb, p)
	}
	sort.Strings(fb)
	return layers, state, fb
}
