package store

// BlobStatus says what the store holds for a blob.
type BlobStatus uint8

// Blob statuses (stored; append-only).
const (
	BlobParsed      BlobStatus = iota // facts extracted cleanly
	BlobParseErrors                   // facts extracted around syntax errors
	BlobText                          // no language: text only (lexical tier)
	BlobBinary                        // binary: listed, neither parsed nor searchable
	BlobTooLarge                      // over the size cap: listed only
	BlobFailed                        // the extractor failed: text only
	BlobCapped                        // facts extracted cleanly up to the extractor's bounds (lang.Limits)
)

var blobStatusNames = [...]string{"parsed", "parse_errors", "text", "binary", "too_large", "failed", "capped"}

func (s BlobStatus) String() string {
	if int(s) < len(blobStatusNames) {
		return blobStatusNames[s]
	}
	return "unknown"
}

// Hash is a 128-bit content hash.
type Hash [16]byte

// BlobKey identifies a blob: the raw bytes' hash, the language and the extractor version.
type BlobKey struct {
	Hash Hash
	Lang string
	XVer int
}

// BlobRow is a blob to insert.
type BlobRow struct {
	Key    BlobKey
	Size   int64
	Status BlobStatus
	Facts  []byte // encoded facts, nil when not parsed
	Text   []byte // document for the lexical tier, nil when not searchable
	// Surfaces are the blob's packed surfaces, one entry per kind present.
	Surfaces []SurfaceData
	// Names are the distinct names the blob's facts mention: references,
	// qualifiers, locals, type relations and imports, and the identifier
	// words of those that are more than one (its name postings,
	// NameCandidates), nil when it has none.
	Names []string
}

// SurfaceData is a blob's packed surfaces of one kind.
type SurfaceData struct {
	Kind uint8
	Data []byte
}

// SurfaceRow is one file's packed surfaces of one kind.
type SurfaceRow struct {
	FileID int64
	Path   string
	Lang   string
	BlobID int64
	Data   []byte
}

// FileRow is one path of the worktree.
type FileRow struct {
	ID       int64
	Path     string
	BlobID   int64
	Hash     Hash
	NormHash Hash
	GitOID   string
	Size     int64
	MtimeNS  int64
	CtimeNS  int64 // inode change time
	Inode    int64
	Lang     string
	Pkg      string // Go package clause
	Status   BlobStatus
	ModuleID int64
	Epoch    int64
}

// SymbolRow is one symbol of the worktree.
type SymbolRow struct {
	ID         int64
	FileID     int64
	DefIdx     int
	Name       string
	QName      string
	Kind       uint8
	Visibility uint8
	ModuleID   int64
	Parent     int64
	Version    int64
}

// ModuleRow is a module: a manifest and the directory it owns.
type ModuleRow struct {
	ID        int64
	Root      string
	Name      string
	Kind      string
	Manifest  string
	Deps      []string
	Workspace string
	Detached  bool
}

// TextHit is a file whose content may contain a lexical query.
type TextHit struct {
	FileID int64
	Path   string
	BlobID int64
	Lang   string
}

// EdgeRow is a call or type edge between two symbols (see the edge table).
type EdgeRow struct {
	FileID int64
	Src    int64
	Dst    int64
	Kind   uint8 // 0 call, 1 extends, 2 implements, 3 embeds
	Tier   uint8
	Count  int
	Line   int
	Col    int
}

// Alias redirects a vanished symbol id to its successor.
type Alias struct {
	OldID      int64
	NewID      int64
	Reason     string // renamed, moved
	Confidence float64
	OldQName   string
	Epoch      int64
}

// Tombstone records a deleted symbol.
type Tombstone struct {
	ID    int64
	QName string
	Kind  uint8
	Path  string
	Epoch int64
}
