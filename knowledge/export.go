package knowledge

import (
	"context"
	"fmt"
	"time"

	"pumasi"
)

// Record is one line of a corpus export (`pumasi know export`,
// docs/export.md): a live entry with everything it holds, the record of
// one absorption (so that unmerge still works after a move), or the
// tombstone of a redacted id. Import loads it into any backend, keeping
// ids, counts and times.
type Record struct {
	Entry     *ExportedEntry `json:"entry,omitempty"`
	Merge     *ExportedMerge `json:"merge,omitempty"`
	Tombstone *Tombstone     `json:"tombstone,omitempty"`
}

// ExportedEntry is an entry as an export carries it: the row, its
// attribution, endorsement and citation rows (each with its origin, the
// entry it was first made on, which unmerge moves back by), who flagged
// it, its moderation state and its history.
type ExportedEntry struct {
	ID    string `json:"id"`
	Hive  string `json:"hive"`
	Title string `json:"title"`
	Row
	// Contributions are the attribution rows, oldest first; Contributors
	// the distinct agents contribution_count counts.
	Contributions []ExportedContribution `json:"contributions"`
	Contributors  []string               `json:"contributors"`
	Endorsements  []Endorsement          `json:"endorsements"`
	// Cites are the per-day citation rows that make a repeat the same day
	// not count, and a merge count a day both entries were cited once.
	Cites []Cite `json:"cites"`
	Lifecycle
}

// Row is an entry's own columns beside its id, hive and title, as an
// entry or an absorption record keeps them.
type Row struct {
	Content           string    `json:"content"`
	Tags              []string  `json:"tags"`
	NormHash          string    `json:"norm_hash"`
	Model             string    `json:"model"`
	Vector            []float32 `json:"vector"`
	Specificity       float64   `json:"specificity"`
	ContributionCount int64     `json:"contribution_count"`
	CitationCount     int64     `json:"citation_count"`
	EndorsementCount  int64     `json:"endorsement_count"`
	CreatedAt         time.Time `json:"created_at"`
	LastUsedAt        time.Time `json:"last_used_at"`
}

// Lifecycle is what moderation keeps of an id, whatever it is now (live,
// absorbed or redacted): its flags, its state and its events.
type Lifecycle struct {
	Flags      []FlagRecord      `json:"flags"`
	Moderation *ExportedModState `json:"moderation,omitempty"`
	Events     []Event           `json:"events"`
}

// ExportedContribution is an attribution row with its origin (the entry it
// was first made on; empty means the entry holding it).
type ExportedContribution struct {
	Contribution
	Origin string `json:"origin,omitempty"`
}

// Endorsement is one agent's endorsement row: an agent who endorsed two
// entries later merged has a row of each origin.
type Endorsement struct {
	Agent  string    `json:"agent"`
	At     time.Time `json:"at"`
	Origin string    `json:"origin,omitempty"`
}

// Cite is one per-day citation row.
type Cite struct {
	Agent string `json:"agent"`
	// Day is the UTC day, YYYY-MM-DD.
	Day    string `json:"day"`
	Origin string `json:"origin,omitempty"`
}

// FlagRecord is one contributor's flag as a driver keeps it.
type FlagRecord struct {
	Agent  string    `json:"agent"`
	Reason string    `json:"reason"`
	Note   string    `json:"note"`
	Admin  bool      `json:"admin"`
	At     time.Time `json:"at"`
	// Origin is the entry the flag was first made on: an entry that
	// absorbed another holds the absorbed one's flags with its id, and
	// unmerge moves them back by it. Empty means the entry holding it.
	Origin string `json:"origin,omitempty"`
	// Cleared says an admin's restore dismissed the flag: it counts among
	// the entry's flaggers, not toward its next quarantine.
	Cleared bool `json:"cleared,omitempty"`
}

// ExportedModState is an entry's ModState in an export.
type ExportedModState struct {
	Flags        int64     `json:"flags"`
	Cleared      int64     `json:"cleared"`
	Quarantined  bool      `json:"quarantined"`
	SupersededBy string    `json:"superseded_by,omitempty"`
	Supersedes   string    `json:"supersedes,omitempty"`
	FlaggedAt    time.Time `json:"flagged_at,omitzero"`
}

// ExportedMerge is the record of one absorption, in effect or undone: the
// Merge and the absorbed entry's row as it was (blank when its survivor
// was redacted since). While it is in effect it also carries the absorbed
// id's Lifecycle.
type ExportedMerge struct {
	Merge
	Row
	Lifecycle
	// Seq orders a driver's records (MergeRecords pages by it); an export
	// keeps the order, not the number.
	Seq int64 `json:"-"`
}

// Tombstone is a redacted id in an export: nothing of its text, and the
// id's Lifecycle (flag notes already blanked by the redaction).
type Tombstone struct {
	ID     string    `json:"id"`
	Hive   string    `json:"hive"`
	At     time.Time `json:"at"`
	Reason string    `json:"reason"`
	By     string    `json:"by"`
	Lifecycle
}

// PortDetails is what a driver's other reads leave out of an entry and an
// export needs.
type PortDetails struct {
	NormHash      string
	Contributions []ExportedContribution
	Contributors  []string
	Endorsements  []Endorsement
	Cites         []Cite
}

// Porter is what a driver supplies, besides Driver, so that its corpus can
// be exported and loaded into another backend. It decides nothing: what
// an import skips is stated here and pinned by knowledgetest.
type Porter interface {
	// PortDetails returns entry id's norm hash and its rows: contributions
	// oldest first, distinct contributors, endorsements and cites, each
	// with its origin. Returns not_found when there is no such entry.
	PortDetails(ctx context.Context, id string) (PortDetails, error)
	// FlagRecords lists the flags kept against id (live, absorbed or
	// redacted), oldest first.
	FlagRecords(ctx context.Context, id string) ([]FlagRecord, error)
	// MergeRecords returns up to limit absorption records whose Seq is
	// above seq, in Seq order, undone ones included, without Lifecycle.
	MergeRecords(ctx context.Context, seq int64, limit int) ([]ExportedMerge, error)
	// Redactions lists every tombstone, oldest first.
	Redactions(ctx context.Context) ([]Redaction, error)
	// ImportEntry writes e as it is, in one transaction: its row with its
	// id, counts and times, its rows with their origins (empty: e.ID), its
	// contributors and its Lifecycle. It writes nothing and returns false
	// when e's id is an entry, a tombstone or absorbed already, or its hive
	// holds another entry with e's norm hash.
	ImportEntry(ctx context.Context, e ExportedEntry) (created bool, err error)
	// ImportMerge keeps m as an absorption record, with its Lifecycle,
	// in one transaction. It writes nothing and returns false when a record
	// of m.EntryID at m.At is there already, or m is in effect and
	// m.EntryID is an entry, a tombstone or absorbed already.
	ImportMerge(ctx context.Context, m ExportedMerge) (created bool, err error)
	// ImportRedaction keeps t as a tombstone with its Lifecycle (a redacted
	// event when it has no events), unless t.ID is an entry, a tombstone
	// or absorbed already (then false).
	ImportRedaction(ctx context.Context, t Tombstone) (created bool, err error)
}

// exportBatch is how many entries or records Export reads at a time.
const exportBatch = 500

// Export calls fn with every entry of hive (every hive when empty), in
// insertion order, then with every absorption record, oldest first, then
// with every tombstone. Returns an internal error when the driver cannot
// export.
func (k *Engine) Export(ctx context.Context, hive string, fn func(Record) error) error {
	p, ok := k.d.(Porter)
	if !ok {
		return fmt.Errorf("knowledge driver %T cannot export", k.d)
	}
	for seq := int64(0); ; {
		batch, err := k.d.Since(ctx, seq, exportBatch)
		if err != nil {
			return err
		}
		if len(batch) == 0 {
			break
		}
		seq = batch[len(batch)-1].Seq
		for _, s := range batch {
			if hive != "" && s.Hive != hive {
				continue
			}
			x, err := k.exportEntry(ctx, p, s)
			if pumasi.ErrorCode(err) == pumasi.ENotFound {
				continue // redacted or merged away since Since read it
			}
			if err != nil {
				return err
			}
			if err := fn(Record{Entry: &x}); err != nil {
				return err
			}
		}
	}
	for seq := int64(0); ; {
		batch, err := p.MergeRecords(ctx, seq, exportBatch)
		if err != nil {
			return err
		}
		if len(batch) == 0 {
			break
		}
		seq = batch[len(batch)-1].Seq
		for _, m := range batch {
			if hive != "" && m.Hive != hive {
				continue
			}
			m.At, m.CreatedAt, m.LastUsedAt = m.At.UTC(), m.CreatedAt.UTC(), m.LastUsedAt.UTC()
			if !m.UnmergedAt.IsZero() {
				m.UnmergedAt = m.UnmergedAt.UTC()
			}
			m.Tags = nonNil(m.Tags)
			if m.Vector == nil {
				m.Vector = []float32{}
			}
			if m.UnmergedAt.IsZero() {
				if m.Lifecycle, err = k.lifecycle(ctx, p, m.EntryID); err != nil {
					return err
				}
			}
			if err := fn(Record{Merge: &m}); err != nil {
				return err
			}
		}
	}
	rs, err := p.Redactions(ctx)
	if err != nil {
		return err
	}
	for _, r := range rs {
		if hive != "" && r.Hive != hive {
			continue
		}
		lc, err := k.lifecycle(ctx, p, r.ID)
		if err != nil {
			return err
		}
		if err := fn(Record{Tombstone: &Tombstone{ID: r.ID, Hive: r.Hive, At: r.At.UTC(), Reason: r.Reason, By: r.By, Lifecycle: lc}}); err != nil {
			return err
		}
	}
	return nil
}

func (k *Engine) exportEntry(ctx context.Context, p Porter, s StoredEntry) (ExportedEntry, error) {
	det, err := p.PortDetails(ctx, s.ID)
	if err != nil {
		return ExportedEntry{}, err
	}
	lc, err := k.lifecycle(ctx, p, s.ID)
	if err != nil {
		return ExportedEntry{}, err
	}
	x := ExportedEntry{
		ID: s.ID, Hive: s.Hive, Title: s.Title,
		Row: Row{Content: s.Content, Tags: nonNil(s.Tags), NormHash: det.NormHash, Model: s.Model, Vector: s.Vector,
			Specificity: s.Specificity, ContributionCount: s.ContributionCount, CitationCount: s.CitationCount,
			EndorsementCount: s.EndorsementCount, CreatedAt: s.CreatedAt.UTC(), LastUsedAt: s.LastUsedAt.UTC()},
		Contributions: orEmpty(det.Contributions), Contributors: orEmpty(det.Contributors),
		Endorsements: orEmpty(det.Endorsements), Cites: orEmpty(det.Cites), Lifecycle: lc,
	}
	for i := range x.Contributions {
		x.Contributions[i].At = x.Contributions[i].At.UTC()
	}
	for i := range x.Endorsements {
		x.Endorsements[i].At = x.Endorsements[i].At.UTC()
	}
	return x, nil
}

// lifecycle reads what moderation keeps of id.
func (k *Engine) lifecycle(ctx context.Context, p Porter, id string) (Lifecycle, error) {
	flags, err := p.FlagRecords(ctx, id)
	if err != nil {
		return Lifecycle{}, err
	}
	for i := range flags {
		flags[i].At = flags[i].At.UTC()
	}
	evs, err := k.d.Events(ctx, id)
	if err != nil {
		return Lifecycle{}, err
	}
	for i := range evs {
		evs[i].At = evs[i].At.UTC()
	}
	states, err := k.d.ModStates(ctx, []string{id})
	if err != nil {
		return Lifecycle{}, err
	}
	lc := Lifecycle{Flags: orEmpty(flags), Events: orEmpty(evs)}
	if st := states[id]; st != (ModState{ID: st.ID}) {
		lc.Moderation = &ExportedModState{Flags: st.Flags, Cleared: st.Cleared, Quarantined: st.Quarantined,
			SupersededBy: st.SupersededBy, Supersedes: st.Supersedes}
		if !st.FlaggedAt.IsZero() {
			lc.Moderation.FlaggedAt = st.FlaggedAt.UTC()
		}
	}
	return lc, nil
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
