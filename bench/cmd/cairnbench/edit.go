package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// editRounds is how many edits per file the edit-to-answer measurement makes.
const editRounds = 20

// editToAnswer measures the freshness contract under `cairn up`: a file is
// written, and the time runs from the moment the write returns to the answer
// of one search sent right then, which must see the edit. Per file, the
// median of editRounds edits (a new Go function each time); an answer that
// misses the edit is counted, never timed.
func editToAnswer(cairn, repo, state string, files []string, profile string) (map[string]any, error) {
	os.Remove(filepath.Join(state, "port"))
	cmd := exec.Command(cairn, "--repo", repo, "--state-dir", state, "up", "--no-auth")
	if profile != "" {
		cmd.Env = withProfile(profile)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	base, err := waitServer(state, 10*time.Minute)
	if err != nil {
		return nil, fmt.Errorf("cairn up: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	res := map[string]any{}
	for _, f := range files {
		full := filepath.Join(repo, f)
		orig, err := os.ReadFile(full)
		if err != nil {
			return nil, err
		}
		var ds []time.Duration
		missed := 0
		for i := 0; i < editRounds; i++ {
			name := fmt.Sprintf("CairnEditProbe%dx%d", i, time.Now().UnixNano()%1e6)
			if err := os.WriteFile(full, append(append([]byte{}, orig...), "\nfunc "+name+"() {}\n"...), 0o644); err != nil {
				return nil, err
			}
			t := time.Now()
			found, err := searchSees(base, name)
			d := time.Since(t)
			if err != nil {
				os.WriteFile(full, orig, 0o644)
				return nil, err
			}
			if found {
				ds = append(ds, d)
			} else {
				missed++
			}
			os.WriteFile(full, orig, 0o644)
			if _, err := searchSees(base, "CairnEditProbeRestored"); err != nil { // the restore indexed before the next round
				return nil, err
			}
		}
		p := percentiles(ds)
		res[f] = map[string]any{"p50_ms": p.P50, "p99_ms": p.P99, "n": len(ds), "missed": missed}
	}
	return res, nil
}

// waitServer waits for a `cairn up` in state to answer /ready.
func waitServer(state string, limit time.Duration) (string, error) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		var p struct {
			Port int `json:"port"`
		}
		if b, err := os.ReadFile(filepath.Join(state, "port")); err == nil && json.Unmarshal(b, &p) == nil && p.Port > 0 {
			base := fmt.Sprintf("http://127.0.0.1:%d", p.Port)
			if r, err := http.Get(base + "/ready"); err == nil {
				r.Body.Close()
				if r.StatusCode == 200 {
					return base, nil
				}
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return "", fmt.Errorf("not ready within %s", limit)
}

// searchSees asks the server for a symbol by name and reports whether the
// answer holds it.
func searchSees(base, name string) (bool, error) {
	body, _ := json.Marshal(map[string]any{"query": name, "mode": "symbol"})
	r, err := http.Post(base+"/api/v1/tools/search", "application/json", bytes.NewReader(body))
	if err != nil {
		return false, err
	}
	defer r.Body.Close()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		return false, err
	}
	if r.StatusCode != 200 {
		return false, fmt.Errorf("search: %d %s", r.StatusCode, b)
	}
	return bytes.Contains(b, []byte(`"`+name)), nil
}
