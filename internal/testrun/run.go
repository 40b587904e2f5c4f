package testrun

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
)

// RunOptions control a run.
type RunOptions struct {
	Root string // absolute
	// Workers run batches in parallel (0: min(CPUs, 8)).
	Workers int
	// TargetTimeout bounds one target; the run's context bounds the whole.
	TargetTimeout time.Duration
	// FailFast stops the run at the first failed target: targets not
	// started are cancelled, running ones are killed. A module's Go
	// packages then run one by one instead of in one go test.
	FailFast bool
	// Progress is told of every target that ends (may be nil).
	Progress func(done, total int, r Result)
	// Durations, when set, supplies costs and records the run's durations.
	Durations *Durations
}

// Summary is the outcome of a run.
type Summary struct {
	Status     string   `json:"status"` // passed, failed (or a target errored, timed out), cancelled
	Targets    []Result `json:"targets"`
	Passed     int      `json:"passed"`
	Failed     int      `json:"failed"`
	Skipped    int      `json:"skipped"`
	DurationMS int64    `json:"duration_ms"`
	// Batches are the targets each worker ran, in order, as balanced by
	// their estimated cost.
	Batches [][]string `json:"batches"`
}

// plan balances units over workers: the most expensive first, each to the
// least loaded worker (greedy bin packing).
func plan(us []unit, workers int) [][]unit {
	if workers <= 0 {
		workers = min(runtime.NumCPU(), 8)
	}
	workers = max(1, min(workers, len(us)))
	us = append([]unit(nil), us...)
	sort.SliceStable(us, func(i, j int) bool {
		if us[i].cost != us[j].cost {
			return us[i].cost > us[j].cost
		}
		return us[i].targets[0].ID < us[j].targets[0].ID
	})
	batches := make([][]unit, workers)
	load := make([]float64, workers)
	for _, u := range us {
		best := 0
		for w := 1; w < workers; w++ {
			if load[w] < load[best] {
				best = w
			}
		}
		batches[best] = append(batches[best], u)
		load[best] += max(u.cost, 0.001)
	}
	return batches
}

// Run runs targets in cost-balanced batches and returns their results in
// target id order.
func Run(ctx context.Context, targets []Target, o RunOptions) *Summary {
	start := time.Now()
	if o.Durations != nil {
		for i := range targets {
			targets[i].Cost = o.Durations.Cost(targets[i].ID)
		}
	}
	// Fail-fast runs each Go package on its own, so that a failure can
	// stop the packages after it.
	batches := plan(units(targets, !o.FailFast), o.Workers)
	sum := &Summary{Targets: []Result{}, Batches: [][]string{}}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	var mu sync.Mutex // guards sum.Targets and done
	done := 0
	var wg sync.WaitGroup
	for _, batch := range batches {
		if len(batch) == 0 {
			continue
		}
		var ids []string
		for _, u := range batch {
			for _, t := range u.targets {
				ids = append(ids, t.ID)
			}
		}
		sum.Batches = append(sum.Batches, ids)
		wg.Add(1)
		go func(batch []unit) {
			defer wg.Done()
			for _, u := range batch {
				var rs []Result
				switch {
				case runCtx.Err() != nil:
					for _, t := range u.targets {
						rs = append(rs, Result{TargetID: t.ID, Runner: t.Runner, Status: StatusCancelled, Failures: []Failure{}, Command: t.Cmd, ExitCode: -1})
					}
				case u.targets[0].Runner == "go":
					rs = runGoModule(runCtx, u.targets, o)
				default:
					rs = []Result{runTarget(runCtx, u.targets[0], o)}
				}
				for _, r := range rs {
					if o.FailFast && (r.Status == StatusFailed || r.Status == StatusError || r.Status == StatusTimeout) {
						stop()
					}
					if o.Durations != nil && (r.Status == StatusPassed || r.Status == StatusFailed) {
						o.Durations.Record(r.TargetID, r.DurationMS)
					}
					// Progress is told under the lock, so that counts reach
					// it in order (a listener may drop a count lower than
					// one it has seen).
					mu.Lock()
					sum.Targets = append(sum.Targets, r)
					done++
					if o.Progress != nil {
						o.Progress(done, len(targets), r)
					}
					mu.Unlock()
				}
			}
		}(batch)
	}
	wg.Wait()
	sort.Slice(sum.Targets, func(i, j int) bool { return sum.Targets[i].TargetID < sum.Targets[j].TargetID })
	sum.Status = StatusPassed
	for _, r := range sum.Targets {
		sum.Passed += r.Passed
		sum.Failed += r.Failed
		sum.Skipped += r.Skipped
		switch r.Status {
		case StatusFailed, StatusError, StatusTimeout:
			sum.Status = StatusFailed
		case StatusCancelled:
			if sum.Status == StatusPassed {
				sum.Status = StatusCancelled
			}
		}
	}
	if o.Durations != nil {
		o.Durations.Save()
	}
	sum.DurationMS = time.Since(start).Milliseconds()
	return sum
}

// reportArgs are the arguments that make a runner write its machine
// report into dir, and the report's path ("" when it reports on stdout).
func reportArgs(runner, dir string) ([]string, string) {
	switch runner {
	case "pytest", "node":
		p := filepath.Join(dir, "junit.xml")
		if runner == "node" {
			return []string{"--test-reporter=junit", "--test-reporter-destination=" + p}, p
		}
		return []string{"--junitxml=" + p}, p
	case "jest":
		p := filepath.Join(dir, "report.json")
		return []string{"--json", "--outputFile=" + p}, p
	case "vitest":
		p := filepath.Join(dir, "report.json")
		return []string{"--reporter=json", "--outputFile=" + p}, p
	case "dotnet":
		p := filepath.Join(dir, "results.trx")
		return []string{"--logger", "trx;LogFileName=" + p}, p
	case "rspec":
		p := filepath.Join(dir, "report.json")
		return []string{"--format", "json", "--out", p}, p
	}
	return nil, ""
}

// withReport puts the report arguments where the runner reads them: before
// the test path for runners that take options first.
func withReport(t Target, extra []string) []string {
	if len(extra) == 0 {
		return t.Cmd
	}
	switch t.Runner {
	case "dotnet":
		return append(append([]string{}, t.Cmd...), extra...)
	}
	// options go before the last argument (the path)
	n := len(t.Cmd)
	out := append([]string{}, t.Cmd[:n-1]...)
	out = append(out, extra...)
	return append(out, t.Cmd[n-1])
}

// outputCap bounds what is kept of a command's output.
const outputCap = 32 << 20

// proc is a finished (or killed) test command.
type proc struct {
	stdout, stderr []byte
	exit           int
	duration       time.Duration
	timedOut       bool // its own deadline passed and it was killed
	startErr       string
}

// execute runs argv in dir until it ends or its deadline passes; then its
// whole process group is killed.
func execute(ctx context.Context, argv []string, dir string, timeout time.Duration) proc {
	tctx := ctx
	if timeout > 0 {
		var cancel context.CancelFunc
		tctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CI=1", "NO_COLOR=1", "FORCE_COLOR=0", "CARGO_TERM_COLOR=never", "PYTHONDONTWRITEBYTECODE=1")
	var stdout, stderr capped
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	killGroup(cmd)
	began := time.Now()
	if err := cmd.Start(); err != nil {
		msg := err.Error()
		if errors.Is(err, exec.ErrNotFound) {
			msg = "runner not found: " + argv[0] + " (install it, or set tests.runners)"
		}
		return proc{exit: -1, startErr: msg}
	}
	waitErr := make(chan error, 1)
	go func() { waitErr <- cmd.Wait() }()
	var err error
	select {
	case err = <-waitErr:
	case <-tctx.Done():
		stopGroup(cmd)
		select {
		case err = <-waitErr:
		case <-time.After(5 * time.Second): // a grandchild holding the pipes
		}
	}
	return proc{stdout: stdout.Bytes(), stderr: stderr.Bytes(), exit: exitCode(err), duration: time.Since(began),
		timedOut: tctx.Err() != nil && ctx.Err() == nil}
}

// runTarget runs one target under its deadline.
func runTarget(ctx context.Context, t Target, o RunOptions) Result {
	r := Result{TargetID: t.ID, Runner: t.Runner, Failures: []Failure{}}
	tmp, err := os.MkdirTemp("", "cairn-test-")
	if err != nil {
		r.Status, r.Output = StatusError, err.Error()
		return r
	}
	defer os.RemoveAll(tmp)
	extra, report := reportArgs(t.Runner, tmp)
	argv := withReport(t, extra)
	r.Command = argv
	p := execute(ctx, argv, filepath.Join(o.Root, filepath.FromSlash(t.Dir)), o.TargetTimeout)
	if p.startErr != "" {
		r.Status, r.ExitCode, r.Output = StatusError, -1, p.startErr
		return r
	}
	l := locator{root: filepath.ToSlash(o.Root), dir: t.Dir}
	finish(ctx, &r, p, parseOutput(t, p.stdout, p.stderr, report, l))
	return r
}

// finish fills a result from its command and what its output said.
func finish(ctx context.Context, r *Result, p proc, out outcome) {
	r.DurationMS = p.duration.Milliseconds()
	r.ExitCode = p.exit
	r.Passed, r.Failed, r.Skipped, r.Failures = out.passed, out.failed, out.skipped, out.failures
	if r.Failures == nil {
		r.Failures = []Failure{}
	}
	for i := range r.Failures {
		r.Failures[i].Fingerprint = fingerprint(r.Runner, r.Failures[i])
	}
	sortFailures(r.Failures)
	switch {
	case p.timedOut || out.timedOut:
		r.Status = StatusTimeout
	case ctx.Err() != nil:
		r.Status = StatusCancelled
	case r.Failed > 0:
		r.Status = StatusFailed
	case r.ExitCode != 0:
		r.Status = StatusError
	case !out.ran || r.Passed+r.Failed == 0:
		r.Status = StatusSkipped
	default:
		r.Status = StatusPassed
	}
	if r.Status == StatusTimeout || r.Status != StatusPassed && r.Status != StatusSkipped && len(r.Failures) == 0 {
		r.Output = tail(string(p.stdout)+string(p.stderr), 40)
	}
}

// parseOutput reads the runner's results.
func parseOutput(t Target, stdout, stderr []byte, report string, l locator) outcome {
	read := func() []byte {
		if report == "" {
			return nil
		}
		b, _ := os.ReadFile(report)
		return b
	}
	switch t.Runner {
	case "go":
		return parseGoJSON(append(stdout, stderr...), l, func(string) string { return t.Path })[t.Package]
	case "pytest", "node":
		return parseJUnit([][]byte{read()}, l)
	case "jest", "vitest":
		return parseJestJSON(read(), l)
	case "cargo":
		return parseCargo(append(stdout, stderr...), l)
	case "unittest":
		return parseUnittest(stderr, l)
	case "dotnet":
		return parseTRX(read(), l)
	case "rspec":
		return parseRSpecJSON(read(), l)
	case "maven", "gradle":
		dir := filepath.Join(l.root, filepath.FromSlash(t.Dir), "target", "surefire-reports")
		if t.Runner == "gradle" {
			dir = filepath.Join(l.root, filepath.FromSlash(t.Dir), "build", "test-results", "test")
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.xml"))
		var docs [][]byte
		for _, f := range files {
			if b, err := os.ReadFile(f); err == nil {
				docs = append(docs, b)
			}
		}
		return parseJUnit(docs, l)
	}
	return outcome{}
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"…"}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// capped is a buffer that keeps at most outputCap bytes.
type capped struct {
	mu sync.Mutex // guards buf: the process's output and Bytes may race at a kill
	bytes.Buffer
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := outputCap - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (c *capped) Bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]byte(nil), c.Buffer.Bytes()...)
}

func (c *capped) String() string { return string(c.Bytes()) }

var (
	digitsRE = regexp.MustCompile(`0x[0-9a-fA-F]+|\d+(\.\d+)?`)
	spacesRE = regexp.MustCompile(`\s+`)
)

// fingerprint hashes what identifies a failure across runs: the runner,
// the test, the file and the first line of the message with numbers
// (line numbers, addresses, timings) blanked.
func fingerprint(runner string, f Failure) string {
	msg, _, _ := strings.Cut(strings.TrimSpace(f.Message), "\n")
	msg = spacesRE.ReplaceAllString(digitsRE.ReplaceAllString(msg, "#"), " ")
	sum := sha256.Sum256([]byte(runner + "\x00" + f.Test + "\x00" + f.Path + "\x00" + msg))
	return hex.EncodeToString(sum[:6])
}
