package knowledge

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"pumasi"
)

// DefaultQuarantineFlags is how many distinct flaggers quarantine an entry
// when Options.QuarantineFlags is zero (PUMASI_KNOWLEDGE_QUARANTINE_FLAGS).
const DefaultQuarantineFlags = 3

// MaxModerationNote bounds a flag's note and a redaction's reason, in
// characters.
const MaxModerationNote = 500

// Reasons a flag may give.
const (
	FlagWrong     = "wrong"
	FlagOutdated  = "outdated"
	FlagHarmful   = "harmful"
	FlagDuplicate = "duplicate"
	FlagPII       = "pii"
)

// FlagReasons lists the reasons a flag may give, in the contract's order.
var FlagReasons = []string{FlagWrong, FlagOutdated, FlagHarmful, FlagDuplicate, FlagPII}

// Kinds of lifecycle event an entry's history lists (Event.Kind).
const (
	EventFlagged     = "flagged"
	EventQuarantined = "quarantined"
	EventRestored    = "restored"
	EventRedacted    = "redacted"
	EventSuperseded  = "superseded" // this entry was superseded by OtherID
	EventSupersedes  = "supersedes" // this entry supersedes OtherID
)

// Event is one step of an entry's lifecycle, as its history lists it.
// OtherID is the other entry of a merge or a supersession, or of a restore
// through an absorbed id (on the survivor, the absorbed id asked through;
// on an absorbed entry, the survivor whose restore reviewed its flags); Similarity and
// Via are a merge's; By is who acted (a flagger, an admin); Reason and Note
// are a flag's or a redaction's.
type Event struct {
	Kind       string    `json:"kind"`
	At         time.Time `json:"at"`
	OtherID    string    `json:"other_id,omitempty"`
	Similarity float64   `json:"similarity,omitempty"`
	Via        string    `json:"via,omitempty"`
	By         string    `json:"by,omitempty"`
	Reason     string    `json:"reason,omitempty"`
	Note       string    `json:"note,omitempty"`
}

// Flag is one contributor's flag of an entry, as the engine hands it to
// Moderation.Flag.
type Flag struct {
	Agent  string
	Reason string
	Note   string
	// Admin says an admin flagged (it quarantines at once).
	Admin bool
	// Renew makes a repeat of Agent's flag that a restore cleared pending
	// again, with this flag's reason, note, admin bit and time, and a
	// flagged event (not counted: the flagger is not new). Without it a
	// repeat changes nothing.
	Renew bool
	At    time.Time
}

// ModState is what a driver keeps of an entry's moderation: its distinct
// flaggers, how many of them an admin's restore cleared, whether it is
// quarantined, and its lineage. An entry nobody moderated has the zero
// state.
type ModState struct {
	ID string
	// Flags counts distinct flaggers, ever.
	Flags int64
	// Cleared is Flags when an admin last restored the entry: only flags
	// after it count toward the next quarantine.
	Cleared     int64
	Quarantined bool
	// SupersededBy names the newer entry that supersedes this one;
	// Supersedes the older one this entry supersedes.
	SupersededBy, Supersedes string
	// FlaggedAt is the last flag's time.
	FlaggedAt time.Time
}

// Redaction is the tombstone a redacted entry leaves: its id, hive, when,
// why and by whom; nothing of its text.
type Redaction struct {
	ID     string
	Hive   string
	At     time.Time
	Reason string
	By     string
}

// Moderation is the part of the Driver that keeps flags, quarantine,
// lineage and redactions. It decides nothing: thresholds, who is an admin
// and what a query leaves out are the engine's.
type Moderation interface {
	// Flag records f against entry id once per f.Agent, with a flagged
	// event; the entry's distinct flaggers grow only with a new flagger
	// (counted true). A repeat changes nothing, but with f.Renew (see
	// Flag). Returns not_found when there is no such entry.
	Flag(ctx context.Context, id string, f Flag) (counted bool, err error)
	// SetQuarantine quarantines entry id (on) or lifts its quarantine,
	// then also clearing its flags (Cleared becomes Flags) and lifting the
	// quarantine of every entry absorbed into it (through any chain), whose
	// flags were among those cleared, and records ev in its history. A lift
	// also records ev, with OtherID id, in the history of each entry
	// absorbed into id that had a flag pending there (a flag row whose
	// origin it is) or was quarantined, and of the one ev.OtherID names
	// (the absorbed id a restore was asked through): their flags were
	// reviewed, and an unmerge brings them back restored. Returns
	// not_found when there is no such entry.
	SetQuarantine(ctx context.Context, id string, on bool, ev Event) error
	// Unquarantine lifts entry id's quarantine without clearing its flags
	// (they count on toward the next quarantine), and records ev in its
	// history. Returns not_found when there is no such entry.
	Unquarantine(ctx context.Context, id string, ev Event) error
	// ModStates returns the moderation state of the entries among ids that
	// have one; entries left out have the zero state.
	ModStates(ctx context.Context, ids []string) (map[string]ModState, error)
	// Moderated lists one page of the states of live entries that q
	// selects (see ModeratedQuery), filtered and ordered where they are
	// kept, so that no reviewed entry stands in for a waiting one.
	Moderated(ctx context.Context, q ModeratedQuery) ([]ModState, error)
	// Supersede records that entry newer supersedes entry older, with an
	// event on each: older's SupersededBy becomes newer (replacing an
	// earlier successor), newer's Supersedes becomes older. Returns
	// not_found when either entry is gone.
	Supersede(ctx context.Context, older, newer string, at time.Time) error
	// Redact removes entry id and everything that holds its text, title
	// or tags — the row, its attribution rows, its full-text index
	// entries, its vector in every process's index, the notes of its
	// flags — from every place the backend keeps them, free pages and logs
	// included, and keeps r as its tombstone with a redacted event. A
	// redacted id is redacted again as a no-op. Returns not_found when
	// there is no such entry nor tombstone.
	Redact(ctx context.Context, id string, r Redaction) error
	// RedactAbsorbed redacts entry r.ID, which an absorption still in
	// effect merged away and whose rows now live in entry holder: the
	// records of origins (r.ID and the entries absorbed into it) lose their
	// title, content, tags, vector and exact key; the rows whose origin is
	// among origins (contributions with their text, endorsements,
	// citations, flags) leave holder, whose counts become its distinct
	// contributors, endorsers and flaggers again and whose citations give
	// back what r.ID's absorb added (so do the records of the entries
	// between r.ID and holder); the events of origins lose their notes;
	// free pages and logs are cleaned as Redact cleans them; r is kept as
	// r.ID's tombstone with a redacted event. A redacted id is redacted
	// again as a no-op. Returns not_found when r.ID has no absorption in
	// effect, holder is not a live entry, or the rows moved since the
	// engine read holder and origins (checked inside the transaction: the
	// chain of absorptions in effect from r.ID ends in holder, and r.ID
	// with the entries absorbed into it is origins), and changes nothing
	// then.
	RedactAbsorbed(ctx context.Context, holder string, origins []string, r Redaction) error
	// Redaction returns the tombstone of a redacted id. Returns not_found
	// when id was never redacted.
	Redaction(ctx context.Context, id string) (Redaction, error)
	// Events lists id's moderation events (flags, quarantines, restores,
	// lineage, redaction) oldest first; none for an unknown id.
	Events(ctx context.Context, id string) ([]Event, error)
}

// FlagInput is a flag as the handler hands it to Engine.Flag.
type FlagInput struct {
	ID     string
	Agent  string
	Reason string
	Note   string
	// Admin is true when the caller proved an admin token.
	Admin bool
}

// validate checks a flag. Returns invalid_request or agent_required.
func (in FlagInput) validate() error {
	if err := CheckHandle(in.Agent); err != nil {
		return err
	}
	ok := false
	for _, r := range FlagReasons {
		ok = ok || in.Reason == r
	}
	if !ok {
		return pumasi.Errorf(pumasi.EInvalidRequest, "reason must be one of %s", strings.Join(FlagReasons, ", "))
	}
	return checkNote("note", in.Note)
}

func checkNote(what, s string) error {
	if !utf8.ValidString(s) {
		return pumasi.Errorf(pumasi.EInvalidRequest, "%s is not valid UTF-8", what)
	}
	if utf8.RuneCountInString(s) > MaxModerationNote {
		return pumasi.Errorf(pumasi.EInvalidRequest, "%s is longer than %d characters", what, MaxModerationNote)
	}
	return nil
}

// mod is the driver's Moderation part.
func (k *Engine) mod() Moderation { return k.d }

// Flag records in.Agent's flag of an entry, once per contributor (counted
// false for a repeat), and quarantines the entry when its distinct
// flaggers since the last restore reach the threshold, or at once when an
// admin flags. Returns not_found, or gone for a redacted entry.
func (k *Engine) Flag(ctx context.Context, in FlagInput) (Entry, bool, error) {
	if err := in.validate(); err != nil {
		return Entry{}, false, err
	}
	at := k.now().UTC()
	// An absorbed id's flag counts on its survivor, as a cite does.
	var counted bool
	id, err := k.live(ctx, in.ID, func(live string) (err error) {
		// An admin's repeat quarantines again (below): it is pending again,
		// so the flag behind the quarantine is there to review, with its
		// reason, in the view and the history.
		counted, err = k.mod().Flag(ctx, live, Flag{Agent: in.Agent, Reason: in.Reason, Note: in.Note, Admin: in.Admin, Renew: in.Admin, At: at})
		return err
	})
	if err != nil {
		return Entry{}, false, k.goneIfRedacted(ctx, in.ID, err)
	}
	st, err := k.modState(ctx, id)
	if err != nil {
		return Entry{}, false, err
	}
	// An admin's flag of an entry a merge quarantined makes the
	// quarantine the admin's own: an unmerge does not lift it then.
	byMerge := false
	if st.Quarantined && in.Admin {
		if byMerge, err = k.quarantinedByMerge(ctx, id); err != nil {
			return Entry{}, false, err
		}
	}
	if !st.Quarantined && (in.Admin || st.Flags-st.Cleared >= int64(k.quarantineFlags)) || byMerge {
		ev := Event{Kind: EventQuarantined, At: at, Reason: in.Reason}
		if in.Admin {
			ev.By = in.Agent
		} else {
			ev.Note = fmt.Sprintf("%d distinct flaggers", st.Flags-st.Cleared)
		}
		if err := k.mod().SetQuarantine(ctx, id, true, ev); err != nil {
			return Entry{}, false, k.goneIfRedacted(ctx, id, err)
		}
	}
	e, err := k.answer(ctx, in.ID, id)
	return e, counted, k.goneIfRedacted(ctx, id, err)
}

// Restore is an admin's review: it lifts an entry's quarantine, or
// dismisses the flags waiting on an entry not quarantined. The flags stay
// in its history and count, and only later flags count toward another
// quarantine or list it as flagged again. Restoring an entry with neither
// changes nothing. An absorbed id restores the entry that holds it (its
// flags count there), answered with merged_into, as GET answers it. The
// entries absorbed into the restored one are restored with it (their
// flags were reviewed there), so an unmerge brings them back restored.
// Returns not_found, or gone for a redacted entry.
func (k *Engine) Restore(ctx context.Context, id, by string) (Entry, error) {
	live, err := k.live(ctx, id, func(live string) error {
		st, err := k.modState(ctx, live)
		if err != nil || !st.Quarantined && st.Flags <= st.Cleared {
			return err
		}
		ev := Event{Kind: EventRestored, At: k.now().UTC(), By: by}
		if live != id {
			ev.OtherID = id // asked through an absorbed id, whose history says so too
		}
		return k.mod().SetQuarantine(ctx, live, false, ev)
	})
	if err != nil {
		return Entry{}, k.goneIfRedacted(ctx, id, err)
	}
	e, err := k.answer(ctx, id, live)
	return e, k.goneIfRedacted(ctx, live, err)
}

// Redact removes an entry's text, tags and vectors from everywhere the
// backend keeps them and leaves a tombstone (id, hive, when, why, by), so
// the id answers gone from then on. Redacting a redacted id again is a
// no-op, but for the lift of its survivor's quarantine (below), which runs
// again when a failure cut it short. An absorbed id redacts that entry inside its survivor: its record's
// text and everything it brought there (contributions, endorsements,
// citations, flags, with those of the entries absorbed into it) go, the
// survivor's own stay; the id answers gone, the survivor lives on (and a
// quarantine that merge alone brought is lifted). Returns not_found when
// the id was never an entry.
func (k *Engine) Redact(ctx context.Context, id, by, reason string) error {
	if err := checkNote("reason", reason); err != nil {
		return err
	}
	if _, err := k.mod().Redaction(ctx, id); err == nil {
		return k.reliftRedacted(ctx, id, by)
	} else if pumasi.ErrorCode(err) != pumasi.ENotFound {
		return err
	}
	r := Redaction{ID: id, At: k.now().UTC(), Reason: reason, By: by}
	// A sweep may absorb the entry, or an unmerge bring it back, between
	// the read and the redaction (not_found): then look again.
	for attempt := 0; ; attempt++ {
		ents, err := k.d.Entries(ctx, []string{id})
		if err != nil {
			return err
		}
		if e, ok := ents[id]; ok {
			r.Hive = e.Hive
			err = k.mod().Redact(ctx, id, r)
		} else {
			err = k.redactAbsorbed(ctx, r)
		}
		if pumasi.ErrorCode(err) != pumasi.ENotFound || attempt == 2 {
			return err
		}
	}
}

// goneIfRedacted turns a not_found about id into gone when id was
// redacted; any other answer passes unchanged.
func (k *Engine) goneIfRedacted(ctx context.Context, id string, err error) error {
	if pumasi.ErrorCode(err) != pumasi.ENotFound {
		return err
	}
	r, rerr := k.mod().Redaction(ctx, id)
	if rerr != nil {
		return err
	}
	return &pumasi.Error{Code: pumasi.EGone, Message: fmt.Sprintf("knowledge entry %q was redacted on %s", r.ID, r.At.Format(time.DateOnly))}
}

// modState reads one entry's moderation state; the zero state (with its
// id) when it has none. Returns not_found, or gone, when the entry is not
// there.
func (k *Engine) modState(ctx context.Context, id string) (ModState, error) {
	ents, err := k.d.Entries(ctx, []string{id})
	if err != nil {
		return ModState{}, err
	}
	if _, ok := ents[id]; !ok {
		return ModState{}, k.goneIfRedacted(ctx, id, pumasi.Errorf(pumasi.ENotFound, "no knowledge entry %q", id))
	}
	sts, err := k.mod().ModStates(ctx, []string{id})
	if err != nil {
		return ModState{}, err
	}
	st := sts[id]
	st.ID = id
	return st, nil
}

// withState fills an entry's moderation fields from st.
func withState(e Entry, st ModState) Entry {
	e.Flags = st.Flags
	e.Quarantined = st.Quarantined
	e.SupersededBy = st.SupersededBy
	e.Supersedes = st.Supersedes
	return e
}
