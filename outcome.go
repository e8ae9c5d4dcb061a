package pumasi

import (
	"context"
	"sync/atomic"
)

// WriteLog records, for one request, what the stores did: writes known to
// be applied, and writes whose answer was lost (maybe applied). A handler
// answers unavailable or insufficient_storage ("nothing was applied") only
// while the log holds neither; otherwise the honest answer to a failure is
// OutcomeUnknown. Stores note what they did with NoteApplied and
// NoteUnsure; a request without a log costs them nothing.
type WriteLog struct {
	applied, unsure atomic.Int64
}

type writeLogKey struct{}

// WithWriteLog returns ctx carrying a fresh log, and the log.
func WithWriteLog(ctx context.Context) (context.Context, *WriteLog) {
	l := &WriteLog{}
	return context.WithValue(ctx, writeLogKey{}, l), l
}

// WriteLogFrom returns the log ctx carries, nil when none.
func WriteLogFrom(ctx context.Context) *WriteLog {
	l, _ := ctx.Value(writeLogKey{}).(*WriteLog)
	return l
}

// NoteApplied records a write that was applied (its commit answered).
func NoteApplied(ctx context.Context) {
	if l := WriteLogFrom(ctx); l != nil {
		l.applied.Add(1)
	}
}

// NoteUnsure records a write whose commit was sent and whose answer was
// lost.
func NoteUnsure(ctx context.Context) {
	if l := WriteLogFrom(ctx); l != nil {
		l.unsure.Add(1)
	}
}

// Applied counts the writes known to be applied.
func (l *WriteLog) Applied() int64 {
	if l == nil {
		return 0
	}
	return l.applied.Load()
}

// Unsure counts the writes whose outcome is unknown.
func (l *WriteLog) Unsure() int64 {
	if l == nil {
		return 0
	}
	return l.unsure.Load()
}

// Honest returns err as a client may be told it after the writes in l: a
// failure that promises nothing was applied (unavailable,
// insufficient_storage) becomes OutcomeUnknown once a write was applied or
// may have been.
func (l *WriteLog) Honest(err error) error {
	switch ErrorCode(err) {
	case EUnavailable, EInsufficientStorage:
		if l.Applied() > 0 || l.Unsure() > 0 {
			return OutcomeUnknown(err)
		}
	}
	return err
}
