// Command wtquery times read calls in one process on the same tree through
// two indexes: a standalone one (its own state directory) and the
// worktree's default one, an overlay over a shared baseline. Rounds
// interleave the two so that the drift of a shared machine hits both
// alike; it also checks that both give the same answers. It prints a
// markdown table (bench/worktrees.sh puts it in its section).
//
//	go run ./bench/cmd/wtquery -repo DIR -alone STATEDIR
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"sort"
	"time"

	"github.com/cairnhq/cairn/internal/config"
	_ "github.com/cairnhq/cairn/internal/lang/all"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
	"github.com/cairnhq/cairn/internal/tools"
)

// calls are kubernetes reads: a symbol search, a symbol card, the
// references of a popular type and the callers of a popular function.
var calls = []struct{ tool, args string }{
	{"search", `{"query":"SharedInformer","mode":"symbol"}`},
	{"symbol_get", `{"symbol":"k8s.io/kubernetes/pkg/apis/core.Pod"}`},
	{"refs_find", `{"symbol":"k8s.io/kubernetes/pkg/apis/core.Pod"}`},
	{"graph_callers", `{"symbol":"k8s.io/apimachinery/pkg/util/runtime.HandleError"}`},
}

func open(ctx context.Context, repo, state string) *service.Service {
	paths, err := config.Locate(ctx, repo, state)
	if err != nil {
		log.Fatal(err)
	}
	svc, err := service.Open(ctx, paths, config.Default(), service.Options{})
	if err != nil {
		log.Fatal(err)
	}
	return svc
}

// run makes one call and returns its time and what an agent reads of it.
func run(ctx context.Context, svc *service.Service, tool, args string) (time.Duration, string) {
	t0 := time.Now()
	env := tools.Invoke(ctx, svc.Env(), tool, json.RawMessage(args))
	took := time.Since(t0)
	b, _ := json.Marshal(struct {
		Answer string `json:"answer"`
		Data   any    `json:"data"`
		Error  any    `json:"error,omitempty"`
	}{env.Answer, env.Data, env.Error})
	var v any
	json.Unmarshal(b, &v)
	b, _ = json.Marshal(testenv.WithoutEpochs(v))
	return took, string(b)
}

func median(ds []time.Duration) time.Duration {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2]
}

func main() {
	repo := flag.String("repo", "", "the worktree")
	alone := flag.String("alone", "", "state directory of a standalone index of the same tree")
	rounds := flag.Int("rounds", 11, "interleaved rounds")
	flag.Parse()
	ctx := context.Background()
	standalone, overlay := open(ctx, *repo, *alone), open(ctx, *repo, "")
	defer standalone.Close()
	defer overlay.Close()
	fmt.Println("| call | standalone (median ms) | overlay (median ms) | overlay / standalone | same answer |")
	fmt.Println("|---|---:|---:|---:|---|")
	for _, c := range calls {
		var a, b []time.Duration
		same := true
		for range *rounds {
			ta, ra := run(ctx, standalone, c.tool, c.args)
			tb, rb := run(ctx, overlay, c.tool, c.args)
			a, b = append(a, ta), append(b, tb)
			same = same && ra == rb
		}
		ma, mb := median(a), median(b)
		fmt.Printf("| `%s %s` | %.2f | %.2f | %.2fx | %v |\n", c.tool, c.args, ms(ma), ms(mb), ms(mb)/ms(ma), same)
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
