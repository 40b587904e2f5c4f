package store

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/bug"
)

const fileCols = `id, path, blob_id, hash, norm_hash, git_oid, size, mtime_ns, ctime_ns, inode, lang, pkg, status, module_id, epoch`

func scanFile(r scanner, f *FileRow) error {
	var h, nh []byte
	err := r.Scan(&f.ID, &f.Path, &f.BlobID, &h, &nh, &f.GitOID, &f.Size, &f.MtimeNS, &f.CtimeNS, &f.Inode, &f.Lang, &f.Pkg, &f.Status, &f.ModuleID, &f.Epoch)
	copy(f.Hash[:], h)
	copy(f.NormHash[:], nh)
	return err
}

func scanFiles(rows *sql.Rows, err error) ([]FileRow, error) {
	return scanAll(rows, err, "files", scanFile)
}

// Files returns every file row, ordered by path.
func (s *Reader) Files(ctx context.Context) ([]FileRow, error) {
	return scanFiles(s.sql.QueryContext(ctx, `SELECT `+fileCols+` FROM file ORDER BY path`))
}

// FileByPath finds a file by its repo path.
func (s *Reader) FileByPath(ctx context.Context, path string) (FileRow, bool, error) {
	return s.fileWhere(ctx, "path", path)
}

// FileByID finds a file by id.
func (s *Reader) FileByID(ctx context.Context, id int64) (FileRow, bool, error) {
	return s.fileWhere(ctx, "id", id)
}

// fileWhere finds the file whose column col (a unique one) holds v.
func (s *Reader) fileWhere(ctx context.Context, col string, v any) (FileRow, bool, error) {
	var f FileRow
	err := scanFile(s.sql.QueryRowContext(ctx, `SELECT `+fileCols+` FROM file WHERE `+col+` = ?`, v), &f)
	if err == sql.ErrNoRows {
		return f, false, nil
	}
	if err != nil {
		return f, false, fmt.Errorf("store: file %v: %w", v, err)
	}
	return f, true, nil
}

// FilesByIDs returns the files with these ids (missing ones are skipped).
func (s *Reader) FilesByIDs(ctx context.Context, ids []int64) ([]FileRow, error) {
	return inChunks(ids, func(in string, args []any) ([]FileRow, error) {
		return scanFiles(s.sql.QueryContext(ctx, `SELECT `+fileCols+` FROM file WHERE id IN (`+in+`)`, args...))
	})
}

// FilesUnder returns the files whose path starts with prefix (all when empty).
func (s *Reader) FilesUnder(ctx context.Context, prefix string) ([]FileRow, error) {
	if prefix == "" {
		return s.Files(ctx)
	}
	return scanFiles(s.sql.QueryContext(ctx, `SELECT `+fileCols+` FROM file WHERE path >= ? AND path < ? ORDER BY path`, prefix, prefix+"\xff"))
}

// BlobFacts returns a blob's encoded facts (nil when it has none).
func (s *Reader) BlobFacts(ctx context.Context, blobID int64) ([]byte, error) {
	var b []byte
	err := s.sql.QueryRowContext(ctx, `SELECT facts FROM blobs.blob WHERE id = ?`, blobID).Scan(&b)
	if err == sql.ErrNoRows {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: facts of blob %d: %w", blobID, err)
	}
	if b == nil {
		return nil, nil
	}
	return checkSum("blobs", fmt.Sprintf("the facts of blob %d", blobID), b)
}

// BlobText returns a blob's searchable content (nil when it has none).
func (s *Reader) BlobText(ctx context.Context, blobID int64) ([]byte, error) {
	var b []byte
	var sum int64
	err := s.sql.QueryRowContext(ctx, `SELECT t.content, b.text_sum FROM blobs.blob_text t JOIN blobs.blob b ON b.id = t.rowid
		WHERE t.rowid = ?`, blobID).Scan(&b, &sum)
	if err == sql.ErrNoRows {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: text of blob %d: %w", blobID, err)
	}
	if textSum(b) != sum {
		return nil, damaged("blobs", "the text of blob %d does not match its checksum", blobID)
	}
	return b, nil
}

// Surfaces returns the packed surfaces of one kind of every file that has
// some, ordered by path.
func (s *Reader) Surfaces(ctx context.Context, kind uint8) ([]SurfaceRow, error) {
	rows, err := s.sql.QueryContext(ctx, `SELECT f.id, f.path, f.lang, f.blob_id, s.data FROM blobs.blob_surface s
		JOIN file f ON f.blob_id = s.blob_id WHERE s.kind = ? ORDER BY f.path`, kind)
	return scanAll(rows, err, "surfaces", func(row scanner, r *SurfaceRow) (err error) {
		if err = row.Scan(&r.FileID, &r.Path, &r.Lang, &r.BlobID, &r.Data); err == nil {
			r.Data, err = checkSum("blobs", fmt.Sprintf("the surfaces of blob %d", r.BlobID), r.Data)
		}
		return err
	})
}

// Link returns a file's packed resolved references.
func (s *Reader) Link(ctx context.Context, fileID int64) ([]byte, error) {
	return s.linkColumn(ctx, "data", "links", fileID)
}

// Imports returns a file's packed import edges (nil when it has none).
func (s *Reader) Imports(ctx context.Context, fileID int64) ([]byte, error) {
	return s.linkColumn(ctx, "imports", "imports", fileID)
}

// linkColumn reads one packed column of a file's link row, checked against
// its checksum (nil when the file has no row or the column is empty).
func (s *Reader) linkColumn(ctx context.Context, col, what string, fileID int64) ([]byte, error) {
	var b []byte
	err := s.sql.QueryRowContext(ctx, `SELECT `+col+` FROM link WHERE file_id = ?`, fileID).Scan(&b)
	if err == sql.ErrNoRows {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: %s of file %d: %w", what, fileID, err)
	}
	return checkSum("main", fmt.Sprintf("the %s of file %d", what, fileID), b)
}

// Modules returns every module, ordered by root.
func (s *Reader) Modules(ctx context.Context) ([]ModuleRow, error) {
	rows, err := s.sql.QueryContext(ctx, `SELECT id, root, name, kind, manifest, deps, workspace, detached FROM module ORDER BY root, kind`)
	return scanAll(rows, err, "modules", func(r scanner, m *ModuleRow) error {
		var deps string
		if err := r.Scan(&m.ID, &m.Root, &m.Name, &m.Kind, &m.Manifest, &deps, &m.Workspace, &m.Detached); err != nil {
			return err
		}
		bug.Unmarshal([]byte(deps), &m.Deps, "store: module %d: deps", m.ID) // written by ReplaceModules
		return nil
	})
}

const symbolCols = `id, file_id, def_idx, name, qname, kind, visibility, module_id, parent, version`

// symbolFields are the fields of a SymbolRow in the order of symbolCols.
func symbolFields(r *SymbolRow) []any {
	return []any{&r.ID, &r.FileID, &r.DefIdx, &r.Name, &r.QName, &r.Kind, &r.Visibility, &r.ModuleID, &r.Parent, &r.Version}
}

func scanSymbols(rows *sql.Rows, err error) ([]SymbolRow, error) {
	return scanAll(rows, err, "symbols", func(row scanner, r *SymbolRow) error { return row.Scan(symbolFields(r)...) })
}

// SymbolByID finds a symbol.
func (s *Reader) SymbolByID(ctx context.Context, id int64) (SymbolRow, bool, error) {
	return first(scanSymbols(s.sql.QueryContext(ctx, `SELECT `+symbolCols+` FROM symbol WHERE id = ?`, id)))
}

// SymbolsByName returns the symbols with exactly this name.
func (s *Reader) SymbolsByName(ctx context.Context, name string) ([]SymbolRow, error) {
	return scanSymbols(s.sql.QueryContext(ctx, `SELECT `+symbolCols+` FROM symbol WHERE name = ? ORDER BY qname, id`, name))
}

// SymbolsByQName returns the symbols with exactly this qualified name.
func (s *Reader) SymbolsByQName(ctx context.Context, qname string) ([]SymbolRow, error) {
	return scanSymbols(s.sql.QueryContext(ctx, `SELECT `+symbolCols+` FROM symbol WHERE qname = ? ORDER BY id`, qname))
}

// SymbolsOfFile returns a file's symbols in definition order.
func (s *Reader) SymbolsOfFile(ctx context.Context, fileID int64) ([]SymbolRow, error) {
	return scanSymbols(s.sql.QueryContext(ctx, `SELECT `+symbolCols+` FROM symbol WHERE file_id = ? ORDER BY def_idx`, fileID))
}

// SymbolsOfFiles returns the symbols of many files.
func (s *Reader) SymbolsOfFiles(ctx context.Context, fileIDs []int64) ([]SymbolRow, error) {
	return inChunks(fileIDs, func(in string, args []any) ([]SymbolRow, error) {
		return scanSymbols(s.sql.QueryContext(ctx, `SELECT `+symbolCols+` FROM symbol WHERE file_id IN (`+in+`) ORDER BY file_id, def_idx`, args...))
	})
}

// SymbolsByIDs returns the symbols with these ids (missing ones are skipped).
func (s *Reader) SymbolsByIDs(ctx context.Context, ids []int64) ([]SymbolRow, error) {
	return inChunks(ids, func(in string, args []any) ([]SymbolRow, error) {
		return scanSymbols(s.sql.QueryContext(ctx, `SELECT `+symbolCols+` FROM symbol WHERE id IN (`+in+`) ORDER BY id`, args...))
	})
}

// AllSymbols returns every symbol (for linking).
func (s *Reader) AllSymbols(ctx context.Context) ([]SymbolRow, error) {
	return scanSymbols(s.sql.QueryContext(ctx, `SELECT `+symbolCols+` FROM symbol ORDER BY id`))
}

// SymbolCount is the number of symbols.
func (s *Reader) SymbolCount(ctx context.Context) (int, error) {
	var n int
	err := s.sql.QueryRowContext(ctx, `SELECT count(*) FROM symbol`).Scan(&n)
	return n, err
}

// SymbolSearch is a ranked, case-insensitive substring search over symbol names.
type SymbolSearch struct {
	Sub        string
	Kinds      []uint8       // only these kinds (all when empty)
	KindWeight map[uint8]int // score per kind
	VisWeight  map[uint8]int // score per visibility
	ExactBonus int           // score when the whole name equals Sub (ignoring case)
	Limit      int
}

func weightCase(col string, w map[uint8]int) string {
	if len(w) == 0 {
		return "0"
	}
	keys := make([]int, 0, len(w))
	for k := range w {
		keys = append(keys, int(k))
	}
	sort.Ints(keys)
	var b strings.Builder
	b.WriteString("CASE " + col)
	for _, k := range keys {
		fmt.Fprintf(&b, " WHEN %d THEN %d", k, w[uint8(k)])
	}
	b.WriteString(" ELSE 0 END")
	return b.String()
}

// from is the search's FROM and WHERE clauses with their arguments, after
// a WITH clause (with its own arguments, first in the statement) that the
// statement must start with.
func (q SymbolSearch) from(r *Reader) (with, from string, withArgs, args []any) {
	if len([]rune(q.Sub)) >= 3 {
		// FTS5 uses its trigram index only for a plain two-argument LIKE (no
		// ESCAPE) and only when it drives the query (an IN subquery, not a join).
		// '_' and '%' then act as wildcards, so instr() checks the exact substring.
		with, withArgs = r.snameMatch(LikeLiteral(q.Sub))
		from = `FROM symbol s WHERE s.name_id IN (SELECT id FROM sname_match) AND instr(lower(s.name), lower(?)) > 0`
		return with, from + kindFilter(q.Kinds), withArgs, append([]any{q.Sub}, anys(q.Kinds)...)
	}
	from = `FROM symbol s WHERE instr(lower(s.name), lower(?)) > 0`
	return "", from + kindFilter(q.Kinds), nil, append([]any{q.Sub}, anys(q.Kinds)...)
}

func kindFilter(kinds []uint8) string {
	if len(kinds) == 0 {
		return ""
	}
	return ` AND s.kind IN (` + placeholders(len(kinds)) + `)`
}

// SearchSymbols returns the best Limit matches with their scores, best first
// (ties: shorter name, qualified name, id).
func (s *Reader) SearchSymbols(ctx context.Context, q SymbolSearch) ([]SymbolRow, []int, error) {
	with, from, withArgs, args := q.from(s)
	score := fmt.Sprintf("(CASE WHEN lower(s.name) = lower(?) THEN %d ELSE 0 END) + %s + %s",
		q.ExactBonus, weightCase("s.kind", q.KindWeight), weightCase("s.visibility", q.VisWeight))
	query := with + `SELECT ` + prefixCols("s.", symbolCols) + `, ` + score + ` AS score ` + from +
		` ORDER BY score DESC, length(s.name), s.qname, s.id LIMIT ?`
	all := append(append(withArgs, q.Sub), args...)
	all = append(all, q.Limit)
	type scored struct {
		SymbolRow
		score int
	}
	rows, err := s.sql.QueryContext(ctx, query, all...)
	found, err := scanAll(rows, err, "search symbols", func(row scanner, r *scored) error {
		return row.Scan(append(symbolFields(&r.SymbolRow), &r.score)...)
	})
	if err != nil {
		return nil, nil, err
	}
	var out []SymbolRow
	var scores []int
	for _, r := range found {
		out = append(out, r.SymbolRow)
		scores = append(scores, r.score)
	}
	return out, scores, nil
}

// CountSymbols counts the matches of a symbol search, up to limit.
func (s *Reader) CountSymbols(ctx context.Context, q SymbolSearch, limit int) (int, error) {
	with, from, withArgs, args := q.from(s)
	var n int
	err := s.sql.QueryRowContext(ctx, `SELECT count(*) FROM (`+with+`SELECT 1 `+from+` LIMIT ?)`, append(append(withArgs, args...), limit)...).Scan(&n)
	return n, err
}

// TextCandidates returns the files whose content matches a GLOB (case-sensitive)
// or LIKE (case-insensitive) pattern through the trigram index, ordered by path.
// An empty pattern returns every searchable file.
func (s *Reader) TextCandidates(ctx context.Context, pattern string, caseSensitive bool, limit int) ([]TextHit, error) {
	q := `SELECT f.id, f.path, f.blob_id, f.lang FROM file f WHERE f.status IN (0, 1, 2, 5)`
	var args []any
	if pattern != "" {
		op := "LIKE ?"
		if caseSensitive {
			op = "GLOB ?"
		}
		q = `SELECT f.id, f.path, f.blob_id, f.lang FROM blobs.blob_text t JOIN file f ON f.blob_id = t.rowid WHERE t.content ` + op
		args = append(args, pattern)
	}
	q += ` ORDER BY f.path LIMIT ?`
	args = append(args, limit)
	rows, err := s.sql.QueryContext(ctx, q, args...)
	return scanAll(rows, err, "text search", scanTextHit)
}

func scanTextHit(r scanner, h *TextHit) error { return r.Scan(&h.FileID, &h.Path, &h.BlobID, &h.Lang) }

// TrigramCandidates returns the searchable files whose content contains every
// trigram of lit (case-folded), straight from the trigram index without
// reading any content: a superset of the files containing lit, which callers
// verify. lit must have at least 3 characters.
func (s *Reader) TrigramCandidates(ctx context.Context, lit string) ([]TextHit, error) {
	expr := TrigramQuery(lit)
	if expr == "" {
		return s.TextCandidates(ctx, "", false, 1<<30)
	}
	rows, err := s.sql.QueryContext(ctx, `SELECT f.id, f.path, f.blob_id, f.lang FROM file f
		WHERE f.blob_id IN (SELECT rowid FROM blobs.blob_text WHERE blob_text MATCH ?) ORDER BY f.path`, expr)
	return scanAll(rows, err, "trigram search", scanTextHit)
}

// maxTrigrams bounds the terms of a trigram query: a dozen spread over a long
// literal select as well as all of them and cost less.
const maxTrigrams = 12

// TrigramQuery builds an FTS5 query that ANDs the distinct trigrams of lit
// ("" when lit is shorter than three characters). The trigrams keep their
// case: FTS5 folds the terms of a query as it folded the documents, and its
// folding is not Go's (Go lowers letters that FTS5 keeps, such as İ, so
// trigrams lowered here missed documents holding exactly the literal).
func TrigramQuery(lit string) string {
	r := []rune(lit)
	if len(r) < 3 {
		return ""
	}
	seen := map[string]bool{}
	var grams []string
	for i := 0; i+3 <= len(r); i++ {
		g := string(r[i : i+3])
		// FTS5's query syntax ends a string at a NUL; leaving such a
		// trigram out only widens the superset the callers verify.
		if strings.ContainsRune(g, 0) {
			continue
		}
		if !seen[g] {
			seen[g] = true
			grams = append(grams, g)
		}
	}
	if len(grams) > maxTrigrams {
		picked := make([]string, 0, maxTrigrams)
		for i := 0; i < maxTrigrams; i++ {
			picked = append(picked, grams[i*(len(grams)-1)/(maxTrigrams-1)])
		}
		grams = picked
	}
	for i, g := range grams {
		grams[i] = `"` + strings.ReplaceAll(g, `"`, `""`) + `"`
	}
	return strings.Join(grams, " AND ")
}

// GlobLiteral turns a literal into a GLOB pattern matching it anywhere.
func GlobLiteral(lit string) string {
	var b strings.Builder
	b.WriteByte('*')
	for _, r := range lit {
		switch r {
		case '*', '?', '[':
			b.WriteByte('[')
			b.WriteRune(r)
			b.WriteByte(']')
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('*')
	return b.String()
}

// LikeLiteral turns a literal into a LIKE pattern matching (at least) every
// text containing it, ignoring case. It has no ESCAPE clause, which FTS5
// needs to use its index: '%' in the literal becomes '_', so the pattern may
// match more, and callers verify.
func LikeLiteral(lit string) string { return "%" + likeNoEscape(lit) + "%" }

func likeNoEscape(s string) string { return strings.ReplaceAll(s, "%", "_") }

func prefixCols(p, cols string) string {
	parts := strings.Split(cols, ", ")
	for i := range parts {
		parts[i] = p + parts[i]
	}
	return strings.Join(parts, ", ")
}

// SymbolsByParent returns the members of a symbol.
func (s *Reader) SymbolsByParent(ctx context.Context, parent int64, limit int) ([]SymbolRow, error) {
	return scanSymbols(s.sql.QueryContext(ctx, `SELECT `+symbolCols+` FROM symbol WHERE parent = ? ORDER BY qname, id LIMIT ?`, parent, limit))
}

// CountSymbolsByParent counts the members of a symbol.
func (s *Reader) CountSymbolsByParent(ctx context.Context, parent int64) (int, error) {
	var n int
	err := s.sql.QueryRowContext(ctx, `SELECT count(*) FROM symbol WHERE parent = ?`, parent).Scan(&n)
	return n, err
}

// Counts returns the number of files per language and of symbols.
func (s *Reader) Counts(ctx context.Context) (files map[string]int, statuses map[BlobStatus]int, symbols int, err error) {
	files, statuses = map[string]int{}, map[BlobStatus]int{}
	rows, err := s.sql.QueryContext(ctx, `SELECT lang, status, count(*) FROM file GROUP BY lang, status`)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("store: counts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var l string
		var st BlobStatus
		var n int
		if err := rows.Scan(&l, &st, &n); err != nil {
			return nil, nil, 0, err
		}
		files[l] += n
		statuses[st] += n
	}
	err = s.sql.QueryRowContext(ctx, `SELECT count(*) FROM symbol`).Scan(&symbols)
	return files, statuses, symbols, err
}

// FilesDefining returns the ids of files that define a symbol named name
// (ignoring case when fold is set).
func (s *Reader) FilesDefining(ctx context.Context, name string, fold bool) (map[int64]bool, error) {
	q := `SELECT DISTINCT file_id FROM symbol WHERE name = ?`
	if fold {
		if len([]rune(name)) >= 3 {
			with, args := s.snameMatch(likeNoEscape(name))
			q = with + `SELECT DISTINCT file_id FROM symbol WHERE name_id IN (SELECT id FROM sname_match) AND lower(name) = lower(?)`
			rows, err := s.sql.QueryContext(ctx, q, append(args, name)...)
			return collectIDs(rows, err)
		}
		q = `SELECT DISTINCT file_id FROM symbol WHERE lower(name) = lower(?)`
	}
	return collectIDs(s.sql.QueryContext(ctx, q, name))
}

func collectIDs(rows *sql.Rows, err error) (map[int64]bool, error) {
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	out := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out[id] = true
	}
	return out, rows.Err()
}

// FilesByQNames returns, for each qualified name, the ids of files defining it.
func (s *Reader) FilesByQNames(ctx context.Context, qnames []string) (map[string][]int64, error) {
	type def struct {
		qname string
		file  int64
	}
	defs, err := inChunks(qnames, func(in string, args []any) ([]def, error) {
		rows, err := s.sql.QueryContext(ctx, `SELECT qname, file_id FROM symbol WHERE qname IN (`+in+`) ORDER BY qname, id`, args...)
		return scanAll(rows, err, "files by qname", func(r scanner, d *def) error { return r.Scan(&d.qname, &d.file) })
	})
	if err != nil {
		return nil, err
	}
	out := map[string][]int64{}
	for _, d := range defs {
		out[d.qname] = append(out[d.qname], d.file)
	}
	return out, nil
}

// NameDefined reports whether any symbol has this name.
func (s *Reader) NameDefined(ctx context.Context, name string) (bool, error) {
	var one int
	err := s.sql.QueryRowContext(ctx, `SELECT 1 FROM symbol WHERE name = ? LIMIT 1`, name).Scan(&one)
	if err == sql.ErrNoRows {
		return false, nil
	}
	return err == nil, err
}

// AliasOf returns the alias of a vanished symbol id.
func (s *Reader) AliasOf(ctx context.Context, id int64) (Alias, bool, error) {
	a := Alias{OldID: id}
	err := s.sql.QueryRowContext(ctx, `SELECT new_id, reason, confidence, old_qname, epoch FROM alias WHERE old_id = ?`, id).
		Scan(&a.NewID, &a.Reason, &a.Confidence, &a.OldQName, &a.Epoch)
	if err == sql.ErrNoRows {
		return a, false, nil
	}
	return a, err == nil, err
}

// TombstoneOf returns the tombstone of a deleted symbol id.
func (s *Reader) TombstoneOf(ctx context.Context, id int64) (Tombstone, bool, error) {
	t := Tombstone{ID: id}
	err := s.sql.QueryRowContext(ctx, `SELECT qname, kind, path, epoch FROM tombstone WHERE id = ?`, id).Scan(&t.QName, &t.Kind, &t.Path, &t.Epoch)
	if err == sql.ErrNoRows {
		return t, false, nil
	}
	return t, err == nil, err
}

// AllImports returns the packed import edges of every file that has some.
func (s *Reader) AllImports(ctx context.Context) (map[int64][]byte, error) {
	out := map[int64][]byte{}
	err := s.eachLink(ctx, "imports", "imports IS NOT NULL", "imports", func(id int64, b []byte) error {
		out[id] = b
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// EdgesTo returns the edges of some kinds that end at dst (a callee's
// callers, a type's subtypes), ordered by source and file.
func (s *Reader) EdgesTo(ctx context.Context, dst int64, kinds ...uint8) ([]EdgeRow, error) {
	rows, err := s.sql.QueryContext(ctx, `SELECT file_id, src, dst, kind, tier, count, line, col FROM edge
		WHERE dst = ? AND kind IN (`+placeholders(len(kinds))+`) ORDER BY src, file_id, kind`, append([]any{dst}, anys(kinds)...)...)
	return scanEdges(rows, err)
}

// EdgesFrom returns the edges of some kinds that start at src, defined in
// fileID (a caller's callees, a type's supertypes), ordered by destination.
func (s *Reader) EdgesFrom(ctx context.Context, fileID, src int64, kinds ...uint8) ([]EdgeRow, error) {
	rows, err := s.sql.QueryContext(ctx, `SELECT file_id, src, dst, kind, tier, count, line, col FROM edge
		WHERE file_id = ? AND src = ? AND kind IN (`+placeholders(len(kinds))+`) ORDER BY dst, kind`, append([]any{fileID, src}, anys(kinds)...)...)
	return scanEdges(rows, err)
}

// AllEdges returns every edge of some kinds (for benchmarks and checks).
func (s *Reader) AllEdges(ctx context.Context, kinds ...uint8) ([]EdgeRow, error) {
	rows, err := s.sql.QueryContext(ctx, `SELECT file_id, src, dst, kind, tier, count, line, col FROM edge
		WHERE kind IN (`+placeholders(len(kinds))+`) ORDER BY file_id, src, dst, kind`, anys(kinds)...)
	return scanEdges(rows, err)
}

func scanEdges(rows *sql.Rows, err error) ([]EdgeRow, error) {
	return scanAll(rows, err, "edges", func(r scanner, e *EdgeRow) error {
		return r.Scan(&e.FileID, &e.Src, &e.Dst, &e.Kind, &e.Tier, &e.Count, &e.Line, &e.Col)
	})
}

// SymbolsByQNamePrefix returns the symbols whose qualified name starts with
// prefix (Go: the members of a type, prefix "pkg.T."), at most limit.
func (s *Reader) SymbolsByQNamePrefix(ctx context.Context, prefix string, limit int) ([]SymbolRow, error) {
	return scanSymbols(s.sql.QueryContext(ctx, `SELECT `+symbolCols+` FROM symbol WHERE qname >= ? AND qname < ? ORDER BY qname, id LIMIT ?`,
		prefix, prefix+"\xff", limit))
}
