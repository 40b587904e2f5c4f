package config

import (
	"fmt"
	"os"
	"path/filepath"
)

// SecretPatterns are kept out of the index by default and refused by read tools.
var SecretPatterns = []string{
	".env*", "*.pem", "*.key", "id_rsa*", "*.p12", ".npmrc", ".pypirc", "credentials*.json", ".aws/", ".ssh/",
}

// DefaultIgnore is the .cairnignore that init writes.
func DefaultIgnore() string {
	s := `# .cairnignore: files Cairn must not index (gitignore syntax).
# Git-ignored files are already skipped; add what git tracks but agents should not read.

# Secrets: never indexed, refused by read tools.
`
	for _, p := range SecretPatterns {
		s += p + "\n"
	}
	s += `
# Generated and bulky files.
*.min.js
*.map
*.lock
`
	return s
}

const defaultConfig = `# Cairn configuration for this repository.
# Layers: built-in defaults < ~/.config/cairn/config.yaml < this file
#         < environment CAIRN__SECTION__KEY < command-line flags.
# Unknown keys are errors. Uncomment a line to change a default.

index:
  # Files larger than this are listed but not parsed or searched.
  # max_file_bytes: 1048576
  # Memory budget of indexing (SQLite page caches and maps, the Go heap,
  # parsed facts held for the commit), in MiB.
  # memory_mb: 1024
  # Parse workers; 0 means one per CPU.
  # workers: 0
  # Extra ignore patterns (gitignore syntax), on top of .cairnignore.
  # exclude: []
  # Content no worktree references is collected after this many hours.
  # gc_grace_hours: 168

query:
  # Default deadline of a call, in milliseconds.
  # timeout_ms: 30000
  # How long a query waits for changes seen before it arrived.
  # freshness_wait_ms: 2000
  # Answers a server keeps for read calls repeated on an unchanged
  # repository, in MiB (0 keeps none).
  # cache_mb: 64

read:
  # Let read tools return files that look like secrets (.env, *.pem, ...).
  # allow_secrets: false
  # Cap of read_file_full, in KiB.
  # full_file_cap_kib: 400
  # Whole-file content (read_file_full) one process hands out before
  # reset_budget is needed, in KiB.
  # session_budget_kib: 2048

tools:
  # Which tools MCP clients see: minimal, standard or all.
  # profile: standard
  # enable: []
  # disable: []

semantic:
  # SCIP indexes to import with "cairn index --semantic" (repo-relative or
  # absolute), e.g. from indexers Cairn does not run or built in CI.
  # scip_paths: []
  # Which installed indexers to run (default: every one that fits a module).
  # indexers: []
  # Upper bound of one indexer run, in seconds.
  # timeout_s: 1800
  # Servers re-run an imported index's indexer when files it covers change.
  # auto_refresh: false

cards:
  # Relation types spec cards (.cairn/cards) may declare.
  # relations: [depends-on, references, related, extends, conflicts]

# Set to off to make Cairn read-only.
# edits: on

task:
  # Budgets of a task opened without them (task_open).
  # max_mutations: 50
  # max_test_runs: 20
  # max_read_kib: 4096
  # max_duration_s: 3600

ledger:
  # The operation ledger (<state dir>/ledger.db) keeps this much history.
  # retention_days: 14
  # max_tasks: 500
  # max_operations: 100000

logging:
  # debug, info, warn or error.
  # level: info
  # FORMAT:DESTINATION[:LEVEL]; format console or json; destination stderr,
  # stdout, state (the JSON log that "cairn status --verbose" reads) or an
  # absolute path. Default: console on stderr and json in the state dir.
  # outputs: ["console:stderr", "json:state"]
`

// InitResult lists what init created and what it left alone.
type InitResult struct {
	Created []string
	Kept    []string
}

// Init writes .cairn/config.yaml, .cairn/.gitignore and .cairnignore into root.
// Existing files are never overwritten.
func Init(root string) (InitResult, error) {
	var res InitResult
	if err := os.MkdirAll(filepath.Join(root, ".cairn"), 0o755); err != nil {
		return res, fmt.Errorf("init: %w", err)
	}
	files := []struct{ rel, content string }{
		{".cairn/config.yaml", defaultConfig},
		{".cairn/.gitignore", "# Cairn's index, locks and logs: local, never committed.\ncache/\n"},
		{".cairnignore", DefaultIgnore()},
	}
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f.rel))
		fh, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if os.IsExist(err) {
			res.Kept = append(res.Kept, f.rel)
			continue
		}
		if err != nil {
			return res, fmt.Errorf("init: %w", err)
		}
		_, werr := fh.WriteString(f.content)
		cerr := fh.Close()
		if werr != nil || cerr != nil {
			return res, fmt.Errorf("init: write %s: %v %v", f.rel, werr, cerr)
		}
		res.Created = append(res.Created, f.rel)
	}
	return res, nil
}
