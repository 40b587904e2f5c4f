package gitx

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/cairnhq/cairn/internal/errs"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// ErrNoRef means a revision does not name a commit.
var ErrNoRef = errors.New("not a commit")

// ResolveCommit turns a revision (branch, tag, HEAD~2, an abbreviated id) into
// the full id of the commit it names, or ErrNoRef.
func ResolveCommit(ctx context.Context, root, rev string) (string, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return "", fmt.Errorf("%q: %w", rev, ErrNoRef)
	}
	out, err := Run(ctx, root, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		if errs.Is(err, errs.GitUnavailable) { // git missing or killed: not an answer about rev
			return "", err
		}
		return "", fmt.Errorf("%q: %w", rev, ErrNoRef)
	}
	return strings.TrimSpace(string(out)), nil
}

// ReadBlobs reads the contents of blobs by object id with one
// `git cat-file --batch` process; each is passed to fn as it arrives (data is
// only valid during the call). Missing objects are skipped. Blobs larger than
// maxBytes are passed with data nil and their size.
func ReadBlobs(ctx context.Context, root string, oids []string, maxBytes int64, fn func(oid string, size int64, data []byte) error) error {
	if len(oids) == 0 {
		return nil
	}
	cmd := exec.CommandContext(ctx, "git", "cat-file", "--batch")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C", "GIT_TERMINAL_PROMPT=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	var in bytes.Buffer
	for _, o := range oids {
		in.WriteString(o + "\n")
	}
	cmd.Stdin = &in
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return ErrNoGit
		}
		return err
	}
	r := bufio.NewReaderSize(out, 1<<16)
	var ferr error
	for range oids {
		header, err := r.ReadString('\n')
		if err != nil {
			ferr = fmt.Errorf("git cat-file: %w", err)
			break
		}
		f := strings.Fields(header)
		if len(f) == 2 && f[1] == "missing" {
			continue
		}
		if len(f) != 3 {
			ferr = fmt.Errorf("git cat-file: unexpected header %q", strings.TrimSpace(header))
			break
		}
		size, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			ferr = fmt.Errorf("git cat-file: bad size in %q", strings.TrimSpace(header))
			break
		}
		var data []byte
		if size <= maxBytes || maxBytes <= 0 {
			data = make([]byte, size)
			if _, err := io.ReadFull(r, data); err != nil {
				ferr = fmt.Errorf("git cat-file: %w", err)
				break
			}
		} else if _, err := io.CopyN(io.Discard, r, size); err != nil {
			ferr = fmt.Errorf("git cat-file: %w", err)
			break
		}
		if _, err := r.ReadByte(); err != nil { // the newline after the content
			ferr = fmt.Errorf("git cat-file: %w", err)
			break
		}
		if f[1] != "blob" {
			continue
		}
		if err := fn(f[0], size, data); err != nil {
			ferr = err
			break
		}
	}
	if ferr != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return ferr
	}
	io.Copy(io.Discard, r)
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git cat-file --batch: %s", strings.TrimSpace(stderr.String()))
	}
	return nil
}

// CommitSubject returns the first line of a commit's message.
func CommitSubject(ctx context.Context, root, commit string) string {
	out, err := Run(ctx, root, "log", "-1", "--format=%s", commit, "--")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
