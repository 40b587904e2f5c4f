package index

import (
	"context"
	"fmt"
	"time"

	"github.com/zeebo/xxh3"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/scan"
	"github.com/cairnhq/cairn/internal/store"
)

// ContentParser gives the facts of file contents that are not in the worktree
// (files of other revisions) through the content-addressed blob store: content
// any worktree or an earlier diff has seen is not parsed again, and new content
// is parsed once and stored (when this process owns the writer lock), so
// diffing two tags parses each content once. Not safe for concurrent use.
type ContentParser struct {
	ix      *Index
	x       *lang.Extractor
	pending []store.BlobRow
	// Parsed and Reused count contents parsed here and found in the store.
	Parsed, Reused int
}

// NewContentParser returns a parser; Close it to store what it parsed.
func (ix *Index) NewContentParser() *ContentParser { return &ContentParser{ix: ix} }

// Facts returns the facts of one file's content (nil facts for content that is
// not code: no language, binary, too large) and the language name.
func (p *ContentParser) Facts(ctx context.Context, path string, data []byte) (*lang.Facts, string, error) {
	if int64(len(data)) > p.ix.cfg.Index.MaxFileBytes || scan.IsBinary(data) {
		return nil, "", nil
	}
	l := lang.ForFile(path, data)
	if l == nil {
		return nil, "", nil
	}
	key := store.BlobKey{Hash: store.Hash(xxh3.Hash128(data).Bytes()), Lang: l.Name, XVer: extractorVersion}
	for _, r := range p.pending {
		if r.Key == key {
			f, err := lang.Decode(r.Facts)
			return f, l.Name, err
		}
	}
	ids, err := p.ix.db().FindBlobs(ctx, []store.BlobKey{key})
	if err != nil {
		return nil, l.Name, err
	}
	if id, ok := ids[key]; ok {
		p.Reused++
		f, err := p.ix.Facts(ctx, id)
		return f, l.Name, err
	}
	if p.x == nil {
		p.x = lang.NewExtractor()
	}
	facts, err := extractSafely(p.x, l, data)
	if err != nil {
		return nil, l.Name, fmt.Errorf("index: parse %s: %w", path, err)
	}
	p.Parsed++
	if p.ix.Writable() {
		p.pending = append(p.pending, store.BlobRow{Key: key, Size: int64(len(data)), Status: parseStatus(facts),
			Facts: lang.Encode(facts), Text: append([]byte(nil), data...), Names: mentions(facts)})
		if len(p.pending) >= 256 {
			if err := p.flush(ctx); err != nil {
				return nil, l.Name, err
			}
		}
	}
	return facts, l.Name, nil
}

func (p *ContentParser) flush(ctx context.Context) error {
	if len(p.pending) == 0 {
		return nil
	}
	// Unreferenced blobs live out their grace period (gc.go), so a diff
	// repeated later, or a checkout of the revision, finds them.
	_, err := p.ix.db().InsertBlobs(ctx, p.pending, nowUnix())
	p.pending = p.pending[:0]
	return err
}

// Close stores the contents parsed and releases the parser.
func (p *ContentParser) Close(ctx context.Context) error {
	err := p.flush(ctx)
	if p.x != nil {
		p.x.Close()
		p.x = nil
	}
	return err
}

// PathFilter reports whether a repo path of another revision would be left out
// of the index (pruned directories, ignore rules, Cairn's state).
func (ix *Index) PathFilter() func(string) bool {
	opts := scan.Options{Paths: ix.paths, Exclude: ix.cfg.Index.Exclude}
	opts.Matcher = scan.NewMatcher(ix.paths.Root, ix.cfg.Index.Exclude)
	return func(p string) bool { return scan.Excluded(opts, p) }
}

// UnitKey is where a file's definitions are named: a package of a language
// whose packages are directories (Go; an external test package x_test
// apart) or declared (Java, Kotlin, C#), otherwise the file itself.
// Definitions with the same unit, kind and lexical path are the same symbol
// wherever in the unit they move.
func UnitKey(path, language string, facts *lang.Facts) string {
	pkg := ""
	if facts != nil {
		pkg = facts.Package
	}
	switch l := lang.Of(language); l.Packages {
	case lang.PackageDirectory:
		d := lang.DirOf(path)
		if l.StandsApart(pkg) {
			d += "#" + l.ApartSuffix
		}
		return language + ":" + d
	case lang.PackageDeclared:
		if pkg != "" {
			return language + ":" + pkg
		}
	}
	return "file:" + path
}

func nowUnix() int64 { return time.Now().Unix() }
