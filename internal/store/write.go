package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
)

// FindBlobs returns the ids of the blobs that already exist for the keys.
func (s *DB) FindBlobs(ctx context.Context, keys []BlobKey) (map[BlobKey]int64, error) {
	out := make(map[BlobKey]int64, len(keys))
	stmt, err := s.sql.PrepareContext(ctx, `SELECT id FROM blobs.blob WHERE hash = ? AND lang = ? AND xver = ?`)
	if err != nil {
		return nil, fmt.Errorf("store: find blobs: %w", err)
	}
	defer stmt.Close()
	for _, k := range keys {
		var id int64
		err := stmt.QueryRowContext(ctx, k.Hash[:], k.Lang, k.XVer).Scan(&id)
		if err == sql.ErrNoRows {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("store: find blobs: %w", err)
		}
		out[k] = id
	}
	return out, nil
}

// InsertBlobs writes blobs (idempotently: an existing key keeps its row) in one
// transaction of the blob store and returns their ids in order.
func (s *DB) InsertBlobs(ctx context.Context, rows []BlobRow, now int64) (ids []int64, err error) {
	err = s.write("blobs", func() error {
		ids, err = s.insertBlobs(ctx, rows, now)
		return err
	})
	return ids, err
}

func (s *DB) insertBlobs(ctx context.Context, rows []BlobRow, now int64) ([]int64, error) {
	tx, err := s.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("store: insert blobs: %w", err)
	}
	defer tx.Rollback()
	// prepare prepares one statement of the batch unless one before failed;
	// they are closed together.
	var stmts []*sql.Stmt
	defer func() {
		for _, st := range stmts {
			st.Close()
		}
	}()
	prepare := func(q string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var st *sql.Stmt
		if st, err = tx.PrepareContext(ctx, q); err == nil {
			stmts = append(stmts, st)
		}
		return st
	}
	ins := prepare(`INSERT INTO blobs.blob(hash, lang, xver, size, status, facts, text_sum, sum, last_used) VALUES(?,?,?,?,?,?,?,?,?)
		ON CONFLICT(hash, lang, xver) DO NOTHING RETURNING id`)
	find := prepare(`SELECT id FROM blobs.blob WHERE hash = ? AND lang = ? AND xver = ?`)
	text := prepare(`INSERT INTO blobs.blob_text(rowid, content) VALUES(?, ?)`)
	surf := prepare(`INSERT OR REPLACE INTO blobs.blob_surface(blob_id, kind, data) VALUES(?, ?, ?)`)
	names := prepare(`INSERT INTO blobs.blob_name(rowid, names) VALUES(?, ?)`)
	if err != nil {
		return nil, fmt.Errorf("store: insert blobs: %w", err)
	}
	// Blob rows first, then all texts: any other statement between two FTS5
	// inserts opens a savepoint that flushes FTS5's pending terms into a tiny
	// segment, and merging those segments dominated indexing time.
	ids := make([]int64, len(rows))
	fresh := make([]bool, len(rows))
	for i, r := range rows {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var id int64
		tsum := textSum(r.Text)
		err := ins.QueryRowContext(ctx, r.Key.Hash[:], r.Key.Lang, r.Key.XVer, r.Size, r.Status, factsColumn(r.Facts), tsum,
			blobRowSum(r.Key.Hash[:], r.Key.Lang, r.Key.XVer, r.Size, r.Status, tsum), now).Scan(&id)
		if err == sql.ErrNoRows { // another writer (worktree) stored it first
			if err := find.QueryRowContext(ctx, r.Key.Hash[:], r.Key.Lang, r.Key.XVer).Scan(&id); err != nil {
				return nil, fmt.Errorf("store: insert blobs: %w", err)
			}
		} else if err != nil {
			return nil, fmt.Errorf("store: insert blob: %w", err)
		} else {
			fresh[i] = true
			for _, sd := range r.Surfaces {
				if _, err := surf.ExecContext(ctx, id, sd.Kind, withSum(sd.Data)); err != nil {
					return nil, fmt.Errorf("store: insert surfaces: %w", err)
				}
			}
		}
		ids[i] = id
	}
	for i, r := range rows {
		if fresh[i] && r.Text != nil {
			if _, err := text.ExecContext(ctx, ids[i], string(r.Text)); err != nil { // TEXT, not BLOB: FTS5 tokenizes text
				return nil, fmt.Errorf("store: insert text: %w", err)
			}
		}
	}
	for i, r := range rows { // after the texts, for the same reason
		if fresh[i] && len(r.Names) > 0 {
			if _, err := names.ExecContext(ctx, ids[i], NameDoc(r.Names)); err != nil {
				return nil, fmt.Errorf("store: insert names: %w", err)
			}
		}
	}
	return ids, tx.Commit()
}

// factsColumn is the stored form of encoded facts: NULL when there are none,
// else the bytes with their checksum.
func factsColumn(facts []byte) any {
	if facts == nil {
		return nil
	}
	return withSum(facts)
}

// TouchBlobs marks blobs as used now (so garbage collection keeps them). Rows
// touched within the last hour are left alone to keep the write small.
func (s *DB) TouchBlobs(ctx context.Context, ids []int64, now int64) error {
	_, err := s.ClaimBlobs(ctx, ids, now, 3600)
	return err
}

// ClaimBlobs marks blobs as used now before a worktree commits rows that
// reference them, and returns those that no longer exist: a collection in
// another worktree removed them after this one found them. Rows used within
// the last fresh seconds are left alone (fresh must not exceed the
// collection's grace). Collection checks last_used again as it deletes, so
// a blob claimed before it deletes survives.
func (s *DB) ClaimBlobs(ctx context.Context, ids []int64, now, fresh int64) (missing []int64, err error) {
	if len(ids) == 0 {
		return nil, nil
	}
	err = s.write("blobs", func() error {
		missing, err = s.claimBlobs(ctx, ids, now, fresh)
		return err
	})
	return missing, err
}

func (s *DB) claimBlobs(ctx context.Context, ids []int64, now, fresh int64) ([]int64, error) {
	tx, err := s.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	st, err := tx.PrepareContext(ctx, `UPDATE blobs.blob SET last_used = ? WHERE id = ? AND last_used < ?`)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	for _, id := range ids {
		if _, err := st.ExecContext(ctx, now, id, now-fresh); err != nil {
			return nil, fmt.Errorf("store: touch blobs: %w", err)
		}
	}
	present, err := inChunks(ids, func(in string, args []any) ([]int64, error) {
		rows, err := tx.QueryContext(ctx, `SELECT id FROM blobs.blob WHERE id IN (`+in+`)`, args...)
		return scanAll(rows, err, "touch blobs", scanValue[int64])
	})
	if err != nil {
		return nil, err
	}
	found := make(map[int64]bool, len(present))
	for _, id := range present {
		found[id] = true
	}
	var missing []int64
	for _, id := range ids {
		if !found[id] {
			missing = append(missing, id)
		}
	}
	return missing, tx.Commit()
}

// Tx is a write transaction on the worktree index: one reconcile batch, one epoch.
type Tx struct {
	tx       *sql.Tx
	end      func() error // releases the seal (seal.go)
	stmts    map[string]*sql.Stmt
	names    map[string]int64
	newNames []int64 // sname rows to add to sname_fts at commit (see InsertBlobs)
	nextName int64   // the id of the next new name (0: not known yet)
	reader   Reader  // reads inside the transaction (Reader)
	// overlay: the index is an overlay over a baseline (overlay.go);
	// hidden holds the (table, file) pairs hidden so far in this
	// transaction, allHidden that the baseline is hidden whole.
	overlay   bool
	hidden    map[[2]int64]bool
	allHidden bool
}

// Begin starts a write transaction on the worktree index.
func (s *DB) Begin(ctx context.Context) (*Tx, error) {
	end, err := sealBegin("main", s.opts.IndexPath)
	if err != nil {
		return nil, err
	}
	tx, err := s.sql.BeginTx(ctx, nil)
	if err != nil {
		end()
		return nil, fmt.Errorf("store: begin: %w", err)
	}
	return &Tx{tx: tx, end: end, stmts: map[string]*sql.Stmt{}, names: map[string]int64{},
		reader:  Reader{sql: &txQuerier{tx: tx, cache: s.stmts}, metaReads: s.metaReads, overlay: s.overlay},
		overlay: s.overlay, hidden: map[[2]int64]bool{}}, nil
}

// Reader reads the index as this transaction has written it so far: what
// a batch wrote need not be held in memory until it commits. Its reads may
// run beside the transaction's writes, from other goroutines.
func (t *Tx) Reader() *Reader { return &t.reader }

func (t *Tx) exec(q string, args ...any) (sql.Result, error) {
	st, ok := t.stmts[q]
	if !ok {
		var err error
		if st, err = t.tx.Prepare(q); err != nil {
			return nil, fmt.Errorf("store: prepare: %w", err)
		}
		t.stmts[q] = st
	}
	res, err := st.Exec(args...)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return res, nil
}

func (t *Tx) queryRow(q string, args ...any) *sql.Row {
	st, ok := t.stmts[q]
	if !ok {
		var err error
		if st, err = t.tx.Prepare(q); err != nil {
			return t.tx.QueryRow(q, args...) // surfaces the error on Scan
		}
		t.stmts[q] = st
	}
	return st.QueryRow(args...)
}

// Commit commits the batch.
func (t *Tx) Commit() error {
	if len(t.newNames) > 0 {
		if _, err := t.tx.Exec(`INSERT INTO main.sname_fts(rowid, name) SELECT id, name FROM main.sname WHERE id >= ?`, t.newNames[0]); err != nil {
			return fmt.Errorf("store: index names: %w", err)
		}
	}
	for _, st := range t.stmts {
		st.Close()
	}
	err := t.tx.Commit()
	if serr := t.end(); err == nil && serr != nil {
		return serr
	}
	if err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	return nil
}

// Rollback abandons the batch (safe after Commit).
func (t *Tx) Rollback() {
	for _, st := range t.stmts {
		st.Close()
	}
	t.tx.Rollback()
	t.end()
}

// SetMeta writes a metadata value.
func (t *Tx) SetMeta(key, value string) error {
	_, err := t.exec(`INSERT INTO metadata(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value)
	return err
}

// PutFile inserts or replaces a file row and returns its id.
func (t *Tx) PutFile(f FileRow) (int64, error) {
	var id int64
	err := t.queryRow(`INSERT INTO file(path, blob_id, hash, norm_hash, git_oid, size, mtime_ns, ctime_ns, inode, lang, pkg, status, module_id, epoch)
		VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT(path) DO UPDATE SET blob_id=excluded.blob_id, hash=excluded.hash, norm_hash=excluded.norm_hash,
		git_oid=excluded.git_oid, size=excluded.size, mtime_ns=excluded.mtime_ns, ctime_ns=excluded.ctime_ns, inode=excluded.inode, lang=excluded.lang,
		pkg=excluded.pkg, status=excluded.status, module_id=excluded.module_id, epoch=excluded.epoch
		RETURNING id`,
		f.Path, f.BlobID, f.Hash[:], f.NormHash[:], f.GitOID, f.Size, f.MtimeNS, f.CtimeNS, f.Inode, f.Lang, f.Pkg, f.Status, f.ModuleID, f.Epoch).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("store: put file %s: %w", f.Path, err)
	}
	return id, nil
}

// SetFileStat records new stat data for an unchanged file.
func (t *Tx) SetFileStat(id, size, mtimeNS, ctimeNS, inode int64) error {
	_, err := t.exec(`UPDATE file SET size = ?, mtime_ns = ?, ctime_ns = ?, inode = ? WHERE id = ?`, size, mtimeNS, ctimeNS, inode, id)
	return err
}

// SetFileModule moves a file to another module.
func (t *Tx) SetFileModule(id, moduleID int64) error {
	_, err := t.exec(`UPDATE file SET module_id = ? WHERE id = ?`, moduleID, id)
	return err
}

// DeleteFile removes a file with its symbols and links.
func (t *Tx) DeleteFile(id int64) error {
	for tbl := range overlayTables {
		if err := t.hide(tbl, id, false); err != nil {
			return err
		}
	}
	for _, q := range []string{`DELETE FROM file WHERE id = ?`, `DELETE FROM main.symbol WHERE file_id = ?`, `DELETE FROM main.link WHERE file_id = ?`, `DELETE FROM main.edge WHERE file_id = ?`} {
		if _, err := t.exec(q, id); err != nil {
			return err
		}
	}
	return nil
}

// ReplaceModules sets the module table; ids of unchanged (root, kind) pairs are kept.
func (t *Tx) ReplaceModules(mods []ModuleRow) (map[[2]string]int64, error) {
	ids := map[[2]string]int64{}
	for _, m := range mods {
		deps, _ := json.Marshal(nonNilStrings(m.Deps))
		var id int64
		err := t.queryRow(`INSERT INTO module(root, name, kind, manifest, deps, workspace, detached) VALUES(?,?,?,?,?,?,?)
			ON CONFLICT(root, kind) DO UPDATE SET name=excluded.name, manifest=excluded.manifest, deps=excluded.deps,
			workspace=excluded.workspace, detached=excluded.detached RETURNING id`,
			m.Root, m.Name, m.Kind, m.Manifest, string(deps), m.Workspace, m.Detached).Scan(&id)
		if err != nil {
			return nil, fmt.Errorf("store: put module %s: %w", m.Root, err)
		}
		ids[[2]string{m.Root, m.Kind}] = id
	}
	rows, err := t.tx.Query(`SELECT id, root, kind FROM module`)
	current, err := scanAll(rows, err, "modules", func(r scanner, m *ModuleRow) error { return r.Scan(&m.ID, &m.Root, &m.Kind) })
	if err != nil {
		return nil, err
	}
	for _, m := range current {
		if _, ok := ids[[2]string{m.Root, m.Kind}]; ok {
			continue
		}
		if _, err := t.exec(`DELETE FROM module WHERE id = ?`, m.ID); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// ClearSymbols removes every symbol, link and edge (before a full rebuild
// of them). An overlay becomes a standalone index.
func (t *Tx) ClearSymbols() error {
	if err := t.detachBaseline(true); err != nil {
		return err
	}
	for _, q := range []string{`DELETE FROM main.symbol`, `DELETE FROM main.link`, `DELETE FROM main.edge`} {
		if _, err := t.exec(q); err != nil {
			return err
		}
	}
	return nil
}

// DeleteSymbols removes symbols by id.
func (t *Tx) DeleteSymbols(ids []int64) error {
	for _, id := range ids {
		if err := t.hideSymbolID(id); err != nil {
			return err
		}
		if _, err := t.exec(`DELETE FROM main.symbol WHERE id = ?`, id); err != nil {
			return err
		}
	}
	return nil
}

// DeleteSymbolsOf removes every symbol defined in a file.
func (t *Tx) DeleteSymbolsOf(fileID int64) error {
	if err := t.hide(hideSymbol, fileID, false); err != nil {
		return err
	}
	_, err := t.exec(`DELETE FROM main.symbol WHERE file_id = ?`, fileID)
	return err
}

// rowsPerStatement is how many rows PutSymbols and SetEdges insert with one
// statement.
const rowsPerStatement = 64

// PutSymbols inserts symbols (replacing any with the same id), many rows per
// statement: per-statement overhead dominated symbol writes on large builds.
func (t *Tx) PutSymbols(rows []SymbolRow) error {
	for _, chunk := range chunks(rows, rowsPerStatement) {
		args := make([]any, 0, len(chunk)*11)
		for _, s := range chunk {
			if err := t.hide(hideSymbol, s.FileID, true); err != nil {
				return err
			}
			if err := t.hideSymbolID(s.ID); err != nil {
				return err
			}
			nameID, err := t.nameID(s.Name)
			if err != nil {
				return err
			}
			args = append(args, s.ID, s.FileID, s.DefIdx, s.Name, nameID, s.QName, s.Kind, s.Visibility, s.ModuleID, s.Parent, s.Version)
		}
		q := `INSERT OR REPLACE INTO main.symbol(id, file_id, def_idx, name, name_id, qname, kind, visibility, module_id, parent, version) VALUES` +
			valueRows(11, len(chunk))
		if _, err := t.exec(q, args...); err != nil {
			return err
		}
	}
	return nil
}

// symbolIndexes are the secondary indexes of the symbol table (name and
// column); a full rebuild drops them and builds them once at the end, which
// beats random inserts.
var symbolIndexes = [][2]string{
	{"symbol_name", "name"}, {"symbol_name_id", "name_id"}, {"symbol_file", "file_id"},
	{"symbol_qname", "qname"}, {"symbol_parent", "parent"},
}

// DropSymbolIndexes removes the secondary symbol indexes.
func (t *Tx) DropSymbolIndexes() error {
	return t.eachSymbolIndex(func(name, _ string) string { return `DROP INDEX IF EXISTS main.` + name })
}

// CreateSymbolIndexes builds the secondary symbol indexes.
func (t *Tx) CreateSymbolIndexes() error {
	return t.eachSymbolIndex(func(name, column string) string {
		return `CREATE INDEX IF NOT EXISTS main.` + name + ` ON symbol(` + column + `)`
	})
}

// eachSymbolIndex runs the statement stmt makes for each symbol index.
func (t *Tx) eachSymbolIndex(stmt func(name, column string) string) error {
	for _, ix := range symbolIndexes {
		if _, err := t.tx.Exec(stmt(ix[0], ix[1])); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	}
	return nil
}

// nameID interns a symbol name for substring search.
func (t *Tx) nameID(name string) (int64, error) {
	if id, ok := t.names[name]; ok {
		return id, nil
	}
	var id int64
	err := t.queryRow(`SELECT id FROM sname WHERE name = ?`, name).Scan(&id)
	if err == sql.ErrNoRows {
		if t.nextName == 0 {
			// Above every id of the overlay and of its baseline.
			q := `SELECT coalesce(max(id), 0) + 1 FROM main.sname`
			if t.overlay {
				q = `SELECT max(coalesce((SELECT max(id) FROM main.sname), 0), coalesce((SELECT max(id) FROM base.sname), 0)) + 1`
			}
			if err := t.queryRow(q).Scan(&t.nextName); err != nil {
				return 0, fmt.Errorf("store: name id: %w", err)
			}
		}
		id = t.nextName
		if _, err := t.exec(`INSERT INTO main.sname(id, name) VALUES(?, ?)`, id, name); err != nil {
			return 0, err
		}
		t.nextName++
		t.newNames = append(t.newNames, id)
	} else if err != nil {
		return 0, fmt.Errorf("store: name id: %w", err)
	}
	t.names[name] = id
	return id, nil
}

// SetLink stores a file's packed resolved references and import edges (both
// nil deletes the row).
func (t *Tx) SetLink(fileID int64, data, imports []byte) error {
	if err := t.hide(hideLink, fileID, false); err != nil {
		return err
	}
	if data == nil && imports == nil {
		_, err := t.exec(`DELETE FROM main.link WHERE file_id = ?`, fileID)
		return err
	}
	if data == nil {
		data = []byte{}
	}
	var imp any
	if imports != nil {
		imp = withSum(imports)
	}
	_, err := t.exec(`INSERT OR REPLACE INTO main.link(file_id, data, imports) VALUES(?, ?, ?)`, fileID, withSum(data), imp)
	return err
}

// SetEdges replaces a file's edges. fresh skips the delete when the table
// was cleared for a full rebuild.
func (t *Tx) SetEdges(fileID int64, rows []EdgeRow, fresh bool) error {
	if err := t.hide(hideEdge, fileID, false); err != nil {
		return err
	}
	if !fresh {
		if _, err := t.exec(`DELETE FROM main.edge WHERE file_id = ?`, fileID); err != nil {
			return err
		}
	}
	for _, chunk := range chunks(rows, rowsPerStatement) {
		args := make([]any, 0, len(chunk)*8)
		for _, e := range chunk {
			args = append(args, fileID, e.Src, e.Dst, e.Kind, e.Tier, e.Count, e.Line, e.Col)
		}
		q := `INSERT OR REPLACE INTO main.edge(file_id, src, dst, kind, tier, count, line, col) VALUES` + valueRows(8, len(chunk))
		if _, err := t.exec(q, args...); err != nil {
			return err
		}
	}
	return nil
}

// DropEdgeIndexes removes the edge table's secondary index; a full rebuild
// creates it once at the end (CreateEdgeIndexes), which beats random inserts.
func (t *Tx) DropEdgeIndexes() error {
	if _, err := t.tx.Exec(`DROP INDEX IF EXISTS main.edge_dst`); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// CreateEdgeIndexes builds the edge table's secondary index.
func (t *Tx) CreateEdgeIndexes() error {
	if _, err := t.tx.Exec(`CREATE INDEX IF NOT EXISTS main.edge_dst ON edge(dst, kind, src, tier, count, line, col)`); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// PutAlias records that a symbol id now lives on as another.
func (t *Tx) PutAlias(a Alias) error {
	if _, err := t.exec(`DELETE FROM tombstone WHERE id = ?`, a.OldID); err != nil {
		return err
	}
	_, err := t.exec(`INSERT OR REPLACE INTO alias(old_id, new_id, reason, confidence, old_qname, epoch) VALUES(?,?,?,?,?,?)`,
		a.OldID, a.NewID, a.Reason, a.Confidence, a.OldQName, a.Epoch)
	return err
}

// PutTombstone records that a symbol was deleted.
func (t *Tx) PutTombstone(ts Tombstone) error {
	if _, err := t.exec(`DELETE FROM alias WHERE old_id = ?`, ts.ID); err != nil {
		return err
	}
	_, err := t.exec(`INSERT OR REPLACE INTO tombstone(id, qname, kind, path, epoch) VALUES(?,?,?,?,?)`, ts.ID, ts.QName, ts.Kind, ts.Path, ts.Epoch)
	return err
}

// ClearRedirect forgets the alias or tombstone of an id that exists again.
func (t *Tx) ClearRedirect(id int64) error {
	if _, err := t.exec(`DELETE FROM alias WHERE old_id = ?`, id); err != nil {
		return err
	}
	_, err := t.exec(`DELETE FROM tombstone WHERE id = ?`, id)
	return err
}
