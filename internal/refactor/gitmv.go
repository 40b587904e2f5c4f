package refactor

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/cairnhq/cairn/internal/gitx"
)

// gitTrackedClean reports whether git tracks a file and has no change for
// it (staged or not): only then does a move record the rename in git's
// index, as git mv would.
func (env *Env) gitTrackedClean(ctx context.Context, p string) (bool, string) {
	if !env.Paths.IsGit {
		return false, "not in a git repository"
	}
	out, err := gitx.Run(ctx, env.Paths.Root, "ls-files", "-z", "--", p)
	if err != nil {
		return false, "git ls-files failed: " + err.Error()
	}
	if len(bytes.TrimRight(out, "\x00")) == 0 {
		return false, "not tracked by git: moved on disk only"
	}
	if st := env.gitStatus(ctx, p); st != "" {
		return false, fmt.Sprintf("has uncommitted changes (%s): moved on disk only, git sees a delete and a new file", strings.TrimSpace(st))
	}
	return true, ""
}

// gitRecordMove records in git's index that from was renamed to to: the
// entry of from (its staged blob and mode) moves to to, which is what git
// mv does to the index. The working tree is the mutation engine's.
func gitRecordMove(ctx context.Context, root, from, to string) error {
	out, err := gitx.Run(ctx, root, "ls-files", "-s", "-z", "--", from)
	if err != nil {
		return err
	}
	rec := strings.TrimRight(string(out), "\x00")
	meta, _, ok := strings.Cut(rec, "\t")
	fields := strings.Fields(meta)
	if !ok || len(fields) < 2 {
		return fmt.Errorf("%s is not in git's index", from)
	}
	mode, oid := fields[0], fields[1]
	if _, err := gitx.Run(ctx, root, "update-index", "--add", "--cacheinfo", mode+","+oid+","+to); err != nil {
		return err
	}
	_, err = gitx.Run(ctx, root, "update-index", "--force-remove", "--", from)
	return err
}
