package config

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
)

// TaskConfig are the default budgets of a task opened without them.
type TaskConfig struct {
	MaxMutations int `yaml:"max_mutations"`
	MaxTestRuns  int `yaml:"max_test_runs"`
	MaxReadKiB   int `yaml:"max_read_kib"`
	MaxDurationS int `yaml:"max_duration_s"`
}

// LedgerConfig bounds what the operation ledger keeps.
type LedgerConfig struct {
	RetentionDays int `yaml:"retention_days"`
	MaxTasks      int `yaml:"max_tasks"`
	MaxOperations int `yaml:"max_operations"`
}

// LoggingConfig configures the structured logs of servers.
type LoggingConfig struct {
	// Level is debug, info, warn or error.
	Level string `yaml:"level"`
	// Outputs are FORMAT:DESTINATION[:LEVEL] (format console or json;
	// destination stderr, stdout, state — the JSON log in the state dir
	// that `cairn status --verbose` reads — or an absolute path). Empty:
	// each command's default (console on stderr and json in the state dir).
	Outputs []string `yaml:"outputs"`
}

func defaultTask() TaskConfig {
	return TaskConfig{MaxMutations: 50, MaxTestRuns: 20, MaxReadKiB: 4096, MaxDurationS: 3600}
}

func defaultLedger() LedgerConfig {
	return LedgerConfig{RetentionDays: 14, MaxTasks: 500, MaxOperations: 100000}
}

var logLevels = map[string]bool{"debug": true, "info": true, "warn": true, "error": true}

func (c Config) validateOps() error {
	switch {
	case c.Task.MaxMutations <= 0 || c.Task.MaxTestRuns <= 0 || c.Task.MaxReadKiB <= 0 || c.Task.MaxDurationS <= 0:
		return errs.E(errs.InvalidArgument, "config: task.max_mutations, max_test_runs, max_read_kib and max_duration_s must be positive")
	case c.Ledger.RetentionDays <= 0 || c.Ledger.MaxTasks <= 0 || c.Ledger.MaxOperations <= 0:
		return errs.E(errs.InvalidArgument, "config: ledger.retention_days, max_tasks and max_operations must be positive")
	case !logLevels[strings.ToLower(c.Logging.Level)]:
		return errs.E(errs.InvalidArgument, "config: logging.level must be debug, info, warn or error, got %q", c.Logging.Level)
	}
	for _, o := range c.Logging.Outputs {
		if err := checkOutput(o); err != nil {
			return errs.E(errs.InvalidArgument, "config: logging.outputs: %v", err)
		}
	}
	return nil
}

// checkOutput checks a FORMAT:DESTINATION[:LEVEL] spec.
func checkOutput(spec string) error {
	format, rest, ok := strings.Cut(spec, ":")
	if !ok || (format != "console" && format != "json") {
		return fmt.Errorf("%q: want console:DESTINATION or json:DESTINATION", spec)
	}
	dest := rest
	if i := strings.LastIndex(rest, ":"); i >= 0 && logLevels[strings.ToLower(rest[i+1:])] {
		dest = rest[:i]
	}
	if dest != "stderr" && dest != "stdout" && dest != "state" && !filepath.IsAbs(dest) {
		return fmt.Errorf("%q: the destination must be stderr, stdout, state or an absolute path", spec)
	}
	return nil
}
