package store

import (
	"context"
	"database/sql"
	"fmt"
)

// cardSchema holds the spec cards of the worktree (internal/cards): what the
// card files under .cairn/cards say, the keyword and tag registries, and the
// @see links from code comments. Like every worktree table it is derived
// from the files (in the reconcile's transaction, so cards and code share
// an epoch) and rebuilt with the index.
const cardSchema = `
CREATE TABLE IF NOT EXISTS card(
  id          INTEGER PRIMARY KEY,
  path        TEXT    NOT NULL UNIQUE, -- the .card.md file
  key         TEXT    NOT NULL,        -- '' when the file names none
  summary     TEXT    NOT NULL,
  status      TEXT    NOT NULL,
  constraints TEXT    NOT NULL,        -- JSON array of strings
  body        TEXT    NOT NULL,        -- the markdown after the frontmatter
  problem     TEXT    NOT NULL         -- why the file is not a valid card, '' when it is
);
CREATE INDEX IF NOT EXISTS card_key ON card(key);
-- Full-text search over cards (rowid = card.id), trigram like the lexical tier.
CREATE VIRTUAL TABLE IF NOT EXISTS card_fts USING fts5(key, summary, body, tokenize='trigram');
-- Keywords (kind 0) and tags (kind 1) a card names in its frontmatter.
CREATE TABLE IF NOT EXISTS card_label(
  card_id INTEGER NOT NULL,
  kind    INTEGER NOT NULL,
  name    TEXT    NOT NULL,
  PRIMARY KEY(card_id, kind, name)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS card_label_name ON card_label(kind, name);
-- Typed card relations. A card's file declares the outgoing ones (reverse
-- 0); each has a generated reverse row (reverse 1) from dst back to src, so
-- one lookup by src gives both directions. card_id is the declaring card.
CREATE TABLE IF NOT EXISTS card_rel(
  card_id INTEGER NOT NULL,
  src     TEXT    NOT NULL,
  dst     TEXT    NOT NULL,
  type    TEXT    NOT NULL,
  reverse INTEGER NOT NULL,
  ord     INTEGER NOT NULL  -- position in the declaring file's list
);
CREATE INDEX IF NOT EXISTS card_rel_src ON card_rel(src);
CREATE INDEX IF NOT EXISTS card_rel_card ON card_rel(card_id);
-- The keyword (kind 0) and tag (kind 1) registries, by the file that
-- declares each name.
CREATE TABLE IF NOT EXISTS card_registry(
  kind        INTEGER NOT NULL,
  name        TEXT    NOT NULL,
  path        TEXT    NOT NULL,
  description TEXT    NOT NULL,
  PRIMARY KEY(kind, name, path)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS card_registry_path ON card_registry(path);
-- @see links in code comments: the card key, where it is written, and the
-- definition it belongs to (def: index into the file's Facts.Defs, -1 for
-- the file itself). Rows depend only on the file's content.
CREATE TABLE IF NOT EXISTS card_link(
  path TEXT    NOT NULL,
  line INTEGER NOT NULL,
  col  INTEGER NOT NULL,
  key  TEXT    NOT NULL,
  def  INTEGER NOT NULL,
  PRIMARY KEY(path, line, col)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS card_link_key ON card_link(key);
-- The revision of the card tables: it changes with every batch that changes
-- them, so readers keep what they built from them across epochs that did not.
CREATE TABLE IF NOT EXISTS card_rev(id INTEGER PRIMARY KEY CHECK (id = 0), rev INTEGER NOT NULL);
`

// CardRow is one card file as the index holds it.
type CardRow struct {
	ID          int64
	Path        string
	Key         string
	Summary     string
	Status      string
	Constraints string // JSON array
	Body        string // empty when read without bodies
	Problem     string
}

// Label kinds of card_label and card_registry.
const (
	LabelKeyword uint8 = 0
	LabelTag     uint8 = 1
)

// CardLabel is a keyword or tag a card names.
type CardLabel struct {
	CardID int64
	Kind   uint8
	Name   string
}

// CardRel is one typed relation between two card keys.
type CardRel struct {
	CardID  int64 // the card whose file declares it
	Src     string
	Dst     string
	Type    string
	Reverse bool
	Ord     int
}

// RegistryEntry is a registered keyword or tag.
type RegistryEntry struct {
	Kind        uint8
	Name        string
	Path        string
	Description string
}

// CardLink is one @see in a code comment.
type CardLink struct {
	Path string
	Line int // 1-based
	Col  int // 1-based, in bytes: where the key starts
	Key  string
	Def  int // index into the file's definitions, -1 for the file
}

// ClearCards empties the card tables (a full derivation follows).
func (t *Tx) ClearCards() error {
	for _, q := range []string{`DELETE FROM card`, `DELETE FROM card_fts`, `DELETE FROM card_label`, `DELETE FROM card_rel`,
		`DELETE FROM card_registry`, `DELETE FROM card_link`} {
		if _, err := t.exec(q); err != nil {
			return err
		}
	}
	return nil
}

// DeleteCardFile removes the card a file defined, with its labels and
// relations (forward and generated reverse).
func (t *Tx) DeleteCardFile(path string) error {
	var id int64
	err := t.queryRow(`SELECT id FROM card WHERE path = ?`, path).Scan(&id)
	if err == sql.ErrNoRows {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: card of %s: %w", path, err)
	}
	for _, q := range []string{`DELETE FROM card WHERE id = ?`, `DELETE FROM card_fts WHERE rowid = ?`,
		`DELETE FROM card_label WHERE card_id = ?`, `DELETE FROM card_rel WHERE card_id = ?`} {
		if _, err := t.exec(q, id); err != nil {
			return err
		}
	}
	return nil
}

// PutCard stores a card with its labels and relations (each relation as
// given, reverse rows included) and returns its id.
func (t *Tx) PutCard(c CardRow, labels []CardLabel, rels []CardRel) (int64, error) {
	res, err := t.exec(`INSERT INTO card(path, key, summary, status, constraints, body, problem) VALUES (?,?,?,?,?,?,?)`,
		c.Path, c.Key, c.Summary, c.Status, c.Constraints, c.Body, c.Problem)
	if err != nil {
		return 0, err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("store: card id: %w", err)
	}
	if _, err := t.exec(`INSERT INTO card_fts(rowid, key, summary, body) VALUES (?,?,?,?)`, id, c.Key, c.Summary, c.Body); err != nil {
		return 0, err
	}
	for _, l := range labels {
		if _, err := t.exec(`INSERT OR IGNORE INTO card_label(card_id, kind, name) VALUES (?,?,?)`, id, l.Kind, l.Name); err != nil {
			return 0, err
		}
	}
	for _, r := range rels {
		if _, err := t.exec(`INSERT INTO card_rel(card_id, src, dst, type, reverse, ord) VALUES (?,?,?,?,?,?)`,
			id, r.Src, r.Dst, r.Type, r.Reverse, r.Ord); err != nil {
			return 0, err
		}
	}
	return id, nil
}

// SetRegistryFile replaces the registry entries a file declares.
func (t *Tx) SetRegistryFile(path string, entries []RegistryEntry) error {
	if _, err := t.exec(`DELETE FROM card_registry WHERE path = ?`, path); err != nil {
		return err
	}
	for _, e := range entries {
		if _, err := t.exec(`INSERT OR IGNORE INTO card_registry(kind, name, path, description) VALUES (?,?,?,?)`,
			e.Kind, e.Name, path, e.Description); err != nil {
			return err
		}
	}
	return nil
}

// SetCardLinks replaces the @see links of a file.
func (t *Tx) SetCardLinks(path string, links []CardLink) error {
	if _, err := t.exec(`DELETE FROM card_link WHERE path = ?`, path); err != nil {
		return err
	}
	for _, l := range links {
		if _, err := t.exec(`INSERT OR IGNORE INTO card_link(path, line, col, key, def) VALUES (?,?,?,?,?)`,
			path, l.Line, l.Col, l.Key, l.Def); err != nil {
			return err
		}
	}
	return nil
}

// CardLinksOf returns the @see links of a file, in order of position.
func (t *Tx) CardLinksOf(path string) ([]CardLink, error) {
	rows, err := t.tx.Query(`SELECT path, line, col, key, def FROM card_link WHERE path = ? ORDER BY line, col`, path)
	return scanAll(rows, err, "card links", func(r scanner, l *CardLink) error {
		return r.Scan(&l.Path, &l.Line, &l.Col, &l.Key, &l.Def)
	})
}

// BumpCardRevision records that the card tables changed in this batch.
func (t *Tx) BumpCardRevision() error {
	_, err := t.exec(`INSERT INTO card_rev(id, rev) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET rev = rev + 1`)
	return err
}

// CardRevision is the revision of the card tables (0 before any).
func (s *Reader) CardRevision(ctx context.Context) (int64, error) {
	var rev int64
	err := s.sql.QueryRowContext(ctx, `SELECT rev FROM card_rev WHERE id = 0`).Scan(&rev)
	if err == sql.ErrNoRows {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("store: card revision: %w", err)
	}
	return rev, nil
}

// BlobsContaining returns the blobs whose searchable text may contain lit
// (every trigram of it, case-folded): a superset that callers verify. It
// reads the shared blob store only, so it works inside a batch whose file
// rows are not committed yet.
func (s *Reader) BlobsContaining(ctx context.Context, lit string) (map[int64]bool, error) {
	rows, err := s.sql.QueryContext(ctx, `SELECT rowid FROM blobs.blob_text WHERE blob_text MATCH ?`, TrigramQuery(lit))
	ids, err := scanAll(rows, err, "blobs containing", scanValue[int64])
	if err != nil {
		return nil, err
	}
	out := make(map[int64]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

const cardCols = `id, path, key, summary, status, constraints, problem`

// Cards returns every card without its body, ordered by path.
func (s *Reader) Cards(ctx context.Context) ([]CardRow, error) {
	rows, err := s.sql.QueryContext(ctx, `SELECT `+cardCols+` FROM card ORDER BY path`)
	return scanAll(rows, err, "cards", func(r scanner, c *CardRow) error {
		return r.Scan(&c.ID, &c.Path, &c.Key, &c.Summary, &c.Status, &c.Constraints, &c.Problem)
	})
}

// CardBody returns the body of a card.
func (s *Reader) CardBody(ctx context.Context, id int64) (string, error) {
	var body string
	err := s.sql.QueryRowContext(ctx, `SELECT body FROM card WHERE id = ?`, id).Scan(&body)
	if err == sql.ErrNoRows {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: card body: %w", err)
	}
	return body, nil
}

// CardLabels returns every card's keywords and tags.
func (s *Reader) CardLabels(ctx context.Context) ([]CardLabel, error) {
	rows, err := s.sql.QueryContext(ctx, `SELECT card_id, kind, name FROM card_label ORDER BY card_id, kind, name`)
	return scanAll(rows, err, "card labels", func(r scanner, l *CardLabel) error { return r.Scan(&l.CardID, &l.Kind, &l.Name) })
}

// CardRels returns every card relation, reverse rows included, in the
// order their cards declare them.
func (s *Reader) CardRels(ctx context.Context) ([]CardRel, error) {
	rows, err := s.sql.QueryContext(ctx, `SELECT card_id, src, dst, type, reverse, ord FROM card_rel ORDER BY card_id, ord, reverse`)
	return scanAll(rows, err, "card relations", func(r scanner, c *CardRel) error {
		return r.Scan(&c.CardID, &c.Src, &c.Dst, &c.Type, &c.Reverse, &c.Ord)
	})
}

// Registry returns the registered keywords and tags.
func (s *Reader) Registry(ctx context.Context) ([]RegistryEntry, error) {
	rows, err := s.sql.QueryContext(ctx, `SELECT kind, name, path, description FROM card_registry ORDER BY kind, name, path`)
	return scanAll(rows, err, "card registry", func(r scanner, e *RegistryEntry) error {
		return r.Scan(&e.Kind, &e.Name, &e.Path, &e.Description)
	})
}

// CardLinks returns every @see link, ordered by path and position.
func (s *Reader) CardLinks(ctx context.Context) ([]CardLink, error) {
	rows, err := s.sql.QueryContext(ctx, `SELECT path, line, col, key, def FROM card_link ORDER BY path, line, col`)
	return scanAll(rows, err, "card links", func(r scanner, l *CardLink) error {
		return r.Scan(&l.Path, &l.Line, &l.Col, &l.Key, &l.Def)
	})
}

// SearchCards runs an FTS5 query over the cards' key, summary and body and
// returns card ids best first (bm25, the key weighing most), at most limit.
func (s *Reader) SearchCards(ctx context.Context, match string, limit int) ([]int64, error) {
	rows, err := s.sql.QueryContext(ctx, `SELECT rowid FROM card_fts WHERE card_fts MATCH ?
		ORDER BY bm25(card_fts, 10.0, 5.0, 1.0), rowid LIMIT ?`, match, limit)
	return scanAll(rows, err, "card search", scanValue[int64])
}
