// Package errs defines Cairn's one error type. Every failure that reaches a user
// carries a Kind with a stable wire code, a number and a CLI exit status; adapters
// map errors in exactly one place each. Kinds are append-only: never renumber.
package errs

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"
)

// Kind classifies an error. The zero value is Internal.
type Kind int

// Kinds, append-only. The wire code, number and exit status live in kindInfo.
const (
	Internal Kind = iota
	InvalidArgument
	NotFound
	SymbolDeleted
	Ambiguous
	IndexUnavailable
	Timeout
	Cancelled
	Precondition
	Conflict
	OutsideRepo
	Refused
	InvalidRegex
	FileNotFound
	Usage
	Unauthorized
	ForbiddenHost
	ForbiddenOrigin
	TooLarge
	// TaskBudgetExceeded refuses a call that the open task's budget no
	// longer covers (mutations, test runs, full-file reads, duration).
	TaskBudgetExceeded
	// NoSpace is a write that the disk or a file-size limit refused
	// (ENOSPC, EFBIG, EDQUOT, SQLite's SQLITE_FULL): nothing was changed,
	// and the same call succeeds once there is room.
	NoSpace
	// ArtifactCorrupt is an index artifact whose bytes do not match its
	// checksum or do not read as an artifact: nothing was imported.
	ArtifactCorrupt
	// ArtifactIncompatible is an intact index artifact written by a build
	// of Cairn with another format, schema or extractor version.
	ArtifactIncompatible
	// GitUnavailable is a git command that could not run to its end: git
	// is not installed (not on PATH), or it was killed before it finished.
	// Only the tools that need git fail; nothing of a cut-off output is used.
	GitUnavailable
)

type info struct {
	code string
	num  int
	exit int
	// retryable errors may succeed if the same call is made again later.
	retryable bool
}

var kindInfo = map[Kind]info{
	Internal:         {"INTERNAL", 1001, 1, false},
	InvalidArgument:  {"INVALID_ARGUMENT", 2001, 2, false},
	InvalidRegex:     {"INVALID_REGEX", 2002, 2, false},
	Usage:            {"USAGE", 2003, 2, false},
	NotFound:         {"NOT_FOUND", 3001, 3, false},
	SymbolDeleted:    {"SYMBOL_DELETED", 3002, 3, false},
	FileNotFound:     {"FILE_NOT_FOUND", 3003, 3, false},
	Ambiguous:        {"AMBIGUOUS_SYMBOL", 4001, 4, false},
	IndexUnavailable: {"INDEX_UNAVAILABLE", 5001, 5, true},
	Timeout:          {"TIMEOUT", 6001, 6, true},
	Cancelled:        {"CANCELLED", 6002, 6, true},
	Precondition:     {"PRECONDITION_FAILED", 7001, 7, false},
	Conflict:         {"CONFLICT", 7002, 7, true},
	OutsideRepo:      {"PATH_OUTSIDE_REPO", 8001, 8, false},
	Refused:          {"PATH_REFUSED", 8002, 8, false},
	// The HTTP server refuses these before any tool runs.
	Unauthorized:    {"UNAUTHORIZED", 8003, 8, false},
	ForbiddenHost:   {"FORBIDDEN_HOST", 8004, 8, false},
	ForbiddenOrigin: {"FORBIDDEN_ORIGIN", 8005, 8, false},
	TooLarge:        {"TOO_LARGE", 2004, 2, false},
	// A precondition of the task, not of the files: exit 7 like the others.
	TaskBudgetExceeded: {"TASK_BUDGET_EXCEEDED", 7003, 7, false},
	NoSpace:            {"NO_SPACE", 5002, 5, true},
	// An artifact that cannot be used: the index stays as it was.
	ArtifactCorrupt:      {"ARTIFACT_CORRUPT", 5003, 5, false},
	ArtifactIncompatible: {"ARTIFACT_INCOMPATIBLE", 7004, 7, false},
	GitUnavailable:       {"GIT_UNAVAILABLE", 5004, 5, true},
}

// Code is the stable wire code of the kind, e.g. "NOT_FOUND".
func (k Kind) Code() string { return kindInfo[k].code }

// Num is the stable numeric code of the kind, e.g. 3001.
func (k Kind) Num() int { return kindInfo[k].num }

// ExitCode is the CLI exit status for the kind (DESIGN §6a).
func (k Kind) ExitCode() int { return kindInfo[k].exit }

// Retryable says whether the same call may succeed later.
func (k Kind) Retryable() bool { return kindInfo[k].retryable }

func (k Kind) String() string { return k.Code() }

// Error is the error type of Cairn.
type Error struct {
	Op         string         // the operation, e.g. "symbol_get"
	Kind       Kind           // the class of error
	Path       string         // the path involved, if any
	Msg        string         // a message for the user
	Err        error          // the underlying error, if any
	Details    map[string]any // structured details for agents
	Fixes      []string       // commands that may fix it
	Candidates []any          // candidates for an ambiguous name
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Op != "" {
		b.WriteString(e.Op)
		b.WriteString(": ")
	}
	b.WriteString(e.Message())
	return b.String()
}

// Message is the user-facing message without the operation prefix.
func (e *Error) Message() string {
	switch {
	case e.Msg != "" && e.Err != nil:
		return e.Msg + ": " + e.Err.Error()
	case e.Msg != "":
		return e.Msg
	case e.Err != nil:
		return e.Err.Error()
	case e.Path != "":
		return e.Kind.Code() + ": " + e.Path
	}
	return strings.ToLower(strings.ReplaceAll(e.Kind.Code(), "_", " "))
}

func (e *Error) Unwrap() error { return e.Err }

// E builds an error of a kind with a formatted message.
func E(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// Wrap attaches a kind and message to an underlying error.
func Wrap(kind Kind, err error, format string, args ...any) *Error {
	return &Error{Kind: kind, Err: err, Msg: fmt.Sprintf(format, args...)}
}

// KindOf finds the Kind of err: the first *Error in its chain, context errors
// as Timeout/Cancelled, anything else Internal.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return Timeout
	case errors.Is(err, context.Canceled):
		return Cancelled
	case IsNoSpace(err):
		return NoSpace
	}
	return Internal
}

// As returns err as an *Error, converting foreign errors by their kind.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Kind: KindOf(err), Err: err}
}

// Is reports whether err is of the given kind.
func Is(err error, kind Kind) bool {
	return err != nil && KindOf(err) == kind
}

// abbrevBytes is how much of a long argument a message quotes.
const abbrevBytes = 48

// Abbrev shortens a user's argument for a message: a message must not echo
// a megabyte of input back.
func Abbrev(s string) string {
	if len(s) <= abbrevBytes {
		return s
	}
	// The cut may fall inside a rune: drop the partial one.
	return strings.ToValidUTF8(s[:abbrevBytes], "") + "..."
}

// TooLong refuses an argument what longer than limit bytes, quoting only
// its start.
func TooLong(what, s string, limit int) *Error {
	return &Error{Kind: InvalidArgument, Msg: fmt.Sprintf("%s %q is %d bytes long, over the limit of %d", what, Abbrev(s), len(s), limit)}
}

// IsNoSpace reports whether err is a write the disk or a limit refused: no
// space left, a file over the size limit, a quota, or SQLite saying its
// database, journal or shared memory could not grow (SQLITE_FULL, or the
// SQLITE_IOERR that a refused write() or ftruncate() becomes inside SQLite).
func IsNoSpace(err error) bool {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EFBIG) || errors.Is(err, syscall.EDQUOT) {
		return true
	}
	var coded interface{ Code() int }
	if errors.As(err, &coded) {
		switch coded.Code() {
		case sqliteIOErrWrite, sqliteIOErrTruncate, sqliteIOErrShmSize:
			return true
		}
		return coded.Code()&0xff == sqliteFull
	}
	return false
}

// SQLite's result codes for a database, journal or shared-memory file that
// could not grow.
const (
	sqliteFull          = 13
	sqliteIOErrWrite    = 10 | 3<<8
	sqliteIOErrTruncate = 10 | 6<<8
	sqliteIOErrShmSize  = 10 | 19<<8
)

// WrapWrite attaches a message to a failed write: NO_SPACE when the disk or
// a limit refused it (with what to do), INTERNAL otherwise.
func WrapWrite(err error, format string, args ...any) *Error {
	if IsNoSpace(err) {
		return &Error{Kind: NoSpace, Err: err, Msg: fmt.Sprintf(format, args...) + ": the disk is full or a file-size limit was reached",
			Fixes: []string{"free disk space (or raise the file-size limit) and repeat the call; nothing was changed"}}
	}
	return Wrap(Internal, err, format, args...)
}
