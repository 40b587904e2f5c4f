package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lockfile"
	"github.com/cairnhq/cairn/internal/protocol"
)

// holdState takes the writer lock of a state dir, so nothing is removed
// under a running Cairn process (a server, or a command in flight).
func holdState(paths config.Paths) (*lockfile.Lock, error) {
	l, owner, err := lockfile.TryLock(filepath.Join(paths.StateDir, "owner.lock"))
	if errors.Is(err, lockfile.ErrLocked) {
		return nil, &errs.Error{Kind: errs.Conflict, Msg: fmt.Sprintf("Cairn process %d is using %s", owner, paths.StateDir),
			Details: map[string]any{"pid": owner}, Fixes: []string{"stop it (Ctrl+C in its terminal), then run this again"}}
	}
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "lock %s", paths.StateDir)
	}
	return l, nil
}

// removeAll removes paths that exist and returns those it removed.
func removeAll(paths ...string) ([]string, error) {
	var removed []string
	for _, p := range paths {
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		if err := os.RemoveAll(p); err != nil {
			return removed, errs.Wrap(errs.Internal, err, "remove %s", p)
		}
		removed = append(removed, p)
	}
	return removed, nil
}

func dbFiles(path string) []string { return []string{path, path + "-wal", path + "-shm"} }

// removeHeld removes, under the writer lock of the state dir, the paths
// that list names once the lock is held, and returns those it removed.
func removeHeld(paths config.Paths, list func() []string) ([]string, error) {
	l, err := holdState(paths)
	if err != nil {
		return nil, err
	}
	defer l.Unlock()
	return removeAll(list()...)
}

func clearCmd(g *globals) *cobra.Command {
	var all bool
	cmd := &cobra.Command{
		Use:   "clear",
		Short: "Remove Cairn's state for this repository (index, ledger, logs, token)",
		Long: `clear removes the state dir of the repository: the index, the operation
ledger, the logs, the server token. The next command builds a new index.
--all also removes what init wrote into the tree (.cairn/ with its
config.yaml and cards, and .cairnignore) and the blob store shared by the
repository's worktrees. A running Cairn process keeps its state: clear
refuses (exit 7) until it stops.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			paths, err := g.locateOnly(cmd.Context())
			if err != nil {
				return finish(g, errorEnvelope(err), nil)
			}
			removed, err := clearState(paths, all)
			if err != nil {
				return finish(g, errorEnvelope(err), nil)
			}
			env := adminEnvelope(fmt.Sprintf("removed %d paths of Cairn's state for %s", len(removed), paths.Root),
				map[string]any{"repo": paths.Root, "removed": nonNil(removed)})
			return finish(g, env, printRemoved)
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "also remove .cairn/, .cairnignore and the shared blob store")
	return cmd
}

func clearState(paths config.Paths, all bool) ([]string, error) {
	removed, err := removeHeld(paths, func() []string {
		targets := []string{}
		if entries, err := os.ReadDir(paths.StateDir); err == nil {
			for _, e := range entries {
				if e.Name() != "owner.lock" {
					targets = append(targets, filepath.Join(paths.StateDir, e.Name()))
				}
			}
		}
		if all {
			targets = append(targets, dbFiles(paths.BlobPath)...)
		}
		return targets
	})
	if err != nil {
		return removed, err
	}
	if all {
		more, err := removeAll(filepath.Join(paths.Root, ".cairn"), filepath.Join(paths.Root, ".cairnignore"))
		removed = append(removed, more...)
		if err != nil {
			return removed, err
		}
	} else if !paths.ExplicitState {
		os.Remove(filepath.Join(paths.StateDir, "owner.lock"))
		os.Remove(paths.StateDir)
	}
	return removed, nil
}

func printRemoved(w io.Writer, env *protocol.Envelope) {
	fmt.Fprintln(w, env.Answer)
	if d, ok := env.Data.(map[string]any); ok {
		for _, p := range d["removed"].([]string) {
			fmt.Fprintln(w, "  removed "+p)
		}
	}
}

func cacheCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "cache", Short: "Warm or clear the index (the disposable part of Cairn's state)"}
	cmd.AddCommand(&cobra.Command{
		Use:   "warm",
		Short: "Bring the index up to date and read it into the page cache, so the first query is fast",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			env := call(cmd, g, g.open, "index_ensure", map[string]any{})
			if env.Error == nil {
				a, err := g.locateOnly(cmd.Context())
				if err == nil {
					n := warmFiles(dbFiles(a.IndexPath)[0], a.BlobPath)
					env.Answer += fmt.Sprintf("; read %d MiB of index into the page cache", n>>20)
				}
			}
			return finish(g, env, printAnswer)
		},
	})
	var blobs bool
	clear := &cobra.Command{
		Use:   "clear",
		Short: "Remove the index (the next command rebuilds it); the ledger, logs and token stay",
		Long: `cache clear removes this worktree's index database. --blobs also removes the
content-addressed blob store, which the repository's other worktrees share.
A running Cairn process keeps its index: cache clear refuses (exit 7) until it
stops.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			paths, err := g.locateOnly(cmd.Context())
			if err != nil {
				return finish(g, errorEnvelope(err), nil)
			}
			removed, err := removeHeld(paths, func() []string {
				targets := dbFiles(paths.IndexPath)
				if blobs {
					targets = append(targets, dbFiles(paths.BlobPath)...)
				}
				return targets
			})
			if err != nil {
				return finish(g, errorEnvelope(err), nil)
			}
			env := adminEnvelope(fmt.Sprintf("removed %d index files", len(removed)), map[string]any{"repo": paths.Root, "removed": nonNil(removed)})
			return finish(g, env, printRemoved)
		},
	}
	clear.Flags().BoolVar(&blobs, "blobs", false, "also remove the blob store shared by the repository's worktrees")
	cmd.AddCommand(clear, cacheGCCmd(g))
	return cmd
}

func cacheGCCmd(g *globals) *cobra.Command {
	var grace time.Duration
	cmd := &cobra.Command{
		Use:   "gc",
		Short: "Collect the blob store shared by the repository's worktrees: forget removed worktrees, drop unused blobs",
		Long: `cache gc removes the index state of worktrees that git no longer lists (or
whose directory or index is gone), then the blobs of the shared store that
no remaining worktree references and that none used within --grace (default
index.gc_grace_hours), and gives the space back to the system. A worktree
held by a running Cairn process is left alone. A pass also runs once a day
during indexing, without giving the space back.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			a, err := g.open(cmd.Context())
			if err != nil {
				return finish(g, errorEnvelope(err), nil)
			}
			defer a.svc.Close()
			if !cmd.Flags().Changed("grace") {
				grace = time.Duration(a.svc.Config().Index.GCGraceHours) * time.Hour
			}
			rep, err := a.svc.CollectGarbage(cmd.Context(), grace)
			if err != nil {
				return finish(g, errorEnvelope(err), nil)
			}
			env := adminEnvelope(fmt.Sprintf("forgot %d worktrees, removed %d blobs (%d kept); blob store %s -> %s",
				len(rep.Forgotten), rep.BlobsRemoved, rep.BlobsKept, mib(rep.BytesBefore), mib(rep.BytesAfter)), rep)
			return finish(g, env, func(w io.Writer, e *protocol.Envelope) {
				fmt.Fprintln(w, e.Answer)
				for _, f := range rep.Forgotten {
					fmt.Fprintf(w, "  forgot %s: %s\n", f.Root, f.Reason)
				}
				for _, s := range rep.Skipped {
					fmt.Fprintf(w, "  kept %s: a running Cairn process holds it\n", s)
				}
			})
		},
	}
	cmd.Flags().DurationVar(&grace, "grace", 0, "keep unreferenced blobs used within this long (e.g. 0s, 24h)")
	return cmd
}

// warmFiles reads files through once and returns the bytes read.
func warmFiles(paths ...string) int64 {
	var n int64
	buf := make([]byte, 1<<20)
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		for {
			k, err := f.Read(buf)
			n += int64(k)
			if err != nil {
				break
			}
		}
		f.Close()
	}
	return n
}
