// Command precision scores Cairn's references against compiler-grade
// oracles on real corpora (bench/precision/run.sh drives it):
//
//	precision run -name go_med -lang go -repo DIR -state DIR -oracle X.scip -semantic X.scip -lsp "gopls serve" ...
//	precision report -in bench/out/precision -results bench/RESULTS.md
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/cairnhq/cairn/bench/precision"
	_ "github.com/cairnhq/cairn/internal/lang/all"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: precision run|report [flags]")
		os.Exit(2)
	}
	cmd, args := os.Args[1], os.Args[2:]
	fs := flag.NewFlagSet(cmd, flag.ExitOnError)
	var c precision.Config
	fs.StringVar(&c.Name, "name", "", "corpus name")
	fs.StringVar(&c.Lang, "lang", "", "go, ts or py")
	fs.StringVar(&c.Repo, "repo", "", "corpus directory (a writable copy)")
	fs.StringVar(&c.State, "state", "", "Cairn state directory")
	fs.StringVar(&c.OracleSCIP, "oracle", "", "SCIP index to sample from (and score against when -primary scip)")
	fs.StringVar(&c.SemanticSCIP, "semantic", "", "SCIP index Cairn imports as its semantic layer (default: -oracle)")
	fs.StringVar(&c.Primary, "primary", "scip", "oracle for the whole sample: scip or lsp")
	lsp := fs.String("lsp", "", "language server command line")
	fs.StringVar(&c.LSPLang, "lsp-lang", "", "languageId for didOpen")
	fs.StringVar(&c.LSPWait, "lsp-wait", "", "progress, log:TEXT or empty")
	fs.BoolVar(&c.LSPOpen, "lsp-open", false, "open each file before asking")
	fs.IntVar(&c.LSPN, "lsp-n", 0, "sampled symbols to ask the language server (0: all)")
	fs.IntVar(&c.N, "n", 200, "sample size")
	fs.IntVar(&c.CallN, "calls-n", 0, "functions and methods whose callers are scored (0: none)")
	fs.BoolVar(&c.CallsOnly, "calls-only", false, "score call edges only, keeping the rest of the result in -out")
	fs.StringVar(&c.Out, "out", "", "JSON result file")
	in := fs.String("in", "bench/out/precision", "report: directory of JSON results")
	results := fs.String("results", "bench/RESULTS.md", "report: markdown file whose precision section is replaced")
	fs.Parse(args)
	c.Log = func(format string, a ...any) { fmt.Fprintf(os.Stderr, "precision: "+format+"\n", a...) }
	var err error
	switch cmd {
	case "run":
		if *lsp != "" {
			c.LSP = strings.Fields(*lsp)
		}
		if c.SemanticSCIP == "" {
			c.SemanticSCIP = c.OracleSCIP
		}
		_, err = precision.Run(context.Background(), c)
	case "report":
		err = precision.Report(*in, *results)
	default:
		err = fmt.Errorf("unknown command %s", cmd)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "precision:", err)
		os.Exit(1)
	}
}
