package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"
)

// A worktree index may be an overlay over a baseline: an immutable index
// shared by the worktrees of a repository (<blob store dir>/baselines/, see
// baseline.go). The overlay keeps whole copies of the small tables (files,
// modules, history, semantic layer, cards) and, of the large per-file
// tables (symbol, link, edge) and of the names (sname), only its own rows:
// overlay_hidden lists, per table, the files whose baseline rows it has
// replaced (changed, relinked, deleted). Each connection attaches the
// baseline read-only as "base" and creates TEMP views named like the
// tables, which SQLite resolves before main's: own rows, then the baseline
// rows of the files not hidden. Reads therefore keep their SQL; writes name
// main's tables (Tx), and the few full-text matches on sname_fts, which a
// view cannot carry, match both (Reader.snameMatch).
//
// Invariants that keep the views' answers those of a standalone index:
//   - file ids are the baseline's for the same path: the file table is a
//     copy, and a file id whose baseline rows belong to another path is
//     hidden (a deleted file is hidden in every table before its id can be
//     given again);
//   - a symbol id is visible once: before the overlay writes or deletes a
//     symbol whose id the baseline holds in a file not yet hidden, that
//     file's baseline symbols are copied into the overlay and hidden;
//   - a name's sname id is the baseline's when the baseline has the name,
//     and new names get ids above the baseline's.

// Tables of overlay_hidden.tbl.
const (
	hideSymbol = 0
	hideLink   = 1
	hideEdge   = 2
)

// overlayTables are the per-file tables an overlay shares with its
// baseline, by their overlay_hidden.tbl.
var overlayTables = [...]string{hideSymbol: "symbol", hideLink: "link", hideEdge: "edge"}

// baselineKey is the metadata key naming an overlay's baseline (its
// absolute path); absent for a standalone index.
const baselineKey = "baseline"

// overlayStmts attach a baseline to a connection and create the views.
func overlayStmts(base, cachePragma string) []string {
	stmts := []string{
		"ATTACH DATABASE " + quote(readOnlyURI(base)) + " AS base",
		"PRAGMA base." + cachePragma,
	}
	for tbl, name := range overlayTables {
		stmts = append(stmts, fmt.Sprintf(`CREATE TEMP VIEW %s AS SELECT * FROM main.%s UNION ALL SELECT * FROM base.%s
			WHERE file_id NOT IN (SELECT file_id FROM main.overlay_hidden WHERE tbl = %d)`, name, name, name, tbl))
	}
	// New names get ids above the baseline's (Tx.nameID), so the two
	// never share an id; a materialised rebuild copies the baseline's
	// names into main, which only repeats rows.
	return append(stmts, `CREATE TEMP VIEW sname AS SELECT * FROM main.sname UNION ALL SELECT * FROM base.sname`)
}

// readOnlyURI is the URI that opens a baseline read-only and immutable:
// nothing writes it once made, so SQLite need not lock it or look for a log.
func readOnlyURI(path string) string {
	r := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")
	return "file:" + r.Replace(path) + "?mode=ro&immutable=1"
}

// snameMatch is a WITH clause that names sname_match the ids of the names
// matching a LIKE pattern through the trigram index, with its arguments.
// An overlay matches its own names and the baseline's; the clause is
// materialised once, where an IN subquery pushed into both sides of the
// symbol view would be computed for each and again for the view.
func (s *Reader) snameMatch(pattern string) (string, []any) {
	if s.overlay {
		return `WITH sname_match(id) AS MATERIALIZED (SELECT rowid FROM main.sname_fts WHERE name LIKE ?
			UNION ALL SELECT rowid FROM base.sname_fts WHERE name LIKE ?) `, []any{pattern, pattern}
	}
	return `WITH sname_match(id) AS MATERIALIZED (SELECT rowid FROM sname_fts WHERE name LIKE ?) `, []any{pattern}
}

// Baseline is the baseline the index is an overlay over ("" when standalone).
func (s *DB) Baseline() string { return s.base }

// baselineOf reads the baseline an index file names ("" when none).
func baselineOf(ctx context.Context, indexPath string) string {
	if _, err := os.Stat(indexPath); err != nil {
		return ""
	}
	return metaOf(ctx, indexPath, baselineKey)
}

// baselineProblem says why a baseline cannot serve an overlay of this
// build over a blob store of generation gen ("" when it can; gen "" skips
// that check).
func baselineProblem(ctx context.Context, path, gen string) string {
	if _, err := os.Stat(path); err != nil {
		return "its baseline " + path + " is missing"
	}
	if why := sealProblem(path); why != "" {
		return "its baseline " + path + " cannot be trusted: " + why
	}
	if metaOf(ctx, path, "schema_version") != fmt.Sprint(IndexSchemaVersion) {
		return "its baseline " + path + " has another schema version"
	}
	if gen != "" && metaOf(ctx, path, "blob_generation") != gen {
		return "its baseline " + path + " was built over another blob store"
	}
	return ""
}

// hide records that the overlay replaces the baseline rows of a file in one
// table; with keep, the baseline's rows are copied into the overlay first
// (a partial change of the file's rows follows). A no-op on a standalone
// index.
func (t *Tx) hide(tbl int, fileID int64, keep bool) error {
	if !t.overlay || t.allHidden || t.hidden[[2]int64{int64(tbl), fileID}] {
		return nil
	}
	res, err := t.exec(`INSERT OR IGNORE INTO main.overlay_hidden(tbl, file_id) VALUES(?, ?)`, tbl, fileID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 1 && keep {
		name := overlayTables[tbl]
		if _, err := t.exec(`INSERT INTO main.`+name+` SELECT * FROM base.`+name+` WHERE file_id = ?`, fileID); err != nil {
			return err
		}
	}
	t.hidden[[2]int64{int64(tbl), fileID}] = true
	return nil
}

// hideSymbolID makes the overlay own the row of a symbol id: the baseline
// file that holds it, when not hidden yet, is copied and hidden, so that
// writing or deleting the id in main changes what the views show as a
// standalone index's INSERT OR REPLACE or DELETE would.
func (t *Tx) hideSymbolID(id int64) error {
	if !t.overlay || t.allHidden {
		return nil
	}
	var fileID int64
	err := t.queryRow(`SELECT file_id FROM base.symbol WHERE id = ?`, id).Scan(&fileID)
	if err == sql.ErrNoRows {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: overlay symbol %d: %w", id, err)
	}
	return t.hide(hideSymbol, fileID, true)
}

// detachBaseline turns an overlay into a standalone index inside the
// transaction, for a write that replaces every per-file row (a full
// rebuild, a reset): every baseline row is hidden, the baseline's names are
// copied (the rebuild interns names through the views and may keep their
// ids), and the metadata stops naming the baseline, so the next Open
// attaches nothing. Connections open until then keep their views, which now
// show only main's rows.
func (t *Tx) detachBaseline(keepNames bool) error {
	if !t.overlay || t.allHidden {
		return nil
	}
	for tbl, name := range overlayTables {
		if _, err := t.exec(fmt.Sprintf(`INSERT OR IGNORE INTO main.overlay_hidden(tbl, file_id) SELECT DISTINCT %d, file_id FROM base.%s`, tbl, name)); err != nil {
			return err
		}
	}
	if keepNames {
		if _, err := t.exec(`INSERT OR IGNORE INTO main.sname(id, name) SELECT id, name FROM base.sname`); err != nil {
			return err
		}
		if _, err := t.exec(`INSERT INTO main.sname_fts(sname_fts) VALUES('rebuild')`); err != nil {
			return err
		}
	}
	if _, err := t.exec(`DELETE FROM main.metadata WHERE key = ?`, baselineKey); err != nil {
		return err
	}
	t.allHidden = true
	return nil
}

// materialise fills an overlay's database at path with the baseline rows
// its views show, making it a standalone index: a copy of the overlay (what
// an export writes), or the overlay itself in place (inPlace: then every
// baseline row stays hidden, so that the views of connections other
// processes opened before see main's rows only until they reopen).
func materialise(ctx context.Context, path, base string, inPlace bool) error {
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return fmt.Errorf("store: materialise: %w", err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	stmts := []string{`ATTACH DATABASE ` + quote(readOnlyURI(base)) + ` AS base`, `BEGIN`}
	for tbl, name := range overlayTables {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO main.%s SELECT * FROM base.%s WHERE file_id NOT IN (SELECT file_id FROM main.overlay_hidden WHERE tbl = %d)`, name, name, tbl))
	}
	stmts = append(stmts,
		`INSERT OR IGNORE INTO main.sname(id, name) SELECT id, name FROM base.sname`,
		`INSERT INTO main.sname_fts(sname_fts) VALUES('rebuild')`)
	if inPlace {
		for tbl, name := range overlayTables {
			stmts = append(stmts, fmt.Sprintf(`INSERT OR IGNORE INTO main.overlay_hidden(tbl, file_id) SELECT DISTINCT %d, file_id FROM base.%s`, tbl, name))
		}
	} else {
		stmts = append(stmts, `DELETE FROM main.overlay_hidden`)
	}
	stmts = append(stmts, `DELETE FROM main.metadata WHERE key = '`+baselineKey+`'`, `COMMIT`, `DETACH DATABASE base`)
	if !inPlace {
		stmts = append(stmts, `VACUUM`)
	}
	return execScript(ctx, db, "materialise", stmts)
}

// dropBrokenOverlay removes a worktree index whose baseline is missing or
// cannot be trusted, so that Open creates it afresh (standalone) and the
// next reconcile builds it: the baseline and the other worktrees over it
// are left alone. base is the index's baseline ("" for a standalone
// index). It returns the warning to report ("" when nothing was done).
func dropBrokenOverlay(opts Options, base string) string {
	if base == "" {
		return ""
	}
	why := baselineProblem(context.Background(), base, "")
	if why == "" {
		return ""
	}
	unlock, err := lockSeal(opts.IndexPath)
	if err != nil {
		return ""
	}
	defer unlock()
	removeDB(opts.IndexPath)
	removeSeal(opts.IndexPath)
	return fmt.Sprintf("rebuilt %s: %s", opts.IndexPath, why)
}

// growThreshold is the share of its files past which an overlay becomes a
// standalone index when it is next opened: an overlay that replaced a
// quarter of the baseline's rows saves little disk and pays the views on
// every read.
const growThreshold = 4

// outgrown makes an overlay over base whose hidden files exceed a
// 1/growThreshold share of its files standalone (in place, under its
// seal), and reports whether it did; a failed attempt leaves the overlay as
// it was. The caller owns the index.
func outgrown(ctx context.Context, opts Options, base string) bool {
	if base == "" {
		return false
	}
	db, err := sql.Open("sqlite", "file:"+opts.IndexPath+"?mode=ro")
	if err != nil {
		return false
	}
	var hidden, files int64
	err = db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM (SELECT DISTINCT file_id FROM overlay_hidden)), (SELECT count(*) FROM file)`).Scan(&hidden, &files)
	db.Close()
	if err != nil || hidden*growThreshold <= files {
		return false
	}
	return sealWrite("main", opts.IndexPath, func() error { return materialise(ctx, opts.IndexPath, base, true) }) == nil
}
