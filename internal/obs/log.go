package obs

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
)

const (
	slogInfo = slog.LevelInfo
	slogWarn = slog.LevelWarn
)

// LogFile is the JSON log a server keeps in its state dir (destination
// "state"); `cairn status --verbose` and `--follow` read it.
func LogFile(stateDir string) string { return filepath.Join(stateDir, "logs", "cairn.log") }

// maxLogBytes is the size at which the state dir's log is rotated (once:
// cairn.log.1 holds the previous one).
const maxLogBytes = 16 << 20

// Output is one log destination: FORMAT:DESTINATION[:LEVEL], e.g.
// "console:stderr", "json:state", "json:/var/log/cairn.jsonl:debug".
type Output struct {
	Format      string // console or json
	Destination string // stderr, stdout, state, or an absolute file path
	Level       string // "" inherits the logger's level
}

// ParseOutput reads one output spec.
func ParseOutput(spec string) (Output, error) {
	format, rest, ok := strings.Cut(spec, ":")
	if !ok || rest == "" {
		return Output{}, fmt.Errorf("log output %q: want FORMAT:DESTINATION[:LEVEL]", spec)
	}
	o := Output{Format: format, Destination: rest}
	if i := strings.LastIndex(rest, ":"); i >= 0 {
		if _, err := ParseLevel(rest[i+1:]); err == nil {
			o.Destination, o.Level = rest[:i], rest[i+1:]
		}
	}
	if o.Format != "console" && o.Format != "json" {
		return Output{}, fmt.Errorf("log output %q: format must be console or json", spec)
	}
	switch {
	case o.Destination == "stderr", o.Destination == "stdout", o.Destination == "state", filepath.IsAbs(o.Destination):
	default:
		return Output{}, fmt.Errorf("log output %q: destination must be stderr, stdout, state or an absolute path", spec)
	}
	return o, nil
}

// ParseLevel reads debug, info, warn or error.
func ParseLevel(s string) (slog.Level, error) {
	switch strings.ToLower(s) {
	case "debug":
		return slog.LevelDebug, nil
	case "info", "":
		return slog.LevelInfo, nil
	case "warn", "warning":
		return slog.LevelWarn, nil
	case "error":
		return slog.LevelError, nil
	}
	return 0, fmt.Errorf("log level %q: want debug, info, warn or error", s)
}

// NewLogger builds a logger writing to every output at its level. stderr
// and stdout are the given writers (stdout is the protocol's for `cairn
// mcp`: callers map it elsewhere). The returned closer closes the files.
func NewLogger(level string, outputs []Output, stateDir string, stdout, stderr io.Writer) (*slog.Logger, io.Closer, error) {
	base, err := ParseLevel(level)
	if err != nil {
		return nil, nil, err
	}
	var handlers []slog.Handler
	var files closers
	for _, o := range outputs {
		lv := base
		if o.Level != "" {
			if lv, err = ParseLevel(o.Level); err != nil {
				files.Close()
				return nil, nil, err
			}
		}
		var w io.Writer
		switch o.Destination {
		case "stderr":
			w = stderr
		case "stdout":
			w = stdout
		default:
			path := o.Destination
			if path == "state" {
				if stateDir == "" {
					continue
				}
				path = LogFile(stateDir)
			}
			f, err := openLog(path)
			if err != nil {
				files.Close()
				return nil, nil, err
			}
			files = append(files, f)
			w = f
		}
		opts := &slog.HandlerOptions{Level: lv, ReplaceAttr: renameKeys}
		if o.Format == "json" {
			handlers = append(handlers, slog.NewJSONHandler(w, opts))
		} else {
			handlers = append(handlers, slog.NewTextHandler(w, &slog.HandlerOptions{Level: lv}))
		}
	}
	return slog.New(slog.NewMultiHandler(handlers...)), files, nil
}

// renameKeys spells the JSON lines' standard keys as ts, level and event.
func renameKeys(groups []string, a slog.Attr) slog.Attr {
	if len(groups) > 0 {
		return a
	}
	switch a.Key {
	case slog.TimeKey:
		a.Key = "ts"
		a.Value = slog.StringValue(a.Value.Time().UTC().Format("2006-01-02T15:04:05.000Z07:00"))
	case slog.MessageKey:
		a.Key = "event"
	case slog.LevelKey:
		a.Value = slog.StringValue(strings.ToLower(a.Value.String()))
	}
	return a
}

func openLog(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("log: %w", err)
	}
	if st, err := os.Stat(path); err == nil && st.Size() > maxLogBytes {
		os.Rename(path, path+".1")
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("log: %w", err)
	}
	return f, nil
}

type closers []io.Closer

func (c closers) Close() error {
	for _, x := range c {
		x.Close()
	}
	return nil
}
