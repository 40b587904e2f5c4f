package surface

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// LoggerLike reports whether a receiver names a logger: one of its
// identifiers is a logging package or a logger variable (log, logger,
// s.log, klog.V(2), logging.getLogger(...), _logger, console).
func LoggerLike(recv string) bool {
	// only the part before the first call or string counts: klog.V(2),
	// logging.getLogger(__name__), log.WithField("k", v)
	if i := strings.IndexAny(recv, "(\"'`"); i >= 0 {
		recv = recv[:i]
	}
	start := -1
	for i := 0; i <= len(recv); i++ {
		word := i < len(recv) && lang.IsWordByte(recv[i])
		if word && start < 0 {
			start = i
		}
		if !word && start >= 0 {
			if loggerWord(recv[start:i]) {
				return true
			}
			start = -1
		}
	}
	return false
}

func loggerWord(w string) bool {
	t := strings.ToLower(strings.TrimLeft(w, "_$"))
	switch t {
	case "log", "logs", "logger", "loggers", "logging", "klog", "glog", "slog", "logrus", "zap", "zerolog", "sugar",
		"lg", "lgr", "logr", "logx", "console", "winston", "pino", "bunyan", "serilog", "nlog", "log4j", "syslog",
		"tracing", "logctx", "l4j", "timber":
		return true
	}
	if strings.HasSuffix(t, "logger") || strings.HasSuffix(t, "_log") {
		return true
	}
	return strings.HasSuffix(t, "log") && len(t) > 3 && !notLogs[t]
}

var notLogs = map[string]bool{"catalog": true, "dialog": true, "blog": true, "changelog": true, "backlog": true,
	"prolog": true, "epilog": true, "weblog": true, "datalog": true, "analog": true, "monolog": true}

// GoLogLevel maps a Go logging method (log, slog, klog, glog, logrus, zap,
// logr) to its level; ok is false for other names.
func GoLogLevel(name string) (string, bool) {
	base := name
	for _, suf := range []string{"Context", "Depth", "S", "f", "ln", "w"} {
		if b, ok := strings.CutSuffix(base, suf); ok && b != "" {
			base = b
			break
		}
	}
	return level(goLevels, base)
}

// The logging methods of each ecosystem, by the level they log at. A name
// that is not a key is not a logging method.
var (
	goLevels = map[string]string{
		"Print": "info", "Trace": "trace", "Debug": "debug", "Info": "info",
		"Warn": "warn", "Warning": "warn", "Error": "error",
		"Fatal": "fatal", "Exit": "fatal", "Panic": "panic", "DPanic": "panic",
	}
	pythonLevels = map[string]string{
		"debug": "debug", "info": "info", "error": "error", "critical": "critical", "fatal": "fatal",
		"warning": "warn", "warn": "warn", "exception": "error", "log": "log",
	}
	// console, winston, pino, bunyan and NestJS Logger
	scriptLevels = map[string]string{
		"log": "info", "info": "info", "http": "info", "verbose": "info",
		"debug": "debug", "trace": "debug", "silly": "debug",
		"warn": "warn", "warning": "warn", "error": "error", "fatal": "error",
	}
	// SLF4J, Log4j, Logback, JUL and commons-logging
	jvmLevels = map[string]string{
		"trace": "trace", "finest": "trace", "finer": "trace",
		"debug": "debug", "fine": "debug", "config": "debug",
		"info": "info", "warn": "warn", "warning": "warn",
		"error": "error", "severe": "error", "fatal": "fatal",
		"log": "log", "atInfo": "log", "atDebug": "log", "atWarn": "log", "atError": "log", "atTrace": "log",
	}
	// ILogger extension methods without their Log prefix (LogInformation),
	// Serilog (Information) and NLog (Info); ILogger.Log itself is "log".
	dotnetLevels = map[string]string{
		"Trace": "trace", "Verbose": "trace", "Debug": "debug",
		"Information": "info", "Info": "info", "Warning": "warn", "Warn": "warn",
		"Error": "error", "Critical": "fatal", "Fatal": "fatal",
	}
)

func level(levels map[string]string, name string) (string, bool) {
	l, ok := levels[name]
	return l, ok
}

// PythonLogLevel maps a logging method to its level.
func PythonLogLevel(name string) (string, bool) { return level(pythonLevels, name) }

// ScriptLogLevel maps console, winston, pino, bunyan and NestJS Logger methods
// to their level.
func ScriptLogLevel(name string) (string, bool) { return level(scriptLevels, name) }

// JVMLogLevel maps SLF4J, Log4j, Logback, JUL and commons-logging methods.
func JVMLogLevel(name string) (string, bool) { return level(jvmLevels, name) }

// DotnetLogLevel maps ILogger extension methods (LogInformation), Serilog
// (Information) and NLog (Info) to their level.
func DotnetLogLevel(name string) (string, bool) {
	if name == "Log" {
		return "log", true
	}
	return level(dotnetLevels, strings.TrimPrefix(name, "Log"))
}
