package service

import (
	"context"
	"time"

	"github.com/cairnhq/cairn/internal/index"
)

// CollectGarbage collects the blob store the repository's worktrees share:
// the state of worktrees that no longer exist goes, then the blobs nothing
// references (see index.Index.CollectGarbage). The process must own the index.
func (s *Service) CollectGarbage(ctx context.Context, grace time.Duration) (*index.GCReport, error) {
	return s.ix.CollectGarbage(ctx, grace)
}
