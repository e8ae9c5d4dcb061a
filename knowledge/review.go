package knowledge

import (
	"context"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"

	"pumasi"
)

// The moderation view: what an admin reviews, a page at a time. The
// driver filters and orders the rows where it keeps them and the engine
// pages by a cursor, so an entry waiting for review is listed however many
// reviewed ones are newer.

// Lists of the moderation view (ModerationQuery.List).
const (
	ListFlagged     = "flagged"
	ListQuarantined = "quarantined"
	ListMerges      = "merges"
)

// ModeratedQuery selects a page of Moderation.Moderated: the live entries
// of Hive (every hive when empty) that are quarantined (Quarantined), or
// else flagged — a flag pending (Flags above Cleared) and not quarantined
// — the last flagged first (FlaggedAt descending, an entry never flagged
// last, then ID ascending), starting after the entry at (AfterAt, AfterID)
// of that order (the first page when AfterID is empty), up to Limit.
type ModeratedQuery struct {
	Hive        string
	Quarantined bool
	AfterAt     time.Time
	AfterID     string
	Limit       int
}

// MergeQuery selects a page of Driver.RecentMerges: the undoable merges of
// Hive (every hive when empty) whose record's Seq is below Before (no bound
// when zero), up to Limit.
type MergeQuery struct {
	Hive   string
	Before int64
	Limit  int
}

// SeqMerge is a merge record with its place among the records (Seq grows
// with every absorption), which pages RecentMerges.
type SeqMerge struct {
	Merge
	Seq int64
}

// ModerationQuery asks for the moderation view of Hive (every hive when
// empty): up to Limit (at most MaxQueryLimit; that when zero) of each list,
// or, when List names one, that list alone (the others empty), from Cursor
// (its Next of an earlier page) when set.
type ModerationQuery struct {
	Hive   string
	List   string
	Cursor string
	Limit  int
}

// ModerationView is what an admin reviews: entries flagged since their
// last restore and not quarantined, quarantined ones (the last flagged
// first), and recent merges that an unmerge can undo (not those a
// redaction blanked). Next holds, for each list with more past this page,
// the cursor of its next page.
type ModerationView struct {
	Flagged     []Entry        `json:"flagged"`
	Quarantined []Entry        `json:"quarantined"`
	Merges      []Merge        `json:"merges"`
	Next        ModerationNext `json:"next"`
}

// ModerationNext is the cursor of each list's next page; empty when the
// list has no more.
type ModerationNext struct {
	Flagged     string `json:"flagged,omitempty"`
	Quarantined string `json:"quarantined,omitempty"`
	Merges      string `json:"merges,omitempty"`
}

// Moderation answers one page of the moderation view (see
// ModerationQuery). Returns invalid_request for a malformed hive, list or
// cursor.
func (k *Engine) Moderation(ctx context.Context, q ModerationQuery) (ModerationView, error) {
	out := ModerationView{Flagged: []Entry{}, Quarantined: []Entry{}, Merges: []Merge{}}
	if q.Hive != "" && !pumasi.ValidID(q.Hive) {
		return out, pumasi.Errorf(pumasi.EInvalidRequest, "hive id must match ^[a-z0-9][a-z0-9._-]{0,62}$")
	}
	switch q.List {
	case "", ListFlagged, ListQuarantined, ListMerges:
	default:
		return out, pumasi.Errorf(pumasi.EInvalidRequest, "list must be one of %s, %s, %s", ListFlagged, ListQuarantined, ListMerges)
	}
	if q.Cursor != "" && q.List == "" {
		return out, pumasi.Errorf(pumasi.EInvalidRequest, "a cursor continues one list: name it (list)")
	}
	if q.Limit <= 0 || q.Limit > MaxQueryLimit {
		q.Limit = MaxQueryLimit
	}
	var err error
	if q.List == "" || q.List == ListMerges {
		if out.Merges, out.Next.Merges, err = k.mergesPage(ctx, q); err != nil {
			return out, err
		}
	}
	if q.List == "" || q.List == ListFlagged {
		if out.Flagged, out.Next.Flagged, err = k.moderatedPage(ctx, q, ListFlagged); err != nil {
			return out, err
		}
	}
	if q.List == "" || q.List == ListQuarantined {
		if out.Quarantined, out.Next.Quarantined, err = k.moderatedPage(ctx, q, ListQuarantined); err != nil {
			return out, err
		}
	}
	return out, nil
}

// mergesPage reads a page of undoable merges and the cursor past it.
func (k *Engine) mergesPage(ctx context.Context, q ModerationQuery) ([]Merge, string, error) {
	mq := MergeQuery{Hive: q.Hive, Limit: q.Limit + 1}
	if q.Cursor != "" {
		p, err := decodeCursor(ListMerges, q.Cursor)
		if err != nil {
			return nil, "", err
		}
		if mq.Before, err = strconv.ParseInt(p, 10, 64); err != nil || mq.Before <= 0 {
			return nil, "", badCursor()
		}
	}
	ms, err := k.d.RecentMerges(ctx, mq)
	if err != nil {
		return nil, "", fmt.Errorf("list recent merges: %w", err)
	}
	out := make([]Merge, 0, min(len(ms), q.Limit))
	for _, m := range ms[:min(len(ms), q.Limit)] {
		out = append(out, m.Merge)
	}
	next := ""
	if len(ms) > q.Limit {
		next = encodeCursor(ListMerges, strconv.FormatInt(ms[q.Limit-1].Seq, 10))
	}
	return out, next, nil
}

// moderatedPage reads a page of flagged or quarantined entries and the
// cursor past it. An entry a sweep absorbed between the two reads is left
// out of the page (its flags are its survivor's now); the cursor still
// passes it.
func (k *Engine) moderatedPage(ctx context.Context, q ModerationQuery, list string) ([]Entry, string, error) {
	mq := ModeratedQuery{Hive: q.Hive, Quarantined: list == ListQuarantined, Limit: q.Limit + 1}
	if q.Cursor != "" {
		p, err := decodeCursor(list, q.Cursor)
		if err != nil {
			return nil, "", err
		}
		at, id, ok := strings.Cut(p, " ")
		if !ok || id == "" {
			return nil, "", badCursor()
		}
		if at != "" {
			if mq.AfterAt, err = time.Parse(time.RFC3339Nano, at); err != nil {
				return nil, "", badCursor()
			}
		}
		mq.AfterID = id
	}
	sts, err := k.mod().Moderated(ctx, mq)
	if err != nil {
		return nil, "", fmt.Errorf("list %s entries: %w", list, err)
	}
	page := sts[:min(len(sts), q.Limit)]
	ids := make([]string, len(page))
	for i, st := range page {
		ids[i] = st.ID
	}
	ents, err := k.d.Entries(ctx, ids)
	if err != nil {
		return nil, "", err
	}
	out := make([]Entry, 0, len(page))
	for _, st := range page {
		if s, ok := ents[st.ID]; ok {
			out = append(out, withState(k.public(s), st))
		}
	}
	next := ""
	if len(sts) > q.Limit {
		last, at := page[len(page)-1], ""
		if !last.FlaggedAt.IsZero() {
			at = last.FlaggedAt.UTC().Format(time.RFC3339Nano)
		}
		next = encodeCursor(list, at+" "+last.ID)
	}
	return out, next, nil
}

// encodeCursor makes list's position p an opaque cursor.
func encodeCursor(list, p string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(list + ":" + p))
}

// decodeCursor reads a cursor of list. Returns invalid_request when it is
// not one.
func decodeCursor(list, c string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return "", badCursor()
	}
	p, ok := strings.CutPrefix(string(b), list+":")
	if !ok {
		return "", pumasi.Errorf(pumasi.EInvalidRequest, "cursor is not one of the %s list's", list)
	}
	return p, nil
}

func badCursor() error {
	return pumasi.Errorf(pumasi.EInvalidRequest, "cursor is not one this server gave")
}
