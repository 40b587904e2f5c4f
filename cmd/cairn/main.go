// Command cairn indexes a repository and answers questions about it for coding
// agents and people. See cairn --help.
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"time"

	"github.com/cairnhq/cairn/internal/cli"
)

func main() {
	stop := profileCPU(os.Getenv("CAIRN_CPUPROFILE"))
	after, _ := time.ParseDuration(os.Getenv("CAIRN_HEAPPROFILE_AFTER"))
	stopHeap := profileHeapPeak(os.Getenv("CAIRN_HEAPPROFILE"), after)
	code := cli.Main()
	stopHeap()
	stop()
	profileHeap(os.Getenv("CAIRN_MEMPROFILE"))
	os.Exit(code)
}

// profileHeap writes a profile of the Go heap to path when it is set, as
// the process ends (a server stopped by SIGTERM or SIGINT included): what
// the load benchmark reads to say what a long-running server holds.
func profileHeap(path string) {
	if path == "" {
		return
	}
	f, err := os.Create(path)
	if err == nil {
		runtime.GC() // the profile shows the heap as of the last collection
		err = pprof.WriteHeapProfile(f)
		f.Close()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "cairn: CAIRN_MEMPROFILE:", err)
	}
}

// profileCPU writes a CPU profile of the whole process to path when it is
// set: what the benchmarks read to say where a command's time goes.
func profileCPU(path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "cairn: CAIRN_CPUPROFILE:", err)
		if f != nil {
			f.Close()
		}
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// profileHeapPeak writes to path, when it is set, a heap profile taken when
// the live heap (as the last collection measured it) was the largest the
// process reached: what the memory benchmark reads to say what a command
// holds at its peak. It samples every quarter second and rewrites the
// profile at each new peak; path.mem gets a line per sample: the live
// heap, the memory the Go runtime holds (less what it released) and the
// process's resident set, in KiB, so that what lies outside the Go heap
// (the parsers' and SQLite's) can be told apart. Peaks before after (as
// CAIRN_HEAPPROFILE_AFTER says: "90s") are not profiled, so that a later,
// lower peak (a build's linking after its parsing) can be.
func profileHeapPeak(path string, after time.Duration) (stop func()) {
	if path == "" {
		return func() {}
	}
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
		log, err := os.Create(path + ".mem")
		if err != nil {
			fmt.Fprintln(os.Stderr, "cairn: CAIRN_HEAPPROFILE:", err)
			return
		}
		defer log.Close()
		start := time.Now()
		var peak uint64
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			status, _ := os.ReadFile("/proc/self/statm") // size resident shared, in pages
			var size, resident int64
			fmt.Sscan(string(status), &size, &resident)
			fmt.Fprintf(log, "%.1fs live %d go %d rss %d\n", time.Since(start).Seconds(), sample[0].Value.Uint64()>>10,
				(sample[1].Value.Uint64()-sample[2].Value.Uint64())>>10, resident*int64(os.Getpagesize())>>10)
			if live := sample[0].Value.Uint64(); live > peak+peak/20 && time.Since(start) >= after {
				peak = live
				if err := writeHeapProfile(path); err != nil {
					fmt.Fprintln(os.Stderr, "cairn: CAIRN_HEAPPROFILE:", err)
					return
				}
			}
		}
	}()
	return func() {
		close(done)
		<-stopped
	}
}

func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	runtime.GC() // the profile's in-use figures are as of the last collection
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
