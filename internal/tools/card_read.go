package tools

import (
	"context"
	"fmt"

	"github.com/cairnhq/cairn/internal/cards"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/store"
)

// CardFilterIn are the filters of the card lists.
type CardFilterIn struct {
	Status   []string `json:"status,omitempty" jsonschema:"only cards with one of these statuses (draft, accepted, implementing, implemented, deprecated)"`
	Tags     []string `json:"tags,omitempty" jsonschema:"only cards with every one of these tags"`
	Keywords []string `json:"keywords,omitempty" jsonschema:"only cards with every one of these keywords"`
	Prefix   string   `json:"prefix,omitempty" jsonschema:"only cards whose key starts with this, e.g. auth/"`
}

func (f CardFilterIn) filter() cards.ListFilter {
	return cards.ListFilter{Statuses: f.Status, Tags: f.Tags, Keywords: f.Keywords, Prefix: f.Prefix}
}

// CardSearchIn are the arguments of card_search.
type CardSearchIn struct {
	Query string `json:"query" jsonschema:"words to find; every word of 3 or more characters must occur (trigram full-text, any case)"`
	Scope string `json:"scope,omitempty" jsonschema:"cards, code or all (default): code matches symbol names and lists the cards linked to each"`
	CardFilterIn
	Common
}

// CardSearchOut is the result of card_search.
type CardSearchOut struct {
	Cards []cards.SearchHit `json:"cards"`
	Code  []cards.SearchHit `json:"code"`
}

// CardGetIn are the arguments of card_get.
type CardGetIn struct {
	Key string `json:"key" jsonschema:"a card key (auth/login), or a code entity: module:<path>, symbol:<path>#<Name.Path> or a symbol id"`
	Common
}

// CardGetOut is the result of card_get: a card or a code entity.
type CardGetOut struct {
	Card   *cards.CardDetail   `json:"card,omitempty"`
	Entity *cards.EntityDetail `json:"entity,omitempty"`
}

// CardListIn are the arguments of card_list.
type CardListIn struct {
	CardFilterIn
	Common
}

// CardListOut is a page of cards.
type CardListOut struct {
	Total int             `json:"total"`
	Cards []cards.Summary `json:"cards"`
}

// CardRelationsIn are the arguments of card_relations.
type CardRelationsIn struct {
	Key       string   `json:"key" jsonschema:"the card key"`
	Direction string   `json:"direction,omitempty" jsonschema:"outgoing (declared by the card), incoming (declared by others) or both (default)"`
	Types     []string `json:"types,omitempty" jsonschema:"only these relation types"`
	Base
}

// CardRelationsOut are a card's relations.
type CardRelationsOut struct {
	Key       string               `json:"key"`
	Relations []cards.RelationInfo `json:"relations"`
}

// CardCoverageIn are the arguments of card_coverage.
type CardCoverageIn struct {
	Key string `json:"key,omitempty" jsonschema:"one card; without it, every card by status"`
	Base
}

// CardCoverageOut is one card's coverage or the overview of all.
type CardCoverageOut struct {
	Card     *cards.Coverage `json:"card,omitempty"`
	Overview *cards.Overview `json:"overview,omitempty"`
}

// CardUnlinkedIn are the arguments of card_unlinked.
type CardUnlinkedIn struct {
	Code bool `json:"code,omitempty" jsonschema:"list code files that no @see links instead of cards without code"`
	CardFilterIn
	Common
}

// CardUnlinkedOut is a page of unlinked cards or code files.
type CardUnlinkedOut struct {
	Total int             `json:"total"`
	Cards []cards.Summary `json:"cards,omitempty"`
	Files []string        `json:"files,omitempty"`
}

func init() {
	registerCards(Tool{
		Name: "card_search", Group: "cards", Fresh: true,
		Summary:  "Full-text search over spec cards (key, summary, body) and code symbols, with the cards each symbol links to. Use to find the requirement behind code or the code behind a requirement by words; use card_list to filter by status, tag or keyword alone.",
		Doc:      "Cards are matched with the trigram index: every word of three or more characters must occur, in any case; shorter words must occur in the key or summary. Cards rank by BM25 with the key weighing most, then the summary. Code hits come from the ranked symbol-name search with the longest word; each lists the cards its definition, an enclosing definition or its file links to.",
		When:     []string{"which card specifies a behaviour: words from the requirement", "which cards mention a term or a symbol name"},
		WhenNot:  []string{"one card by key: card_get", "listing cards by status, tag or keyword: card_list", "searching code text: search"},
		Examples: []string{`{"query": "oauth login"}`, `{"query": "token", "scope": "cards", "status": ["accepted"]}`},
	}, cardSearch)
	registerCards(Tool{
		Name: "card_get", Group: "cards", Fresh: true,
		Summary:  "One spec card with its body, relations (outgoing and incoming) and the code that links to it with @see; or, for a code entity, the cards linked to it, to what encloses it and to its file. Use after card_search or when code names a card in @see.",
		When:     []string{"reading a requirement and finding the code that implements it", "which cards a function or file implements"},
		WhenNot:  []string{"the wider neighbourhood: card_subgraph", "what a change reaches: card_impact"},
		Examples: []string{`{"key": "auth/login"}`, `{"key": "module:src/auth/login.ts"}`},
	}, cardGet)
	registerCards(Tool{
		Name: "card_list", Group: "cards", Fresh: true, Paged: true,
		Summary:  "List spec cards by key with status, summary, tags, keywords and link counts, filtered by status, tags, keywords or key prefix. Use to survey the cards; use card_search to find them by words.",
		When:     []string{"every card of a status, tag or keyword", "the cards under a key prefix"},
		WhenNot:  []string{"finding cards by text: card_search", "cards without code: card_unlinked"},
		Examples: []string{`{}`, `{"status": ["accepted", "implementing"]}`, `{"tags": ["auth-module"], "prefix": "auth/"}`},
	}, cardList)
	registerCards(Tool{
		Name: "card_relations", Group: "cards", Fresh: true,
		Summary:  "A card's typed relations: outgoing (declared in its frontmatter), incoming (declared by other cards, the generated reverse edges) or both, each with the other card's status and summary.",
		When:     []string{"what a card depends on, and what depends on it"},
		WhenNot:  []string{"several hops at once: card_subgraph", "code linked to the card: card_get"},
		Examples: []string{`{"key": "auth/login"}`, `{"key": "auth/session", "direction": "incoming", "types": ["depends-on"]}`},
	}, cardRelations)
	registerCards(Tool{
		Name: "card_coverage", Group: "cards", Fresh: true,
		Summary:  "How much code implements a card (its @see links, files, and a verdict from its status: an implemented card without code is an error, an accepted or implementing one a warning); without a key, counts per status and the cards whose status expects code they lack.",
		When:     []string{"checking that a card is implemented", "which confirmed cards still have no code"},
		WhenNot:  []string{"every rule at once, for CI: card_verify"},
		Examples: []string{`{"key": "auth/login"}`, `{}`},
	}, cardCoverage)
	registerCards(Tool{
		Name: "card_unlinked", Group: "cards", Fresh: true, Paged: true,
		Summary:  "Cards that no code links to with @see (filtered by status, tags, keywords), or with code: true the code files that link to no card.",
		When:     []string{"finding requirements without implementation", "finding code not traced to any card"},
		WhenNot:  []string{"one card's links: card_coverage"},
		Examples: []string{`{"status": ["accepted", "implementing", "implemented"]}`, `{"code": true}`},
	}, cardUnlinked)
}

func cardSearch(ctx context.Context, c *Call, v *cards.View, in CardSearchIn) (*CardSearchOut, error) {
	limit := c.Bound("limit", in.Limit, ResultsBudget)
	out := &CardSearchOut{Cards: []cards.SearchHit{}, Code: []cards.SearchHit{}}
	switch in.Scope {
	case "", "all", "cards", "code":
	default:
		return nil, errs.E(errs.InvalidArgument, "scope must be cards, code or all, not %q", in.Scope)
	}
	var err error
	if in.Scope != "code" {
		if out.Cards, err = v.SearchCards(ctx, in.Query, in.CardFilterIn.filter(), limit); err != nil {
			return nil, err
		}
	}
	if in.Scope != "cards" {
		if out.Code, err = v.SearchCode(ctx, in.Query, limit); err != nil {
			return nil, err
		}
	}
	c.Answer("%d cards and %d code entities match %q", len(out.Cards), len(out.Code), in.Query)
	if len(out.Cards) > 0 {
		c.Next("card_get", map[string]any{"key": out.Cards[0].ID}, "read the best card with its links")
	}
	return out, nil
}

func cardGet(ctx context.Context, c *Call, v *cards.View, in CardGetIn) (*CardGetOut, error) {
	if in.Key == "" {
		return nil, errs.E(errs.InvalidArgument, "key is required: a card key or a code entity")
	}
	if cards.IsEntityKey(in.Key) {
		d, err := v.EntityCards(ctx, in.Key)
		if err != nil {
			return nil, err
		}
		c.Answer("%s is linked to %d cards", d.Entity.Key, len(d.Cards))
		return &CardGetOut{Entity: d}, nil
	}
	d, err := v.Card(ctx, in.Key)
	if err != nil {
		return nil, err
	}
	c.Answer("card %s (%s): %s; %d relations, %d code links", d.Key, d.Status, d.Summary, len(d.Relations), len(d.Links))
	if len(d.Duplicates) > 0 {
		c.Warn("key %s is also defined by %v; card_verify reports it", d.Key, d.Duplicates)
	}
	c.Next("card_subgraph", map[string]any{"key": d.Key}, "the cards and code around it")
	c.Next("card_impact", map[string]any{"key": d.Key}, "what a change to it reaches")
	return &CardGetOut{Card: d}, nil
}

func cardList(ctx context.Context, c *Call, v *cards.View, in CardListIn) (*CardListOut, error) {
	all := v.List(in.CardFilterIn.filter())
	limit := c.Clamp("limit", in.Limit, EntriesBudget)
	items, err := pageOf(ctx, c, "cards", all, limit, "card_list", in.CardFilterIn)
	if err != nil {
		return nil, err
	}
	c.Answer("%d cards", len(all))
	return &CardListOut{Total: len(all), Cards: items}, nil
}

func cardRelations(ctx context.Context, c *Call, v *cards.View, in CardRelationsIn) (*CardRelationsOut, error) {
	switch in.Direction {
	case "", "both", "outgoing", "incoming":
	default:
		return nil, errs.E(errs.InvalidArgument, "direction must be outgoing, incoming or both, not %q", in.Direction)
	}
	rels, err := v.Relations(in.Key, in.Direction, in.Types)
	if err != nil {
		return nil, err
	}
	c.Answer("card %s has %d relations", in.Key, len(rels))
	return &CardRelationsOut{Key: in.Key, Relations: rels}, nil
}

func cardCoverage(ctx context.Context, c *Call, v *cards.View, in CardCoverageIn) (*CardCoverageOut, error) {
	if in.Key == "" {
		o := v.AllCoverage()
		c.Answer("%d of %d cards have code linked; %d cards lack code their status expects", o.Linked, o.Cards, len(o.Problems))
		return &CardCoverageOut{Overview: o}, nil
	}
	cov, err := v.CardCoverage(ctx, in.Key)
	if err != nil {
		return nil, err
	}
	msg := fmt.Sprintf("card %s (%s): %d links in %d files", cov.Key, cov.Status, cov.Linked, cov.Files)
	if cov.Message != "" {
		msg += "; " + cov.Verdict + ": " + cov.Message
	}
	c.Answer("%s", msg)
	return &CardCoverageOut{Card: cov}, nil
}

func cardUnlinked(ctx context.Context, c *Call, v *cards.View, in CardUnlinkedIn) (*CardUnlinkedOut, error) {
	limit := c.Clamp("limit", in.Limit, EntriesBudget)
	if in.Code {
		files, total, err := v.UnlinkedCode(ctx)
		if err != nil {
			return nil, err
		}
		page, err := pageOf(ctx, c, "files", files, limit, "card_unlinked", true)
		if err != nil {
			return nil, err
		}
		c.Answer("%d of %d code files link to no card", len(files), total)
		return &CardUnlinkedOut{Total: len(files), Files: page}, nil
	}
	f := in.CardFilterIn.filter()
	f.Unlinked = true
	all := v.List(f)
	page, err := pageOf(ctx, c, "cards", all, limit, "card_unlinked", in.CardFilterIn)
	if err != nil {
		return nil, err
	}
	c.Answer("%d cards have no code linked", len(all))
	return &CardUnlinkedOut{Total: len(all), Cards: page}, nil
}

// registryNoun names a registry kind in answers.
func registryNoun(kind uint8) string {
	if kind == store.LabelTag {
		return "tag"
	}
	return "keyword"
}
