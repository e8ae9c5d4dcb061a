package knowledge

import (
	"context"
	"fmt"
	"time"

	"pumasi"
)

// Record is one line of a corpus export (`pumasi know export`): an entry
// with everything it holds, or the tombstone of a redacted id. Import loads
// it into any backend, keeping ids, counts and times.
type Record struct {
	Entry     *ExportedEntry `json:"entry,omitempty"`
	Tombstone *Tombstone     `json:"tombstone,omitempty"`
}

// ExportedEntry is an entry as an export carries it: the row, its
// attribution, who endorsed and flagged it, its moderation state and its
// history.
type ExportedEntry struct {
	ID                string    `json:"id"`
	Hive              string    `json:"hive"`
	Title             string    `json:"title"`
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
	// Contributions are the attribution rows, oldest first; Contributors
	// the distinct agents contribution_count counts.
	Contributions []Contribution    `json:"contributions"`
	Contributors  []string          `json:"contributors"`
	Endorsements  []Endorsement     `json:"endorsements"`
	Flags         []FlagRecord      `json:"flags"`
	Moderation    *ExportedModState `json:"moderation,omitempty"`
	Events        []Event           `json:"events"`
}

// Endorsement is one agent's endorsement of an entry.
type Endorsement struct {
	Agent string    `json:"agent"`
	At    time.Time `json:"at"`
}

// FlagRecord is one contributor's flag as a driver keeps it.
type FlagRecord struct {
	Agent  string    `json:"agent"`
	Reason string    `json:"reason"`
	Note   string    `json:"note"`
	Admin  bool      `json:"admin"`
	At     time.Time `json:"at"`
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

// Tombstone is a redacted id in an export: nothing of its text.
type Tombstone struct {
	ID     string    `json:"id"`
	Hive   string    `json:"hive"`
	At     time.Time `json:"at"`
	Reason string    `json:"reason"`
	By     string    `json:"by"`
}

// PortDetails is what a driver's other reads leave out of an entry and an
// export needs.
type PortDetails struct {
	NormHash     string
	Contributors []string
	Endorsements []Endorsement
	Flags        []FlagRecord
}

// Porter is what a driver supplies, besides Driver, so that its corpus can
// be exported and loaded into another backend.
type Porter interface {
	// PortDetails returns entry id's norm hash, distinct contributors,
	// endorsements and flags. Returns not_found when there is no such
	// entry.
	PortDetails(ctx context.Context, id string) (PortDetails, error)
	// Redactions lists every tombstone, oldest first.
	Redactions(ctx context.Context) ([]Redaction, error)
	// ImportEntry writes e as it is, in one transaction: its row with its
	// id, counts and times, its contributions, contributors, endorsements,
	// flags, moderation state and events. It writes nothing and returns
	// false when e's id is an entry or a tombstone already, or its hive
	// holds another entry with e's norm hash.
	ImportEntry(ctx context.Context, e ExportedEntry) (created bool, err error)
	// ImportRedaction keeps r as a tombstone, with a redacted event,
	// unless r.ID is an entry or a tombstone already (then false).
	ImportRedaction(ctx context.Context, r Redaction) (created bool, err error)
}

// exportBatch is how many entries Export reads at a time.
const exportBatch = 500

// Export calls fn with every entry of hive (every hive when empty), in
// insertion order, then with every tombstone. Returns an internal error
// when the driver cannot export.
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
		ids := make([]string, 0, len(batch))
		for _, s := range batch {
			ids = append(ids, s.ID)
		}
		states, err := k.d.ModStates(ctx, ids)
		if err != nil {
			return err
		}
		for _, s := range batch {
			if hive != "" && s.Hive != hive {
				continue
			}
			x, err := k.exportEntry(ctx, p, s, states[s.ID])
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
	rs, err := p.Redactions(ctx)
	if err != nil {
		return err
	}
	for _, r := range rs {
		if hive != "" && r.Hive != hive {
			continue
		}
		if err := fn(Record{Tombstone: &Tombstone{ID: r.ID, Hive: r.Hive, At: r.At.UTC(), Reason: r.Reason, By: r.By}}); err != nil {
			return err
		}
	}
	return nil
}

func (k *Engine) exportEntry(ctx context.Context, p Porter, s StoredEntry, st ModState) (ExportedEntry, error) {
	det, err := p.PortDetails(ctx, s.ID)
	if err != nil {
		return ExportedEntry{}, err
	}
	cs, err := k.d.Contributions(ctx, s.ID)
	if err != nil {
		return ExportedEntry{}, err
	}
	evs, err := k.d.Events(ctx, s.ID)
	if err != nil {
		return ExportedEntry{}, err
	}
	x := ExportedEntry{
		ID: s.ID, Hive: s.Hive, Title: s.Title, Content: s.Content, Tags: nonNil(s.Tags),
		NormHash: det.NormHash, Model: s.Model, Vector: s.Vector, Specificity: s.Specificity,
		ContributionCount: s.ContributionCount, CitationCount: s.CitationCount, EndorsementCount: s.EndorsementCount,
		CreatedAt: s.CreatedAt.UTC(), LastUsedAt: s.LastUsedAt.UTC(),
		Contributions: orEmpty(cs), Contributors: orEmpty(det.Contributors), Endorsements: orEmpty(det.Endorsements),
		Flags: orEmpty(det.Flags), Events: orEmpty(evs),
	}
	for i := range x.Contributions {
		x.Contributions[i].At = x.Contributions[i].At.UTC()
	}
	if st != (ModState{}) {
		x.Moderation = &ExportedModState{Flags: st.Flags, Cleared: st.Cleared, Quarantined: st.Quarantined,
			SupersededBy: st.SupersededBy, Supersedes: st.Supersedes, FlaggedAt: st.FlaggedAt.UTC()}
		if st.FlaggedAt.IsZero() {
			x.Moderation.FlaggedAt = time.Time{}
		}
	}
	return x, nil
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Import loads one exported record. An entry or tombstone whose id is
// already there (or, for an entry, whose text its hive already holds under
// another id) is left as it is, so importing a corpus twice changes nothing
// and counts are never added twice. It reports whether it wrote. Returns
// invalid_request for a record that is not one.
func (k *Engine) Import(ctx context.Context, r Record) (bool, error) {
	p, ok := k.d.(Porter)
	if !ok {
		return false, fmt.Errorf("knowledge driver %T cannot import", k.d)
	}
	switch {
	case r.Entry != nil && r.Tombstone == nil:
		x := *r.Entry
		if err := checkExported(x); err != nil {
			return false, err
		}
		if x.NormHash == "" {
			x.NormHash = Hash(x.Title, x.Content)
		}
		x.Tags = nonNil(x.Tags)
		return p.ImportEntry(ctx, x)
	case r.Tombstone != nil && r.Entry == nil:
		t := *r.Tombstone
		if t.ID == "" || pumasi.CheckID("hive", t.Hive) != nil {
			return false, pumasi.Errorf(pumasi.EInvalidRequest, "tombstone %q: want an id and a valid hive", t.ID)
		}
		return p.ImportRedaction(ctx, Redaction{ID: t.ID, Hive: t.Hive, At: t.At, Reason: t.Reason, By: t.By})
	}
	return false, pumasi.Errorf(pumasi.EInvalidRequest, "a record holds exactly one of entry and tombstone")
}

// checkExported refuses an entry no backend could hold.
func checkExported(x ExportedEntry) error {
	switch {
	case x.ID == "":
		return pumasi.Errorf(pumasi.EInvalidRequest, "entry without an id")
	case pumasi.CheckID("hive", x.Hive) != nil:
		return pumasi.Errorf(pumasi.EInvalidRequest, "entry %s: hive %q is not a hive id", x.ID, x.Hive)
	case x.Title == "" || x.Content == "":
		return pumasi.Errorf(pumasi.EInvalidRequest, "entry %s: title and content are required", x.ID)
	case len(x.Vector) == 0 || x.Model == "":
		return pumasi.Errorf(pumasi.EInvalidRequest, "entry %s: vector and model are required", x.ID)
	case len(x.Contributions) == 0:
		return pumasi.Errorf(pumasi.EInvalidRequest, "entry %s: no contribution", x.ID)
	case x.ContributionCount < 1 || x.CitationCount < 0 || x.EndorsementCount < 0:
		return pumasi.Errorf(pumasi.EInvalidRequest, "entry %s: counts out of range", x.ID)
	case x.CreatedAt.IsZero():
		return pumasi.Errorf(pumasi.EInvalidRequest, "entry %s: no created_at", x.ID)
	}
	return nil
}
