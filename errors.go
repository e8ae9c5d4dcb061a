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
	// EUnavailable: a backend the request needs did not answer; nothing
	// was applied, and the same request may be sent again later.
	EUnavailable = "unavailable"
	// EInsufficientStorage: the disk the write needs is full (or below
	// the free-space floor); nothing was applied.
	EInsufficientStorage = "insufficient_storage"
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
// a generic text for internal errors so that no internals leak (an internal
// *Error made by OutcomeUnknown says so, which is safe to show).
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) && (e.Code != EInternal || e.Message == outcomeUnknownMessage) {
		return e.Message
	}
	return "internal error"
}

// outcomeUnknownMessage is what a client is told of a write whose answer
// the store lost.
const outcomeUnknownMessage = "the outcome is unknown: the store lost its answer, so the write may or may not have been applied; " +
	"read it back, or retry with a precondition (If-Match/If-None-Match) if that matters"

// OutcomeUnknown marks err, a failure met after a write may have been
// applied (its commit sent, its answer lost), as internal with a message
// that says so: never unavailable or insufficient_storage, which promise
// that nothing was applied.
func OutcomeUnknown(err error) error {
	if ErrorCode(err) == EInternal {
		var e *Error
		if errors.As(err, &e) && e.Message == outcomeUnknownMessage {
			return err
		}
	}
	return &Error{Code: EInternal, Message: outcomeUnknownMessage, Err: err}
}

// IsOutcomeUnknown reports whether err was marked by OutcomeUnknown.
func IsOutcomeUnknown(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == EInternal && e.Message == outcomeUnknownMessage
}

// Unavailable returns unavailable for err, a backend that did not answer
// before anything was applied; what names the backend for the message.
func Unavailable(what string, err error) error {
	return &Error{Code: EUnavailable, Message: what + " is not answering; retry later", Err: err}
}

var statusByCode = map[string]int{
	EInvalidName:         http.StatusBadRequest,
	EInvalidRequest:      http.StatusBadRequest,
	EUnauthorized:        http.StatusUnauthorized,
	EAgentRequired:       http.StatusUnauthorized,
	EForbidden:           http.StatusForbidden,
	ENotFound:            http.StatusNotFound,
	EGone:                http.StatusGone,
	ENameConflict:        http.StatusConflict,
	EPreconditionFailed:  http.StatusPreconditionFailed,
	ETooLarge:            http.StatusRequestEntityTooLarge,
	EQuotaExceeded:       http.StatusRequestEntityTooLarge,
	EUnsupportedType:     http.StatusUnsupportedMediaType,
	ERejected:            http.StatusUnprocessableEntity,
	ERateLimited:         http.StatusTooManyRequests,
	EInternal:            http.StatusInternalServerError,
	EUnavailable:         http.StatusServiceUnavailable,
	EInsufficientStorage: http.StatusInsufficientStorage,
}

// HTTPStatus maps an error code to its HTTP status; unknown codes are 500.
func HTTPStatus(code string) int {
	if s, ok := statusByCode[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}
