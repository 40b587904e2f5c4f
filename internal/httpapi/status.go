package httpapi

import (
	"net/http"

	"github.com/cairnhq/cairn/internal/errs"
)

// statusByKind is the one table from error kinds to HTTP statuses.
var statusByKind = map[errs.Kind]int{
	errs.Internal:         http.StatusInternalServerError,
	errs.InvalidArgument:  http.StatusBadRequest,
	errs.InvalidRegex:     http.StatusBadRequest,
	errs.Usage:            http.StatusBadRequest,
	errs.NotFound:         http.StatusNotFound,
	errs.SymbolDeleted:    http.StatusNotFound,
	errs.FileNotFound:     http.StatusNotFound,
	errs.Ambiguous:        http.StatusConflict,
	errs.Precondition:     http.StatusConflict,
	errs.Conflict:         http.StatusConflict,
	errs.IndexUnavailable: http.StatusServiceUnavailable,
	errs.Timeout:          http.StatusGatewayTimeout,
	errs.Cancelled:        http.StatusGatewayTimeout,
	errs.OutsideRepo:      http.StatusForbidden,
	errs.Refused:          http.StatusForbidden,
	errs.Unauthorized:     http.StatusUnauthorized,
	errs.ForbiddenHost:    http.StatusForbidden,
	errs.ForbiddenOrigin:  http.StatusForbidden,
	errs.TooLarge:         http.StatusRequestEntityTooLarge,
	// The task's budget, not the server, refuses: nothing to retry.
	errs.TaskBudgetExceeded: http.StatusConflict,
	// The disk refused a write; the same call succeeds once there is room.
	errs.NoSpace: http.StatusInsufficientStorage,
	// An index artifact that cannot be used: the request's input is at fault.
	errs.ArtifactCorrupt:      http.StatusUnprocessableEntity,
	errs.ArtifactIncompatible: http.StatusUnprocessableEntity,
	// git is missing or was killed: the server answers everything else.
	errs.GitUnavailable: http.StatusServiceUnavailable,
}

// statusByCode is statusByKind keyed by the wire code that envelopes carry.
var statusByCode = func() map[string]int {
	out := map[string]int{}
	for k, st := range statusByKind {
		out[k.Code()] = st
	}
	return out
}()

// StatusOf is the HTTP status of an envelope error code; unknown codes are 500.
func StatusOf(code string) int {
	if st, ok := statusByCode[code]; ok {
		return st
	}
	return http.StatusInternalServerError
}
