package testrun

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// The Go targets of one module run in one go test: go compiles the
// packages once, in parallel, and runs their test binaries side by side,
// which separate go test processes (each linking and scheduling alone)
// cannot match. Each package stays a target of its own in the results;
// its deadline is go test's -timeout, which stops the package's test
// binary and names the tests that were running.

// unit is what one worker runs in one command: a target, or a module's Go
// targets.
type unit struct {
	targets []Target
	cost    float64
}

// units groups targets: with group, one unit per module for Go; one unit
// per target else.
func units(targets []Target, group bool) []unit {
	var out []unit
	byMod := map[string]int{}
	for _, t := range targets {
		if t.Runner == "go" && group {
			if i, ok := byMod[t.Dir]; ok {
				out[i].targets = append(out[i].targets, t)
				out[i].cost += t.Cost
				continue
			}
			byMod[t.Dir] = len(out)
		}
		out = append(out, unit{targets: []Target{t}, cost: t.Cost})
	}
	return out
}

// runGoModule runs a module's Go targets with one go test -json.
func runGoModule(ctx context.Context, ts []Target, o RunOptions) []Result {
	argv := []string{"go", "test", "-json"}
	limit := time.Duration(0)
	if o.TargetTimeout > 0 {
		// go test's own deadline per test binary; the command as a whole
		// may take as long as its packages one after another, plus the
		// build.
		argv = append(argv, fmt.Sprintf("-timeout=%ds", int(o.TargetTimeout.Seconds())))
		limit = o.TargetTimeout*time.Duration(len(ts)) + time.Minute
	}
	dirOf := map[string]string{}
	for _, t := range ts {
		argv = append(argv, t.Cmd[len(t.Cmd)-1])
		dirOf[t.Package] = t.Path
	}
	p := execute(ctx, argv, filepath.Join(o.Root, filepath.FromSlash(ts[0].Dir)), limit)
	l := locator{root: filepath.ToSlash(o.Root), dir: ts[0].Dir}
	pkgDir := func(pkg string) string {
		if d, ok := dirOf[pkg]; ok {
			return d
		}
		return path.Join(ts[0].Dir, strings.TrimPrefix(pkg, ts[0].Package))
	}
	outs := parseGoJSON(append(p.stdout, p.stderr...), l, pkgDir)
	results := make([]Result, len(ts))
	for i, t := range ts {
		r := Result{TargetID: t.ID, Runner: t.Runner, Failures: []Failure{}, Command: argv}
		if p.startErr != "" {
			r.Status, r.ExitCode, r.Output = StatusError, -1, p.startErr
			results[i] = r
			continue
		}
		out, ok := outs[t.Package]
		pp := p
		if ok && p.exit != 0 && out.failed == 0 && len(out.failures) == 0 && !out.timedOut {
			pp.exit = 0 // another package of the command failed
		}
		if len(ts) > 1 {
			pp.duration /= time.Duration(len(ts)) // an even share: go does not time packages apart from their tests
		}
		finish(ctx, &r, pp, out)
		results[i] = r
	}
	return results
}
