package query

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"unicode/utf8"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/scan"
)

// FullFile describes a whole file, and holds its content when it was read.
type FullFile struct {
	Path            string `json:"path"`
	Language        string `json:"language,omitempty"`
	Size            int64  `json:"size"`  // bytes
	Lines           int    `json:"lines"` // the last line counts even without a final newline
	FileSHA256      string `json:"file_sha256"`
	EstimatedTokens int    `json:"estimated_tokens"`
	// Content is the file's exact text (its sha256 is FileSHA256), set only
	// by ReadFull with content requested.
	Content string `json:"content,omitempty"`
	// ValidUTF8 is false when the text is not UTF-8: JSON then carries
	// replacement characters and Content no longer hashes to FileSHA256.
	ValidUTF8 bool `json:"valid_utf8"`
}

// ReadFull measures a whole file (size, lines, sha256, estimated tokens) and,
// when withContent is set, returns its content too. It applies the same read
// policy as Read (inside the repository, no secrets, not ignored, not .git)
// and refuses binary files. Callers enforce caps and budgets on Size before
// asking for the content.
func (e *Engine) ReadFull(ctx context.Context, path string, withContent bool) (*FullFile, error) {
	rp, err := e.CheckReadable(ctx, path, "read")
	if err != nil {
		return nil, err
	}
	if rp == "" {
		return nil, errs.E(errs.InvalidArgument, "name a file to read")
	}
	var f io.Reader
	if data, held, err := e.ovRead(rp); err != nil {
		return nil, err
	} else if held {
		f = bytes.NewReader(data) // the overlay's version
	} else {
		full, err := e.regularFile(rp)
		if err != nil {
			return nil, err
		}
		file, err := os.Open(full)
		if err != nil {
			return nil, &errs.Error{Kind: errs.FileNotFound, Path: string(rp), Err: err, Msg: "cannot read " + string(rp)}
		}
		defer file.Close()
		f = file
	}
	out := &FullFile{Path: string(rp)}
	if row, ok, err := e.FileByPath(ctx, string(rp)); err == nil && ok && row.Lang != "" {
		out.Language = row.Lang
	} else if l := lang.ForPath(string(rp)); l != nil {
		out.Language = l.Name
	}
	// One pass: hash, count lines, sniff for binary, keep the bytes if asked.
	h := sha256.New()
	var content bytes.Buffer
	buf := make([]byte, 64<<10)
	var size int64
	var last byte
	var utf utf8Check
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		n, rerr := f.Read(buf)
		if n > 0 {
			chunk := buf[:n]
			if size < scan.BinarySniff && bytes.IndexByte(chunk[:min(n, int(scan.BinarySniff-size))], 0) >= 0 {
				return nil, &errs.Error{Kind: errs.InvalidArgument, Path: string(rp), Msg: string(rp) + " is a binary file"}
			}
			h.Write(chunk)
			out.Lines += bytes.Count(chunk, []byte{'\n'})
			utf.write(chunk)
			if withContent {
				content.Write(chunk)
			}
			size += int64(n)
			last = chunk[n-1]
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return nil, &errs.Error{Kind: errs.Internal, Path: string(rp), Err: rerr, Msg: "cannot read " + string(rp)}
		}
	}
	if size > 0 && last != '\n' {
		out.Lines++
	}
	out.Size = size
	out.ValidUTF8 = utf.valid()
	out.FileSHA256 = hex.EncodeToString(h.Sum(nil))
	out.EstimatedTokens = protocol.EstimateTokens(int(size))
	if withContent {
		out.Content = content.String()
	}
	return out, nil
}

// utf8Check validates UTF-8 written in chunks that may split a rune.
type utf8Check struct {
	bad   bool
	carry []byte // an incomplete rune at the end of the last chunk
}

func (u *utf8Check) write(p []byte) {
	if u.bad {
		return
	}
	data := append(u.carry, p...)
	cut := len(data)
	// A rune split by the chunk boundary starts at most UTFMax-1 bytes from the end.
	for i := len(data) - 1; i >= 0 && i >= len(data)-(utf8.UTFMax-1); i-- {
		if utf8.RuneStart(data[i]) {
			if !utf8.FullRune(data[i:]) {
				cut = i
			}
			break
		}
	}
	if !utf8.Valid(data[:cut]) {
		u.bad = true
	}
	u.carry = append([]byte(nil), data[cut:]...)
}

func (u *utf8Check) valid() bool { return !u.bad && utf8.Valid(u.carry) }
