package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ProfileSummary is where one measured operation spends its CPU, read from
// the pprof CPU profiles taken while it ran: the functions doing the work
// (flat) and the project's own functions that lead to it (cumulative).
type ProfileSummary struct {
	What    string         `json:"what"`    // what ran under the profiler
	Samples float64        `json:"samples"` // CPU milliseconds sampled in all
	Flat    []ProfileEntry `json:"flat"`
	Cum     []ProfileEntry `json:"cum"`
	Files   []string       `json:"files"` // the profiles, for go tool pprof
}

// ProfileEntry is one function's share of a profile.
type ProfileEntry struct {
	Func string  `json:"func"`
	MS   float64 `json:"ms"`
	Pct  float64 `json:"pct"` // of all samples
}

// ownPrefix marks the project's functions in a profile.
const ownPrefix = "github.com/cairnhq/cairn/"

// profileDir is where a run keeps its profiles.
func profileDir(outDir string) string { return filepath.Join(outDir, "profiles") }

// profilePath names one profile of a corpus and creates its directory.
func profilePath(outDir, corpus, what string) string {
	dir := profileDir(outDir)
	os.MkdirAll(dir, 0o755)
	return filepath.Join(dir, corpus+"-"+what+".pprof")
}

// withProfile returns the environment of a child process that writes its
// CPU profile to path (cairn and cairnbench both read CAIRN_CPUPROFILE).
func withProfile(path string) []string {
	return append(os.Environ(), "CAIRN_CPUPROFILE="+path)
}

// summarizeProfiles reads profiles with go tool pprof (several are merged)
// and keeps the flat top and the project's functions by cumulative time.
// tagFocus, when set, keeps only the samples labelled so (pprof -tagfocus).
func summarizeProfiles(what, tagFocus string, files ...string) (*ProfileSummary, error) {
	var present []string
	for _, f := range files {
		if st, err := os.Stat(f); err == nil && st.Size() > 0 {
			present = append(present, f)
		}
	}
	if len(present) == 0 {
		return nil, fmt.Errorf("%s: no profile was written", what)
	}
	if tagFocus != "" {
		// A profile of the labelled samples alone, so that its total and
		// shares are of the operation, not of the whole process.
		focused := strings.TrimSuffix(present[0], ".pprof") + "-" + strings.NewReplacer("=", "-", ",", "-").Replace(tagFocus) + ".pprof"
		args := append([]string{"tool", "pprof", "-tagfocus=" + tagFocus, "-proto", "-output=" + focused}, present...)
		if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("%s: go tool pprof -tagfocus: %v: %s", what, err, lastLine(out))
		}
		present = []string{focused}
	}
	top := func(extra ...string) (string, error) {
		args := []string{"tool", "pprof", "-top", "-unit=ms"}
		args = append(append(args, extra...), present...)
		out, err := exec.Command("go", args...).Output()
		if err != nil {
			return "", fmt.Errorf("%s: go tool pprof: %w", what, err)
		}
		return string(out), nil
	}
	flatText, err := top("-nodecount=8")
	if err != nil {
		return nil, err
	}
	cumText, err := top("-cum", "-nodecount=400")
	if err != nil {
		return nil, err
	}
	total, flat, err := parsePprofTop(flatText)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	_, cum, err := parsePprofTop(cumText)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	s := &ProfileSummary{What: what, Samples: total, Files: present}
	for _, e := range flat {
		if len(s.Flat) < 6 {
			s.Flat = append(s.Flat, ProfileEntry{Func: strings.TrimPrefix(e.Func, ownPrefix), MS: e.flat, Pct: pctOf(e.flat, total)})
		}
	}
	s.Cum = ownByCum(cum, total, 8)
	return s, nil
}

// ownByCum keeps the project's functions by cumulative time, leaving out
// the entry points every sample passes through (90% or more) and the
// closures of a function already listed.
func ownByCum(rows []pprofRow, total float64, n int) []ProfileEntry {
	var out []ProfileEntry
	for _, r := range rows {
		if len(out) == n {
			break
		}
		if !strings.HasPrefix(r.Func, ownPrefix) || pctOf(r.cum, total) >= 90 || strings.Contains(r.Func, ".func") {
			continue
		}
		out = append(out, ProfileEntry{Func: strings.TrimPrefix(r.Func, ownPrefix), MS: r.cum, Pct: pctOf(r.cum, total)})
	}
	return out
}

func pctOf(v, total float64) float64 {
	if total <= 0 {
		return 0
	}
	return 100 * v / total
}

// pprofRow is one line of go tool pprof -top.
type pprofRow struct {
	Func      string
	flat, cum float64 // milliseconds
}

// parsePprofTop reads the text of go tool pprof -top -unit=ms: the total
// sampled time from its "Total samples" line and one row per function.
func parsePprofTop(text string) (total float64, rows []pprofRow, err error) {
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	header := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if _, after, ok := strings.Cut(line, "Total samples = "); ok {
			v, _, _ := strings.Cut(after, " ")
			if total, err = parseMS(v); err != nil {
				return 0, nil, fmt.Errorf("total samples %q: %w", v, err)
			}
			continue
		}
		if strings.HasPrefix(line, "flat ") {
			header = true
			continue
		}
		if !header || line == "" {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 6 {
			return 0, nil, fmt.Errorf("pprof row %q: want 6 fields", line)
		}
		flat, err1 := parseMS(f[0])
		cum, err2 := parseMS(f[3])
		if err1 != nil || err2 != nil {
			return 0, nil, fmt.Errorf("pprof row %q: times do not parse", line)
		}
		name := strings.Join(f[5:], " ")
		name = strings.TrimSuffix(name, " (inline)")
		rows = append(rows, pprofRow{Func: name, flat: flat, cum: cum})
	}
	if !header {
		return 0, nil, fmt.Errorf("no table in the pprof output")
	}
	return total, rows, sc.Err()
}

// parseMS reads a pprof time ("0", "30ms", "1.20s", "2.50mins") as milliseconds.
func parseMS(s string) (float64, error) {
	if s == "0" {
		return 0, nil
	}
	if v, ok := strings.CutSuffix(s, "mins"); ok {
		f, err := strconv.ParseFloat(v, 64)
		return f * 60000, err
	}
	if v, ok := strings.CutSuffix(s, "hrs"); ok {
		f, err := strconv.ParseFloat(v, 64)
		return f * 3600000, err
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, err
	}
	return float64(d) / float64(time.Millisecond), nil
}
