// Command cairn indexes a repository and answers questions about it for coding
// agents and people. See cairn --help.
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/cairnhq/cairn/internal/cli"
)

func main() {
	stop := profileCPU(os.Getenv("CAIRN_CPUPROFILE"))
	code := cli.Main()
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
