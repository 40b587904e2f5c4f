// Package doctor checks that Cairn can work in a repository: git, the index
// and its integrity, freshness against HEAD, configuration, grammars, disk
// space, the state directory and the semantic indexers the repository's
// languages would use. Every check ends pass, warn or fail with a message and,
// when it did not pass, the command that would fix it. Doctor never runs a fix:
// Script turns the report into a shell script for a person to review.
package doctor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/gitx"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
)

// Check statuses.
const (
	Pass = "pass"
	Warn = "warn"
	Fail = "fail"
)

// Check is the outcome of one check.
type Check struct {
	Name    string `json:"name"`
	Status  string `json:"status"` // pass, warn or fail
	Message string `json:"message"`
	// Fix is a shell command that would fix what did not pass ("" when no
	// single command can: Hint says what to do).
	Fix  string `json:"fix,omitempty"`
	Hint string `json:"hint,omitempty"`
}

// Report is every check, in a fixed order.
type Report struct {
	// Healthy is true when no check failed (warnings allowed).
	Healthy bool    `json:"healthy"`
	Passed  int     `json:"passed"`
	Warned  int     `json:"warned"`
	Failed  int     `json:"failed"`
	Checks  []Check `json:"checks"`
}

// Options is what the checks look at. Zero function fields use the real system.
type Options struct {
	Paths config.Paths
	// Index is the open index, nil when it could not be opened (IndexErr says why).
	Index    *index.Index
	IndexErr error
	Engine   *query.Engine
	// Languages are the registered languages whose grammars are checked.
	Languages []*lang.Language
	// SkipIntegrity skips SQLite's integrity check (it reads every page).
	SkipIntegrity bool

	LookPath   func(file string) (string, error)         // finds an executable
	FreeBytes  func(dir string) (uint64, error)          // free space of a directory's file system
	GitVer     func(ctx context.Context) (string, error) // git's version
	LoadConfig func(root string) (config.Config, error)
}

// Disk thresholds of the state directory's file system: indexing writes a few
// times the source size (trigrams, facts, WAL), so below 1 GiB a large
// repository may not fit, and below 100 MiB even small updates may fail.
const (
	diskWarnBytes = 1 << 30
	diskFailBytes = 100 << 20
)

// minGit is the oldest git Cairn is checked against (worktrees, rev-parse
// --git-common-dir, ls-files --exclude-standard behave the same since).
var minGit = [2]int{2, 20}

// Run runs every check. It never fails: what cannot be checked is a warning.
func Run(ctx context.Context, o Options) *Report {
	if o.LookPath == nil {
		o.LookPath = exec.LookPath
	}
	if o.FreeBytes == nil {
		o.FreeBytes = freeBytes
	}
	if o.GitVer == nil {
		o.GitVer = gitx.Version
	}
	if o.LoadConfig == nil {
		o.LoadConfig = config.Load
	}
	if o.Languages == nil {
		o.Languages = lang.All()
	}
	d := &run{o: o, r: &Report{Checks: []Check{}}}
	d.git(ctx)
	d.repository()
	d.index(ctx)
	d.integrity(ctx)
	d.freshness(ctx)
	d.config()
	d.grammars()
	d.stateDir()
	d.disk()
	d.indexers(ctx)
	d.semanticIndexes(ctx)
	for _, c := range d.r.Checks {
		switch c.Status {
		case Pass:
			d.r.Passed++
		case Warn:
			d.r.Warned++
		case Fail:
			d.r.Failed++
		}
	}
	d.r.Healthy = d.r.Failed == 0
	return d.r
}

type run struct {
	o     Options
	r     *Report
	state index.State // of the open index
	built bool
}

func (d *run) add(c Check) { d.r.Checks = append(d.r.Checks, c) }

// cairn is how fix commands invoke Cairn for this repository: the script
// changes into the repository first, and an explicit state dir must be named.
func (d *run) cairn(args string) string {
	if d.o.Paths.ExplicitState {
		return "cairn --state-dir " + shellQuote(d.o.Paths.StateDir) + " " + args
	}
	return "cairn " + args
}

func (d *run) git(ctx context.Context) {
	v, err := d.o.GitVer(ctx)
	switch {
	case errors.Is(err, gitx.ErrNoGit):
		d.add(Check{Name: "git", Status: Warn, Message: "git is not installed: HEAD tracking, the dirty flag and git tools are off",
			Hint: "install git with your package manager (https://git-scm.com/downloads)"})
	case err != nil:
		d.add(Check{Name: "git", Status: Warn, Message: "cannot run git: " + err.Error(), Hint: "check that git on PATH works: git --version"})
	case !atLeast(v, minGit):
		d.add(Check{Name: "git", Status: Warn, Message: fmt.Sprintf("git %s is older than %d.%d; some repository state may be misread", v, minGit[0], minGit[1]),
			Hint: "upgrade git with your package manager"})
	default:
		d.add(Check{Name: "git", Status: Pass, Message: "git " + v})
	}
}

// atLeast compares a version like "2.39.5" or "2.39.3.windows.1" with major.minor.
func atLeast(v string, want [2]int) bool {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return false
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return false
	}
	return major > want[0] || major == want[0] && minor >= want[1]
}

func (d *run) repository() {
	p := d.o.Paths
	if p.IsGit {
		d.add(Check{Name: "repository", Status: Pass, Message: "git worktree at " + p.Root})
		return
	}
	msg := p.Root + " is not a git repository: freshness comes from file hashes alone, HEAD and dirty state are unknown"
	if _, err := os.Stat(filepath.Join(p.Root, ".git")); err == nil {
		msg = p.Root + " has a .git entry that git does not accept (or git is missing): it is indexed as a plain directory"
		d.add(Check{Name: "repository", Status: Warn, Message: msg, Hint: "run git status in the repository to see what git reports"})
		return
	}
	d.add(Check{Name: "repository", Status: Warn, Message: msg, Fix: "git init"})
}

func (d *run) index(ctx context.Context) {
	ix := d.o.Index
	if ix == nil {
		msg := "the index cannot be opened"
		if d.o.IndexErr != nil {
			msg += ": " + d.o.IndexErr.Error()
		}
		d.add(Check{Name: "index", Status: Fail, Message: msg, Fix: d.removeIndex(true, true) + " && " + d.cairn("index"),
			Hint: "no other Cairn process may be running for this repository while the files are removed"})
		return
	}
	st, err := ix.State(ctx)
	if err != nil {
		d.add(Check{Name: "index", Status: Fail, Message: "cannot read the index: " + err.Error(), Fix: d.cairn("index --full")})
		return
	}
	d.state, d.built = st, st.Built
	owner := "owned by this process"
	if !ix.Writable() {
		owner = fmt.Sprintf("owned by process %d", ix.Owner())
	}
	if !st.Built {
		d.add(Check{Name: "index", Status: Warn, Message: "the index has not been built yet (" + owner + ")", Fix: d.cairn("index")})
		return
	}
	d.add(Check{Name: "index", Status: Pass, Message: fmt.Sprintf("built, epoch %d, %d files, %s", st.Epoch, st.Files, owner)})
}

// removeIndex is the command that deletes the damaged database files.
func (d *run) removeIndex(worktree, blobs bool) string {
	var files []string
	p := d.o.Paths
	for _, db := range []struct {
		on   bool
		path string
	}{{worktree, p.IndexPath}, {blobs, p.BlobPath}} {
		if !db.on {
			continue
		}
		for _, suffix := range []string{"", "-wal", "-shm"} {
			files = append(files, shellQuote(db.path+suffix))
		}
	}
	return "rm -f " + strings.Join(files, " ")
}

func (d *run) integrity(ctx context.Context) {
	switch {
	case d.o.Index == nil:
		d.add(Check{Name: "index-integrity", Status: Warn, Message: "not checked: the index cannot be opened"})
		return
	case d.o.SkipIntegrity:
		d.add(Check{Name: "index-integrity", Status: Pass, Message: "skipped"})
		return
	}
	err := d.o.Index.IntegrityCheck(ctx)
	if err == nil {
		d.add(Check{Name: "index-integrity", Status: Pass, Message: "SQLite integrity check ok (index and blob store)"})
		return
	}
	if ctx.Err() != nil {
		d.add(Check{Name: "index-integrity", Status: Warn, Message: "not finished before the deadline: " + err.Error(),
			Hint: "run doctor with a larger --timeout"})
		return
	}
	blobs := strings.Contains(err.Error(), "integrity check blobs")
	d.add(Check{Name: "index-integrity", Status: Fail, Message: "the index is damaged: " + err.Error(),
		Fix:  d.removeIndex(!blobs, blobs) + " && " + d.cairn("index"),
		Hint: "the index is disposable: removing it and indexing again loses nothing; stop other Cairn processes of this repository first"})
}

func (d *run) freshness(ctx context.Context) {
	p := d.o.Paths
	switch {
	case d.o.Index == nil || !d.built:
		d.add(Check{Name: "index-head", Status: Pass, Message: "skipped: no built index"})
		return
	case !p.IsGit:
		d.add(Check{Name: "index-head", Status: Pass, Message: "skipped: not a git repository"})
		return
	}
	head, branch := gitx.Head(ctx, p.Root)
	dirty := "clean"
	if d.state.Dirty {
		dirty = "with uncommitted changes (indexed)"
	}
	switch {
	case head == "" && d.state.Head == "":
		d.add(Check{Name: "index-head", Status: Pass, Message: "no commits yet; the working tree is indexed"})
	case head == d.state.Head:
		on := ""
		if branch != "" {
			on = " on " + branch
		}
		d.add(Check{Name: "index-head", Status: Pass, Message: fmt.Sprintf("index matches HEAD %s%s, working tree %s", gitx.Short(head), on, dirty)})
	default:
		d.add(Check{Name: "index-head", Status: Warn,
			Message: fmt.Sprintf("the index was built at %s but HEAD is now %s; the next query reindexes the changed files", orNone(gitx.Short(d.state.Head)), orNone(gitx.Short(head))),
			Fix:     d.cairn("index")})
	}
}

func orNone(s string) string {
	if s == "" {
		return "(no commit)"
	}
	return s
}

func (d *run) config() {
	p := d.o.Paths
	_, err := d.o.LoadConfig(p.Root)
	if err == nil {
		d.add(Check{Name: "config", Status: Pass, Message: "configuration valid"})
		return
	}
	c := Check{Name: "config", Status: Fail, Message: err.Error()}
	msg := err.Error()
	repoFile := filepath.Join(p.Root, ".cairn", "config.yaml")
	switch {
	case strings.Contains(msg, "config: environment "):
		name := strings.Fields(strings.SplitN(msg, "config: environment ", 2)[1])[0]
		name = strings.TrimSuffix(name, ":")
		c.Fix = "unset " + name
		c.Hint = "or give " + name + " a valid value"
	case strings.Contains(msg, repoFile):
		c.Fix = "${EDITOR:-vi} " + shellQuote(repoFile)
		c.Hint = "correct the key or value named in the message; unknown keys are errors"
	default:
		if dir, err := os.UserConfigDir(); err == nil && strings.Contains(msg, filepath.Join(dir, "cairn")) {
			c.Fix = "${EDITOR:-vi} " + shellQuote(filepath.Join(dir, "cairn", "config.yaml"))
		}
		c.Hint = "correct the value named in the message (files: .cairn/config.yaml, ~/.config/cairn/config.yaml; environment CAIRN__SECTION__KEY)"
	}
	d.add(c)
}

func (d *run) grammars() {
	var bad, good []string
	for _, l := range d.o.Languages {
		if err := lang.Check(l); err != nil {
			bad = append(bad, err.Error())
			continue
		}
		good = append(good, l.Name)
	}
	switch {
	case len(d.o.Languages) == 0:
		d.add(Check{Name: "grammars", Status: Fail, Message: "no languages are registered: this binary was built without them",
			Fix: "CGO_ENABLED=1 go install github.com/cairnhq/cairn/cmd/cairn@latest"})
	case len(bad) > 0:
		d.add(Check{Name: "grammars", Status: Fail, Message: strings.Join(bad, "; "),
			Fix:  "CGO_ENABLED=1 go install github.com/cairnhq/cairn/cmd/cairn@latest",
			Hint: "a grammar or query that does not compile is a bug in this build; reinstall, and report it if it persists"})
	default:
		d.add(Check{Name: "grammars", Status: Pass, Message: fmt.Sprintf("%d languages compile: %s", len(good), strings.Join(good, ", "))})
	}
}

func (d *run) stateDir() {
	dir := d.o.Paths.StateDir
	f, err := os.CreateTemp(dir, ".doctor-*")
	if err != nil {
		d.add(Check{Name: "state-dir", Status: Fail, Message: "cannot write to the state directory " + dir + ": " + err.Error(),
			Fix:  "chmod u+w " + shellQuote(dir),
			Hint: "or put the state elsewhere with --state-dir DIR (env CAIRN__STATE_DIR)"})
		return
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	d.add(Check{Name: "state-dir", Status: Pass, Message: "writable: " + dir})
}

func (d *run) disk() {
	dir := d.o.Paths.StateDir
	free, err := d.o.FreeBytes(dir)
	switch {
	case errors.Is(err, errUnsupported):
		d.add(Check{Name: "disk-space", Status: Pass, Message: "not measured on " + runtime.GOOS})
		return
	case err != nil:
		d.add(Check{Name: "disk-space", Status: Warn, Message: "cannot measure free space of " + dir + ": " + err.Error()})
		return
	}
	msg := fmt.Sprintf("%s free on the state directory's file system (%s)", human(free), dir)
	hint := "free space on that disk, or move the state with --state-dir DIR (env CAIRN__STATE_DIR)"
	switch {
	case free < diskFailBytes:
		d.add(Check{Name: "disk-space", Status: Fail, Message: msg + "; below 100 MiB indexing may fail", Fix: "df -h " + shellQuote(dir), Hint: hint})
	case free < diskWarnBytes:
		d.add(Check{Name: "disk-space", Status: Warn, Message: msg + "; below 1 GiB a large index may not fit", Fix: "df -h " + shellQuote(dir), Hint: hint})
	default:
		d.add(Check{Name: "disk-space", Status: Pass, Message: msg})
	}
}

var errUnsupported = errors.New("not supported on this platform")

// human formats a byte count with a binary unit.
func human(n uint64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := uint64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// shellQuote quotes s for sh: single quotes, with embedded ones spliced in.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:@+,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
