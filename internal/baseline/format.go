// Package baseline exports a worktree's index as a checksummed, versioned
// artifact and imports one, so a fresh clone (or a CI runner) starts from an
// index built elsewhere and indexes only the files that differ from the
// artifact's commit. It owns the artifact format; the store writes and
// installs the databases inside it. It never serves queries.
package baseline

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/store"
)

// The artifact is one file:
//
//	line 1   CAIRN-INDEX-ARTIFACT <format version> sha256:<hex>\n
//	line 2   the manifest, one line of JSON\n
//	rest     the payload: a gzip-compressed tar of index.db and blobs.db
//
// The checksum on line 1 covers every byte after line 1 (the manifest and
// the payload), so any damaged byte is found before anything is installed;
// the manifest also records the size and SHA-256 of each database.

// Magic opens every artifact.
const Magic = "CAIRN-INDEX-ARTIFACT"

// FormatVersion is the version of the framing above and of the manifest.
const FormatVersion = 1

// Ext is the file name extension of an artifact.
const Ext = ".cairn-index"

// maxHeader bounds line 1 and maxManifest line 2 while they are read.
const (
	maxHeader   = 256
	maxManifest = 1 << 20
)

// Manifest describes an artifact: what built it and from which commit.
type Manifest struct {
	Format           string `json:"format"` // "cairn-index"
	FormatVersion    int    `json:"format_version"`
	IndexSchema      int    `json:"index_schema_version"`
	BlobSchema       int    `json:"blob_schema_version"`
	ExtractorVersion int    `json:"extractor_version"`
	CairnVersion     string `json:"cairn_version,omitempty"`
	Commit           string `json:"commit"`
	Branch           string `json:"branch,omitempty"`
	// Dirty: the index held changes not in Commit (exported with --allow-dirty).
	Dirty     bool      `json:"dirty"`
	CreatedAt string    `json:"created_at"` // RFC 3339, UTC
	Files     int       `json:"files"`
	Payload   []Payload `json:"payload"`
}

// Payload is one database inside the artifact.
type Payload struct {
	Name   string `json:"name"` // index.db or blobs.db
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// payloadNames are the members of the payload, in order.
var payloadNames = []string{"index.db", "blobs.db"}

// current is the manifest fields this build writes and accepts.
func current() Manifest {
	return Manifest{Format: "cairn-index", FormatVersion: FormatVersion, IndexSchema: store.IndexSchemaVersion,
		BlobSchema: store.BlobSchemaVersion, ExtractorVersion: lang.ExtractorVersion}
}

// incompatible lists the versions of m that this build cannot use.
func incompatible(m *Manifest) map[string]any {
	want := current()
	bad := map[string]any{}
	check := func(name string, got, wanted int) {
		if got != wanted {
			bad[name] = map[string]int{"artifact": got, "this_build": wanted}
		}
	}
	check("format_version", m.FormatVersion, want.FormatVersion)
	check("index_schema_version", m.IndexSchema, want.IndexSchema)
	check("blob_schema_version", m.BlobSchema, want.BlobSchema)
	check("extractor_version", m.ExtractorVersion, want.ExtractorVersion)
	if m.Format != want.Format {
		bad["format"] = map[string]string{"artifact": m.Format, "this_build": want.Format}
	}
	return bad
}

func corrupt(format string, args ...any) error {
	return &errs.Error{Kind: errs.ArtifactCorrupt, Msg: "the index artifact is damaged or not an artifact: " + fmt.Sprintf(format, args...),
		Fixes: []string{"download or copy it again, or export a new one (cairn index export --out FILE)"}}
}

// write frames manifest and the payload file into out (created afresh, via a
// temporary file renamed into place).
func write(out string, m *Manifest, payload string) error {
	line, err := json.Marshal(m)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	h := sha256.New()
	h.Write(line)
	pf, err := os.Open(payload)
	if err != nil {
		return err
	}
	defer pf.Close()
	if _, err := io.Copy(h, pf); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), ".artifact-*")
	if err != nil {
		return errs.WrapWrite(err, "cannot write the artifact")
	}
	defer os.Remove(tmp.Name())
	bw := bufio.NewWriterSize(tmp, 1<<20)
	fmt.Fprintf(bw, "%s %d sha256:%s\n", Magic, FormatVersion, hex.EncodeToString(h.Sum(nil)))
	bw.Write(line)
	if _, err := pf.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if _, err := io.Copy(bw, pf); err != nil {
		return errs.WrapWrite(err, "cannot write the artifact")
	}
	if err := bw.Flush(); err != nil {
		return errs.WrapWrite(err, "cannot write the artifact")
	}
	if err := tmp.Sync(); err != nil {
		return errs.WrapWrite(err, "cannot write the artifact")
	}
	if err := tmp.Close(); err != nil {
		return errs.WrapWrite(err, "cannot write the artifact")
	}
	os.Chmod(tmp.Name(), 0o600) // it holds the repository's source text
	return os.Rename(tmp.Name(), out)
}

// pack writes the databases in dir as the gzip-compressed tar payload and
// records their sizes and checksums in m.
func pack(dir, payload string, m *Manifest) error {
	f, err := os.Create(payload)
	if err != nil {
		return errs.WrapWrite(err, "cannot write the artifact")
	}
	defer f.Close()
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	tw := tar.NewWriter(zw)
	for _, name := range payloadNames {
		src, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		st, _ := src.Stat()
		hdr := &tar.Header{Name: name, Mode: 0o600, Size: st.Size(), Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		if err := tw.WriteHeader(hdr); err != nil {
			src.Close()
			return err
		}
		h := sha256.New()
		_, err = io.Copy(io.MultiWriter(tw, h), src)
		src.Close()
		if err != nil {
			return errs.WrapWrite(err, "cannot write the artifact")
		}
		m.Payload = append(m.Payload, Payload{Name: name, Bytes: st.Size(), SHA256: hex.EncodeToString(h.Sum(nil))})
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return errs.WrapWrite(err, "cannot write the artifact")
	}
	return f.Close()
}

// open verifies the artifact at path (checksum, then versions) and returns
// its manifest and the offset of its payload. It installs nothing.
func open(path string) (*Manifest, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, &errs.Error{Kind: errs.FileNotFound, Path: path, Msg: "cannot open the artifact " + path, Err: err}
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	header, err := readLine(br, maxHeader)
	if err != nil {
		return nil, 0, corrupt("no header line")
	}
	fields := strings.Fields(header)
	if len(fields) != 3 || fields[0] != Magic || !strings.HasPrefix(fields[2], "sha256:") {
		return nil, 0, corrupt("the header line is %q", truncate(header))
	}
	if v, err := strconv.Atoi(fields[1]); err != nil {
		return nil, 0, corrupt("the format version %q is not a number", fields[1])
	} else if v != FormatVersion {
		return nil, 0, &errs.Error{Kind: errs.ArtifactIncompatible,
			Msg:     fmt.Sprintf("the index artifact has format version %d; this build of Cairn reads version %d", v, FormatVersion),
			Details: map[string]any{"format_version": map[string]int{"artifact": v, "this_build": FormatVersion}},
			Fixes:   []string{"export the artifact again with this version of Cairn, or use the version that wrote it"}}
	}
	want, err := hex.DecodeString(strings.TrimPrefix(fields[2], "sha256:"))
	if err != nil || len(want) != sha256.Size {
		return nil, 0, corrupt("the checksum %q is malformed", truncate(fields[2]))
	}
	h := sha256.New()
	if _, err := io.Copy(h, br); err != nil {
		return nil, 0, corrupt("cannot read it: %v", err)
	}
	if !bytes.Equal(h.Sum(nil), want) {
		return nil, 0, corrupt("its bytes do not match the checksum in its header")
	}
	start := int64(len(header) + 1)
	if _, err := f.Seek(start, io.SeekStart); err != nil {
		return nil, 0, err
	}
	br.Reset(f)
	line, err := readLine(br, maxManifest)
	if err != nil {
		return nil, 0, corrupt("no manifest")
	}
	var m Manifest
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		return nil, 0, corrupt("the manifest does not parse: %v", err)
	}
	if bad := incompatible(&m); len(bad) > 0 {
		names := slices.Sorted(maps.Keys(bad))
		return &m, 0, &errs.Error{Kind: errs.ArtifactIncompatible,
			Msg:     "the index artifact was written by another version of Cairn (" + strings.Join(names, ", ") + " differ); nothing was imported",
			Details: bad,
			Fixes:   []string{"export the artifact again with this version of Cairn, or run cairn index to build the index here"}}
	}
	if len(m.Payload) != len(payloadNames) {
		return nil, 0, corrupt("the manifest lists %d databases, want %d", len(m.Payload), len(payloadNames))
	}
	for i, p := range m.Payload {
		if p.Name != payloadNames[i] {
			return nil, 0, corrupt("the manifest lists %q where %q belongs", p.Name, payloadNames[i])
		}
	}
	return &m, start + int64(len(line)) + 1, nil
}

// unpack extracts the payload of a verified artifact into dir, checking each
// database against the manifest; it writes no more than the manifest says.
func unpack(path string, offset int64, m *Manifest, dir string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return err
	}
	zr, err := gzip.NewReader(bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		return corrupt("the payload is not gzip: %v", err)
	}
	tr := tar.NewReader(zr)
	for _, p := range m.Payload {
		hdr, err := tr.Next()
		if err != nil {
			return corrupt("the payload ends before %s: %v", p.Name, err)
		}
		if hdr.Name != p.Name || hdr.Typeflag != tar.TypeReg || hdr.Size != p.Bytes {
			return corrupt("the payload holds %q (%d bytes) where the manifest lists %s (%d bytes)", hdr.Name, hdr.Size, p.Name, p.Bytes)
		}
		out, err := os.OpenFile(filepath.Join(dir, p.Name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return errs.WrapWrite(err, "cannot stage the artifact")
		}
		h := sha256.New()
		n, err := io.Copy(io.MultiWriter(out, h), io.LimitReader(tr, p.Bytes))
		cerr := out.Close()
		if err != nil {
			return corrupt("cannot read %s: %v", p.Name, err)
		}
		if cerr != nil {
			return errs.WrapWrite(cerr, "cannot stage the artifact")
		}
		if n != p.Bytes || hex.EncodeToString(h.Sum(nil)) != p.SHA256 {
			return corrupt("%s does not match the manifest", p.Name)
		}
	}
	return nil
}

func readLine(br *bufio.Reader, max int) (string, error) {
	var b []byte
	for {
		chunk, err := br.ReadSlice('\n')
		b = append(b, chunk...)
		if len(b) > max {
			return "", fmt.Errorf("line longer than %d bytes", max)
		}
		if err == nil {
			return string(b[:len(b)-1]), nil
		}
		if err != bufio.ErrBufferFull {
			return "", err
		}
	}
}

func truncate(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}
