package cli

import (
	"archive/zip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/ledger"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/tools"
)

func diagCmd(g *globals) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "diag --out FILE.zip",
		Short: "Write a diagnostic bundle (config, doctor, status, recent errors, log tail) to a zip file",
		Long: `diag writes a zip for a bug report: the effective configuration (the server
token is never in it), doctor's checks, status, the recent failed operations
from the ledger, the tail of the server log, and versions. It holds no source
text. With privacy: anonymized it also leaves out error messages and log
fields, which may quote symbol names and paths: only codes, tools, levels and
times remain.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return finish(g, errorEnvelope(errs.E(errs.Usage, "name the bundle: --out FILE.zip")), nil)
			}
			files, err := diagBundle(cmd.Context(), g, out)
			if err != nil {
				return finish(g, errorEnvelope(err), nil)
			}
			env := adminEnvelope(fmt.Sprintf("wrote %s (%d files)", out, len(files)), map[string]any{"out": out, "files": files})
			return finish(g, env, func(w io.Writer, e *protocol.Envelope) {
				fmt.Fprintln(w, e.Answer)
				for _, f := range files {
					fmt.Fprintln(w, "  "+f)
				}
			})
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "the zip file to write")
	return cmd
}

// diagRecentErrors is how many failed operations a bundle holds.
const diagRecentErrors = 100

func diagBundle(ctx context.Context, g *globals, out string) ([]string, error) {
	a, err := g.openDegraded(ctx)
	if err != nil {
		return nil, err
	}
	defer a.close()
	env := a.env
	anon := env.Config.Privacy == "anonymized"
	f, err := os.Create(out)
	if err != nil {
		return nil, errs.Wrap(errs.InvalidArgument, err, "diag: create %s", out)
	}
	defer f.Close()
	z := zip.NewWriter(f)
	var names []string
	add := func(name string, v any) {
		w, err := z.Create(name)
		if err != nil {
			return
		}
		switch x := v.(type) {
		case []byte:
			w.Write(x)
		case string:
			io.WriteString(w, x)
		default:
			b, _ := protocol.CanonicalIndent(v)
			w.Write(append(b, '\n'))
		}
		names = append(names, name)
	}
	cfgYAML, _ := yaml.Marshal(env.Config)
	add("config.yaml", cfgYAML)
	add("version.json", map[string]any{"cairn": Version, "go": runtime.Version(), "os": runtime.GOOS, "arch": runtime.GOARCH,
		"cpus": runtime.NumCPU(), "written_at": time.Now().UTC().Format(time.RFC3339), "privacy": env.Config.Privacy})
	add("doctor.json", tools.Invoke(ctx, env, "doctor", nil))
	if env.Index != nil {
		add("status.json", tools.Invoke(ctx, env, "status", nil))
	}
	ops, err := ledger.ReadOperations(ctx, ledger.Path(env.Paths.StateDir), ledger.Filter{OnlyFails: true, Limit: diagRecentErrors})
	if err == nil {
		type errRow struct {
			Time     time.Time `json:"ts"`
			Tool     string    `json:"tool"`
			Code     string    `json:"code"`
			Message  string    `json:"message,omitempty"`
			Task     string    `json:"task_id,omitempty"`
			Limit    string    `json:"limit_triggered,omitempty"`
			Duration float64   `json:"duration_ms"`
		}
		rows := []errRow{}
		for _, op := range ops {
			r := errRow{Time: op.Time, Tool: op.Type, Code: op.ErrorCode, Task: op.TaskID, Limit: op.LimitTriggered,
				Duration: float64(op.Duration.Microseconds()) / 1000}
			if !anon {
				r.Message = op.ErrorMessage
			}
			rows = append(rows, r)
		}
		add("recent_errors.json", rows)
	}
	if lines, err := lastLines(logPath(env.Paths.StateDir), 500); err == nil {
		if anon {
			lines = anonymizeLog(lines)
		}
		add("log_tail.jsonl", strings.Join(lines, "\n")+"\n")
	}
	if err := z.Close(); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "diag: write %s", out)
	}
	return names, f.Close()
}

// logKeep are the fields an anonymized bundle keeps of a log line: none
// can hold a symbol name, a path or source text.
var logKeep = map[string]bool{"ts": true, "level": true, "event": true, "tool": true, "outcome": true, "ms": true,
	"request_id": true, "task_id": true, "client": true, "no_progress": true}

func anonymizeLog(lines []string) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) != nil {
			continue // not a JSON line: it could say anything
		}
		for k := range m {
			if !logKeep[k] {
				delete(m, k)
			}
		}
		if ev, _ := m["event"].(string); ev != "call" && ev != "request" && !strings.HasPrefix(ev, "task ") {
			m["event"] = "(anonymized)"
		}
		b, _ := json.Marshal(m)
		out = append(out, string(b))
	}
	return out
}
