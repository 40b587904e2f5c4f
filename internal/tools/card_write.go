package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/cairnhq/cairn/internal/cards"
	"github.com/cairnhq/cairn/internal/store"
)

// CardFieldsIn are the fields a card write sets; a field left out keeps
// its value (on create: empty, status draft).
type CardFieldsIn struct {
	Summary     *string   `json:"summary,omitempty" jsonschema:"one line saying what the card specifies"`
	Status      *string   `json:"status,omitempty" jsonschema:"draft, accepted, implementing, implemented or deprecated"`
	Body        *string   `json:"body,omitempty" jsonschema:"the specification, in markdown"`
	Tags        *[]string `json:"tags,omitempty" jsonschema:"registered tags (tag_create registers one)"`
	Keywords    *[]string `json:"keywords,omitempty" jsonschema:"registered keywords (keyword_create registers one)"`
	Constraints *[]string `json:"constraints,omitempty" jsonschema:"brief constraints, e.g. latency < 200ms"`
}

func (f CardFieldsIn) fields() cards.Fields {
	return cards.Fields{Summary: f.Summary, Status: f.Status, Body: f.Body, Tags: f.Tags, Keywords: f.Keywords, Constraints: f.Constraints}
}

// CardCreateIn are the arguments of card_create.
type CardCreateIn struct {
	Key       string           `json:"key" jsonschema:"the new card's key: slash-separated segments, e.g. auth/login"`
	Relations []cards.Relation `json:"relations,omitempty" jsonschema:"outgoing relations: {type, target}"`
	CardFieldsIn
	CardDryRun
	Base
}

// CardUpdateIn are the arguments of card_update.
type CardUpdateIn struct {
	Key string `json:"key" jsonschema:"the card to change"`
	CardFieldsIn
	CardDryRun
	Base
}

// CardKeyIn are the arguments of card_delete.
type CardKeyIn struct {
	Key string `json:"key" jsonschema:"the card"`
	CardDryRun
	Base
}

// CardRenameIn are the arguments of card_rename.
type CardRenameIn struct {
	Key    string `json:"key" jsonschema:"the card's current key"`
	NewKey string `json:"new_key" jsonschema:"its new key"`
	CardDryRun
	Base
}

// CardStatusIn are the arguments of card_set_status.
type CardStatusIn struct {
	Key    string `json:"key" jsonschema:"the card"`
	Status string `json:"status" jsonschema:"draft, accepted, implementing, implemented (needs a @see link) or deprecated"`
	CardDryRun
	Base
}

// RegistryIn are the arguments of keyword_create, keyword_delete,
// tag_create and tag_delete.
type RegistryIn struct {
	Name        string `json:"name" jsonschema:"the keyword or tag"`
	Description string `json:"description,omitempty" jsonschema:"what it means (create only)"`
	CardDryRun
	Base
}

const writeDoc = "The card files change through the mutation engine in one all-or-nothing batch, each file guarded by the hash it was planned from (a file changed meanwhile fails with CONFLICT); the index is updated before the answer, and edit_undo reverts the batch."

func init() {
	registerCards(Tool{
		Name: "card_create", Group: "cards", Fresh: true,
		Summary: "Create a spec card: a new .cairn/cards/<key>.card.md with its frontmatter (summary, status draft unless given, registered tags and keywords, constraints, relations to existing cards) and markdown body.",
		Doc:     writeDoc + " Tags and keywords must be registered first; relation types must be among cards.relations; a new card cannot start as implemented.",
		When:    []string{"writing down a requirement before or while implementing it"},
		WhenNot: []string{"changing an existing card: card_update"},
		Examples: []string{`{"key": "auth/login", "summary": "OAuth login", "body": "Users sign in with an OAuth provider."}`,
			`{"key": "auth/session", "summary": "Sessions", "status": "accepted", "relations": [{"type": "depends-on", "target": "auth/login"}]}`},
	}, cardCreate)
	registerCards(Tool{
		Name: "card_update", Group: "cards", Fresh: true,
		Summary:  "Change fields of a spec card: summary, status, body, tags, keywords, constraints; fields left out stay as they are. Relations: card_relation_add and card_relation_remove; key: card_rename.",
		Doc:      writeDoc,
		When:     []string{"refining a requirement's text or classification"},
		WhenNot:  []string{"only the status: card_set_status", "renaming: card_rename"},
		Examples: []string{`{"key": "auth/login", "body": "Users sign in with GitHub or Google."}`},
	}, cardUpdate)
	registerCards(Tool{
		Name: "card_delete", Group: "cards", Fresh: true,
		Summary:  "Delete a spec card's file; refused (PRECONDITION_FAILED, listing them) while other cards declare relations to it or code links to it with @see.",
		Doc:      writeDoc,
		When:     []string{"dropping a requirement nothing refers to any more"},
		WhenNot:  []string{"retiring a requirement that code still cites: card_set_status deprecated"},
		Examples: []string{`{"key": "auth/legacy"}`},
	}, cardDelete)
	registerCards(Tool{
		Name: "card_rename", Group: "cards", Fresh: true,
		Summary:  "Rename a card's key everywhere in one atomic batch: its frontmatter (and its file, when it sits at the old key's path), every relation that targets it and every @see in code comments.",
		Doc:      writeDoc + " Either every file changes or none does, even if the process dies mid-way.",
		When:     []string{"a requirement's key no longer fits"},
		Examples: []string{`{"key": "auth/login", "new_key": "auth/sign-in"}`},
	}, cardRename)
	registerCards(Tool{
		Name: "card_set_status", Group: "cards", Fresh: true,
		Summary:  "Move a card to another status (draft, accepted, implementing, implemented, deprecated); implemented is refused while no code links to the card.",
		Doc:      writeDoc,
		When:     []string{"a requirement is accepted, being implemented, done or retired"},
		Examples: []string{`{"key": "auth/login", "status": "implementing"}`},
	}, cardSetStatus)
	for _, r := range []struct {
		kind uint8
		noun string
	}{{store.LabelKeyword, "keyword"}, {store.LabelTag, "tag"}} {
		kind, noun := r.kind, r.noun
		what := map[string]string{"keyword": "a normalised term of the dictionary cards use (what a card is about)", "tag": "a category for grouping cards"}[noun]
		registerCards(Tool{
			Name: noun + "_create", Group: "cards", Fresh: true,
			Summary:  fmt.Sprintf("Register a %s: %s, in .cairn/cards/%ss.yaml; cards may name only registered %ss.", noun, what, noun, noun),
			Doc:      writeDoc,
			Examples: []string{`{"name": "authentication", "description": "how users prove who they are"}`},
		}, func(ctx context.Context, c *Call, v *cards.View, in RegistryIn) (*CardWriteOut, error) {
			return registryWrite(ctx, c, v, in, kind, true)
		})
		registerCards(Tool{
			Name: noun + "_delete", Group: "cards", Fresh: true,
			Summary:  fmt.Sprintf("Unregister a %s and remove it from every card that names it, in one batch.", noun),
			Doc:      writeDoc,
			Examples: []string{`{"name": "legacy"}`},
		}, func(ctx context.Context, c *Call, v *cards.View, in RegistryIn) (*CardWriteOut, error) {
			return registryWrite(ctx, c, v, in, kind, false)
		})
	}
}

// finishWrite applies a plan and words the answer.
func finishWrite(ctx context.Context, c *Call, plan *cards.Plan, dry bool, key, done string) (*CardWriteOut, error) {
	if err := c.editsAllowed(); err != nil {
		return nil, err
	}
	res, err := c.applyCards(ctx, plan, dry)
	if err != nil {
		return nil, err
	}
	switch {
	case dry:
		c.Answer("dry run: %s would change %d files (%s); nothing written", done, res.FilesChanged, strings.Join(plan.Files, ", "))
	case !res.Applied:
		c.Answer("nothing to change: %s already", done)
	default:
		c.Answer("%s: %d files changed (batch %s)", done, res.FilesChanged, res.Batch)
	}
	return &CardWriteOut{Card: key, Write: res}, nil
}

func cardCreate(ctx context.Context, c *Call, v *cards.View, in CardCreateIn) (*CardWriteOut, error) {
	plan, err := v.Create(in.Key, in.CardFieldsIn.fields(), in.Relations)
	if err != nil {
		return nil, err
	}
	c.Next("card_link_add", map[string]any{"card": in.Key, "path": "<file>", "symbol": "<definition>"}, "link the code that implements it")
	return finishWrite(ctx, c, plan, in.DryRun, in.Key, "created card "+in.Key)
}

func cardUpdate(ctx context.Context, c *Call, v *cards.View, in CardUpdateIn) (*CardWriteOut, error) {
	plan, err := v.Update(in.Key, in.CardFieldsIn.fields())
	if err != nil {
		return nil, err
	}
	return finishWrite(ctx, c, plan, in.DryRun, in.Key, "updated card "+in.Key)
}

func cardDelete(ctx context.Context, c *Call, v *cards.View, in CardKeyIn) (*CardWriteOut, error) {
	plan, err := v.Delete(in.Key)
	if err != nil {
		return nil, err
	}
	return finishWrite(ctx, c, plan, in.DryRun, in.Key, "deleted card "+in.Key)
}

func cardRename(ctx context.Context, c *Call, v *cards.View, in CardRenameIn) (*CardWriteOut, error) {
	plan, err := v.Rename(in.Key, in.NewKey)
	if err != nil {
		return nil, err
	}
	return finishWrite(ctx, c, plan, in.DryRun, in.NewKey, fmt.Sprintf("renamed card %s to %s", in.Key, in.NewKey))
}

func cardSetStatus(ctx context.Context, c *Call, v *cards.View, in CardStatusIn) (*CardWriteOut, error) {
	plan, err := v.SetStatus(in.Key, in.Status)
	if err != nil {
		return nil, err
	}
	return finishWrite(ctx, c, plan, in.DryRun, in.Key, fmt.Sprintf("card %s is %s", in.Key, in.Status))
}

func registryWrite(ctx context.Context, c *Call, v *cards.View, in RegistryIn, kind uint8, create bool) (*CardWriteOut, error) {
	noun := registryNoun(kind)
	if create {
		plan, err := v.RegistryCreate(kind, in.Name, in.Description)
		if err != nil {
			return nil, err
		}
		return finishWrite(ctx, c, plan, in.DryRun, "", fmt.Sprintf("registered %s %q", noun, in.Name))
	}
	plan, unlinked, err := v.RegistryDelete(kind, in.Name)
	if err != nil {
		return nil, err
	}
	return finishWrite(ctx, c, plan, in.DryRun, "", fmt.Sprintf("unregistered %s %q (removed from %d cards)", noun, in.Name, len(unlinked)))
}
