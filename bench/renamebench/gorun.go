package renamebench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Config describes one corpus run.
type Config struct {
	Corpus string // name in the report: gin, client-go, rxjs
	Work   *Work
	Cairn  string // the cairn binary
	State  string // directory for Cairn's state dirs (one per layer)
	// SCIP is the SCIP index imported as the semantic layer (built with
	// the corpus's indexer when missing).
	SCIP    string
	Indexer []string // the SCIP indexer's command line, writing to SCIP
	Oracle  OracleOptions
	N       int    // symbols per stratum
	Seed    uint64 // sample seed
	Out     string // JSON result
	// BuildAll builds every package after a Go rename (go build ./...),
	// not only those the edits touch.
	BuildAll bool
	// Rerun measures again only the symbols of the result in Out whose
	// applied rename broke the build or differed from the oracle's, and
	// replaces their outcomes there.
	Rerun bool
	Log   func(string, ...any)
}

// Result is a corpus run's output.
type Result struct {
	Corpus   string           `json:"corpus"`
	Lang     string           `json:"lang"`
	Seed     uint64           `json:"seed"`
	PerKind  int              `json:"per_stratum"`
	Symbols  []Symbol         `json:"symbols"`
	Outcomes []Outcome        `json:"outcomes"`
	TimingMS map[string]int64 `json:"timing_ms"`
	Moves    []MoveOutcome    `json:"moves,omitempty"`
	Scale    []ScaleResult    `json:"scale,omitempty"`
}

// sessions indexes the work copy twice (syntax only, and with the SCIP
// index imported) and starts a Cairn server on each index.
func (c *Config) sessions(ctx context.Context, res *Result) ([]Session, func(), error) {
	if _, err := os.Stat(c.SCIP); err != nil {
		if err := c.buildSCIP(ctx, res); err != nil {
			return nil, nil, err
		}
	}
	var out []Session
	stop := func() {
		for _, s := range out {
			s.C.Close()
		}
	}
	for _, layer := range []string{"semantic", "syntactic"} {
		st := filepath.Join(c.State, c.Corpus+"-"+layer)
		os.RemoveAll(st)
		cr := &Cairn{Bin: c.Cairn, Repo: c.Work.Dir, State: st, Env: c.Work.Env}
		t := time.Now()
		if err := cr.CLI(ctx, "index"); err != nil {
			stop()
			return nil, nil, err
		}
		res.TimingMS["cairn_index_"+layer] = time.Since(t).Milliseconds()
		if layer == "semantic" {
			if err := c.importSCIP(ctx, cr, res); err != nil {
				stop()
				return nil, nil, err
			}
		}
		if err := cr.Start(ctx); err != nil {
			stop()
			return nil, nil, err
		}
		out = append(out, Session{Layer: layer, C: cr})
	}
	return out, stop, nil
}

// buildSCIP runs the SCIP indexer on the work copy as HEAD has it.
func (c *Config) buildSCIP(ctx context.Context, res *Result) error {
	if len(c.Indexer) == 0 {
		return fmt.Errorf("no indexer to build %s with", c.SCIP)
	}
	if err := c.Work.Restore(ctx); err != nil {
		return err
	}
	t := time.Now()
	cmd := exec.CommandContext(ctx, c.Indexer[0], c.Indexer[1:]...)
	cmd.Dir, cmd.Env, cmd.Stderr = c.Work.Dir, c.Work.Env, os.Stderr
	if out, err := cmd.Output(); err != nil {
		return fmt.Errorf("%v: %w\n%s", c.Indexer, err, out)
	}
	res.TimingMS["scip_indexer"] += time.Since(t).Milliseconds()
	return nil
}

// importSCIP imports the SCIP index into the semantic session's index and
// checks that it covers the work copy: a SCIP index built from another
// state of the files (or older than them) leaves those files to syntactic
// facts, and the bench would then measure the syntactic layer under the
// semantic layer's name. The index is rebuilt once when it does not cover
// the work copy; still not covering it is an error.
func (c *Config) importSCIP(ctx context.Context, cr *Cairn, res *Result) error {
	for attempt := 0; ; attempt++ {
		t := time.Now()
		if err := cr.CLI(ctx, "index", "--scip", c.SCIP); err != nil {
			return err
		}
		res.TimingMS["cairn_scip_import"] = time.Since(t).Milliseconds()
		env, err := cr.CLIEnvelope(ctx, "status")
		if err != nil {
			return err
		}
		stale, err := SemanticStale(env)
		if err != nil {
			return err
		}
		if stale == "" {
			return nil
		}
		if attempt > 0 {
			return fmt.Errorf("semantic layer of %s does not cover the work copy after rebuilding %s: %s", c.Corpus, c.SCIP, stale)
		}
		c.Log("%s: %s does not cover the work copy (%s): rebuilding it", c.Corpus, c.SCIP, stale)
		if err := c.buildSCIP(ctx, res); err != nil {
			return err
		}
	}
}

// SemanticStale says how the imported SCIP indexes of a status answer fail
// to cover the work copy ("" when they cover it): files changed since the
// index, files it names that are gone, no index at all.
func SemanticStale(env *Envelope) (string, error) {
	var st struct {
		Semantic struct {
			Indexes []struct {
				Key     string `json:"key"`
				Usable  int    `json:"usable_files"`
				Changed int    `json:"changed_files"`
				Missing int    `json:"missing_files"`
			} `json:"indexes"`
		} `json:"semantic"`
	}
	if env.Error != nil {
		return "", fmt.Errorf("status: %s", env.Error.Message)
	}
	if err := json.Unmarshal(env.Data, &st); err != nil {
		return "", fmt.Errorf("status: %w", err)
	}
	if len(st.Semantic.Indexes) == 0 {
		return "no semantic index imported", nil
	}
	var why []string
	for _, ix := range st.Semantic.Indexes {
		if ix.Changed > 0 || ix.Missing > 0 || ix.Usable == 0 {
			why = append(why, fmt.Sprintf("%s: %d usable, %d changed since, %d missing", ix.Key, ix.Usable, ix.Changed, ix.Missing))
		}
	}
	return strings.Join(why, "; "), nil
}

// RunGo measures Go renames on one module.
func RunGo(ctx context.Context, c Config) (*Result, error) {
	res := &Result{Corpus: c.Corpus, Lang: "go", Seed: c.Seed, PerKind: c.N, TimingMS: map[string]int64{}}
	if err := c.Work.Restore(ctx); err != nil {
		return nil, err
	}
	byKind, err := GoSymbols(c.Work.Dir, c.Work.Env)
	if err != nil {
		return nil, err
	}
	res.Symbols = Draw(byKind, GoStrata, c.N, c.Seed, c.Corpus, "Rb")
	c.Log("%s: %d symbols drawn", c.Corpus, len(res.Symbols))
	if c.Rerun {
		return c.rerun(ctx, res)
	}
	return c.renames(ctx, res, c.goCheck, c.Out)
}

// goCheck builds and vets the packages of the changed files.
func (c *Config) goCheck(ctx context.Context, changed []string) Check {
	pkgs := c.Work.GoPackages(changed)
	build := pkgs
	if c.BuildAll {
		build = []string{"./..."}
	}
	return c.Work.GoCheck(ctx, build, pkgs)
}

// rerun measures again the symbols of the result in c.Out whose applied
// rename broke the build or differed from the oracle's, in both layers,
// and writes the result with their new outcomes.
func (c *Config) rerun(ctx context.Context, drawn *Result) (*Result, error) {
	b, err := os.ReadFile(c.Out)
	if err != nil {
		return nil, err
	}
	var res Result
	if err := json.Unmarshal(b, &res); err != nil {
		return nil, err
	}
	if fmt.Sprint(res.Symbols) != fmt.Sprint(drawn.Symbols) {
		return nil, fmt.Errorf("%s holds another draw of symbols than this run's", c.Out)
	}
	again := map[string]bool{}
	var syms []Symbol
	for _, o := range res.Outcomes {
		if o.Status == "applied" && ((o.Build != nil && !o.Build.OK) || o.WrongDiff()) && !again[key(o.Symbol)] {
			again[key(o.Symbol)] = true
			syms = append(syms, o.Symbol)
		}
	}
	c.Log("%s: measuring %d symbols again", c.Corpus, len(syms))
	if len(syms) == 0 {
		return &res, nil
	}
	sub := &Result{Corpus: res.Corpus, Lang: res.Lang, Seed: res.Seed, PerKind: res.PerKind, Symbols: syms, TimingMS: map[string]int64{}}
	if _, err := c.renames(ctx, sub, c.goCheck, c.Out+".rerun.json"); err != nil {
		return nil, err
	}
	var kept []Outcome
	for _, o := range res.Outcomes {
		if !again[key(o.Symbol)] {
			kept = append(kept, o)
		}
	}
	res.Outcomes = append(kept, sub.Outcomes...)
	return &res, write(c.Out, &res)
}

// renames asks the oracle for the drawn symbols' renames, indexes the work
// copy in both layers and measures every rename, writing the result to out
// after each symbol.
func (c *Config) renames(ctx context.Context, res *Result, check func(context.Context, []string) Check, out string) (*Result, error) {
	t := time.Now()
	oracle, err := OracleRenames(ctx, c.Work, res.Symbols, c.Out+".oracle.json", c.Oracle)
	if err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	res.TimingMS["oracle"] = time.Since(t).Milliseconds()
	sessions, stop, err := c.sessions(ctx, res)
	if err != nil {
		return nil, err
	}
	defer stop()
	run := &RenameRun{Lang: res.Lang, Work: c.Work, Sessions: sessions, Oracle: oracle, Log: c.Log, Check: check}
	run.Progress = func(o []Outcome) { res.Outcomes = o; write(out, res) }
	t = time.Now()
	res.Outcomes, err = run.RunAll(ctx, res.Symbols)
	res.TimingMS["renames"] = time.Since(t).Milliseconds()
	if werr := write(out, res); werr != nil && err == nil {
		err = werr
	}
	return res, err
}

func write(p string, v any) error {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(p, b, 0o644)
}
