package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/cairnhq/cairn/internal/query"
)

// SearchIn are the arguments of search.
type SearchIn struct {
	Query      string   `json:"query" jsonschema:"text, pattern or name"`
	Mode       string   `json:"mode,omitempty" jsonschema:"lexical (default), symbol (names), definitions (exact name) or references"`
	Regex      bool     `json:"regex,omitempty" jsonschema:"RE2 regular expression"`
	Word       bool     `json:"word,omitempty" jsonschema:"whole identifiers only"`
	IgnoreCase bool     `json:"ignore_case,omitempty" jsonschema:"ignore case"`
	Paths      []string `json:"paths,omitempty" jsonschema:"path globs, e.g. pkg/**"`
	Languages  []string `json:"languages,omitempty" jsonschema:"e.g. go, python"`
	Kinds      []string `json:"kinds,omitempty" jsonschema:"symbol modes: kinds to keep"`
	Common
	View
}

// SearchOut is search's payload; references mode fills References instead of results.
type SearchOut struct {
	*query.SearchResult
	// References is refs_find's answer (mode references): a
	// *query.RefsResult, or a *change.UnitRefsResult for a path.
	References any `json:"references,omitempty"`
}

func init() {
	Register(Tool{
		Name: "search", Group: "read", Fresh: true, Cache: CacheQuery, Paged: true,
		Summary: "Find code by text (literal, regex, word) or symbols by name. Ranked, bounded, with snippets. Use instead of grep.",
		Doc: "Modes: lexical (default) searches file contents, case-sensitive unless ignore_case; regex takes RE2 syntax; word matches whole identifiers. " +
			"symbol ranks symbols whose name contains the query (exact name first, then public, then classes/functions); a qualified query no name contains (Server.Sta, Parser::parse) finds those whose name contains its last part, in a container whose name ends with the rest. definitions returns the definitions of an exact name or qualified suffix. " +
			"references returns the same as refs_find. Filters: paths (globs), languages, kinds. Results are ranked: files defining the searched name first, tests last. Page with the cursor from provenance.truncations.",
		When:     []string{"finding where a text, identifier or pattern occurs", "finding symbols whose name you half know (mode symbol)", "finding where an exact name is defined (mode definitions)"},
		WhenNot:  []string{"everything about one known symbol: symbol_get", "every reference of a symbol with tiers: refs_find", "reading a span you already located: read_source"},
		Examples: []string{`{"query": "NewForConfig"}`, `{"query": "func \\w+Handler", "regex": true, "paths": ["pkg/**"]}`, `{"query": "config", "mode": "symbol", "kinds": ["class", "struct"]}`},
	}, search)
}

func search(ctx context.Context, c *Call, in SearchIn) (*SearchOut, error) {
	if in.Mode == "references" {
		r, err := refsFind(ctx, c, RefsIn{Symbol: in.Query, Common: in.Common})
		if err != nil {
			return nil, err
		}
		c.renamePage("locations", "references.locations")
		return &SearchOut{SearchResult: &query.SearchResult{Mode: "references", Query: in.Query, Hits: []query.SearchHit{}}, References: r}, nil
	}
	limit := c.Clamp("limit", in.Limit, ResultsBudget)
	pg, err := c.pager(ctx, "search", in.Query, in.Mode, in.Regex, in.Word, in.IgnoreCase, in.Paths, in.Languages, in.Kinds, limit)
	if err != nil {
		return nil, err
	}
	res, err := c.Engine().Search(ctx, query.SearchParams{Query: in.Query, Mode: in.Mode, Regex: in.Regex, Word: in.Word,
		IgnoreCase: in.IgnoreCase, Paths: in.Paths, Langs: in.Languages, Kinds: in.Kinds, Limit: limit, Offset: pg.offset})
	if err != nil {
		return nil, err
	}
	pg.done(ctx, "results", len(res.Hits), res.NextOffset, res.Total, res.More && !res.Partial)
	if res.Partial {
		c.Truncated("results", len(res.Hits), 0, "deadline", pg.cursor(ctx, res.NextOffset))
		c.Complete(0.5, "the deadline stopped the search; more results may exist")
	}
	switch res.Mode {
	case "lexical":
		c.Saved(res.BytesCovered)
		if res.FilesExact {
			c.Answer("%d results in %d files for %q", len(res.Hits), res.Files, in.Query)
		} else {
			c.Answer("%d results for %q (%d candidate files)", len(res.Hits), in.Query, res.Files)
		}
		if len(res.Hits) == 0 && !in.IgnoreCase && !in.Regex {
			c.Next("search", map[string]any{"query": in.Query, "ignore_case": true}, "nothing matched case-sensitively")
		}
		if len(res.Hits) > 0 && looksLikeName(in.Query) {
			c.Next("search", map[string]any{"query": in.Query, "mode": "definitions"}, "find where this name is defined")
		}
	default:
		for _, h := range res.Hits {
			if h.Layer == query.LayerSemantic {
				c.Layers(query.LayerSyntactic, query.LayerSemantic)
				break
			}
		}
		c.Saved(int64(len(res.Hits)) * 400)
		c.Answer("%d of %d symbols match %q", len(res.Hits), max(res.Total, len(res.Hits)), in.Query)
		if len(res.Hits) > 0 {
			top := res.Hits[0].Symbol
			c.Next("symbol_get", map[string]any{"symbol": top.ID}, fmt.Sprintf("card of the best match %s", top.QName))
		}
	}
	return &SearchOut{SearchResult: res}, nil
}

func looksLikeName(s string) bool {
	return s != "" && !strings.ContainsAny(s, " \t()[]{}<>\"'=;,")
}
