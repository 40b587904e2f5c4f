// Command agentbench draws the agent questions with their ground truth
// (gen) and asks them of Cairn, scoring each answer and its token cost
// against a grep-and-read baseline (run). bench/agentbench/run.sh drives it.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/cairnhq/cairn/bench/agentbench"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: agentbench gen|run|report|merge [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "gen":
		err = gen(os.Args[2:])
	case "run":
		err = run(os.Args[2:])
	case "report":
		err = report(os.Args[2:])
	case "merge":
		err = merge(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q (gen, run)", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "agentbench:", err)
		os.Exit(1)
	}
}

func logf(format string, args ...any) { fmt.Fprintf(os.Stderr, "agentbench: "+format+"\n", args...) }

func gen(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ExitOnError)
	work := fs.String("work", "", "directory of the work copies, one per repository")
	node := fs.String("node", "", "directory holding node_modules/typescript")
	seed := fs.Uint64("seed", 20261123, "seed of the draw")
	out := fs.String("out", "bench/agentbench/questions.json", "question set to write")
	repos := fs.String("repos", "", "comma-separated repositories to (re)draw; the others are kept from -out")
	tries := fs.Int("tries", 60, "candidates tried per question at most")
	fs.Parse(args)
	corpora := os.Getenv("CAIRN_CORPORA")
	if corpora == "" {
		corpora = os.Getenv("HOME") + "/.cache/cairn-corpora"
	}
	g := &agentbench.Gen{Seed: *seed, Work: agentbench.WorkDirs(*work), Node: *node, Log: logf, Tries: *tries,
		GoEnv: []string{"GOMODCACHE=" + corpora + "/gomod", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOWORK=off"},
		Oracle: map[string]string{
			"gopls": "v0.23.0", "typescript-language-server": "5.3.0", "typescript": "5.9.3", "pyright": "1.1.414",
			"go/parser, go/build/constraint": runtime.Version(), "python3 ast": pyVersion(),
		}}
	var only []string
	if *repos != "" {
		only = strings.Split(*repos, ",")
	}
	set, err := g.Run(context.Background(), only)
	if err != nil {
		return err
	}
	if len(only) > 0 {
		if old, err := agentbench.Load(*out); err == nil {
			keep := old.Questions[:0]
			for _, q := range old.Questions {
				drawn := false
				for _, r := range only {
					drawn = drawn || q.Repo == r
				}
				if !drawn {
					keep = append(keep, q)
				}
			}
			set.Questions = append(keep, set.Questions...)
		}
	}
	return set.Save(*out)
}

// merge joins question sets drawn in separate runs (repositories drawn in
// parallel): the first set's header, every set's questions.
func merge(args []string) error {
	fs := flag.NewFlagSet("merge", flag.ExitOnError)
	out := fs.String("out", "bench/agentbench/questions.json", "question set to write")
	fs.Parse(args)
	var set *agentbench.Set
	for _, p := range fs.Args() {
		s, err := agentbench.Load(p)
		if err != nil {
			return err
		}
		if set == nil {
			set = s
			continue
		}
		set.Questions = append(set.Questions, s.Questions...)
	}
	if set == nil {
		return fmt.Errorf("no question sets given")
	}
	return set.Save(*out)
}

func pyVersion() string {
	out, err := exec.Command("python3", "--version").Output()
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(strings.TrimPrefix(string(out), "Python "))
}

func run(args []string) error {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	questions := fs.String("questions", "bench/agentbench/questions.json", "question set")
	work := fs.String("work", "", "directory of the work copies, one per repository")
	cairn := fs.String("cairn", "bin/cairn", "cairn binary")
	state := fs.String("state", "bench/out/agentbench", "directory for Cairn's state")
	out := fs.String("out", "bench/out/agentbench/results.json", "per-question results")
	results := fs.String("results", "bench/RESULTS.md", "results file whose section is rewritten ('' for none)")
	machine := fs.String("machine", "", "machine description for the report")
	notesFile := fs.String("notes", "bench/agentbench/notes.md", "hand-written reading of the run, included in the section")
	fs.Parse(args)
	set, err := agentbench.Load(*questions)
	if err != nil {
		return err
	}
	r := &agentbench.Runner{Cairn: *cairn, Work: agentbench.WorkDirs(*work), State: *state, Log: logf}
	ctx := context.Background()
	indexed := map[string]bool{}
	var res []agentbench.Result
	for _, q := range set.Questions {
		if !indexed[q.Repo] {
			d, err := r.Index(ctx, q.Repo)
			if err != nil {
				return err
			}
			logf("%s indexed in %s", q.Repo, d.Round(time.Millisecond))
			indexed[q.Repo] = true
		}
		x, err := r.Ask(ctx, q)
		if err != nil {
			return fmt.Errorf("%s: %w", q.ID, err)
		}
		mark := "wrong"
		if x.Verdict.Correct {
			mark = "right"
		}
		logf("%s %s: %s (%s; %d/%d found, %d false; %d tokens, baseline %d)", mark, q.ID, q.Target, x.Status, x.Verdict.Found, x.Truth, len(x.Verdict.Extra), x.Tokens, x.BaselineTokens)
		res = append(res, x)
	}
	env := agentbench.Env{Date: time.Now().UTC().Format("2006-01-02"), Machine: *machine, Go: runtime.Version()}
	if v, err := exec.Command(*cairn, "version").Output(); err == nil {
		env.Cairn = strings.TrimSpace(string(v))
	}
	if v, err := exec.Command("rg", "--version").Output(); err == nil {
		env.Rg = strings.SplitN(strings.TrimSpace(string(v)), "\n", 2)[0]
	}
	b, _ := json.MarshalIndent(runFile{Env: env, Results: res}, "", "  ")
	if err := os.MkdirAll(dirOf(*out), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(*out, append(b, '\n'), 0o644); err != nil {
		return err
	}
	if *results == "" {
		return nil
	}
	return writeReport(set, runFile{Env: env, Results: res}, *results, *notesFile)
}

// runFile is what run writes: the run's environment and every result.
type runFile struct {
	Env     agentbench.Env      `json:"env"`
	Results []agentbench.Result `json:"results"`
}

func writeReport(set *agentbench.Set, rf runFile, results, notesFile string) error {
	notes, _ := os.ReadFile(notesFile)
	return agentbench.WriteSection(results, agentbench.Report(set, rf.Results, rf.Env, string(notes)))
}

// report renders the section again from a run's results (after notes.md changed).
func report(args []string) error {
	fs := flag.NewFlagSet("report", flag.ExitOnError)
	questions := fs.String("questions", "bench/agentbench/questions.json", "question set")
	in := fs.String("in", "bench/out/agentbench/results.json", "results of a run")
	results := fs.String("results", "bench/RESULTS.md", "results file whose section is rewritten")
	notesFile := fs.String("notes", "bench/agentbench/notes.md", "hand-written reading of the run")
	fs.Parse(args)
	set, err := agentbench.Load(*questions)
	if err != nil {
		return err
	}
	b, err := os.ReadFile(*in)
	if err != nil {
		return err
	}
	var rf runFile
	if err := json.Unmarshal(b, &rf); err != nil {
		return err
	}
	return writeReport(set, rf, *results, *notesFile)
}

func dirOf(p string) string {
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[:i]
	}
	return "."
}
