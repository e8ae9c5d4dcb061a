package knowledge

import (
	"fmt"
	"time"
)

// The row shapes both drivers read (DESIGN §2: a driver holds only its
// SQL). Each XCols names the columns, in order, that XDest scans into; a
// driver selects them with its own SQL and collects the rows with Collect.
// Times scan from either driver's column (At), so SQLite's RFC 3339 text
// and PostgreSQL's timestamptz give the same UTC time.
const (
	// FlagCols are a flag's columns (FlagDest).
	FlagCols = "agent, reason, note, admin, at, origin, cleared"
	// EventCols are an event's columns (EventDest).
	EventCols = "kind, at, by, other_id, reason, note"
	// ModStateCols are a moderation row's columns (ModStateDest).
	ModStateCols = "entry_id, flags, cleared, quarantined, superseded_by, supersedes, flagged_at"
	// RedactionCols are a tombstone's columns (RedactionDest).
	RedactionCols = "id, hive, at, reason, by"
	// ContributionCols are an attribution row's columns (ContributionDest).
	ContributionCols = "agent, title, content, similarity, at, origin"
	// EndorsementCols are an endorsement row's columns (EndorsementDest).
	EndorsementCols = "agent, at, origin"
	// CiteCols are a per-day citation row's columns (CiteDest).
	CiteCols = "agent, day, origin"
	// MergeCols are a merge record's columns (MergeDest).
	MergeCols = "entry_id, merged_into, hive, title, at, similarity, via, unmerged_at, unmerged_by"
	// MergeRecordCols are a whole merge record's columns but its tags and
	// vector, which the driver stores its own way (MergeRecordDest).
	MergeRecordCols = "seq, " + MergeCols + ", content, norm_hash, model, specificity, " +
		"contribution_count, citation_count, endorsement_count, created_at, last_used_at"
)

// Rows is what a driver's query result offers: *sql.Rows and pgx.Rows both
// do. The caller closes it.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// Collect scans every row into a T through dest, which returns the
// destinations of one row's columns. It returns an empty slice, not nil,
// for no rows.
func Collect[T any](rows Rows, dest func(*T) []any) ([]T, error) {
	out := []T{}
	for rows.Next() {
		var x T
		if err := rows.Scan(dest(&x)...); err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, rows.Err()
}

// FlagDest scans FlagCols.
func FlagDest(f *FlagRecord) []any {
	return []any{&f.Agent, &f.Reason, &f.Note, &f.Admin, At(&f.At), &f.Origin, &f.Cleared}
}

// EventDest scans EventCols.
func EventDest(ev *Event) []any {
	return []any{&ev.Kind, At(&ev.At), &ev.By, &ev.OtherID, &ev.Reason, &ev.Note}
}

// ModStateDest scans ModStateCols.
func ModStateDest(s *ModState) []any {
	return []any{&s.ID, &s.Flags, &s.Cleared, &s.Quarantined, &s.SupersededBy, &s.Supersedes, At(&s.FlaggedAt)}
}

// RedactionDest scans RedactionCols.
func RedactionDest(r *Redaction) []any {
	return []any{&r.ID, &r.Hive, At(&r.At), &r.Reason, &r.By}
}

// ContributionDest scans ContributionCols.
func ContributionDest(c *ExportedContribution) []any {
	return []any{&c.Agent, &c.Title, &c.Content, &c.Similarity, At(&c.At), &c.Origin}
}

// EndorsementDest scans EndorsementCols.
func EndorsementDest(e *Endorsement) []any { return []any{&e.Agent, At(&e.At), &e.Origin} }

// CiteDest scans CiteCols.
func CiteDest(c *Cite) []any { return []any{&c.Agent, &c.Day, &c.Origin} }

// MergeDest scans MergeCols.
func MergeDest(m *Merge) []any {
	return []any{&m.EntryID, &m.MergedInto, &m.Hive, &m.Title, At(&m.At), &m.Similarity, &m.Via, At(&m.UnmergedAt), Text(&m.UnmergedBy)}
}

// MergeRecordDest scans MergeRecordCols, then the driver's own tags and
// vector destinations.
func MergeRecordDest(m *ExportedMerge, tags, vector any) []any {
	return append(append([]any{&m.Seq}, MergeDest(&m.Merge)...), &m.Content, &m.NormHash, &m.Model, &m.Specificity,
		&m.ContributionCount, &m.CitationCount, &m.EndorsementCount, At(&m.CreatedAt), At(&m.LastUsedAt), tags, vector)
}

// At returns a destination for a time column: a time, RFC 3339 text, or
// NULL or empty text (the zero time). The time is kept in UTC.
func At(t *time.Time) *TimeCol { return &TimeCol{t} }

// TimeCol is At's destination; it implements sql.Scanner, which both
// drivers honour.
type TimeCol struct{ t *time.Time }

// Scan stores src in the time TimeCol points at.
func (c *TimeCol) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*c.t = time.Time{}
	case time.Time:
		*c.t = v.UTC()
	case string:
		return c.parse(v)
	case []byte:
		return c.parse(string(v))
	default:
		return fmt.Errorf("scan time from %T", src)
	}
	return nil
}

func (c *TimeCol) parse(s string) error {
	if s == "" {
		*c.t = time.Time{}
		return nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return fmt.Errorf("parse time %q: %w", s, err)
	}
	*c.t = t.UTC()
	return nil
}

// Text returns a destination for a text column that may be NULL (empty).
func Text(s *string) *TextCol { return &TextCol{s} }

// TextCol is Text's destination; it implements sql.Scanner.
type TextCol struct{ s *string }

// Scan stores src, or "" for NULL, in the string TextCol points at.
func (c *TextCol) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*c.s = ""
	case string:
		*c.s = v
	case []byte:
		*c.s = string(v)
	default:
		return fmt.Errorf("scan text from %T", src)
	}
	return nil
}
