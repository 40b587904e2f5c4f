package query

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/scan"
)

// ReadParams selects a span of a file.
type ReadParams struct {
	Path      string
	StartLine int // 1-based; 0 means 1
	EndLine   int // inclusive; 0 means start + MaxLines - 1
	MaxLines  int
	MaxChars  int
}

// Line is one numbered line.
type Line struct {
	N    int    `json:"n"`
	Text string `json:"text"`
}

// ReadResult is a span of a file.
type ReadResult struct {
	Path       string `json:"path"`
	FileSHA256 string `json:"file_sha256"`
	StartLine  int    `json:"start_line"`
	EndLine    int    `json:"end_line"`
	TotalLines int    `json:"total_lines"`
	Lines      []Line `json:"lines"`
	Truncated  bool   `json:"truncated"`
	// Requested is the end line asked for before budgets cut it.
	Requested int `json:"-"`
	// TruncatedBy names the budget that cut the span ("lines" or "chars").
	TruncatedBy string `json:"-"`
	Size        int64  `json:"-"`
}

// CheckReadable applies the read policy to a path argument: inside the
// repository, not in .git or Cairn's state, not a secret (unless allowed),
// not ignored. The policy holds for the path as named and for where its
// symlinks lead, so a link cannot reach what its target's own name would be
// refused. verb names the action in messages ("read", "list").
func (e *Engine) CheckReadable(ctx context.Context, p, verb string) (protocol.RepoPath, error) {
	t, err := scan.Resolve(ctx, e.ix.Paths().Root, p)
	if err != nil {
		return "", err
	}
	if err := e.readPolicy(string(t.Path), "", verb); err != nil {
		return "", err
	}
	if t.Real != t.Path {
		if err := e.readPolicy(string(t.Real), string(t.Path), verb); err != nil {
			return "", err
		}
	}
	return t.Path, nil
}

// readPolicy refuses a repo path the read tools must not touch; named, when
// set, is the path asked for, which leads to s through symlinks.
func (e *Engine) readPolicy(s, named, verb string) error {
	r := scan.Refusal{Verb: verb, Path: s, Named: named}
	paths := e.ix.Paths()
	if scan.Metadata(paths, s) {
		return r.Err(r.Metadata())
	}
	cfg := e.ix.Config()
	switch why := scan.Hidden(paths.Root, cfg.Index.Exclude, s, cfg.Read.AllowSecrets); {
	case why == "":
		return nil
	case why == scan.WhySecret:
		return r.Err(r.It()+" "+why, "set read.allow_secrets: true in .cairn/config.yaml if agents may read it")
	default:
		return r.Err(r.It() + " " + why)
	}
}

// regularFile finds a readable path on disk: its full path, or why it
// cannot be read (missing, a directory).
func (e *Engine) regularFile(rp protocol.RepoPath) (string, error) {
	full := filepath.Join(e.ix.Paths().Root, filepath.FromSlash(string(rp)))
	st, err := os.Stat(full)
	if err != nil {
		return "", &errs.Error{Kind: errs.FileNotFound, Path: string(rp), Msg: "no file " + string(rp)}
	}
	if st.IsDir() {
		return "", &errs.Error{Kind: errs.InvalidArgument, Path: string(rp), Msg: string(rp) + " is a directory",
			Fixes: []string{"cairn ls " + string(rp)}}
	}
	return full, nil
}

// Read returns numbered lines of a file, within budgets.
func (e *Engine) Read(ctx context.Context, p ReadParams) (*ReadResult, error) {
	rp, err := e.CheckReadable(ctx, p.Path, "read")
	if err != nil {
		return nil, err
	}
	data, held, err := e.ovRead(rp)
	if err != nil {
		return nil, err
	}
	if !held {
		full, err := e.regularFile(rp)
		if err != nil {
			return nil, err
		}
		if data, err = os.ReadFile(full); err != nil {
			return nil, &errs.Error{Kind: errs.FileNotFound, Path: string(rp), Err: err, Msg: "cannot read " + string(rp)}
		}
	}
	if scan.IsBinary(data) {
		return nil, &errs.Error{Kind: errs.InvalidArgument, Path: string(rp), Msg: string(rp) + " is a binary file"}
	}
	sum := sha256.Sum256(data)
	lines := strings.Split(string(data), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	res := &ReadResult{Path: string(rp), FileSHA256: hex.EncodeToString(sum[:]), TotalLines: len(lines), Lines: []Line{}, Size: int64(len(data))}
	start := max(p.StartLine, 1)
	if start > len(lines) && len(lines) > 0 {
		return nil, errs.E(errs.InvalidArgument, "line %d is past the end of %s (%d lines)", start, rp, len(lines))
	}
	end := p.EndLine
	if end <= 0 {
		end = start + p.MaxLines - 1
	}
	if end < start {
		return nil, errs.E(errs.InvalidArgument, "end line %d is before start line %d", end, start)
	}
	res.Requested = min(end, len(lines))
	if end-start+1 > p.MaxLines {
		end = start + p.MaxLines - 1
		res.Truncated, res.TruncatedBy = true, "lines"
	}
	end = min(end, len(lines))
	chars := 0
	for n := start; n <= end; n++ {
		text := strings.TrimRight(lines[n-1], "\r")
		if chars+len(text) > p.MaxChars && len(res.Lines) > 0 {
			res.Truncated, res.TruncatedBy = true, "chars"
			break
		}
		chars += len(text) + 1
		res.Lines = append(res.Lines, Line{N: n, Text: text})
	}
	res.StartLine = start
	res.EndLine = start + len(res.Lines) - 1
	if len(res.Lines) == 0 {
		res.EndLine = start - 1
	}
	return res, nil
}
