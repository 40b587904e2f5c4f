// Command renamebench measures Cairn's refactors on real corpora against
// the language servers' renames and the compilers (bench/renamebench/run.sh
// drives it):
//
//	renamebench go -corpus gin -work DIR -state DIR -scip X.scip -gopls PATH -n 8 -out X.json
//	renamebench ts -corpus rxjs -work DIR ...
//	renamebench java -corpus java.util -work DIR -javac "--patch-module java.base=." -n 8 -out X.json
//	renamebench rust -corpus regex-syntax -work DIR -n 8 -out X.json
//	renamebench move -lang go|ts -corpus NAME -work DIR ...
//	renamebench scale -corpus client-go -work DIR -symbol rest.Config ...
//	renamebench report -in bench/out/renamebench -results bench/RESULTS.md -work DIR
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairnhq/cairn/bench/renamebench"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: renamebench go|ts|java|rust|move|scale|report [flags]")
		os.Exit(2)
	}
	cmd, args := os.Args[1], os.Args[2:]
	fs := flag.NewFlagSet(cmd, flag.ExitOnError)
	var c renamebench.Config
	work := fs.String("work", "", "the work copy (a git repository at the corpus)")
	fs.StringVar(&c.Corpus, "corpus", "", "corpus name")
	fs.StringVar(&c.Cairn, "cairn", "bin/cairn", "the cairn binary")
	fs.StringVar(&c.State, "state", "bench/out/renamebench/state", "directory for Cairn's state")
	fs.StringVar(&c.SCIP, "scip", "", "the SCIP index for the semantic layer (built when missing)")
	indexer := fs.String("indexer", "", "the SCIP indexer's command line (writes -scip)")
	lsp := fs.String("lsp", "", "the language server's command line (the oracle)")
	fs.StringVar(&c.Oracle.LangID, "lsp-lang", "", "languageId to open files with")
	fs.BoolVar(&c.Oracle.WaitProgress, "lsp-wait", false, "wait for the server's progress to end")
	fs.IntVar(&c.N, "n", 8, "symbols per stratum")
	seed := fs.Uint64("seed", 1, "sample seed")
	fs.StringVar(&c.Out, "out", "", "JSON result")
	fs.BoolVar(&c.BuildAll, "build-all", false, "build every package after a Go rename")
	fs.BoolVar(&c.Rerun, "rerun", false, "go: measure again only the symbols of -out whose applied rename broke the build or differed from the oracle's")
	moves := fs.Int("moves", 10, "move: how many moves")
	symbol := fs.String("symbol", "", "scale: the symbol to rename")
	in := fs.String("in", "bench/out/renamebench", "report: the JSON results")
	results := fs.String("results", "bench/RESULTS.md", "report: the markdown file whose section is replaced")
	lang := fs.String("lang", "go", "move: go or ts")
	javacArgs := fs.String("javac", "", "java: javac's arguments before the file list")
	fs.Parse(args)
	c.Seed = *seed
	abs, _ := filepath.Abs(*work)
	c.Work = &renamebench.Work{Dir: abs, Env: os.Environ()}
	c.Log = func(format string, a ...any) {
		fmt.Fprintf(os.Stderr, "renamebench %s: %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, a...))
	}
	c.Oracle.Log, c.Oracle.Env, c.Oracle.Timeout = c.Log, os.Environ(), 20*time.Minute
	if *lsp != "" {
		c.Oracle.Argv = splitArgs(*lsp)
	}
	if *indexer != "" {
		c.Indexer = splitArgs(*indexer)
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	var err error
	switch cmd {
	case "go":
		_, err = renamebench.RunGo(ctx, c)
	case "ts":
		_, err = renamebench.RunTS(ctx, c)
	case "java":
		_, err = renamebench.RunJava(ctx, c, splitArgs(*javacArgs))
	case "rust":
		_, err = renamebench.RunRust(ctx, c)
	case "move":
		_, err = renamebench.RunMoves(ctx, c, *lang, *moves)
	case "scale":
		_, err = renamebench.RunScale(ctx, c, *symbol)
	case "report":
		err = renamebench.Report(*in, *results, *work)
	default:
		err = fmt.Errorf("unknown command %s", cmd)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "renamebench:", err)
		os.Exit(1)
	}
}

func splitArgs(s string) []string { return strings.Fields(s) }
