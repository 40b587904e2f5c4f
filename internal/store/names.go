package store

import (
	"context"
	"slices"
	"sort"
	"strings"
)

// NameToken encodes an identifier as one token of blob_name's ascii
// tokenizer, keeping its case and every byte: the tokenizer folds ASCII
// case and splits on anything but letters and digits, so bytes other than
// a-z and 1-9 are written as '0' and two hex digits ("Get_x" is "047et05fx").
// The encoding is one-to-one, so a term lookup finds exactly the blobs
// using the identifier.
func NameToken(name string) string {
	const hex = "0123456789abcdef"
	var b strings.Builder
	b.Grow(len(name) + 8)
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 'a' && c <= 'z' || c >= '1' && c <= '9' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('0')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// NameDoc is the blob_name document of a blob using names: their tokens,
// distinct and sorted, separated by spaces.
func NameDoc(names []string) string {
	toks := make([]string, 0, len(names))
	for _, n := range names {
		if n != "" {
			toks = append(toks, NameToken(n))
		}
	}
	sort.Strings(toks)
	return strings.Join(slices.Compact(toks), " ")
}

// NameCandidates returns the files whose blob's facts mention name
// (BlobRow.Names: every file whose references use it, and those naming it
// in a qualifier, type relation or import), by path: one term lookup in the
// name postings, reading no content.
func (s *Reader) NameCandidates(ctx context.Context, name string) ([]TextHit, error) {
	if name == "" {
		return nil, nil
	}
	rows, err := s.sql.QueryContext(ctx, `SELECT f.id, f.path, f.blob_id, f.lang FROM file f
		WHERE f.blob_id IN (SELECT rowid FROM blobs.blob_name WHERE blob_name MATCH ?) ORDER BY f.path`, `"`+NameToken(name)+`"`)
	return scanAll(rows, err, "name search", scanTextHit)
}
