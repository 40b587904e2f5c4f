package graph

import (
	"bytes"
	"context"
	"maps"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// A language's type checker (lang.TypeChecker) reads the index through the
// walker, so that it shares the walk's caches of rows, facts and texts.

// typeSource is the walker as a lang.TypeSource.
type typeSource struct{ w *walker }

func (s typeSource) Decl(ctx context.Context, id int64) (*lang.TypeDecl, error) {
	r, err := s.w.resolveID(ctx, id)
	if err != nil || r == nil {
		return nil, err
	}
	return typeDecl(r), nil
}

func (s typeSource) Named(ctx context.Context, qname string) ([]*lang.TypeDecl, error) {
	rows, err := s.w.e.SymbolsByQName(ctx, qname)
	if err != nil {
		return nil, err
	}
	out := make([]*lang.TypeDecl, len(rows))
	for i, r := range rows {
		s.w.remember(r)
		out[i] = &lang.TypeDecl{ID: r.ID, QName: r.QName, Kind: lang.DefKind(r.Kind)}
	}
	return out, nil
}

func (s typeSource) Owner(ctx context.Context, id int64) (int64, bool, error) {
	row, ok, err := s.w.row(ctx, id)
	if err != nil || !ok {
		return 0, false, err
	}
	o, ok, err := s.w.ownerOf(ctx, row)
	return o.ID, ok, err
}

func (s typeSource) Source(ctx context.Context, d *lang.TypeDecl) (string, error) {
	r, err := s.w.resolveID(ctx, d.ID)
	if err != nil || r == nil || r.Def == nil {
		return "", err
	}
	return s.w.defSource(ctx, r)
}

// typeDecl is a resolved symbol as a type checker reads it.
func typeDecl(r *query.Resolved) *lang.TypeDecl {
	return &lang.TypeDecl{ID: r.Row.ID, QName: r.Row.QName, Kind: lang.DefKind(r.Row.Kind), Lang: r.File.Lang, Facts: r.Facts, Def: r.Def}
}

// remember keeps a symbol row read by other means than by id, for the
// lookups by id that follow.
func (w *walker) remember(r store.SymbolRow) {
	if _, ok := w.idx.syms[r.ID]; !ok {
		w.idx.syms[r.ID] = &r
	}
}

// typeChecker is a language's type checker for this walk (nil when the
// language compares method names only).
func (w *walker) typeChecker(language string) lang.TypeChecker {
	if tc, ok := w.types.checkers[language]; ok {
		return tc
	}
	var tc lang.TypeChecker
	if mk := lang.Of(language).Types; mk != nil {
		tc = mk(typeSource{w})
	}
	w.types.checkers[language] = tc
	return tc
}

// defSource is the source text of a definition (from its file's content).
func (w *walker) defSource(ctx context.Context, r *query.Resolved) (string, error) {
	text, ok := w.idx.texts[r.File.BlobID]
	if !ok {
		var err error
		if text, err = w.e.FileText(ctx, r.File); err != nil {
			return "", err
		}
		w.idx.texts[r.File.BlobID] = text
	}
	start, end := offsetOf(text, r.Def.Span.Start), offsetOf(text, r.Def.Span.End)
	if start < 0 || end < start {
		return "", nil
	}
	return string(text[start:end]), nil
}

// offsetOf is the byte offset of a position in a text (-1 past its end).
func offsetOf(text []byte, p lang.Pos) int {
	line, off := uint32(1), 0
	for line < p.Line {
		i := bytes.IndexByte(text[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
		line++
	}
	off += int(p.Col) - 1
	if off > len(text) {
		return -1
	}
	return off
}

// satisfies asks the type checker of the interface's language (language)
// whether a type's members (ms) have the interface's methods (ims) named
// names. Where the language compares method names only, having them is
// enough: yes. Why is set only for an undecided verdict.
func (w *walker) satisfies(ctx context.Context, language string, ims, ms *memberSet, names []string) (lang.Satisfaction, error) {
	tc := w.typeChecker(language)
	if tc == nil {
		return lang.Satisfaction{Verdict: lang.VerdictYes}, nil
	}
	s, err := tc.Satisfies(ctx, ims.forChecker(w), ms.forChecker(w), names)
	if s.Verdict != lang.VerdictUndecided {
		s.Why = ""
	}
	return s, err
}

// embedSubst binds the type parameters of a generic type a type embeds to
// the type arguments the embedding writes (S embeds G[*T]: G's T is *T),
// where the language's type checker reads them; nil when the relation is
// not such an embedding.
func (w *walker) embedSubst(ctx context.Context, t store.SymbolRow, s typeEdge) (lang.TypeBindings, error) {
	if s.kind != index.EdgeEmbeds {
		return nil, nil
	}
	tr, err := w.resolved(ctx, t)
	if err != nil || tr == nil || tr.Facts == nil {
		return nil, err
	}
	tc := w.typeChecker(tr.File.Lang)
	if tc == nil {
		return nil, nil
	}
	written := ""
	for _, rel := range tr.Facts.TypeRels {
		if int(rel.Def) == t.DefIdx && int(rel.Pos.Line) == s.at.Line && int(rel.Pos.Col) == s.at.Col {
			written = rel.Target
		}
	}
	w.remember(t)
	w.remember(s.row)
	return tc.EmbedBindings(ctx, t.ID, written, s.row.ID)
}

// mergeSubst combines type parameter bindings (a new map; b wins).
func mergeSubst(a, b lang.TypeBindings) lang.TypeBindings {
	out := make(lang.TypeBindings, len(a)+len(b))
	maps.Copy(out, a)
	maps.Copy(out, b)
	return out
}
