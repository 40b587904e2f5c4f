package store

import (
	"context"
	"errors"
	"fmt"
	"os"
)

// Check reports a Damage when either database cannot be trusted as it is:
// its file was replaced by another process (Replaced: reopen it), or changed
// outside Cairn since Cairn last wrote it (see seal.go). It costs a few stat
// calls and is meant to run before every request answers.
func (s *DB) Check() *Damage {
	for _, db := range []string{"main", "blobs"} {
		path := s.path(db)
		if st := stampOf(path); st.Ino != s.opened[db] {
			return &Damage{DB: db, Replaced: true, Reason: "the file was replaced since this process opened it"}
		}
		if d := checkSeal(db, path); d != nil {
			return d
		}
	}
	// The baseline is never written, so its seal is only read: a change
	// condemns this worktree's index (rebuilt standalone), not the file
	// other worktrees may still trust until they look.
	if s.base != "" {
		if why := sealProblem(s.base); why != "" {
			return &Damage{DB: "main", Reason: "its baseline " + s.base + " cannot be trusted: " + why, Suspect: true}
		}
	}
	return nil
}

// Diagnose finds which database an error that IsCorrupt accepted comes from:
// the Damage itself, or for an error of SQLite's the database whose own
// checks fail. When neither check finds anything it blames the worktree
// index, which is the cheap one to rebuild: the shared blob store is never
// given up on a guess. The worktree index is checked first: both databases
// share a connection, and when one of them is not readable as a database at
// all every statement fails, the other's check included; blaming the index
// then is the safe guess (the next Open rebuilds a blob store it cannot read).
func (s *DB) Diagnose(ctx context.Context, err error) *Damage {
	var d *Damage
	if errors.As(err, &d) {
		return d
	}
	for _, db := range []string{"main", "blobs"} {
		if verr := s.integrity(ctx, db); verr != nil {
			if errors.As(verr, &d) {
				return d
			}
			return &Damage{DB: db, Reason: verr.Error()}
		}
	}
	return &Damage{DB: "main", Reason: err.Error()}
}

// Verify checks one database completely: SQLite's integrity check (page
// structure, every index against its table, the full-text index against
// its documents) and every stored checksum. It reads the whole file.
func (s *DB) Verify(ctx context.Context, db string) error {
	if err := s.integrity(ctx, db); err != nil {
		return err
	}
	if db == "blobs" {
		return s.verifyBlobs(ctx)
	}
	return s.verifyIndex(ctx)
}

// integrity runs SQLite's integrity check on one database (it includes the
// full-text tables' own check).
func (s *DB) integrity(ctx context.Context, db string) error {
	rows, err := s.sql.QueryContext(ctx, "PRAGMA "+db+".integrity_check(10)")
	if err != nil {
		if IsCorrupt(err) {
			return damaged(db, "SQLite cannot read it: %v", err)
		}
		return fmt.Errorf("store: integrity check %s: %w", db, err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return damaged(db, "SQLite cannot read it: %v", err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		if IsCorrupt(err) {
			return damaged(db, "SQLite cannot read it: %v", err)
		}
		return fmt.Errorf("store: integrity check %s: %w", db, err)
	}
	if len(problems) > 0 {
		return damaged(db, "SQLite's integrity check failed: %s", problems[0])
	}
	return nil
}

func (s *DB) verifyBlobs(ctx context.Context) error {
	texts := map[int64]int64{} // blob id -> text_sum
	err := s.eachRow(ctx, "blobs", `SELECT id, hash, lang, xver, size, status, facts, text_sum, sum FROM blobs.blob`, func(scan func(...any) error) error {
		var id, size, tsum, sum int64
		var hash, facts []byte
		var language string
		var xver int
		var status BlobStatus
		if err := scan(&id, &hash, &language, &xver, &size, &status, &facts, &tsum, &sum); err != nil {
			return err
		}
		if blobRowSum(hash, language, xver, size, status, tsum) != sum {
			return damaged("blobs", "blob %d does not match its checksum", id)
		}
		if facts != nil {
			if _, err := checkSum("blobs", fmt.Sprintf("the facts of blob %d", id), facts); err != nil {
				return err
			}
		}
		if tsum != 0 {
			texts[id] = tsum
		}
		return nil
	})
	if err != nil {
		return err
	}
	err = s.eachRow(ctx, "blobs", `SELECT rowid, content FROM blobs.blob_text`, func(scan func(...any) error) error {
		var id int64
		var text []byte
		if err := scan(&id, &text); err != nil {
			return err
		}
		want, ok := texts[id]
		if !ok || textSum(text) != want {
			return damaged("blobs", "the text of blob %d does not match its checksum", id)
		}
		delete(texts, id)
		return nil
	})
	if err != nil {
		return err
	}
	for id := range texts {
		return damaged("blobs", "the text of blob %d is missing", id)
	}
	return s.eachRow(ctx, "blobs", `SELECT blob_id, data FROM blobs.blob_surface`, func(scan func(...any) error) error {
		var id int64
		var data []byte
		if err := scan(&id, &data); err != nil {
			return err
		}
		_, err := checkSum("blobs", fmt.Sprintf("the surfaces of blob %d", id), data)
		return err
	})
}

func (s *DB) verifyIndex(ctx context.Context) error {
	err := s.eachRow(ctx, "main", `SELECT file_id, data, imports FROM link`, func(scan func(...any) error) error {
		var id int64
		var data, imports []byte
		if err := scan(&id, &data, &imports); err != nil {
			return err
		}
		if _, err := checkSum("main", fmt.Sprintf("the links of file %d", id), data); err != nil {
			return err
		}
		_, err := checkSum("main", fmt.Sprintf("the imports of file %d", id), imports)
		return err
	})
	if err != nil {
		return err
	}
	for _, q := range []string{`SELECT occs FROM sem_doc`, `SELECT occs FROM sem_symbol`} {
		err := s.eachRow(ctx, "main", q, func(scan func(...any) error) error {
			var occs []byte
			if err := scan(&occs); err != nil {
				return err
			}
			_, err := checkSum("main", "semantic occurrences", occs)
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// eachRow runs fn over the rows of a query on one database; SQLite's errors
// for a malformed file become a Damage of that database.
func (s *DB) eachRow(ctx context.Context, db, q string, fn func(scan func(...any) error) error) error {
	asDamage := func(err error) error {
		if err != nil && IsCorrupt(err) {
			var d *Damage
			if errors.As(err, &d) {
				return d
			}
			return damaged(db, "SQLite cannot read it: %v", err)
		}
		return err
	}
	rows, err := s.sql.QueryContext(ctx, q)
	if err != nil {
		return asDamage(err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows.Scan); err != nil {
			return asDamage(err)
		}
	}
	return asDamage(rows.Err())
}

// Accept records a database that Verify passed as Cairn's own again.
func (s *DB) Accept(db string) error {
	path := s.path(db)
	unlock, err := lockSeal(path)
	if err != nil {
		return err
	}
	defer unlock()
	return reseal(path)
}

// Quarantine moves a damaged database file aside (keeping the last damaged
// copy for inspection as <file>.damaged) so that the next Open creates it
// afresh. The caller closes its handle after (a handle still open reads the
// moved file). Other processes notice the replaced file at their next Check.
func Quarantine(path string) error {
	unlock, err := lockSeal(path)
	if err != nil {
		return err
	}
	defer unlock()
	aside := path + ".damaged"
	removeDB(aside)
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		if err := os.Rename(path+suffix, aside+suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("store: quarantine %s: %w", path, err)
		}
	}
	removeSeal(path)
	return nil
}
