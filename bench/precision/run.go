package precision

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/semantic"
)

// Config describes one corpus run.
type Config struct {
	Name  string // corpus name, e.g. go_med
	Lang  string // go, ts, py
	Repo  string // the corpus (a writable copy)
	State string // Cairn's state dir for it
	// OracleSCIP is the SCIP index the sample is drawn from (a sampled
	// symbol is a Cairn definition the index defines at the same position).
	OracleSCIP string
	// SemanticSCIP is the index Cairn imports as its semantic layer.
	SemanticSCIP string
	// Primary is the oracle the syntactic tiers are scored against on the
	// whole sample: scip or lsp.
	Primary string
	LSP     []string // the language server's argv
	LSPLang string   // languageId for didOpen
	LSPWait string   // progress, log:<text>, or "" (ready after initialize)
	LSPOpen bool     // open the file before asking (servers that answer only for open files)
	LSPN    int      // how many sampled symbols to ask the language server (0: all)
	N       int      // sample size
	// CallN is the call-edge sample size (functions and methods); 0 skips
	// the call-edge part.
	CallN int
	// CallsOnly runs the call-edge part alone and keeps the rest of an
	// earlier result in Out (references, language server).
	CallsOnly bool
	Out       string // where the JSON result goes
	Log       func(format string, args ...any)
}

// Sampled is one sampled symbol.
type Sampled struct {
	ID     int64  `json:"-"`
	QName  string `json:"qname"`
	Kind   string `json:"kind"`
	Def    Loc    `json:"-"`
	DefAt  string `json:"def"`
	Symbol string `json:"scip_symbol"`
}

// Result is what a corpus run writes.
type Result struct {
	Name      string                `json:"name"`
	Lang      string                `json:"lang"`
	Oracle    string                `json:"oracle"`
	LSP       string                `json:"lsp"`
	Primary   string                `json:"primary"`
	Sample    int                   `json:"sample"`
	LSPSample int                   `json:"lsp_sample"`
	LSPFailed int                   `json:"lsp_failed"`
	Import    *semantic.ImportStats `json:"import"`
	ImportMS  int64                 `json:"import_wall_ms"`
	TimingMS  map[string]int64      `json:"timing_ms"`
	Tallies   map[string]*Tally     `json:"tallies"` // system@oracle
	Symbols   []Sampled             `json:"symbols"`
	Notes     []string              `json:"notes"`
	Calls     *CallResult           `json:"calls,omitempty"`
}

// Run scores one corpus.
func Run(ctx context.Context, c Config) (*Result, error) {
	logf := c.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	res := &Result{Name: c.Name, Lang: c.Lang, Primary: c.Primary, TimingMS: map[string]int64{}, Tallies: map[string]*Tally{}, Notes: []string{}}
	files := NewFiles(c.Repo)
	paths, err := config.Locate(ctx, c.Repo, c.State)
	if err != nil {
		return nil, err
	}
	ix, err := index.Open(ctx, paths, config.Default())
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	t := time.Now()
	if _, err := ix.Reconcile(ctx, index.ReconcileOptions{}); err != nil {
		return nil, err
	}
	res.TimingMS["cairn_index"] = time.Since(t).Milliseconds()
	base := query.New(ix)
	// Start from the syntactic layer only: drop any semantic index of an earlier run.
	db, release := ix.Acquire()
	for _, x := range mustIndexes(ctx, ix) {
		db.DeleteSemantic(ctx, x)
	}
	release()
	oracle, err := LoadSCIP(c.OracleSCIP, files, "")
	if err != nil {
		return nil, err
	}
	res.Oracle = oracle.Tool
	sample, err := Sample(ctx, ix, oracle, c.N)
	if err != nil {
		return nil, err
	}
	if len(sample) == 0 {
		return nil, fmt.Errorf("%s: no Cairn definition matches a definition of %s (Cairn indexed %s as the repository root)", c.Name, c.OracleSCIP, paths.Root)
	}
	res.Sample = len(sample)
	res.Symbols = sample
	logf("%s: sampled %d symbols", c.Name, len(sample))

	// answers asks Cairn for every sampled symbol's references. own leaves
	// out the locations reached through related symbols (via), which the
	// symbol's own SCIP occurrences do not list.
	var own []Answer
	answers := func(layer string) ([]Answer, time.Duration, error) {
		out := make([]Answer, len(sample))
		own = make([]Answer, len(sample))
		eng, release, err := base.Snapshot(ctx)
		if err != nil {
			return nil, 0, err
		}
		defer release()
		start := time.Now()
		for i, s := range sample {
			r, err := eng.ResolveID(ctx, protocol.NewSymbolID(s.ID))
			if err != nil {
				return nil, 0, fmt.Errorf("resolve %s: %w", s.QName, err)
			}
			rr, err := eng.Refs(ctx, r, query.RefsParams{Layer: layer, Anchored: true, Limit: 1 << 30})
			if err != nil {
				return nil, 0, err
			}
			a, o := Answer{}, Answer{}
			for _, l := range rr.Locations {
				k := Loc{Path: string(l.Path), Line: l.Line, Col: l.Col}
				if old, ok := a[k]; !ok || rank(l.Tier) < rank(old) {
					a[k] = l.Tier
					if l.Via == "" {
						o[k] = l.Tier
					}
				}
			}
			out[i], own[i] = a, o
		}
		return out, time.Since(start), nil
	}
	var syn []Answer
	if !c.CallsOnly {
		var d time.Duration
		if syn, d, err = answers(query.LayerSyntactic); err != nil {
			return nil, err
		}
		res.TimingMS["cairn_refs_syntactic"] = d.Milliseconds()
	}

	// Call edges: a sample of the functions and methods among a wider draw.
	var calls *CallResult
	var truths []callTruth
	if c.CallN > 0 {
		all, err := Sample(ctx, ix, oracle, 1<<30)
		if err != nil {
			return nil, err
		}
		calls = &CallResult{Tallies: map[string]*Tally{}, Dispatch: map[string]*DispatchCheck{}, TimingMS: map[string]int64{}, Symbols: callSample(all, c.CallN)}
		calls.Stats.Outside = map[string]int{}
		defs, err := newDefinitions(ctx, ix)
		if err != nil {
			return nil, err
		}
		truths = callTruths(oracle, files, defs, calls.Symbols, &calls.Stats)
		if err := scoreCalls(ctx, base, calls, query.LayerSyntactic, oracle, truths, files); err != nil {
			return nil, err
		}
		logf("%s: scored the callers of %d functions and methods (syntactic)", c.Name, len(calls.Symbols))
	}

	t = time.Now()
	st, err := semantic.Import(ctx, ix, semantic.ImportOptions{Path: c.SemanticSCIP, Key: "precision:" + c.Name, Source: c.SemanticSCIP})
	if err != nil {
		return nil, fmt.Errorf("import %s: %w", c.SemanticSCIP, err)
	}
	res.ImportMS = time.Since(t).Milliseconds()
	res.Import = st
	logf("%s: imported %s in %d ms (%d documents, %d occurrences, %d mapped definitions)", c.Name, c.SemanticSCIP, res.ImportMS,
		st.Documents, st.Occurrences, st.Mapped)
	if calls != nil {
		if err := scoreCalls(ctx, base, calls, query.LayerSemantic, oracle, truths, files); err != nil {
			return nil, err
		}
		res.Calls = calls
	}
	if c.CallsOnly {
		return res, mergeCalls(c.Out, res)
	}
	sem, d, err := answers("")
	if err != nil {
		return nil, err
	}
	semOwn := own
	res.TimingMS["cairn_refs_semantic"] = d.Milliseconds()

	scipTruth := make([]Truth, len(sample))
	scipAns := make([]Answer, len(sample))
	for i, s := range sample {
		scipTruth[i], scipAns[i] = Truth{}, Answer{}
		for _, l := range oracle.Occs[s.Symbol] {
			scipTruth[i][l] = true
			scipAns[i][l] = "precise"
		}
	}

	var lspTruth []Truth
	if len(c.LSP) > 0 {
		n := c.LSPN
		if n <= 0 || n > len(sample) {
			n = len(sample)
		}
		t = time.Now()
		lspTruth, err = askLSP(ctx, c, files, sample[:n], logf, res)
		if err != nil {
			return nil, err
		}
		res.TimingMS["lsp"] = time.Since(t).Milliseconds()
		res.LSP = c.LSP[0]
		res.LSPSample = n
	}

	score := func(key string, ans []Answer, truth []Truth) {
		tl := NewTally()
		for i := range truth {
			if truth[i] == nil {
				continue // the language server failed on it
			}
			tl.Add(sample[i].QName, ans[i], truth[i], files)
		}
		res.Tallies[key] = tl
	}
	switch c.Primary {
	case "lsp":
		score("syntactic@lsp", syn, lspTruth)
		score("semantic@lsp", sem, lspTruth)
		score("scip@lsp", scipAns, lspTruth)
	default:
		score("syntactic@scip", syn, scipTruth)
		score("semantic@scip", semOwn, scipTruth) // the import's fidelity: the symbol's own occurrences
		if lspTruth != nil {
			score("syntactic@lsp", syn[:len(lspTruth)], lspTruth)
			score("semantic@lsp", sem[:len(lspTruth)], lspTruth)
			score("scip@lsp", scipAns[:len(lspTruth)], lspTruth)
		}
	}
	if c.Out != "" {
		os.MkdirAll(filepath.Dir(c.Out), 0o755)
		b, _ := json.MarshalIndent(res, "", " ")
		if err := os.WriteFile(c.Out, b, 0o644); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// mergeCalls writes a calls-only run into the result file, keeping the
// rest of an earlier run's result there.
func mergeCalls(out string, res *Result) error {
	if out == "" {
		return nil
	}
	keep := res
	if b, err := os.ReadFile(out); err == nil {
		var old Result
		if err := json.Unmarshal(b, &old); err != nil {
			return fmt.Errorf("%s: %w", out, err)
		}
		old.Calls = res.Calls
		keep = &old
	}
	os.MkdirAll(filepath.Dir(out), 0o755)
	b, _ := json.MarshalIndent(keep, "", " ")
	return os.WriteFile(out, b, 0o644)
}

func mustIndexes(ctx context.Context, ix *index.Index) []string {
	db, release := ix.Acquire()
	defer release()
	xs, _ := db.SemIndexes(ctx)
	var out []string
	for _, x := range xs {
		out = append(out, x.Key)
	}
	return out
}

// askLSP asks the language server for the references of each symbol at its
// definition; a symbol it fails on gets a nil truth (skipped in scores).
func askLSP(ctx context.Context, c Config, files *Files, sample []Sampled, logf func(string, ...any), res *Result) ([]Truth, error) {
	root, _ := filepath.Abs(c.Repo)
	// Start-up and workspace load are timed apart from the queries: the first
	// query (which may load the workspace lazily) apart from the warm rest.
	start := time.Now()
	l, err := StartLSP(ctx, c.LSP, root, nil, nil)
	if err != nil {
		return nil, err
	}
	defer l.Close()
	switch {
	case c.LSPWait == "progress" && c.LSPOpen:
		// typescript-language-server loads the project when a file opens: wait then.
	case c.LSPWait == "progress":
		if !l.WaitProgress(10 * time.Minute) {
			res.Notes = append(res.Notes, "the language server never ended its progress; answers may be partial")
		}
	case strings.HasPrefix(c.LSPWait, "log:"):
		if !l.WaitLog(strings.TrimPrefix(c.LSPWait, "log:"), 10*time.Minute) {
			res.Notes = append(res.Notes, "the language server never logged "+c.LSPWait)
		}
	}
	res.TimingMS["lsp_start"] = time.Since(start).Milliseconds()
	var warm time.Duration
	out := make([]Truth, len(sample))
	for i, s := range sample {
		abs := filepath.Join(root, filepath.FromSlash(s.Def.Path))
		if c.LSPOpen {
			text, _ := os.ReadFile(abs)
			l.Open(abs, c.LSPLang, text)
			if i == 0 && c.LSPWait == "progress" {
				t := time.Now()
				if !l.WaitProgress(10 * time.Minute) {
					res.Notes = append(res.Notes, "the language server never ended its progress; answers may be partial")
				}
				res.TimingMS["lsp_start"] += time.Since(t).Milliseconds() // the project loads when a file opens
			}
		}
		qctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
		t := time.Now()
		locs, err := l.References(qctx, abs, s.Def.Line-1, files.UTF16Col(s.Def.Path, s.Def.Line, s.Def.Col))
		if i == 0 {
			res.TimingMS["lsp_first_query"] = time.Since(t).Milliseconds()
		} else {
			warm += time.Since(t)
		}
		cancel()
		if c.LSPOpen {
			l.CloseFile(abs)
		}
		if err != nil {
			res.LSPFailed++
			res.Notes = append(res.Notes, fmt.Sprintf("%s: %s failed on %s: %v", c.Name, c.LSP[0], s.QName, err))
			continue
		}
		tr := Truth{}
		for _, loc := range locs {
			rel, err := filepath.Rel(root, loc.Path)
			if err != nil || strings.HasPrefix(rel, "..") {
				continue // outside the corpus (standard library, typeshed, node_modules)
			}
			rel = filepath.ToSlash(rel)
			line := loc.Line + 1
			tr[Loc{Path: rel, Line: line, Col: files.ByteCol(rel, line, loc.Character)}] = true
		}
		out[i] = tr
		if (i+1)%20 == 0 {
			logf("%s: %s answered %d/%d", c.Name, filepath.Base(c.LSP[0]), i+1, len(sample))
		}
	}
	res.TimingMS["lsp_warm_queries"] = warm.Milliseconds()
	return out, nil
}

// Sample draws n Cairn definitions deterministically (by a hash of the
// qualified name and path) among those the oracle defines at the same
// position and uses at least once.
func Sample(ctx context.Context, ix *index.Index, o *SCIPOracle, n int) ([]Sampled, error) {
	db, release := ix.Acquire()
	defer release()
	files, err := db.Files(ctx)
	if err != nil {
		return nil, err
	}
	type cand struct {
		s Sampled
		h uint64
	}
	var cands []cand
	for _, f := range files {
		if f.Lang == "" || !o.Docs[f.Path] {
			continue
		}
		facts, err := ix.Facts(ctx, f.BlobID)
		if err != nil || facts == nil {
			continue
		}
		syms, err := db.SymbolsOfFile(ctx, f.ID)
		if err != nil {
			return nil, err
		}
		for _, s := range syms {
			if s.DefIdx >= len(facts.Defs) {
				continue
			}
			k := lang.DefKind(s.Kind)
			if k == lang.KindModule || k == lang.KindNamespace || k == lang.KindUnknown {
				continue
			}
			p := facts.Defs[s.DefIdx].NameSpan.Start
			def := Loc{Path: f.Path, Line: int(p.Line), Col: int(p.Col)}
			defs := o.Defs[def]
			if len(defs) == 0 {
				continue
			}
			sym := defs[0]
			for _, d := range defs {
				if len(o.Occs[d]) > len(o.Occs[sym]) {
					sym = d
				}
			}
			h := fnv.New64a()
			h.Write([]byte(s.QName + "\x00" + f.Path))
			cands = append(cands, cand{Sampled{ID: s.ID, QName: s.QName, Kind: k.String(), Def: def, DefAt: def.String(), Symbol: sym}, h.Sum64()})
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].h != cands[j].h {
			return cands[i].h < cands[j].h
		}
		return cands[i].s.DefAt < cands[j].s.DefAt
	})
	// One Cairn symbol per SCIP symbol: overload declarations are several
	// Cairn definitions of one symbol.
	var out []Sampled
	seen := map[string]bool{}
	for _, c := range cands {
		if len(out) == n {
			break
		}
		if !seen[c.s.Symbol] {
			seen[c.s.Symbol] = true
			out = append(out, c.s)
		}
	}
	return out, nil
}
