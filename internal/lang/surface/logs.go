package surface

import (
	"strings"
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
		word := i < len(recv) && isWordByte(recv[i])
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
	switch base {
	case "Print":
		return "info", true
	case "Trace":
		return "trace", true
	case "Debug":
		return "debug", true
	case "Info":
		return "info", true
	case "Warn", "Warning":
		return "warn", true
	case "Error":
		return "error", true
	case "Fatal", "Exit":
		return "fatal", true
	case "Panic", "DPanic":
		return "panic", true
	}
	return "", false
}

// PythonLogLevel maps a logging method to its level.
func PythonLogLevel(name string) (string, bool) {
	switch name {
	case "debug", "info", "error", "critical", "fatal":
		return name, true
	case "warning", "warn":
		return "warn", true
	case "exception":
		return "error", true
	case "log":
		return "log", true
	}
	return "", false
}

// ScriptLogLevel maps console, winston, pino, bunyan and NestJS Logger methods
// to their level.
func ScriptLogLevel(name string) (string, bool) {
	switch name {
	case "log", "info", "http", "verbose":
		return "info", true
	case "debug", "trace", "silly":
		return "debug", true
	case "warn", "warning":
		return "warn", true
	case "error", "fatal":
		return "error", true
	}
	return "", false
}

// JVMLogLevel maps SLF4J, Log4j, Logback, JUL and commons-logging methods.
func JVMLogLevel(name string) (string, bool) {
	switch name {
	case "trace", "finest", "finer":
		return "trace", true
	case "debug", "fine", "config":
		return "debug", true
	case "info":
		return "info", true
	case "warn", "warning":
		return "warn", true
	case "error", "severe":
		return "error", true
	case "fatal":
		return "fatal", true
	case "log", "atInfo", "atDebug", "atWarn", "atError", "atTrace":
		return "log", true
	}
	return "", false
}

// DotnetLogLevel maps ILogger extension methods (LogInformation), Serilog
// (Information) and NLog (Info) to their level.
func DotnetLogLevel(name string) (string, bool) {
	n := strings.TrimPrefix(name, "Log")
	switch n {
	case "Trace", "Verbose":
		return "trace", true
	case "Debug":
		return "debug", true
	case "Information", "Info":
		return "info", true
	case "Warning", "Warn":
		return "warn", true
	case "Error":
		return "error", true
	case "Critical", "Fatal":
		return "fatal", true
	case "":
		if name == "Log" {
			return "log", true
		}
	}
	return "", false
}
