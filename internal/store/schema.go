package store

// Schema versions. Bump the index version when a table changes shape or when
// linking changes what it stores (links of unchanged files are not derived
// again); a mismatch on open drops the database and rebuilds it (the index is
// always disposable).
const (
	IndexSchemaVersion = 125
	BlobSchemaVersion  = 7
)

// blobSchema is the content-addressed store shared by every worktree of a
// repository. Rows are immutable once written; garbage collection removes blobs
// that no worktree has used for a while.
const blobSchema = `
CREATE TABLE IF NOT EXISTS metadata(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS blob(
  id        INTEGER PRIMARY KEY,
  hash      BLOB    NOT NULL,  -- xxh3-128 of the raw bytes
  lang      TEXT    NOT NULL,  -- language id, '' when the file is not code
  xver      INTEGER NOT NULL,  -- extractor version
  size      INTEGER NOT NULL,
  status    INTEGER NOT NULL,  -- BlobStatus
  facts     BLOB,              -- lang.Encode output + checksum; NULL when not parsed
  text_sum  INTEGER NOT NULL,  -- checksum of the blob_text document, 0 when none
  sum       INTEGER NOT NULL,  -- checksum of the columns above but facts (checksum.go)
  last_used INTEGER NOT NULL,  -- unix seconds a worktree last referenced it
  UNIQUE(hash, lang, xver)
);
-- The lexical tier: one document per blob (rowid = blob.id). detail=none keeps
-- the trigram index small; substring queries are verified against the content.
CREATE VIRTUAL TABLE IF NOT EXISTS blob_text USING fts5(content, tokenize='trigram', detail=none, columnsize=0);
-- The names a blob's facts mention (BlobRow.Names), one token each
-- (NameToken), so finding the files that reference a name, or whose links a
-- changed name may change, is one term lookup instead of a substring scan of
-- every document holding its trigrams (rowid = blob.id).
CREATE VIRTUAL TABLE IF NOT EXISTS blob_name USING fts5(names, tokenize='ascii', detail=none, columnsize=0);
-- The worktree indexes that use this store: path is the index database, root
-- the worktree it indexes ('' when unknown), so collection can tell the
-- indexes of worktrees git no longer lists.
CREATE TABLE IF NOT EXISTS worktree(path TEXT PRIMARY KEY, root TEXT NOT NULL DEFAULT '', last_seen INTEGER NOT NULL);
-- Surfaces (routes, config keys, tables, DI, exceptions, logs) of a blob, one
-- packed row per kind (lang.EncodeSurfaces), beside the facts that also hold
-- them, so listing one kind reads nothing else. Only blobs with surfaces of a
-- kind have a row for it.
CREATE TABLE IF NOT EXISTS blob_surface(
  blob_id INTEGER NOT NULL,
  kind    INTEGER NOT NULL,  -- lang.SurfaceKind
  data    BLOB    NOT NULL,
  PRIMARY KEY(blob_id, kind)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS blob_surface_kind ON blob_surface(kind, blob_id);
`

// indexSchema is one worktree's index: which blob each path holds, and the facts
// that depend on more than one file (symbol identities, resolved references).
const indexSchema = `
CREATE TABLE IF NOT EXISTS metadata(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS module(
  id        INTEGER PRIMARY KEY,
  root      TEXT    NOT NULL,     -- repo-relative directory, '' for the root
  name      TEXT    NOT NULL,     -- module path / package name / directory
  kind      TEXT    NOT NULL,     -- family: go, javascript, python, rust, jvm, dotnet, ruby, php, dir
  manifest  TEXT    NOT NULL,     -- the manifest file, '' for kind dir
  deps      TEXT    NOT NULL,     -- declared dependencies, JSON array
  workspace TEXT    NOT NULL,     -- root of the workspace fence listing it, '' when none
  detached  INTEGER NOT NULL,     -- inside a fence that does not list it
  UNIQUE(root, kind)
);
CREATE TABLE IF NOT EXISTS file(
  id        INTEGER PRIMARY KEY,
  path      TEXT    NOT NULL UNIQUE,
  blob_id   INTEGER NOT NULL,
  hash      BLOB    NOT NULL,
  norm_hash BLOB    NOT NULL,
  git_oid   TEXT    NOT NULL,
  size      INTEGER NOT NULL,
  mtime_ns  INTEGER NOT NULL,
  ctime_ns  INTEGER NOT NULL, -- inode change time: catches in-place edits that keep size and mtime
  inode     INTEGER NOT NULL,
  lang      TEXT    NOT NULL,
  pkg       TEXT    NOT NULL, -- Go package clause, '' otherwise
  status    INTEGER NOT NULL,
  module_id INTEGER NOT NULL,
  epoch     INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS file_blob ON file(blob_id);
CREATE TABLE IF NOT EXISTS symbol(
  id         INTEGER PRIMARY KEY, -- the 64-bit identity behind sym_<16 hex>
  file_id    INTEGER NOT NULL,
  def_idx    INTEGER NOT NULL,    -- index into the blob's Facts.Defs
  name       TEXT    NOT NULL,
  name_id    INTEGER NOT NULL,    -- sname.id, for substring search
  qname      TEXT    NOT NULL,    -- canonical qualified name
  kind       INTEGER NOT NULL,
  visibility INTEGER NOT NULL,
  module_id  INTEGER NOT NULL,
  parent     INTEGER NOT NULL,    -- enclosing symbol id, 0 at top level
  version    INTEGER NOT NULL     -- hash of the normalised signature
);
CREATE INDEX IF NOT EXISTS symbol_name ON symbol(name);
CREATE INDEX IF NOT EXISTS symbol_name_id ON symbol(name_id);
CREATE INDEX IF NOT EXISTS symbol_file ON symbol(file_id);
CREATE INDEX IF NOT EXISTS symbol_qname ON symbol(qname);
CREATE INDEX IF NOT EXISTS symbol_parent ON symbol(parent);
-- Distinct symbol names with a trigram index for ranked substring search.
CREATE TABLE IF NOT EXISTS sname(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE VIRTUAL TABLE IF NOT EXISTS sname_fts USING fts5(name, tokenize='trigram', detail=none, content='sname', content_rowid='id');
-- Resolved references and classified import edges of a file, packed (see
-- index/link.go and index/imports.go).
CREATE TABLE IF NOT EXISTS link(file_id INTEGER PRIMARY KEY, data BLOB NOT NULL, imports BLOB);
-- Call and type edges between symbols, derived from a file's resolved
-- references in the link phase (index/edges.go) and replaced with them. src
-- is always defined in file_id, so the primary key also finds a caller's
-- callees; edge_dst (covering) finds a callee's callers and a type's subtypes.
CREATE TABLE IF NOT EXISTS edge(
  file_id INTEGER NOT NULL,
  src     INTEGER NOT NULL, -- caller, or subtype
  dst     INTEGER NOT NULL, -- callee, or supertype
  kind    INTEGER NOT NULL, -- 0 call, 1 extends, 2 implements, 3 embeds
  tier    INTEGER NOT NULL, -- the best tier of its references (index.Tier)
  count   INTEGER NOT NULL, -- how many references (call sites)
  line    INTEGER NOT NULL, -- where the first one is
  col     INTEGER NOT NULL,
  PRIMARY KEY(file_id, src, dst, kind)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS edge_dst ON edge(dst, kind, src, tier, count, line, col);
-- An overlay over a baseline (overlay.go): the files whose baseline rows of
-- a table (0 symbol, 1 link, 2 edge) it replaced. Empty when standalone.
CREATE TABLE IF NOT EXISTS overlay_hidden(
  tbl     INTEGER NOT NULL,
  file_id INTEGER NOT NULL,
  PRIMARY KEY(tbl, file_id)
) WITHOUT ROWID;
-- Identity across epochs: a vanished symbol id points to its new id (renamed
-- or moved: a unique 1:1 match of kind and body fingerprint) or is deleted.
CREATE TABLE IF NOT EXISTS alias(
  old_id     INTEGER PRIMARY KEY,
  new_id     INTEGER NOT NULL,
  reason     TEXT    NOT NULL, -- renamed, moved
  confidence REAL    NOT NULL,
  old_qname  TEXT    NOT NULL,
  epoch      INTEGER NOT NULL
);
-- What each path held at each epoch: one row per path whose content changed
-- (blob_id 0: deleted). The state at epoch N is each path's latest row at or
-- before N; its definitions are the blob's facts (semantic_diff epoch mode).
CREATE TABLE IF NOT EXISTS file_history(
  path    TEXT    NOT NULL,
  epoch   INTEGER NOT NULL,
  blob_id INTEGER NOT NULL,
  lang    TEXT    NOT NULL,
  PRIMARY KEY(path, epoch)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tombstone(
  id    INTEGER PRIMARY KEY,
  qname TEXT    NOT NULL,
  kind  INTEGER NOT NULL,
  path  TEXT    NOT NULL,
  epoch INTEGER NOT NULL
);
-- The semantic layer: SCIP indexes imported whole, one transaction each
-- (see semantic/). An index is replaced, never patched; its rows all carry its id.
CREATE TABLE IF NOT EXISTS sem_index(
  id           INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: readers cache by the newest id
  key          TEXT    NOT NULL UNIQUE, -- indexer + project root, or the .scip path
  tool         TEXT    NOT NULL,        -- the indexer that produced it (metadata.tool_info)
  tool_version TEXT    NOT NULL,
  root         TEXT    NOT NULL,        -- repo-relative project root
  source       TEXT    NOT NULL,        -- "job:<id>" or the .scip path
  head         TEXT    NOT NULL,        -- commit the indexer saw ('' unknown)
  head_known   INTEGER NOT NULL,        -- 0 when head is only the HEAD at import time
  imported_at  INTEGER NOT NULL,        -- unix seconds
  stats        TEXT    NOT NULL         -- JSON: counts and timings of the import
);
-- One document (file) of an index. hash is the content hash of the file the
-- indexer saw (as file.hash); a file whose current hash differs falls back to
-- the syntactic layer. occs packs the document's occurrences by position.
CREATE TABLE IF NOT EXISTS sem_doc(
  idx    INTEGER NOT NULL,
  ord    INTEGER NOT NULL,
  path   TEXT    NOT NULL,
  lang   TEXT    NOT NULL,
  hash   BLOB    NOT NULL,  -- empty when unknown
  state  INTEGER NOT NULL,  -- 0 usable, otherwise why not (see semantic.DocState)
  occs   BLOB    NOT NULL,
  PRIMARY KEY(idx, ord)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS sem_doc_path ON sem_doc(path);
-- Symbols by the 64-bit hash of their SCIP symbol string; occs packs every
-- occurrence (document, range, roles) so a reference lookup is one row.
CREATE TABLE IF NOT EXISTS sem_symbol(
  idx     INTEGER NOT NULL,
  id      INTEGER NOT NULL,
  symbol  TEXT    NOT NULL,
  kind    INTEGER NOT NULL,  -- scip.SymbolInformation_Kind
  display TEXT    NOT NULL,
  def_doc INTEGER NOT NULL,  -- ord of the defining document, -1 when defined elsewhere
  occs    BLOB    NOT NULL,
  PRIMARY KEY(idx, id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sem_rel(
  idx    INTEGER NOT NULL,
  sym    INTEGER NOT NULL,
  target INTEGER NOT NULL,
  kinds  INTEGER NOT NULL,   -- bits: 1 implementation, 2 type definition, 4 reference, 8 definition
  PRIMARY KEY(idx, sym, target)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS sem_rel_target ON sem_rel(idx, target);
-- The mapping between SCIP symbols and Cairn symbol ids: a SCIP definition
-- occurrence and the Cairn definition whose name starts at the same position.
CREATE TABLE IF NOT EXISTS sem_map(
  idx   INTEGER NOT NULL,
  sym   INTEGER NOT NULL,
  cairn INTEGER NOT NULL,
  PRIMARY KEY(idx, sym, cairn)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS sem_map_cairn ON sem_map(cairn);
-- Indexer jobs (semantic/jobs.go): queued -> running -> completed | failed |
-- superseded. Scopes only widen for the same HEAD; a HEAD change supersedes.
CREATE TABLE IF NOT EXISTS sem_job(
  id          INTEGER PRIMARY KEY,
  key         TEXT    NOT NULL,  -- indexer:root or scip:path, one active job per key
  indexer     TEXT    NOT NULL,
  root        TEXT    NOT NULL,
  status      TEXT    NOT NULL,
  scope       TEXT    NOT NULL,  -- JSON list of files, '' for the whole project
  trigger     TEXT    NOT NULL,
  head        TEXT    NOT NULL,  -- HEAD at enqueue
  created_at  INTEGER NOT NULL,
  started_at  INTEGER NOT NULL,
  finished_at INTEGER NOT NULL,
  progress    TEXT    NOT NULL,
  error       TEXT    NOT NULL,
  reason      TEXT    NOT NULL,  -- why it was superseded
  stats       TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS sem_job_key ON sem_job(key, status);
`
