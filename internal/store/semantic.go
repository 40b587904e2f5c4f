package store

import (
	"context"
	"database/sql"
	"fmt"
)

// SemIndexRow is one imported SCIP index.
type SemIndexRow struct {
	ID          int64
	Key         string // indexer + project root, or the .scip path
	Tool        string
	ToolVersion string
	Root        string // repo-relative project root
	Source      string
	Head        string // commit the indexer saw ('' unknown)
	HeadKnown   bool   // false: Head is only HEAD at import time
	ImportedAt  int64
	Stats       string // JSON
}

// SemDocRow is one document of an index. Occs is nil when read without them.
type SemDocRow struct {
	Index int64
	Ord   int64
	Path  string
	Lang  string
	Hash  []byte // content hash of the file the indexer saw; empty when unknown
	State uint8
	Occs  []byte
}

// SemSymbolRow is one SCIP symbol of an index.
type SemSymbolRow struct {
	Index   int64
	ID      int64 // hash of Symbol
	Symbol  string
	Kind    int32
	Display string
	DefDoc  int64 // ord of the defining document, -1 when defined elsewhere
	Occs    []byte
}

// SemRelRow is a relationship between two symbols of an index.
type SemRelRow struct {
	Sym, Target int64
	Kinds       uint8
}

// SemMapRow maps a SCIP symbol to a Cairn symbol id.
type SemMapRow struct {
	Sym, Cairn int64
}

// SemImport is everything one import writes.
type SemImport struct {
	Index   SemIndexRow
	Docs    []SemDocRow
	Symbols []SemSymbolRow
	Rels    []SemRelRow
	Map     []SemMapRow
	// Progress is called every ProgressEvery rows (default 4096; may be nil).
	Progress      func(done, total int)
	ProgressEvery int
}

// ReplaceSemantic writes an index in one transaction, replacing the index with
// the same key: readers see the old index or the new one, never a mix, and a
// process killed midway leaves the old one (SQLite's atomic commit).
func (s *DB) ReplaceSemantic(ctx context.Context, imp *SemImport) (id int64, err error) {
	err = s.write("main", func() error {
		id, err = s.replaceSemantic(ctx, imp)
		return err
	})
	return id, err
}

func (s *DB) replaceSemantic(ctx context.Context, imp *SemImport) (int64, error) {
	tx, err := s.sql.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("store: semantic import: %w", err)
	}
	defer tx.Rollback()
	var old int64
	switch err := tx.QueryRowContext(ctx, `SELECT id FROM sem_index WHERE key = ?`, imp.Index.Key).Scan(&old); {
	case err == sql.ErrNoRows:
	case err != nil:
		return 0, fmt.Errorf("store: semantic import: %w", err)
	default:
		if err := deleteSemIndex(ctx, tx, old); err != nil {
			return 0, err
		}
	}
	x := imp.Index
	var id int64
	err = tx.QueryRowContext(ctx, `INSERT INTO sem_index(key, tool, tool_version, root, source, head, head_known, imported_at, stats)
		VALUES(?,?,?,?,?,?,?,?,?) RETURNING id`, x.Key, x.Tool, x.ToolVersion, x.Root, x.Source, x.Head, x.HeadKnown, x.ImportedAt, x.Stats).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("store: semantic import: %w", err)
	}
	total := len(imp.Docs) + len(imp.Symbols) + len(imp.Rels) + len(imp.Map)
	done := 0
	every := imp.ProgressEvery
	if every <= 0 {
		every = 4096
	}
	report := func(n int) {
		before := done / every
		done += n
		if imp.Progress != nil && done/every != before {
			imp.Progress(done, total)
		}
	}
	ins := newBatcher(tx)
	defer ins.close()
	for _, d := range imp.Docs {
		if err := ins.add(ctx, `INSERT INTO sem_doc(idx, ord, path, lang, hash, state, occs) VALUES`, 7,
			id, d.Ord, d.Path, d.Lang, nonNilBytes(d.Hash), d.State, nonNilBytes(withSum(d.Occs))); err != nil {
			return 0, err
		}
		report(1)
	}
	for _, r := range imp.Symbols {
		if err := ins.add(ctx, `INSERT INTO sem_symbol(idx, id, symbol, kind, display, def_doc, occs) VALUES`, 7,
			id, r.ID, r.Symbol, r.Kind, r.Display, r.DefDoc, nonNilBytes(withSum(r.Occs))); err != nil {
			return 0, err
		}
		report(1)
	}
	for _, r := range imp.Rels {
		if err := ins.add(ctx, `INSERT OR IGNORE INTO sem_rel(idx, sym, target, kinds) VALUES`, 4, id, r.Sym, r.Target, r.Kinds); err != nil {
			return 0, err
		}
		report(1)
	}
	for _, r := range imp.Map {
		if err := ins.add(ctx, `INSERT OR IGNORE INTO sem_map(idx, sym, cairn) VALUES`, 3, id, r.Sym, r.Cairn); err != nil {
			return 0, err
		}
		report(1)
	}
	if err := ins.flush(ctx); err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("store: semantic import commit: %w", err)
	}
	return id, nil
}

func nonNilBytes(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// DeleteSemantic removes an index by key (no-op when absent).
func (s *DB) DeleteSemantic(ctx context.Context, key string) error {
	return s.write("main", func() error { return s.deleteSemantic(ctx, key) })
}

func (s *DB) deleteSemantic(ctx context.Context, key string) error {
	tx, err := s.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var id int64
	switch err := tx.QueryRowContext(ctx, `SELECT id FROM sem_index WHERE key = ?`, key).Scan(&id); {
	case err == sql.ErrNoRows:
		return nil
	case err != nil:
		return fmt.Errorf("store: delete semantic index: %w", err)
	}
	if err := deleteSemIndex(ctx, tx, id); err != nil {
		return err
	}
	return tx.Commit()
}

func deleteSemIndex(ctx context.Context, tx *sql.Tx, id int64) error {
	for _, t := range []string{"sem_doc", "sem_symbol", "sem_rel", "sem_map"} {
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+t+` WHERE idx = ?`, id); err != nil {
			return fmt.Errorf("store: delete semantic %s: %w", t, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM sem_index WHERE id = ?`, id); err != nil {
		return fmt.Errorf("store: delete semantic index: %w", err)
	}
	return nil
}

// batcher inserts rows many per statement: per-statement overhead dominates
// row-at-a-time inserts of hundreds of thousands of rows.
type batcher struct {
	tx    *sql.Tx
	head  string
	cols  int
	args  []any
	stmts map[string]*sql.Stmt
}

const rowsPerInsert = 128

func newBatcher(tx *sql.Tx) *batcher {
	return &batcher{tx: tx, stmts: map[string]*sql.Stmt{}}
}

func (b *batcher) add(ctx context.Context, head string, cols int, args ...any) error {
	if head != b.head {
		if err := b.flush(ctx); err != nil {
			return err
		}
		b.head, b.cols = head, cols
	}
	b.args = append(b.args, args...)
	if len(b.args) >= rowsPerInsert*cols {
		return b.flush(ctx)
	}
	return nil
}

func (b *batcher) flush(ctx context.Context) error {
	if len(b.args) == 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	q := b.head + valueRows(b.cols, len(b.args)/b.cols)
	st, ok := b.stmts[q]
	if !ok {
		var err error
		if st, err = b.tx.PrepareContext(ctx, q); err != nil {
			return fmt.Errorf("store: prepare: %w", err)
		}
		b.stmts[q] = st
	}
	if _, err := st.ExecContext(ctx, b.args...); err != nil {
		return fmt.Errorf("store: semantic insert: %w", err)
	}
	b.args = b.args[:0]
	return nil
}

func (b *batcher) close() {
	for _, st := range b.stmts {
		st.Close()
	}
}

// SemIndexes lists the imported indexes, by key.
func (s *Reader) SemIndexes(ctx context.Context) ([]SemIndexRow, error) {
	rows, err := s.sql.QueryContext(ctx, `SELECT id, key, tool, tool_version, root, source, head, head_known, imported_at, stats FROM sem_index ORDER BY key`)
	return scanAll(rows, err, "semantic indexes", func(row scanner, r *SemIndexRow) error {
		return row.Scan(&r.ID, &r.Key, &r.Tool, &r.ToolVersion, &r.Root, &r.Source, &r.Head, &r.HeadKnown, &r.ImportedAt, &r.Stats)
	})
}

// SemGeneration changes whenever an index is imported or removed (for caches).
func (s *Reader) SemGeneration(ctx context.Context) (string, error) {
	var n, maxID, maxAt int64
	err := s.sql.QueryRowContext(ctx, `SELECT count(*), coalesce(max(id), 0), coalesce(max(imported_at), 0) FROM sem_index`).Scan(&n, &maxID, &maxAt)
	if err != nil {
		return "", fmt.Errorf("store: semantic generation: %w", err)
	}
	return fmt.Sprintf("%d.%d.%d", n, maxID, maxAt), nil
}

// SemDocs lists the documents of every index, without their occurrences.
func (s *Reader) SemDocs(ctx context.Context) ([]SemDocRow, error) {
	rows, err := s.sql.QueryContext(ctx, `SELECT idx, ord, path, lang, hash, state FROM sem_doc ORDER BY idx, ord`)
	return scanAll(rows, err, "semantic documents", func(r scanner, d *SemDocRow) error {
		return r.Scan(&d.Index, &d.Ord, &d.Path, &d.Lang, &d.Hash, &d.State)
	})
}

// SemDocsByPath returns the documents (with occurrences) of a path, one per index.
func (s *Reader) SemDocsByPath(ctx context.Context, path string) ([]SemDocRow, error) {
	rows, err := s.sql.QueryContext(ctx, `SELECT idx, ord, path, lang, hash, state, occs FROM sem_doc WHERE path = ? ORDER BY idx`, path)
	return scanAll(rows, err, "semantic document", func(r scanner, d *SemDocRow) (err error) {
		if err = r.Scan(&d.Index, &d.Ord, &d.Path, &d.Lang, &d.Hash, &d.State, &d.Occs); err == nil {
			d.Occs, err = checkSum("main", "the occurrences of "+d.Path, d.Occs)
		}
		return err
	})
}

const semSymbolCols = `idx, id, symbol, kind, display, def_doc, occs`

func scanSemSymbols(rows *sql.Rows, err error) ([]SemSymbolRow, error) {
	return scanAll(rows, err, "semantic symbols", func(row scanner, r *SemSymbolRow) (err error) {
		if err = row.Scan(&r.Index, &r.ID, &r.Symbol, &r.Kind, &r.Display, &r.DefDoc, &r.Occs); err == nil {
			r.Occs, err = checkSum("main", "the occurrences of a semantic symbol", r.Occs)
		}
		return err
	})
}

// SemSymbols returns a SCIP symbol (by hash) in every index that has it.
func (s *Reader) SemSymbols(ctx context.Context, id int64) ([]SemSymbolRow, error) {
	return scanSemSymbols(s.sql.QueryContext(ctx, `SELECT `+semSymbolCols+` FROM sem_symbol WHERE id = ? ORDER BY idx`, id))
}

// SemSymbol returns a SCIP symbol of one index.
func (s *Reader) SemSymbol(ctx context.Context, idx, id int64) (SemSymbolRow, bool, error) {
	return first(scanSemSymbols(s.sql.QueryContext(ctx, `SELECT `+semSymbolCols+` FROM sem_symbol WHERE idx = ? AND id = ?`, idx, id)))
}

// SemSymbolsOfCairn returns the SCIP symbols mapped to a Cairn symbol id.
func (s *Reader) SemSymbolsOfCairn(ctx context.Context, cairn int64) ([]SemSymbolRow, error) {
	return scanSemSymbols(s.sql.QueryContext(ctx, `SELECT `+prefixCols("s.", semSymbolCols)+` FROM sem_map m
		JOIN sem_symbol s ON s.idx = m.idx AND s.id = m.sym WHERE m.cairn = ? ORDER BY s.idx, s.id`, cairn))
}

// SemCairnOf returns the Cairn symbol ids a SCIP symbol of an index maps to.
func (s *Reader) SemCairnOf(ctx context.Context, idx, sym int64) ([]int64, error) {
	rows, err := s.sql.QueryContext(ctx, `SELECT cairn FROM sem_map WHERE idx = ? AND sym = ? ORDER BY cairn`, idx, sym)
	return scanAll(rows, err, "semantic mapping", scanValue[int64])
}

// SemMapped returns, for those of the Cairn ids that are mapped, the index
// and defining document of (one of) their SCIP symbols.
func (s *Reader) SemMapped(ctx context.Context, cairn []int64) (map[int64][2]int64, error) {
	maps, err := inChunks(cairn, func(in string, args []any) ([][3]int64, error) {
		rows, err := s.sql.QueryContext(ctx, `SELECT m.cairn, s.idx, s.def_doc FROM sem_map m JOIN sem_symbol s ON s.idx = m.idx AND s.id = m.sym
			WHERE m.cairn IN (`+in+`) ORDER BY m.cairn, s.idx`, args...)
		return scanAll(rows, err, "semantic mapping", func(r scanner, m *[3]int64) error { return r.Scan(&m[0], &m[1], &m[2]) })
	})
	if err != nil {
		return nil, err
	}
	out := map[int64][2]int64{}
	for _, m := range maps {
		if _, ok := out[m[0]]; !ok {
			out[m[0]] = [2]int64{m[1], m[2]}
		}
	}
	return out, nil
}

// SemRels returns the relationships of a symbol (outgoing, or incoming when
// reverse is set), at most limit.
func (s *Reader) SemRels(ctx context.Context, idx, sym int64, reverse bool, limit int) ([]SemRelRow, error) {
	q := `SELECT sym, target, kinds FROM sem_rel WHERE idx = ? AND sym = ? ORDER BY target LIMIT ?`
	if reverse {
		q = `SELECT sym, target, kinds FROM sem_rel WHERE idx = ? AND target = ? ORDER BY sym LIMIT ?`
	}
	rows, err := s.sql.QueryContext(ctx, q, idx, sym, limit)
	return scanAll(rows, err, "semantic relationships", func(row scanner, r *SemRelRow) error { return row.Scan(&r.Sym, &r.Target, &r.Kinds) })
}

// SemCounts counts the rows of the semantic tables (for tests and status).
func (s *Reader) SemCounts(ctx context.Context) (map[string]int, error) {
	out := map[string]int{}
	for _, t := range []string{"sem_index", "sem_doc", "sem_symbol", "sem_rel", "sem_map"} {
		var n int
		if err := s.sql.QueryRowContext(ctx, `SELECT count(*) FROM `+t).Scan(&n); err != nil {
			return nil, fmt.Errorf("store: count %s: %w", t, err)
		}
		out[t] = n
	}
	return out, nil
}
