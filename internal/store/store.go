// Package store is the only code that talks SQL. It owns two SQLite databases in
// WAL mode: the content-addressed blob store shared by every worktree of a
// repository (attached as "blobs") and one worktree's index (main). It knows
// nothing of languages or queries: it stores and returns rows and packed bytes.
package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Options says where the two databases live.
type Options struct {
	IndexPath string // the worktree's index database
	BlobPath  string // the shared blob database
	// ReadOnly opens without creating or migrating anything.
	ReadOnly bool
	// CacheKiB is each connection's page cache (0: 64 MiB) and MmapBytes
	// how much of the files each connection maps (0: 256 MiB): with
	// MaxConns connections, they bound most of SQLite's share of memory.
	CacheKiB  int
	MmapBytes int64
	// NoMmap reads the files through the page caches only (a server:
	// every connection maps the files apart, so a long-running process
	// would count each mapped page once per connection, up to MaxConns
	// times the files).
	NoMmap bool
	// SortOnDisk keeps SQLite's temporary data (the sorts that build
	// indexes after a full build) in temporary files instead of memory.
	SortOnDisk bool
}

// DB is an open index with its blob store attached.
type DB struct {
	Reader
	sql  *sql.DB
	opts Options
	// base is the baseline this index is an overlay over ("" when
	// standalone; overlay.go), attached as "base" to every connection.
	base string
	// stmts are the prepared read statements (stmts.go).
	stmts *stmtCache
	// readers holds a token per read transaction open or starting;
	// reads counts the transactions begun.
	readers chan struct{}
	reads   atomic.Int64
	// opened is the inode of each file ("main", "blobs") when it was opened:
	// another inode at the path means another process rebuilt it.
	opened map[string]int64
	// Warnings collected while opening (rebuilt databases), for provenance.
	Warnings []string
}

// cacheSizePragma is the index of the page cache's size among the pragmas:
// the attached blob store gets the same (SQLite gives an attached database
// its default, 2 MB, whatever the main one has).
const cacheSizePragma = 3

// pragmas applied to every connection, with the sizes of opts.
func pragmas(opts Options) []string {
	cache, mmap := opts.CacheKiB, opts.MmapBytes
	if cache <= 0 {
		cache = 65536
	}
	if mmap <= 0 {
		mmap = 256 << 20
	}
	if opts.NoMmap {
		mmap = 0
	}
	temp := "MEMORY"
	if opts.SortOnDisk {
		temp = "FILE"
	}
	p := []string{
		"PRAGMA busy_timeout = 10000",
		"PRAGMA synchronous = NORMAL",
		"PRAGMA temp_store = " + temp,
		cacheSizePragma: "PRAGMA cache_size = -" + strconv.Itoa(cache),
		"PRAGMA mmap_size = " + strconv.FormatInt(mmap, 10),
	}
	return p
}

type connector struct {
	dsn, blobPath string
	basePath      string // a baseline to attach with its views, or ""
	cacheSize     int    // PRAGMA cache_size of each database (negative: KiB)
	pragmas       []string
	drv           *sqlite.Driver
}

func (c *connector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.drv.Open(c.dsn)
	if err != nil {
		return nil, err
	}
	ex := conn.(driver.ExecerContext)
	stmts := append([]string{}, c.pragmas...)
	stmts = append(stmts, "ATTACH DATABASE "+quote(c.blobPath)+" AS blobs", "PRAGMA blobs."+strings.TrimPrefix(c.pragmas[cacheSizePragma], "PRAGMA "))
	if c.basePath != "" {
		// An overlay's index is two files: they share the index's cache.
		half := "cache_size = " + strconv.Itoa(min(c.cacheSize/2, -512))
		stmts = append(stmts, "PRAGMA main."+half)
		stmts = append(stmts, overlayStmts(c.basePath, half)...)
	}
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

// execScript runs stmts in order on one connection (c is a *sql.Conn, or a
// *sql.DB limited to one connection, for ATTACH and the transaction the
// script opens to hold). The first that fails stops it: a transaction the
// script began is rolled back, even when ctx is done, and the error names
// op.
func execScript(ctx context.Context, c interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}, op string, stmts []string) error {
	for _, q := range stmts {
		if _, err := c.ExecContext(ctx, q); err != nil {
			c.ExecContext(context.Background(), `ROLLBACK`)
			return fmt.Errorf("store: %s: %w", op, err)
		}
	}
	return nil
}

// MaxConns is the size of the connection pool. A read transaction (a
// request's snapshot) holds one until it ends, and the writer one more:
// nothing may wait for a second connection while it holds one, or enough
// concurrent holders take the pool and wait for each other. Read
// transactions queue for their turn in order of arrival (DB.readers), so
// only the MaxConns first of them compete with the writer for a connection.
const MaxConns = 4

// Open opens (creating when needed) the index and blob databases. A database
// with another schema version, or one that fails the cheap integrity checks, is
// removed and created afresh; Warnings says so. A database whose seal shows a
// change made outside Cairn is opened as it is and reported by Check: the
// caller decides to verify or rebuild it.
func Open(opts Options) (*DB, error) {
	s := &DB{opts: opts, opened: map[string]int64{}, readers: make(chan struct{}, MaxConns)}
	// The baseline is read once; each step below that leaves a standalone
	// index (dropped, recreated, materialised) forgets it.
	s.base = baselineOf(context.Background(), opts.IndexPath)
	if !opts.ReadOnly {
		if w := dropBrokenOverlay(opts, s.base); w != "" {
			s.Warnings = append(s.Warnings, w)
			s.base = ""
		}
		for _, f := range []struct {
			db, path, schema string
			version          int
		}{{"blobs", opts.BlobPath, blobSchema, BlobSchemaVersion}, {"main", opts.IndexPath, indexSchema + cardSchema, IndexSchemaVersion}} {
			w, recreated, err := prepareSealed(f.db, f.path, f.schema, f.version)
			if err != nil {
				return nil, err
			}
			if recreated && f.db == "main" {
				s.base = ""
			}
			s.Warnings = append(s.Warnings, w...)
		}
		if outgrown(context.Background(), opts, s.base) {
			s.base = ""
		}
	}
	s.opened["main"] = stampOf(opts.IndexPath).Ino
	s.opened["blobs"] = stampOf(opts.BlobPath).Ino
	prags := pragmas(opts)
	cacheSize, _ := strconv.Atoi(strings.TrimPrefix(prags[cacheSizePragma], "PRAGMA cache_size = "))
	db := sql.OpenDB(&connector{dsn: "file:" + opts.IndexPath, blobPath: opts.BlobPath, basePath: s.base, cacheSize: cacheSize, pragmas: prags, drv: &sqlite.Driver{}})
	db.SetMaxOpenConns(MaxConns)
	db.SetMaxIdleConns(MaxConns)
	s.sql = db
	s.stmts = newStmtCache(db)
	s.Reader = Reader{sql: &poolQuerier{db: db, cache: s.stmts}, metaReads: new(atomic.Int64), overlay: s.base != ""}
	if !opts.ReadOnly && sealProblem(opts.IndexPath) == "" {
		if err := s.checkGeneration(); err != nil {
			db.Close()
			return nil, err
		}
	}
	return s, nil
}

// prepareSealed runs prepare under the file's seal: the writes it makes are
// Cairn's own and are sealed, while a change from outside seen before them
// stays recorded (unless prepare replaced the file anyway). It reports, as
// prepare does, whether the file was created afresh.
func prepareSealed(db, path, schema string, version int) ([]string, bool, error) {
	unlock, err := lockSeal(path)
	if err != nil {
		return nil, false, err
	}
	defer unlock()
	key := schemaKey(schema, version)
	r, ok := readSeal(path)
	problem := problemOf(path, r, ok)
	if prepared(r, ok, problem, key) {
		return nil, false, nil // parsing the schema twice is most of what a short command's open costs
	}
	warnings, recreated, err := prepare(path, schema, version)
	if err != nil {
		return nil, false, err
	}
	if problem != "" && !recreated {
		r, _ := readSeal(path)
		r.Damaged, r.Writer = problem, 0
		return warnings, false, writeSeal(path, r)
	}
	return warnings, recreated, resealPrepared(path, key)
}

// prepare makes sure one database file exists with the wanted schema; it
// reports whether it created the file afresh.
func prepare(path, schema string, version int) (warnings []string, recreated bool, err error) {
	// A healthy file is prepared on the connection that checked it: each
	// new connection parses the whole schema again.
	db, ok, why := healthy(path, version)
	if !ok {
		if db != nil {
			db.Close()
		}
		if _, statErr := os.Stat(path); statErr == nil {
			warnings = append(warnings, fmt.Sprintf("rebuilt %s: %s", path, why))
		}
		removeDB(path)
	}
	// The index holds the repository's source text: only its owner may read it.
	// SQLite gives the -wal and -shm files the database file's mode.
	if f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600); err == nil {
		f.Close()
	}
	os.Chmod(path, 0o600)
	if !ok {
		if db, err = sql.Open("sqlite", "file:"+path); err != nil {
			return nil, false, fmt.Errorf("store: open %s: %w", path, err)
		}
	}
	defer db.Close()
	if _, err := db.Exec("PRAGMA journal_mode = WAL"); err != nil {
		return nil, false, fmt.Errorf("store: open %s: %w", path, err)
	}
	// The schema's statements are run once per text of the schema: a file
	// that recorded this text already holds every table of it, and parsing
	// the whole schema is most of what opening costs a short command.
	sum := sha256.Sum256([]byte(schema))
	text := hex.EncodeToString(sum[:])
	var applied string
	if ok {
		db.QueryRow(`SELECT value FROM metadata WHERE key = 'schema_text'`).Scan(&applied)
	}
	if applied != text {
		if _, err := db.Exec(schema); err != nil {
			return nil, false, fmt.Errorf("store: create schema in %s: %w", path, err)
		}
		if _, err := db.Exec(`INSERT OR REPLACE INTO metadata(key, value) VALUES('schema_text', ?)`, text); err != nil {
			return nil, false, fmt.Errorf("store: init %s: %w", path, err)
		}
	}
	if !ok {
		gen := randomID()
		if _, err := db.Exec(`INSERT OR REPLACE INTO metadata(key, value) VALUES('schema_version', ?), ('generation', ?)`, strconv.Itoa(version), gen); err != nil {
			return nil, false, fmt.Errorf("store: init %s: %w", path, err)
		}
	}
	return warnings, !ok, nil
}

// healthy runs the cheap checks: the file opens as SQLite, is not shorter than
// its page count says, and carries the wanted schema version. It returns the
// handle it checked with (one connection), nil when the file does not open.
func healthy(path string, version int) (*sql.DB, bool, string) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, false, "missing"
	}
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return nil, false, err.Error()
	}
	db.SetMaxOpenConns(1)
	var pages, pageSize int64
	if err := db.QueryRow("PRAGMA page_count").Scan(&pages); err != nil {
		return db, false, "unreadable: " + err.Error()
	}
	if err := db.QueryRow("PRAGMA page_size").Scan(&pageSize); err != nil {
		return db, false, "unreadable: " + err.Error()
	}
	if wal, err := os.Stat(path + "-wal"); (err != nil || wal.Size() == 0) && st.Size() < pages*pageSize {
		return db, false, fmt.Sprintf("truncated (%d bytes, %d expected)", st.Size(), pages*pageSize)
	}
	var v string
	if err := db.QueryRow(`SELECT value FROM metadata WHERE key = 'schema_version'`).Scan(&v); err != nil {
		return db, false, "no schema version: " + err.Error()
	}
	if v != strconv.Itoa(version) {
		// Another build of Cairn (older or newer) wrote it. The index is
		// derived from the files, so rebuilding is the migration.
		n, _ := strconv.Atoi(v)
		other := "a newer"
		if n < version {
			other = "an older"
		}
		return db, false, fmt.Sprintf("written by %s version of Cairn (schema version %s; this one reads %d); an index is derived from the files, so it is rebuilt rather than migrated", other, v, version)
	}
	return db, true, ""
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
	return s.write("main", func() error { return s.resetForBlobs(blobGen) })
}

// resetForBlobs empties every table of the worktree index that refers to
// blob ids and asks the next reconcile for a full build.
// An overlay stops being one: its baseline's blob ids are as meaningless.
func (s *DB) resetForBlobs(blobGen string) error {
	tx, err := s.sql.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, t := range []string{"file", "symbol", "sname", "link", "edge", "module", "file_history", "overlay_hidden"} {
		if _, err := tx.Exec("DELETE FROM main." + t); err != nil {
			return fmt.Errorf("store: reset %s: %w", t, err)
		}
	}
	if _, err := tx.Exec(`INSERT INTO main.sname_fts(sname_fts) VALUES('delete-all')`); err != nil {
		return fmt.Errorf("store: reset sname_fts: %w", err)
	}
	if s.base != "" {
		// Hide every baseline row from the views of the open connections.
		for tbl, name := range overlayTables {
			if _, err := tx.Exec(fmt.Sprintf(`INSERT INTO main.overlay_hidden(tbl, file_id) SELECT DISTINCT %d, file_id FROM base.%s`, tbl, name)); err != nil {
				return fmt.Errorf("store: reset: %w", err)
			}
		}
		if _, err := tx.Exec(`DELETE FROM main.metadata WHERE key = ?`, baselineKey); err != nil {
			return err
		}
	}
	if _, err := tx.Exec(`INSERT OR REPLACE INTO metadata(key, value) VALUES('blob_generation', ?), ('full_pending', '1')`, blobGen); err != nil {
		return err
	}
	return tx.Commit()
}

// Reads counts the read transactions begun on the store.
func (s *DB) Reads() int64 { return s.reads.Load() }

// Shrink empties the page caches of the connections no request holds
// (PRAGMA shrink_memory), waiting for none: what a server does when calls
// stop, so that what it keeps resident is what it needs, not what the last
// burst of calls read.
func (s *DB) Shrink(ctx context.Context) {
	var conns []*sql.Conn
	for range MaxConns {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Millisecond)
		c, err := s.sql.Conn(cctx)
		cancel()
		if err != nil {
			break
		}
		conns = append(conns, c)
	}
	for _, c := range conns {
		c.ExecContext(ctx, "PRAGMA shrink_memory")
		c.Close()
	}
}

// Close closes the databases. Closing the last connection checkpoints the
// write-ahead log into the database file, so it is done under both seals.
func (s *DB) Close() error {
	endMain, _ := sealBegin("main", s.opts.IndexPath)
	endBlobs, _ := sealBegin("blobs", s.opts.BlobPath)
	s.stmts.close()
	err := s.sql.Close()
	if endBlobs != nil {
		endBlobs()
	}
	if endMain != nil {
		endMain()
	}
	return err
}

// path is the file of a database ("main" or "blobs").
func (s *DB) path(db string) string {
	if db == "blobs" {
		return s.opts.BlobPath
	}
	return s.opts.IndexPath
}

// write runs a write to one database under its seal (see seal.go).
func (s *DB) write(db string, fn func() error) error {
	return sealWrite(db, s.path(db), fn)
}

// IsCorrupt reports whether err says that a database file is damaged: a
// Damage from the store's own checks, or SQLite's own result code for a
// malformed file from one of the store's statements. The message text never
// decides (an error about a "malformed" argument is not damage).
func IsCorrupt(err error) bool {
	var d *Damage
	if errors.As(err, &d) {
		return true
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
			return true
		}
	}
	return false
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
