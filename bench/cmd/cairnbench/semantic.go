package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/cairnhq/cairn/internal/semantic"
)

// semanticImport indexes a corpus, then imports a SCIP file into it and
// prints the import's statistics with its wall time.
func semanticImport(ctx context.Context, repo, state, scipPath string) error {
	ix, err := openCurrent(ctx, repo, state)
	if err != nil {
		return err
	}
	defer ix.Close()
	t := time.Now()
	st, err := semantic.Import(ctx, ix, semantic.ImportOptions{Path: scipPath, Key: "scip:" + scipPath, Source: scipPath})
	if err != nil {
		return err
	}
	wall := time.Since(t)
	fmt.Fprintf(os.Stderr, "import: %s\n", wall)
	return json.NewEncoder(os.Stdout).Encode(map[string]any{"wall_ms": wall.Milliseconds(), "stats": st})
}
