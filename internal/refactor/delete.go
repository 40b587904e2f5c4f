package refactor

import (
	"context"
	"fmt"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
)

// DeleteRequest deletes a symbol's definition.
type DeleteRequest struct {
	Symbol *query.Resolved
	// Force deletes it although references remain (they will break).
	Force bool
}

// maxListed bounds the references a refusal lists.
const maxListed = 20

// Delete plans removing a symbol's definition (with the comment lines and
// decorators right above it). While references remain it refuses, listing
// them, unless forced.
func (env *Env) Delete(ctx context.Context, req DeleteRequest) (*Plan, error) {
	card, err := env.Engine.Card(ctx, req.Symbol, query.CardLimits{Members: 1, Calls: 1})
	if err != nil {
		return nil, err
	}
	refs, err := env.Engine.Refs(ctx, req.Symbol, query.RefsParams{Limit: maxRefs, Anchored: true})
	if err != nil {
		return nil, err
	}
	if refs.Partial {
		return nil, &errs.Error{Kind: errs.Timeout, Msg: "the references of " + card.QName + " could not all be found within the deadline",
			Fixes: []string{"repeat with a larger timeout_ms"}}
	}
	var uses []string
	certain, anchored := 0, 0
	for _, l := range refs.Locations {
		if l.Kind == "definition" && l.Path == card.Location.Path && l.Line == card.Location.Line {
			continue
		}
		if inside(card.Span, l.Location) {
			continue // recursion, or its own members
		}
		if l.Tier == index.TierAnchored.String() {
			anchored++
		} else {
			certain++
		}
		if len(uses) < maxListed {
			uses = append(uses, fmt.Sprintf("%s:%d:%d (%s, %s)", l.Path, l.Line, l.Col, l.Kind, l.Tier))
		}
	}
	if certain+anchored > 0 && !req.Force {
		return nil, &errs.Error{Kind: errs.Precondition, Path: string(card.Location.Path),
			Msg:     fmt.Sprintf("cannot delete %s: %d references remain (%d proven, %d possible), first %s", card.QName, certain+anchored, certain, anchored, uses[0]),
			Details: map[string]any{"reason": "still_referenced", "references": uses, "total": certain + anchored, "proven": certain, "possible": anchored},
			Fixes:   []string{"remove or redirect the references first", "force: true deletes it anyway (the build will break where they are)"}}
	}
	p := &Plan{Op: OpDelete, Symbol: &card.SymbolRef, Edits: []Edit{}, Groups: []Group{}, Docs: DocSweep{Hits: []DocHit{}}}
	if certain+anchored > 0 {
		p.Warnings = append(p.Warnings, fmt.Sprintf("forced: %d references remain and will break: %s", certain+anchored, strings.Join(uses, ", ")))
	}
	path := string(card.Location.Path)
	data, ok := env.read(path)
	if !ok {
		return nil, &errs.Error{Kind: errs.FileNotFound, Path: path, Msg: path + " is gone"}
	}
	e, ok := declarationEdit(path, data, card.Span)
	if !ok {
		return nil, &errs.Error{Kind: errs.Precondition, Path: path, Msg: fmt.Sprintf("the definition of %s is not where the index says (%s:%d): the file changed", card.QName, path, card.Span.Line),
			Fixes: []string{"cairn index", "then plan again"}}
	}
	p.Edits = append(p.Edits, e)
	p.Witness.Semantic = refs.Semantic.State
	p.Witness.Facts = []Fact{{Type: "definition", Symbol: card.QName, Path: path, Line: card.Span.Line, Content: firstLine(card.Signature, card.Kind+" "+card.QName), Provenance: card.Layer, Confidence: 1}}
	return env.finish(ctx, p, map[string]string{path: refs.Semantic.State}, path)
}

// inside reports whether a location lies within a span.
func inside(s, l protocol.Location) bool {
	if s.Path != l.Path {
		return false
	}
	after := l.Line > s.Line || (l.Line == s.Line && l.Col >= s.Col)
	before := l.Line < s.EndLine || (l.Line == s.EndLine && l.Col < s.EndCol)
	return after && before
}

// declarationEdit removes a definition: whole lines when it stands alone on
// them (with the comments and decorators just above it, and one of the
// blank lines around it), else exactly its span.
func declarationEdit(p string, data []byte, sp protocol.Location) (Edit, bool) {
	starts := lang.LineStarts(data)
	a := offset(starts, len(data), sp.Line, sp.Col)
	b := offset(starts, len(data), sp.EndLine, sp.EndCol)
	if a < 0 || b < a {
		return Edit{}, false
	}
	ls := sp.Line
	le := sp.EndLine
	before := strings.TrimSpace(string(data[starts[ls-1]:a]))
	lineEnd := len(data)
	if le < len(starts) {
		lineEnd = starts[le]
	}
	after := strings.TrimSpace(string(data[b:lineEnd]))
	if before != "" || after != "" {
		return Edit{Path: p, Line: sp.Line, Col: sp.Col, EndLine: sp.EndLine, EndCol: sp.EndCol, Old: string(data[a:b]), New: "", Kind: "declaration"}, true
	}
	for ls > 1 {
		prev := strings.TrimSpace(lineAt(data, starts, ls-1))
		if strings.HasPrefix(prev, "//") || strings.HasPrefix(prev, "#") || strings.HasPrefix(prev, "@") || strings.HasPrefix(prev, "/*") || strings.HasPrefix(prev, "*") {
			ls--
			continue
		}
		break
	}
	// One blank line goes with it when blank lines surround it.
	if ls > 1 && le < len(starts) && strings.TrimSpace(lineAt(data, starts, ls-1)) == "" && strings.TrimSpace(lineAt(data, starts, le+1)) == "" {
		le++
	}
	start := starts[ls-1]
	var end int
	endLine, endCol := le+1, 1
	if le < len(starts) {
		end = starts[le]
	} else {
		endLine, endCol = le, len(lineAt(data, starts, le))+1
		end = starts[le-1] + endCol - 1
	}
	return Edit{Path: p, Line: ls, Col: 1, EndLine: endLine, EndCol: endCol, Old: string(data[start:end]), New: "", Kind: "declaration"}, true
}
