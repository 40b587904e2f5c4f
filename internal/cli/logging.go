package cli

import (
	"io"
	"log/slog"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/obs"
)

// serverLogger builds a server's logger from logging.level and
// logging.outputs, or from the command's default outputs when none are
// configured. stdout is where "stdout" outputs go (stderr for `cairn mcp`,
// whose stdout carries the protocol).
func serverLogger(cfg config.Config, stateDir string, defaults []string, stdout, stderr io.Writer) (*slog.Logger, io.Closer, error) {
	specs := cfg.Logging.Outputs
	if len(specs) == 0 {
		specs = defaults
	}
	outputs := make([]obs.Output, 0, len(specs))
	for _, s := range specs {
		o, err := obs.ParseOutput(s)
		if err != nil {
			return nil, nil, errs.Wrap(errs.InvalidArgument, err, "config: logging.outputs")
		}
		outputs = append(outputs, o)
	}
	log, closer, err := obs.NewLogger(cfg.Logging.Level, outputs, stateDir, stdout, stderr)
	if err != nil {
		return nil, nil, errs.Wrap(errs.InvalidArgument, err, "config: logging")
	}
	return log, closer, nil
}
