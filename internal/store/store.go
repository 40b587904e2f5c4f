// Package store is the only code that talks SQL. It owns two SQLite databases in
// WAL mode: the content-addressed blob store shared by every worktree of a
// repository (attached as "blobs") and one worktree's index (main). It knows
// nothing of languages or queries: it stores and returns rows and packed bytes.
package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Options says where the two databases live.
type Options struct {
	IndexPath string // the worktree's index database
	BlobPath  string // the shared blob database
	// ReadOnly opens without creating or migrating anything.
	ReadOnly bool
}

// DB is an open index with its blob store attached.
type DB struct {
	sql  *sql.DB
	opts Options
	// Warnings collected while opening (rebuilt databases), for provenance.
	Warnings []string
}

// pragmas applied to every connection.
var pragmas = []string{
	"PRAGMA busy_timeout = 10000",
	"PRAGMA synchronous = NORMAL",
	"PRAGMA temp_store = MEMORY",
	"PRAGMA cache_size = -65536",
	"PRAGMA mmap_size = 268435456",
}

type connector struct {
	dsn, blobPath string
	drv           *sqlite.Driver
}

func (c *connector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.drv.Open(c.dsn)
	if err != nil {
		return nil, err
	}
	ex := conn.(driver.ExecerContext)
	stmts := append([]string{}, pragmas...)
	stmts = append(stmts, "ATTACH DATABASE "+quote(c.blobPath)+" AS blobs")
	for _, s := range stmts {
		if _, err := ex.ExecContext(ctx, s, nil); err != nil {
			conn.Close()
			return nil, err
		}
	}
	return conn, nil
}

func (c *connector) Driver() driver.Driver { return c.drv }

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// Open opens (creating when needed) the index and blob databases. A database
// with another schema version, or one that fails the cheap integrity checks, is
// removed and created afresh; Warnings says so.
func Open(opts Options) (*DB, error) {
	var warnings []string
	if !opts.ReadOnly {
		for _, f := range []struct {
			path    string
			schema  string
			version int
		}{{opts.BlobPath, blobSchema, BlobSchemaVersion}, {opts.IndexPath, indexSchema, IndexSchemaVersion}} {
			w, err := prepare(f.path, f.schema, f.version)
			if err != nil {
				return nil, err
			}
			warnings = append(warnings, w...)
		}
	}
	db := sql.OpenDB(&connector{dsn: "file:" + opts.IndexPath, blobPath: opts.BlobPath, drv: &sqlite.Driver{}})
	db.SetMaxOpenConns(4)
	db.SetMaxIdleConns(4)
	s := &DB{sql: db, opts: opts, Warnings: warnings}
	if !opts.ReadOnly {
		if err := s.checkGeneration(); err != nil {
			db.Close()
			return nil, err
		}
	}
	return s, nil
}

// prepare makes sure one database file exists with the wanted schema.
func prepare(path, schema string, version int) (warnings []string, err error) {
	ok, why := healthy(path, version)
	if !ok {
		if _, statErr := os.Stat(path); statErr == nil {
			warnings = append(warnings, fmt.Sprintf("rebuilt %s: %s", path, why))
		}
		removeDB(path)
	}
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	defer db.Close()
	if _, err := db.Exec("PRAGMA journal_mode = WAL"); err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	if _, err := db.Exec(schema); err != nil {
		return nil, fmt.Errorf("store: create schema in %s: %w", path, err)
	}
	if !ok {
		gen := randomID()
		if _, err := db.Exec(`INSERT OR REPLACE INTO metadata(key, value) VALUES('schema_version', ?), ('generation', ?)`, strconv.Itoa(version), gen); err != nil {
			return nil, fmt.Errorf("store: init %s: %w", path, err)
		}
	}
	return warnings, nil
}

// healthy runs the cheap checks: the file opens as SQLite, is not shorter than
// its page count says, and carries the wanted schema version.
func healthy(path string, version int) (bool, string) {
	st, err := os.Stat(path)
	if err != nil {
		return false, "missing"
	}
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return false, err.Error()
	}
	defer db.Close()
	var pages, pageSize int64
	if err := db.QueryRow("PRAGMA page_count").Scan(&pages); err != nil {
		return false, "unreadable: " + err.Error()
	}
	if err := db.QueryRow("PRAGMA page_size").Scan(&pageSize); err != nil {
		return false, "unreadable: " + err.Error()
	}
	if wal, err := os.Stat(path + "-wal"); (err != nil || wal.Size() == 0) && st.Size() < pages*pageSize {
		return false, fmt.Sprintf("truncated (%d bytes, %d expected)", st.Size(), pages*pageSize)
	}
	var v string
	if err := db.QueryRow(`SELECT value FROM metadata WHERE key = 'schema_version'`).Scan(&v); err != nil {
		return false, "no schema version: " + err.Error()
	}
	if v != strconv.Itoa(version) {
		return false, fmt.Sprintf("schema version %s, want %d", v, version)
	}
	return true, ""
}

func removeDB(path string) {
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		os.Remove(path + suffix)
	}
}

func randomID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// checkGeneration empties the worktree index when the blob store it points into
// was recreated (its blob ids would be meaningless).
func (s *DB) checkGeneration() error {
	var blobGen string
	if err := s.sql.QueryRow(`SELECT value FROM blobs.metadata WHERE key = 'generation'`).Scan(&blobGen); err != nil {
		return fmt.Errorf("store: read blob generation: %w", err)
	}
	seen, err := s.Meta("blob_generation")
	if err != nil {
		return err
	}
	if seen == blobGen {
		return nil
	}
	if seen != "" {
		s.Warnings = append(s.Warnings, "blob store was recreated; reindexing this worktree")
	}
	tx, err := s.sql.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, t := range []string{"file", "symbol", "sname", "link", "module"} {
		if _, err := tx.Exec("DELETE FROM " + t); err != nil {
			return fmt.Errorf("store: reset %s: %w", t, err)
		}
	}
	if _, err := tx.Exec(`INSERT INTO sname_fts(sname_fts) VALUES('delete-all')`); err != nil {
		return fmt.Errorf("store: reset sname_fts: %w", err)
	}
	if _, err := tx.Exec(`INSERT OR REPLACE INTO metadata(key, value) VALUES('blob_generation', ?)`, blobGen); err != nil {
		return err
	}
	return tx.Commit()
}

// Close closes the databases.
func (s *DB) Close() error { return s.sql.Close() }

// Meta reads one metadata value of the worktree index ("" when absent).
func (s *DB) Meta(key string) (string, error) {
	var v string
	err := s.sql.QueryRow(`SELECT value FROM metadata WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: meta %s: %w", key, err)
	}
	return v, nil
}

// IsCorrupt reports whether err says a database file is damaged.
func IsCorrupt(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
			return true
		}
	}
	return err != nil && (strings.Contains(err.Error(), "malformed") || strings.Contains(err.Error(), "not a database"))
}

// IntegrityCheck runs SQLite's full integrity check on both databases (slow; for doctor).
func (s *DB) IntegrityCheck(ctx context.Context) error {
	for _, schema := range []string{"main", "blobs"} {
		var res string
		if err := s.sql.QueryRowContext(ctx, "PRAGMA "+schema+".integrity_check(1)").Scan(&res); err != nil {
			return fmt.Errorf("store: integrity check %s: %w", schema, err)
		}
		if res != "ok" {
			return fmt.Errorf("store: integrity check %s: %s", schema, res)
		}
	}
	return nil
}
