package service

import (
	"context"
	"time"
)

// idleTick is how often a server looks whether work stopped: a tick with no
// read begun and no reconcile finished after one that had some is the end
// of a burst.
const idleTick = time.Second

// trimWhenIdle gives memory back when the calls and reconciles stop
// (index.Index.Trim): the page caches of a burst's reads and the Go heap's
// free memory. A long-running server then keeps resident what it holds
// between bursts, not the high-water mark of the busiest one or of its last
// safety scan. Once per burst: an idle server does nothing.
func (s *Service) trimWhenIdle(ctx context.Context) {
	t := time.NewTicker(idleTick)
	defer t.Stop()
	last := s.ix.Work()
	trimmed := last
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		n := s.ix.Work()
		if n == last && n != trimmed && s.ix.Trim(ctx) {
			trimmed = n
			s.trims.Add(1)
		}
		last = n
	}
}
