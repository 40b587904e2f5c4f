package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/cairnhq/cairn/internal/obs"
)

func logPath(stateDir string) string { return obs.LogFile(stateDir) }

// lastLines returns the last n lines of a file (reading at most its last
// 4 MiB).
func lastLines(path string, n int) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	const window = 4 << 20
	off := max(st.Size()-window, 0)
	b := make([]byte, st.Size()-off)
	if _, err := f.ReadAt(b, off); err != nil && err != io.EOF {
		return nil, err
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if off > 0 && len(lines) > 0 {
		lines = lines[1:] // the first may be cut
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines, nil
}

// tailLog prints the last n lines of the server log for a person.
func tailLog(w io.Writer, path string, n int) {
	lines, err := lastLines(path, n)
	if err != nil || len(lines) == 0 || lines[0] == "" {
		fmt.Fprintf(w, "log:        none yet at %s (servers write it: cairn mcp, cairn up)\n", path)
		return
	}
	fmt.Fprintf(w, "log (%s, last %d lines):\n", path, len(lines))
	for _, l := range lines {
		fmt.Fprintln(w, "  "+humanLog(l))
	}
}

// followLog prints the log as it grows until ctx ends (tail -f), starting
// at its end; it follows a rotation to a new file.
func followLog(ctx context.Context, w io.Writer, path string) error {
	fmt.Fprintf(w, "following %s (Ctrl+C to stop)\n", path)
	var f *os.File
	var r *bufio.Reader
	var ino os.FileInfo
	for {
		if f == nil {
			if g, err := os.Open(path); err == nil {
				f, r = g, bufio.NewReader(g)
				ino, _ = g.Stat()
				if ino != nil && ino.Size() > 0 && w != nil {
					g.Seek(0, io.SeekEnd)
				}
			}
		}
		if r != nil {
			for {
				line, err := r.ReadString('\n')
				if line != "" && strings.HasSuffix(line, "\n") {
					fmt.Fprintln(w, humanLog(strings.TrimRight(line, "\n")))
					continue
				}
				if line != "" {
					f.Seek(-int64(len(line)), io.SeekCurrent) // a line still being written
					r.Reset(f)
				}
				_ = err
				break
			}
			if st, err := os.Stat(path); err == nil && ino != nil && !os.SameFile(st, ino) {
				f.Close()
				f, r = nil, nil
				continue
			}
		}
		select {
		case <-ctx.Done():
			if f != nil {
				f.Close()
			}
			return nil
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// humanLog turns a JSON log line into one line for people: time, level,
// event, then the other fields sorted.
func humanLog(line string) string {
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader([]byte(line)))
	dec.UseNumber()
	if dec.Decode(&m) != nil {
		return line
	}
	ts, _ := m["ts"].(string)
	level, _ := m["level"].(string)
	event, _ := m["event"].(string)
	delete(m, "ts")
	delete(m, "level")
	delete(m, "event")
	keys := slices.Sorted(maps.Keys(m))
	var b strings.Builder
	fmt.Fprintf(&b, "%s %-5s %s", ts, strings.ToUpper(level), event)
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%v", k, m[k])
	}
	return b.String()
}
