package tools

import (
	"cmp"
	"context"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/history"
	"github.com/cairnhq/cairn/internal/query"
)

// Position names a place in a file.
type Position struct {
	Path string `json:"path"`
	Line int    `json:"line" jsonschema:"1-based line"`
	Col  int    `json:"col" jsonschema:"1-based column in bytes"`
}

// SymbolIn are the arguments of symbol_get.
type SymbolIn struct {
	Symbol string    `json:"symbol,omitempty" jsonschema:"id, qualified name, path#Name, unique suffix or PATH:LINE:COL"`
	At     *Position `json:"at,omitempty" jsonschema:"a position instead of a name (go to definition)"`
	Common
	View
}

func init() {
	Register(Tool{
		Name: "symbol_get", Group: "read", Fresh: true, Cache: CacheQuery,
		Summary: "A symbol's card: kind, signature, doc, location, members, calls, relations; by name or at a position.",
		Doc: "Use after search to learn about one symbol without reading its file. A name may use its language's own separators (Parser::parse, Rack::Request#get_header, HashMap#put) and reach a symbol through a module or file that re-exports it, star imports included (django.db.models.Model, django.db.models.CharField, or models.CharField as code importing the module writes it); a parameter list chooses among overloads (ArrayList.add(int, E), HashMap(int) for a constructor; a class's bare name is the class, and tied overloads answer AMBIGUOUS_SYMBOL with each candidate's signature); a place PATH:LINE:COL names the symbol defined or referenced there. `at: {path, line, col}` resolves the identifier under the cursor; when syntax cannot decide (a method on a value whose type the source does not state) the card is a ranked guess and `guess.candidates` lists the others, most likely first. A name defined once per build tag, platform or condition answers with every definition (`variants`, each with its `build`). " +
			"history counts the commits and authors that changed the definition's lines and says when last (git log -L at HEAD; git_history lists them). " +
			"calls lists the repository's symbols first, then calls leaving it (origin stdlib, dependency or external, with the import), then unresolved ones; builtins of the language are only counted (builtin_calls).",
		When:     []string{"learning a symbol's signature, doc, members and calls without reading its file", "go to definition from a position (at)"},
		WhenNot:  []string{"the symbol's source text: read_source with symbol", "who uses it: refs_find", "you only know part of the name: search with mode symbol"},
		Examples: []string{`{"symbol": "rest.Config"}`, `{"symbol": "mux.go#Mux.handle"}`, `{"at": {"path": "main.go", "line": 12, "col": 7}}`},
	}, symbolGet)
}

// SymbolCardOut is a symbol's card with its change history.
type SymbolCardOut struct {
	*query.SymbolCard
	// History is how often the definition's lines changed (git log -L over
	// its span at HEAD); absent outside git and for files git does not track.
	History *history.Summary `json:"history,omitempty"`
}

func symbolGet(ctx context.Context, c *Call, in SymbolIn) (*SymbolCardOut, error) {
	e := c.Engine()
	resolvedSym, err := resolvePos(ctx, c, in.Symbol, in.At, true)
	if err != nil {
		return nil, err
	}
	card, err := e.Card(ctx, resolvedSym, query.CardLimits{Members: c.Clamp("limit", in.Limit, MembersBudget), Calls: MembersBudget.Default})
	if err != nil {
		return nil, err
	}
	c.Saved(card.FileBytes)
	card.Cards = c.symbolCards(ctx, card.ID)
	if rd := card.RedirectedFrom; rd != nil {
		c.Warn("%s was %s: now %s (confidence %.2f)", rd.From, rd.Reason, card.ID, rd.Confidence)
	}
	switch g := card.Guess; {
	case g != nil:
		c.Answer("ranked guess: %s %s at %s:%d, the most likely of %d symbols of that name (the source does not state the type it is used on); the others are in guess.candidates",
			card.Kind, card.QName, card.Location.Path, card.Location.Line, g.Total)
		c.Complete(card.Confidence, "a ranked guess among same-named symbols")
	case len(card.Variants) > 0:
		c.Answer("%s %s at %s:%d, and %d variant(s) of it under other builds or conditions",
			card.Kind, card.QName, card.Location.Path, card.Location.Line, len(card.Variants))
	default:
		c.Answer("%s %s at %s:%d", card.Kind, card.QName, card.Location.Path, card.Location.Line)
	}
	c.Shortened("members", len(card.Members), card.MembersTotal, "limit")
	c.Shortened("calls", len(card.Calls), card.CallsTotal, "limit")
	c.Shortened("surfaces", len(card.Surfaces), card.SurfacesTotal, "limit")
	c.Next("refs_find", map[string]any{"symbol": card.ID}, "where it is used")
	c.Next("read_source", map[string]any{"path": string(card.Span.Path), "start_line": card.Span.Line, "end_line": card.Span.EndLine}, "read its definition")
	if card.Layer == query.LayerSemantic {
		c.Layers(query.LayerSyntactic, query.LayerSemantic)
		semanticWarnings(ctx, c)
	} else if len(card.SCIPSymbols) > 0 {
		c.Warn("%s changed since the semantic index: the card comes from syntactic facts", card.Location.Path)
	}
	if card.ParseErrors {
		c.Warn("%s has syntax errors; facts around them may be incomplete", card.Location.Path)
		c.Complete(0.8, "file has parse errors")
	}
	if card.Limits != "" {
		c.Warn("%s reaches the extractor's bounds: %s", card.Location.Path, card.Limits)
	}
	return &SymbolCardOut{SymbolCard: card, History: c.spanHistory(ctx, card.Span, "")}, nil
}

// resolveArg resolves a symbol argument given by name or position; a
// position that several symbols may denote is AMBIGUOUS_SYMBOL.
func resolveArg(ctx context.Context, c *Call, name string, at *Position) (*query.Resolved, error) {
	return resolvePos(ctx, c, name, at, false)
}

// resolvePos is resolveArg; with guess, a position that several symbols may
// denote resolves to the most likely, marked as a guess (query.Guess).
func resolvePos(ctx context.Context, c *Call, name string, at *Position, guess bool) (*query.Resolved, error) {
	switch {
	case at != nil && name != "":
		return nil, errs.E(errs.InvalidArgument, "give either symbol or at, not both")
	case at != nil:
		if at.Path == "" || at.Line <= 0 || at.Col <= 0 {
			return nil, errs.E(errs.InvalidArgument, "at needs path, line >= 1 and col >= 1")
		}
		return c.Engine().At(ctx, c.Env.Index.Paths().Root, at.Path, at.Line, at.Col, guess)
	case name != "":
		r, err := c.Engine().Resolve(ctx, name)
		if errs.Is(err, errs.NotFound) {
			return atPlace(ctx, c, name, guess, err)
		}
		return r, err
	}
	return nil, errs.E(errs.InvalidArgument, "name a symbol (symbol) or a position (at)")
}

// atPlace resolves a name that names no symbol but a place, PATH:LINE:COL
// as search and compilers print it, to the symbol there (defined or
// referenced); otherwise, or where the place holds no symbol of the
// repository, it answers notFound.
func atPlace(ctx context.Context, c *Call, name string, guess bool, notFound error) (*query.Resolved, error) {
	pos, err := ParsePosition(name)
	if err != nil || pos.Line < 1 || pos.Col < 1 {
		return nil, notFound
	}
	r, err := c.Engine().At(ctx, c.Env.Index.Paths().Root, pos.Path, pos.Line, pos.Col, guess)
	if err != nil && !errs.Is(err, errs.NotFound) && !errs.Is(err, errs.Ambiguous) {
		// Neither a name nor a place of the repository.
		return nil, &errs.Error{Kind: errs.NotFound, Msg: fmt.Sprintf("no symbol named %q, and no file %s for the place it names", name, pos.Path),
			Fixes: []string{"cairn ls " + cmp.Or(path.Dir(pos.Path), ".")}}
	}
	return r, err
}

// ParsePosition reads PATH:LINE:COL.
func ParsePosition(s string) (*Position, error) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return nil, errs.E(errs.InvalidArgument, "position %q is not PATH:LINE:COL", s)
	}
	j := strings.LastIndexByte(s[:i], ':')
	if j < 0 {
		return nil, errs.E(errs.InvalidArgument, "position %q is not PATH:LINE:COL", s)
	}
	line, err1 := strconv.Atoi(s[j+1 : i])
	col, err2 := strconv.Atoi(s[i+1:])
	if err1 != nil || err2 != nil || line < 1 || col < 1 {
		return nil, errs.E(errs.InvalidArgument, "position %q is not PATH:LINE:COL with positive numbers", s)
	}
	return &Position{Path: s[:j], Line: line, Col: col}, nil
}
