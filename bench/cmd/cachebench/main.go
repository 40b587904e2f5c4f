// Command cachebench measures what the answer caches save: the same read
// calls on an unchanged repository through the registry, with the caches
// (a serving process) and without them, in interleaved rounds so that the
// drift of a shared machine hits both sides alike. It writes its section
// of bench/RESULTS.md.
//
//	go run ./bench/cmd/cachebench -repo DIR -state DIR -results bench/RESULTS.md
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"

	resultsmd "github.com/cairnhq/cairn/bench/results"
	"github.com/cairnhq/cairn/internal/config"
	_ "github.com/cairnhq/cairn/internal/lang/all"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/tools"
)

// calls are the read calls an agent repeats on an unchanged repository
// (client-go names); the last two find nothing.
var calls = []struct{ tool, args string }{
	{"search", `{"query":"NewForConfig"}`},
	{"search", `{"query":"Informer","mode":"symbol"}`},
	{"symbol_get", `{"symbol":"rest.Config"}`},
	{"refs_find", `{"symbol":"rest.Config"}`},
	{"graph_callers", `{"symbol":"rest.RESTClientFor"}`},
	{"type_hierarchy", `{"symbol":"cache.SharedIndexInformer"}`},
	{"map_repo", `{}`},
	{"architecture", `{}`},
	{"importers", `{"target":"rest"}`},
	{"symbol_get", `{"symbol":"NoSuchSymbolAnywhere"}`},
	{"refs_find", `{"symbol":"rest.NoSuchField"}`},
}

func main() {
	repo := flag.String("repo", "", "corpus directory")
	state := flag.String("state", "", "state directory")
	rounds := flag.Int("rounds", 21, "interleaved rounds")
	name := flag.String("name", "client-go v0.31.0", "corpus name for the report")
	results := flag.String("results", "", "RESULTS.md to update (empty: print only)")
	flag.Parse()
	ctx := context.Background()
	paths, err := config.Locate(ctx, *repo, *state)
	if err != nil {
		log.Fatal(err)
	}
	svc, err := service.Open(ctx, paths, config.Default(), service.Options{Serve: true})
	if err != nil {
		log.Fatal(err)
	}
	defer svc.Close()
	with := *svc.Env()
	without := with
	without.Answers = nil
	// The first index (if any), then one call of each so that both sides
	// start from warm views.
	for deadline := time.Now().Add(10 * time.Minute); ; {
		e := tools.Invoke(ctx, &without, "status", nil)
		if e.Error == nil && e.Provenance.IndexState == "ready" || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Second)
	}
	for _, c := range calls {
		tools.Invoke(ctx, &without, c.tool, json.RawMessage(c.args))
	}
	var rows []string
	// The last row asks a new question each round: every call with the
	// caches is a miss, which shows what looking up and keeping costs.
	calls = append(calls, struct{ tool, args string }{"search", `{"query":"Config%d"}`})
	for _, c := range calls {
		var as, bs []float64
		outcome := "ok"
		for r := 0; r < *rounds; r++ {
			args := c.args
			if strings.Contains(args, "%d") {
				args = fmt.Sprintf(args, r)
			}
			one := func(env *tools.Env) float64 {
				t0 := time.Now()
				e := tools.Invoke(ctx, env, c.tool, json.RawMessage(args))
				d := time.Since(t0)
				if e.Error != nil {
					outcome = e.Error.Code
				}
				return float64(d.Microseconds()) / 1000
			}
			if r%2 == 0 {
				as = append(as, one(&without))
				bs = append(bs, one(&with))
			} else {
				bs = append(bs, one(&with))
				as = append(as, one(&without))
			}
		}
		a, b := median(as), median(bs)
		row := fmt.Sprintf("| `%s` `%s` | %s | %.2f ms | %.3f ms | %.1fx |", c.tool, c.args, outcome, a, b, a/b)
		if strings.Contains(c.args, "%d") {
			row = fmt.Sprintf("| `%s` `%s`, a new query each round (always a miss) | %s | %.2f ms | %.2f ms | %+.2f ms |", c.tool, c.args, outcome, a, b, b-a)
		}
		fmt.Fprintln(os.Stderr, row)
		rows = append(rows, row)
	}
	section := fmt.Sprintf(`<!-- cache:begin -->
## Answer caches (`+"`go run ./bench/cmd/cachebench`"+`)

The same read call on an unchanged repository (%s), through the registry as a server runs it (freshness check, snapshot, envelope), without the answer caches and with them, in %d interleaved rounds (the order alternates each round); medians over rounds. With the caches the first call computes and keeps the answer and the later ones are hits: a hit costs the freshness check, the snapshot and the key (two small reads of the store), whatever the answer. The last row asks a new question each round, so every call with the caches misses: its last column is what a miss adds. Machine: %d cores, %s; %s.

| call | outcome | without | with | speed-up |
|---|---|---:|---:|---:|
%s
<!-- cache:end -->
`, *name, *rounds, runtime.NumCPU(), runtime.Version(), time.Now().UTC().Format("2006-01-02"), strings.Join(rows, "\n"))
	if *results == "" {
		fmt.Print(section)
		return
	}
	if err := resultsmd.Replace(*results, "cache", section); err != nil {
		log.Fatal(err)
	}
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}
