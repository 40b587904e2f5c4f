package store

import (
	"context"
	"fmt"
)

// AllLinks calls fn with the packed resolved references of every file that has
// some (the reverse-reference view of impact analysis is built from them).
func (s *Reader) AllLinks(ctx context.Context, fn func(fileID int64, data []byte) error) error {
	return s.eachLink(ctx, "data", "length(data) > 0", "links", fn)
}

// eachLink calls fn with the packed column col of every link row that
// matches where, checked against its checksum; what names the column in
// errors.
func (s *Reader) eachLink(ctx context.Context, col, where, what string, fn func(fileID int64, data []byte) error) error {
	rows, err := s.sql.QueryContext(ctx, `SELECT file_id, `+col+` FROM link WHERE `+where+` ORDER BY file_id`)
	if err != nil {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var b []byte
		if err := rows.Scan(&id, &b); err != nil {
			return err
		}
		b, err := checkSum("main", fmt.Sprintf("the %s of file %d", what, id), b)
		if err != nil {
			return err
		}
		if err := fn(id, b); err != nil {
			return err
		}
	}
	return rows.Err()
}

// RecordHistory notes what a path holds from this epoch on (blobID 0: deleted).
func (t *Tx) RecordHistory(epoch int64, path string, blobID int64, language string) error {
	_, err := t.exec(`INSERT OR REPLACE INTO file_history(path, epoch, blob_id, lang) VALUES(?,?,?,?)`, path, epoch, blobID, language)
	return err
}

// FilesAtEpoch lists the files of the worktree as they were at an epoch (path,
// blob and language), from the history; empty when it has no record of it.
func (s *Reader) FilesAtEpoch(ctx context.Context, epoch int64) ([]FileRow, error) {
	rows, err := s.sql.QueryContext(ctx, `SELECT h.path, h.blob_id, h.lang FROM file_history h
		JOIN (SELECT path, max(epoch) AS e FROM file_history WHERE epoch <= ? GROUP BY path) m ON h.path = m.path AND h.epoch = m.e
		WHERE h.blob_id != 0 ORDER BY h.path`, epoch)
	return scanAll(rows, err, fmt.Sprintf("files at epoch %d", epoch), func(r scanner, f *FileRow) error { return r.Scan(&f.Path, &f.BlobID, &f.Lang) })
}

// SymbolFiles maps every symbol id to the id of the file defining it.
func (s *Reader) SymbolFiles(ctx context.Context) (map[int64]int64, error) {
	rows, err := s.sql.QueryContext(ctx, `SELECT id, file_id FROM symbol`)
	if err != nil {
		return nil, fmt.Errorf("store: symbol files: %w", err)
	}
	defer rows.Close()
	out := map[int64]int64{}
	for rows.Next() {
		var id, f int64
		if err := rows.Scan(&id, &f); err != nil {
			return nil, err
		}
		out[id] = f
	}
	return out, rows.Err()
}
