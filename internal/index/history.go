package index

import "github.com/cairnhq/cairn/internal/store"

// recordHistory notes, for the epoch being committed, every path whose content
// changed and every path deleted, so semantic_diff can compare epochs.
func recordHistory(tx *store.Tx, jobs []*job, deleted []*store.FileRow, epoch int64) error {
	for _, j := range jobs {
		if j.skipped || j.same || j.err != nil {
			continue
		}
		if j.old != nil && j.old.BlobID == j.blobID {
			continue
		}
		if err := tx.RecordHistory(epoch, j.entry.Path, j.blobID, langName(j.lang)); err != nil {
			return err
		}
	}
	for _, d := range deleted {
		if err := tx.RecordHistory(epoch, d.Path, 0, ""); err != nil {
			return err
		}
	}
	return nil
}
