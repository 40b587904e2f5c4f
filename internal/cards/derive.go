package cards

import (
	"context"
	"encoding/json"
	"errors"
	"slices"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/store"
)

// deriverVersion changes when what the deriver stores changes: the next
// reconcile then derives every card and link again.
const deriverVersion = 2

func init() { index.RegisterDeriver(deriver{}) }

// deriver keeps the card tables of the worktree index up to date with each
// reconcile batch: card files, registry files and the @see links of code.
type deriver struct{}

func (deriver) Name() string { return "cards" }

func (deriver) Version() int { return deriverVersion }

func (deriver) Derive(ctx context.Context, d *index.Derivation) error {
	tx := d.Tx
	changed := d.Full
	if d.Full {
		if err := tx.ClearCards(); err != nil {
			return err
		}
	}
	for _, p := range d.Deleted {
		changed = true
		if err := forget(tx, p); err != nil {
			return err
		}
	}
	var withSee map[int64]bool
	if d.Full {
		// Most files of a full build link nothing: the trigram index says
		// which may, without reading them.
		var err error
		if withSee, err = d.BlobsContaining(ctx, seeTag); err != nil {
			return err
		}
	}
	for _, f := range d.Changed {
		if err := ctx.Err(); err != nil {
			return err
		}
		k, isRegistry := registryFor(f.Path)
		if !d.Full && (isRegistry || IsCardPath(f.Path)) {
			changed = true
			if err := forget(tx, f.Path); err != nil {
				return err
			}
		}
		switch {
		case IsCardPath(f.Path):
			text, err := d.Text(ctx, f)
			if err != nil {
				return err
			}
			if err := putCard(tx, f.Path, text); err != nil {
				return err
			}
		case isRegistry:
			text, err := d.Text(ctx, f)
			if err != nil {
				return err
			}
			if err := tx.SetRegistryFile(f.Path, registryRows(k, text)); err != nil {
				return err
			}
		default:
			var links []store.CardLink
			if SupportsLinks(f.Lang) && (withSee == nil || withSee[f.BlobID]) {
				var err error
				if links, err = fileLinks(ctx, d, f); err != nil {
					return err
				}
			}
			if d.Full {
				if len(links) > 0 {
					if err := tx.SetCardLinks(f.Path, links); err != nil {
						return err
					}
				}
				continue
			}
			// Most edits of code leave its links as they were: then the
			// card tables, and what readers built from them, stay.
			old, err := tx.CardLinksOf(f.Path)
			if err != nil {
				return err
			}
			if !slices.Equal(old, links) {
				changed = true
				if err := tx.SetCardLinks(f.Path, links); err != nil {
					return err
				}
			}
		}
	}
	if changed {
		return tx.BumpCardRevision()
	}
	return nil
}

// forget removes what a path contributed.
func forget(tx *store.Tx, p string) error {
	switch _, isRegistry := registryFor(p); {
	case IsCardPath(p):
		return tx.DeleteCardFile(p)
	case isRegistry:
		return tx.SetRegistryFile(p, nil)
	}
	return tx.SetCardLinks(p, nil)
}

// putCard stores a card file, or the reason it is not a valid card.
func putCard(tx *store.Tx, p string, text []byte) error {
	row := store.CardRow{Path: p, Constraints: "[]"}
	var c *Card
	var err error
	if text == nil {
		err = problem("the file is not searchable text (binary, or over the size limit)")
	} else {
		c, err = Parse(text)
	}
	var pe *ParseError
	if errors.As(err, &pe) {
		row.Problem = pe.Msg
	} else if err != nil {
		return err
	}
	var labels []store.CardLabel
	var rels []store.CardRel
	if c != nil {
		if ValidKey(c.Key) {
			row.Key = c.Key
		}
		row.Summary, row.Status, row.Body = c.Summary, c.Status, c.Body
		if len(c.Constraints) > 0 {
			b, _ := json.Marshal(c.Constraints)
			row.Constraints = string(b)
		}
		for _, k := range c.Keywords {
			labels = append(labels, store.CardLabel{Kind: store.LabelKeyword, Name: k})
		}
		for _, t := range c.Tags {
			labels = append(labels, store.CardLabel{Kind: store.LabelTag, Name: t})
		}
		if row.Key != "" {
			for i, r := range c.Relations {
				rels = append(rels, store.CardRel{Src: row.Key, Dst: r.Target, Type: r.Type, Ord: i},
					store.CardRel{Src: r.Target, Dst: row.Key, Type: r.Type, Reverse: true, Ord: i})
			}
		}
	}
	_, err = tx.PutCard(row, labels, rels)
	return err
}

// registryRows turns a registry file into rows; a file that cannot be read
// becomes one row with an empty name whose description says why.
func registryRows(k registryKind, text []byte) []store.RegistryEntry {
	entries, err := ParseRegistry(k, text)
	if err != nil {
		return []store.RegistryEntry{{Kind: k.Kind, Description: err.Error()}}
	}
	rows := make([]store.RegistryEntry, 0, len(entries))
	for _, e := range entries {
		rows = append(rows, store.RegistryEntry{Kind: k.Kind, Name: e.Name, Description: e.Description})
	}
	return rows
}

// fileLinks finds the @see links of a code file and the definitions they
// belong to.
func fileLinks(ctx context.Context, d *index.Derivation, f store.FileRow) ([]store.CardLink, error) {
	text, err := d.Text(ctx, f)
	if err != nil || text == nil {
		return nil, err
	}
	hits, cms := Scan(f.Lang, text)
	if len(hits) == 0 {
		return nil, nil
	}
	facts, err := d.Facts(ctx, f)
	if err != nil {
		return nil, err
	}
	var defs []lang.Def
	if facts != nil {
		defs = facts.Defs
	}
	owners := Attach(text, hits, cms, defs)
	links := make([]store.CardLink, len(hits))
	for i, h := range hits {
		links[i] = store.CardLink{Path: f.Path, Line: h.Line, Col: h.Col, Key: h.Key, Def: owners[i]}
	}
	return links, nil
}
