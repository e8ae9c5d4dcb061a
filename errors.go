// Package pumasi is the domain of a shared memory for teams of AI agents: room
// files mirrored into every placed agent's memory, and collective knowledge.
// It holds types, validation, error codes and pure logic; no I/O lives here.
package pumasi

import (
	"errors"
	"fmt"
	"net/http"
)

// Error codes of the public contract (DESIGN.md §4). Callers branch on these,
// never on messages.
const (
	EInvalidName        = "invalid_name"
	EInvalidRequest     = "invalid_request"
	EUnauthorized       = "unauthorized"
	EAgentRequired      = "agent_required"
	EForbidden          = "forbidden"
	ENotFound           = "not_found"
	EGone               = "gone"
	ENameConflict       = "name_conflict"
	EPreconditionFailed = "precondition_failed"
	ETooLarge           = "too_large"
	EQuotaExceeded      = "quota_exceeded"
	EUnsupportedType    = "unsupported_type"
	ERejected           = "rejected"
	ERateLimited        = "rate_limited"
	EInternal           = "internal"
)

// Error is the one error type that crosses package boundaries. Its Message is
// safe to show to a client; internal causes stay in Err and are only logged.
type Error struct {
	Code    string
	Message string
	Err     error
}

// Error describes the error, including the wrapped cause for logs.
func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return e.Code + ": " + e.Message
}

// Unwrap returns the internal cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with code and a formatted client-safe message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, "" for nil and
// internal for any other error.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EInternal
}

// ErrorMessage returns the client-safe message of err: the *Error's message, or
// a generic text for internal errors so that no internals leak.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) && e.Code != EInternal {
		return e.Message
	}
	return "internal error"
}

var statusByCode = map[string]int{
	EInvalidName:        http.StatusBadRequest,
	EInvalidRequest:     http.StatusBadRequest,
	EUnauthorized:       http.StatusUnauthorized,
	EAgentRequired:      http.StatusUnauthorized,
	EForbidden:          http.StatusForbidden,
	ENotFound:           http.StatusNotFound,
	EGone:               http.StatusGone,
	ENameConflict:       http.StatusConflict,
	EPreconditionFailed: http.StatusPreconditionFailed,
	ETooLarge:           http.StatusRequestEntityTooLarge,
	EQuotaExceeded:      http.StatusRequestEntityTooLarge,
	EUnsupportedType:    http.StatusUnsupportedMediaType,
	ERejected:           http.StatusUnprocessableEntity,
	ERateLimited:        http.StatusTooManyRequests,
	EInternal:           http.StatusInternalServerError,
}

// HTTPStatus maps an error code to its HTTP status; unknown codes are 500.
func HTTPStatus(code string) int {
	if s, ok := statusByCode[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}
