package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"syscall"
	"testing"
	"time"
)

const pprofTop = `File: cairn
Type: cpu
Duration: 2.60s, Total samples = 1.50s (57.69%)
Showing nodes accounting for 1.40s, 93.33% of 1.50s total
      flat  flat%   sum%        cum   cum%
     600ms 40.00% 40.00%      600ms 40.00%  modernc.org/sqlite/lib.sqlite3VdbeExec
         0     0% 40.00%     1.45s 96.67%  github.com/cairnhq/cairn/internal/cli.Main
     300ms 20.00% 60.00%      900ms 60.00%  github.com/cairnhq/cairn/internal/query.(*Engine).Refs
         0     0% 60.00%      450ms 30.00%  github.com/cairnhq/cairn/internal/query.(*Engine).Refs.func1
     100ms  6.67% 66.67%      400ms 26.67%  github.com/cairnhq/cairn/internal/lang.Decode (inline)
      10ms  0.67% 67.33%      0.02mins  80.00%  runtime.main
`

func TestParsePprofTop(t *testing.T) {
	total, rows, err := parsePprofTop(pprofTop)
	if err != nil {
		t.Fatal(err)
	}
	if total != 1500 {
		t.Errorf("total = %v, want 1500", total)
	}
	if len(rows) != 6 {
		t.Fatalf("rows = %d, want 6", len(rows))
	}
	if r := rows[0]; r.Func != "modernc.org/sqlite/lib.sqlite3VdbeExec" || r.flat != 600 || r.cum != 600 {
		t.Errorf("row 0 = %+v", r)
	}
	if r := rows[4]; r.Func != "github.com/cairnhq/cairn/internal/lang.Decode" || r.cum != 400 {
		t.Errorf("row 4 = %+v (the inline mark is not part of the name)", r)
	}
	if r := rows[5]; r.cum != 1200 {
		t.Errorf("minutes: cum = %v, want 1200", r.cum)
	}
	own := ownByCum(rows, total, 8)
	var names []string
	for _, e := range own {
		names = append(names, e.Func)
	}
	// cli.Main is an entry point (97%), Refs.func1 a closure of a listed
	// function, the others are not the project's.
	if len(names) != 2 || names[0] != "internal/query.(*Engine).Refs" || names[1] != "internal/lang.Decode" {
		t.Errorf("own by cum = %v", names)
	}
}

func TestParsePprofTopRefusesOtherText(t *testing.T) {
	if _, _, err := parsePprofTop("go tool pprof: no such file\n"); err == nil {
		t.Error("text without a table parsed")
	}
	if _, _, err := parsePprofTop("      flat  flat%   sum%        cum   cum%\n  12xs 1% 1% 3ms 2% f\n"); err == nil {
		t.Error("a row with a bad time parsed")
	}
}

// TestSummarizeProfiles reads a real profile of this process through go tool pprof.
func TestSummarizeProfiles(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal("go is not on PATH")
	}
	path := filepath.Join(t.TempDir(), "cpu.pprof")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		t.Fatal(err)
	}
	n := 0
	// spin burns d of this process's CPU time, however busy the machine is,
	// so that each half of the profile holds samples (one per 10 ms).
	spin := func(d time.Duration) {
		start := cpuTime(t)
		for cpuTime(t)-start < d {
			for i := 0; i < 1_000_000; i++ {
				n += i % 7
			}
		}
	}
	spin(300 * time.Millisecond)
	pprof.Do(context.Background(), pprof.Labels("op", "labelled"), func(context.Context) { spin(300 * time.Millisecond) })
	pprof.StopCPUProfile()
	f.Close()
	s, err := summarizeProfiles("spin", "", path, filepath.Join(t.TempDir(), "missing.pprof"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Samples <= 0 || len(s.Flat) == 0 || len(s.Files) != 1 {
		t.Errorf("summary = %+v (n=%d)", s, n)
	}
	focused, err := summarizeProfiles("labelled spin", "op=labelled", path)
	if err != nil {
		t.Fatal(err)
	}
	// The labelled half alone: its total is of those samples.
	if focused.Samples <= 0 || focused.Samples >= s.Samples {
		t.Errorf("labelled samples %v of %v in all", focused.Samples, s.Samples)
	}
	if _, err := summarizeProfiles("none", "", filepath.Join(t.TempDir(), "missing.pprof")); err == nil {
		t.Error("no profile gave no error")
	}
}

// cpuTime is the CPU time this process has used.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
