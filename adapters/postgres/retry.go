package postgres

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"pumasi"
	"pumasi/knowledge"
)

// What a broken connection does to an answer. PostgreSQL ends a session
// on a restart (57P01), a crash, pg_terminate_backend or a network fault;
// pgx destroys such a connection. A statement inside a transaction that
// breaks before COMMIT was sent is rolled back by the server: nothing was
// applied. COMMIT, or a statement run on its own, that breaks before its
// answer arrives may have been applied: its outcome is unknown.
//
// The driver every engine gets (NewKnowledge) retries once, on a
// connection proven alive (the pool pings every connection it hands out
// for a while after a break), each call where a retry is safe: reads;
// writes the engine makes idempotent by their exact key (Insert, by the
// entry's own id on its unique (hive, norm_hash) key; an endorsement,
// once per agent; the sweep mark, which only grows; a vector); and any
// write whose failure came before anything could have been applied. A
// write that may have been applied is answered as an unknown outcome
// (pumasi.OutcomeUnknown), never as unavailable; what still fails after
// the retry is unavailable (503, Retry-After), the database's disk full is
// insufficient_storage (507).

// database names the backend in errors clients see.
const database = "the knowledge database"

// brokenAt is when a broken connection was last seen (unix nanoseconds).
var brokenAt atomic.Int64

// pingAfterBreak is how long after a break the pool pings what it hands
// out, so that a retry runs on a live connection, not on another one the
// same restart killed.
const pingAfterBreak = 5 * time.Second

// shouldPing is the pool's ShouldPing: pgx's rule (idle over a second),
// and every acquire shortly after a break.
func shouldPing(_ context.Context, p pgxpool.ShouldPingParams) bool {
	return p.IdleDuration > time.Second || time.Since(time.Unix(0, brokenAt.Load())) < pingAfterBreak
}

// broken reports whether err is a lost or refused connection rather than
// an answer from the server about the statement.
func broken(err error) bool {
	if err == nil {
		return false
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case strings.HasPrefix(pe.Code, "08"), // connection_exception
			pe.Code == "57P01", pe.Code == "57P02", pe.Code == "57P03", // shutdown, crash, not yet accepting
			pe.Code == "53300": // too_many_connections
			return true
		}
		return false
	}
	var ne net.Error
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EPIPE) || errors.Is(err, pgconn.ErrConnClosed) ||
		errors.As(err, &ne) || pgconn.SafeToRetry(err)
}

// abortRetries bounds how often one call is run again after the server
// rolled it back as a deadlock's or a serialization failure's victim.
const abortRetries = 3

// aborted reports a transaction the server rolled back so that another
// could go on: deadlock_detected (40P01) or serialization_failure (40001).
// Nothing of it was applied.
func aborted(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40P01" || pe.Code == "40001")
}

// sleepCtx waits d, or less when ctx ends first; it reports whether ctx
// is still live.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// diskFull reports the server's disk_full (53100).
func diskFull(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "53100"
}

// outcomeTracer notes, in the request's pumasi.WriteLog, every write the
// server applied (COMMIT, or a write statement outside a transaction,
// answered) and every one whose answer a broken connection lost.
type outcomeTracer struct{}

type traceKey struct{}

type traceStart struct {
	sql      string
	inTx     bool
	writeSQL bool
}

func (outcomeTracer) TraceQueryStart(ctx context.Context, conn *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	return context.WithValue(ctx, traceKey{}, traceStart{sql: data.SQL, inTx: conn.PgConn().TxStatus() != 'I', writeSQL: writes(data.SQL)})
}

func (outcomeTracer) TraceQueryEnd(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryEndData) {
	st, _ := ctx.Value(traceKey{}).(traceStart)
	if broken(data.Err) {
		brokenAt.Store(time.Now().UnixNano())
	}
	commit := strings.EqualFold(strings.TrimSpace(st.sql), "commit")
	if !commit && (st.inTx || !st.writeSQL) {
		return // a read, or a statement a broken connection rolls back
	}
	switch {
	case data.Err == nil:
		pumasi.NoteApplied(ctx)
	case broken(data.Err) && !pgconn.SafeToRetry(data.Err):
		pumasi.NoteUnsure(ctx)
	}
}

// writes reports whether a statement changes data: its first word, or a
// WITH holding a data-changing statement.
func writes(sql string) bool {
	f := strings.Fields(strings.ToUpper(sql))
	if len(f) == 0 {
		return false
	}
	switch f[0] {
	case "SELECT", "BEGIN", "ROLLBACK", "SAVEPOINT", "RELEASE", "SET", "SHOW", "VALUES", "EXPLAIN":
		return false
	case "WITH":
		for _, w := range f[1:] {
			switch strings.Trim(w, "(),") {
			case "INSERT", "UPDATE", "DELETE", "MERGE":
				return true
			}
		}
		return false
	}
	return true
}

// kind is how a driver call may be retried.
type kind int

const (
	read       kind = iota // no write: always safe to retry
	idempotent             // a write its exact key makes safe to repeat
	write                  // retried only when nothing could have been applied
)

// retry runs fn, and once more after a broken connection when k allows it,
// and maps what it returns (see the comment at the top).
func retry(ctx context.Context, k kind, fn func(ctx context.Context) error) error {
	log := pumasi.WriteLogFrom(ctx)
	if log == nil {
		ctx, log = pumasi.WithWriteLog(ctx)
	}
	maybe, aborts := false, 0
	for attempt := 0; ; attempt++ {
		before, applied := log.Unsure(), log.Applied()
		err := fn(ctx)
		switch {
		case err == nil:
			return nil
		case diskFull(err):
			return &pumasi.Error{Code: pumasi.EInsufficientStorage, Message: database + "'s disk is full", Err: err}
		case aborted(err) && log.Applied() == applied && log.Unsure() == before && ctx.Err() == nil && aborts < abortRetries:
			// The server chose this transaction as a deadlock's or a
			// serialization failure's victim and rolled it back, and
			// nothing else of this call was applied: running it again is
			// what PostgreSQL asks of its client, whatever its kind.
			aborts++
			attempt-- // not a broken connection: the one retry those get is left
			if !sleepCtx(ctx, time.Duration(aborts)*5*time.Millisecond) {
				return err
			}
			continue
		case !broken(err) || ctx.Err() != nil:
			return err
		}
		if log.Unsure() > before {
			maybe = true
			if k == write {
				return pumasi.OutcomeUnknown(err)
			}
		}
		if attempt == 0 {
			continue
		}
		if maybe {
			return pumasi.OutcomeUnknown(err)
		}
		return pumasi.Unavailable(database, err)
	}
}

// retrying is the driver NewKnowledge hands the engine: the Knowledge
// driver with every call under retry. Methods it does not list pass
// through unchanged.
type retrying struct{ *Knowledge }

var (
	_ knowledge.Driver     = retrying{}
	_ knowledge.Reembedder = retrying{}
	_ knowledge.Redetailer = retrying{}
)

// Retrying returns d with broken connections retried where that is safe.
func Retrying(d *Knowledge) knowledge.Driver { return retrying{d} }

func (r retrying) FindExact(ctx context.Context, hive, normHash string) (id string, err error) {
	err = retry(ctx, read, func(ctx context.Context) error { id, err = r.Knowledge.FindExact(ctx, hive, normHash); return err })
	return id, err
}

func (r retrying) Insert(ctx context.Context, e knowledge.NewEntry, first knowledge.Contribution) (id string, created bool, err error) {
	err = retry(ctx, idempotent, func(ctx context.Context) error {
		id, created, err = r.Knowledge.Insert(ctx, e, first)
		return err
	})
	return id, created, err
}

func (r retrying) AddContribution(ctx context.Context, id string, c knowledge.Contribution) (counted bool, err error) {
	err = retry(ctx, write, func(ctx context.Context) error { counted, err = r.Knowledge.AddContribution(ctx, id, c); return err })
	return counted, err
}

// Cite is idempotent: a retry of a cite that landed finds its row and
// counts nothing more.
func (r retrying) Cite(ctx context.Context, id, agent, day string, at time.Time) (counted bool, err error) {
	err = retry(ctx, idempotent, func(ctx context.Context) error { counted, err = r.Knowledge.Cite(ctx, id, agent, day, at); return err })
	return counted, err
}

func (r retrying) Endorse(ctx context.Context, id, agent string, at time.Time) (counted bool, err error) {
	err = retry(ctx, idempotent, func(ctx context.Context) error { counted, err = r.Knowledge.Endorse(ctx, id, agent, at); return err })
	return counted, err
}

func (r retrying) Entries(ctx context.Context, ids []string) (m map[string]knowledge.StoredEntry, err error) {
	err = retry(ctx, read, func(ctx context.Context) error { m, err = r.Knowledge.Entries(ctx, ids); return err })
	return m, err
}

func (r retrying) Contributions(ctx context.Context, id string) (cs []knowledge.Contribution, err error) {
	err = retry(ctx, read, func(ctx context.Context) error { cs, err = r.Knowledge.Contributions(ctx, id); return err })
	return cs, err
}

func (r retrying) Nearest(ctx context.Context, hive, model string, v []float32, n int) (ids []string, err error) {
	err = retry(ctx, read, func(ctx context.Context) error { ids, err = r.Knowledge.Nearest(ctx, hive, model, v, n); return err })
	return ids, err
}

func (r retrying) NearestEntries(ctx context.Context, hive, model string, v []float32, n int) (es []knowledge.StoredEntry, err error) {
	err = retry(ctx, read, func(ctx context.Context) error {
		es, err = r.Knowledge.NearestEntries(ctx, hive, model, v, n)
		return err
	})
	return es, err
}

func (r retrying) TermCounts(ctx context.Context, terms []knowledge.Term, limit int) (n []int, err error) {
	err = retry(ctx, read, func(ctx context.Context) error { n, err = r.Knowledge.TermCounts(ctx, terms, limit); return err })
	return n, err
}

func (r retrying) Match(ctx context.Context, hive string, terms []knowledge.Term, n int) (ids [][]string, err error) {
	err = retry(ctx, read, func(ctx context.Context) error { ids, err = r.Knowledge.Match(ctx, hive, terms, n); return err })
	return ids, err
}

func (r retrying) Since(ctx context.Context, seq int64, limit int) (es []knowledge.StoredEntry, err error) {
	err = retry(ctx, read, func(ctx context.Context) error { es, err = r.Knowledge.Since(ctx, seq, limit); return err })
	return es, err
}

func (r retrying) SweepMark(ctx context.Context) (seq int64, err error) {
	err = retry(ctx, read, func(ctx context.Context) error { seq, err = r.Knowledge.SweepMark(ctx); return err })
	return seq, err
}

func (r retrying) SetSweepMark(ctx context.Context, seq int64) error {
	return retry(ctx, idempotent, func(ctx context.Context) error { return r.Knowledge.SetSweepMark(ctx, seq) })
}

func (r retrying) Absorb(ctx context.Context, m knowledge.Merge) error {
	return retry(ctx, write, func(ctx context.Context) error { return r.Knowledge.Absorb(ctx, m) })
}

func (r retrying) Merges(ctx context.Context, id string) (ms []knowledge.Merge, err error) {
	err = retry(ctx, read, func(ctx context.Context) error { ms, err = r.Knowledge.Merges(ctx, id); return err })
	return ms, err
}

func (r retrying) RecentMerges(ctx context.Context, q knowledge.MergeQuery) (ms []knowledge.SeqMerge, err error) {
	err = retry(ctx, read, func(ctx context.Context) error { ms, err = r.Knowledge.RecentMerges(ctx, q); return err })
	return ms, err
}

// Unmerge is idempotent: a retry of one that landed finds nothing absorbed
// (not_found), which the engine takes as done.
func (r retrying) Unmerge(ctx context.Context, u knowledge.Unmerge) error {
	return retry(ctx, idempotent, func(ctx context.Context) error { return r.Knowledge.Unmerge(ctx, u) })
}

func (r retrying) CountUnused(ctx context.Context, before time.Time) (n int, err error) {
	err = retry(ctx, read, func(ctx context.Context) error { n, err = r.Knowledge.CountUnused(ctx, before); return err })
	return n, err
}

func (r retrying) RecordSweep(ctx context.Context, rep knowledge.SweepReport) error {
	return retry(ctx, write, func(ctx context.Context) error { return r.Knowledge.RecordSweep(ctx, rep) })
}

func (r retrying) OtherModel(ctx context.Context, model string, limit int) (es []knowledge.StoredEntry, err error) {
	err = retry(ctx, read, func(ctx context.Context) error { es, err = r.Knowledge.OtherModel(ctx, model, limit); return err })
	return es, err
}

func (r retrying) SetVector(ctx context.Context, id, model string, v []float32) error {
	return retry(ctx, idempotent, func(ctx context.Context) error { return r.Knowledge.SetVector(ctx, id, model, v) })
}

func (r retrying) StaleAnalyses(ctx context.Context, current []byte, after string, limit int) (es []knowledge.StoredEntry, err error) {
	err = retry(ctx, read, func(ctx context.Context) error {
		es, err = r.Knowledge.StaleAnalyses(ctx, current, after, limit)
		return err
	})
	return es, err
}

// SetAnalysis is idempotent: the same analysis stored twice is stored.
func (r retrying) SetAnalysis(ctx context.Context, id string, analysis []byte) error {
	return retry(ctx, idempotent, func(ctx context.Context) error { return r.Knowledge.SetAnalysis(ctx, id, analysis) })
}

func (r retrying) StaleDetails(ctx context.Context, current []byte, after string, limit int) (es []knowledge.StoredEntry, err error) {
	err = retry(ctx, read, func(ctx context.Context) error {
		es, err = r.Knowledge.StaleDetails(ctx, current, after, limit)
		return err
	})
	return es, err
}

// SetDetails is idempotent: the same details stored twice are stored.
func (r retrying) SetDetails(ctx context.Context, id string, details []byte) error {
	return retry(ctx, idempotent, func(ctx context.Context) error { return r.Knowledge.SetDetails(ctx, id, details) })
}
