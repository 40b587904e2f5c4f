// Package testrun finds a repository's tests and runs them: it resolves a
// runner per project (configuration, then marker files, then the language's
// default), turns tests into targets with stable ids (a Go package, a test
// file, a crate, a build module), runs targets in parallel cost-balanced
// batches under per-target and global deadlines (killing the whole process
// group of a target that overruns), and parses each runner's machine output
// (go test -json, JUnit XML, jest and vitest JSON, cargo's and unittest's
// text) into results with failure locations and fingerprints. It runs test
// commands, never a shell, and writes nothing but reports in a temporary
// directory and the duration history in the state dir.
package testrun

// Target is a unit Cairn runs on its own: a Go package, a Python or JS test
// file, a Rust crate, a Maven or Gradle module, a .NET test project, a spec
// file.
type Target struct {
	// ID is stable across runs: "<runner>:<repo path>".
	ID       string `json:"target_id"`
	Runner   string `json:"runner"`
	Language string `json:"language"`
	// Path is what the target covers: a directory or a test file.
	Path string `json:"path"`
	// Dir is where the command runs (the project root), repo-relative.
	Dir string `json:"cwd"`
	// Cmd is the command line, without the report file Cairn adds.
	Cmd []string `json:"cmd"`
	// Cost estimates the run time (seconds of the last runs, 1 if unknown);
	// batches are balanced by it.
	Cost float64 `json:"estimated_cost"`
	// ResolvedBy says how the runner was chosen: config, marker (which
	// file), or default.
	ResolvedBy string `json:"resolved_by"`
	// Available is false when the runner's program cannot be found.
	Available bool `json:"available"`
	// Files are the test files the target runs, repo-relative.
	Files []string `json:"files,omitempty"`
	// Package is a Go target's import path.
	Package string `json:"package,omitempty"`
}

// Result is the outcome of one target.
type Result struct {
	TargetID string `json:"target_id"`
	Runner   string `json:"runner"`
	// Status is passed, failed, error (the runner could not run the tests:
	// a build failure, a crash), timeout, cancelled (fail-fast stopped it)
	// or skipped (nothing ran).
	Status     string    `json:"status"`
	DurationMS int64     `json:"duration_ms"`
	Passed     int       `json:"passed"`
	Failed     int       `json:"failed"`
	Skipped    int       `json:"skipped"`
	Failures   []Failure `json:"failures"`
	// Output is the end of what the command printed, for errors and
	// timeouts (results say the rest).
	Output string `json:"output,omitempty"`
	// Command is what ran.
	Command []string `json:"command"`
	// ExitCode is the command's exit status (-1 when it was killed).
	ExitCode int `json:"exit_code"`
}

// Failure is one failed test (or a build error) with where it failed.
type Failure struct {
	Test    string `json:"test"`
	Message string `json:"message"`
	Path    string `json:"path,omitempty"` // repo-relative
	Line    int    `json:"line,omitempty"`
	// Fingerprint identifies the failure across runs: the same test failing
	// the same way has the same fingerprint even when line numbers,
	// addresses or timings in its message change.
	Fingerprint string `json:"fingerprint"`
}

// Statuses of a target.
const (
	StatusPassed    = "passed"
	StatusFailed    = "failed"
	StatusError     = "error"
	StatusTimeout   = "timeout"
	StatusCancelled = "cancelled"
	StatusSkipped   = "skipped"
)
