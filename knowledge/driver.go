package knowledge

import (
	"context"
	"time"
)

// Driver is what a backend supplies to the knowledge engine: only
// the parts that need its storage. Ranking, the dedup decision, staleness
// and the sweep plan are the engine's (Knowledge), written once, so every
// backend ranks and merges alike; the conformance suite
// (knowledge/knowledgetest.Run) pins that on each driver.
//
// Every method is safe for concurrent use by many processes sharing one
// backend. Counters move only by atomic increments in the store.
type Driver interface {
	// FindExact returns the id of hive's entry whose NormHash is normHash,
	// else of the absorbed entry (still absorbed) whose NormHash it was.
	// Returns not_found when there is neither.
	FindExact(ctx context.Context, hive, normHash string) (string, error)
	// Insert writes a new entry with its first contribution, unless hive
	// already holds an entry with e.NormHash (a unique key decides, race-free
	// across processes): then it writes nothing and returns that entry's id
	// with created false.
	Insert(ctx context.Context, e NewEntry, first Contribution) (id string, created bool, err error)
	// AddContribution records c against entry id for attribution and sets
	// its last use to c.At. contribution_count grows by one, atomically, only
	// when c.Agent had not contributed to the entry before (counted true).
	// Returns not_found when there is no such entry.
	AddContribution(ctx context.Context, id string, c Contribution) (counted bool, err error)
	// Cite records agent's citation of entry id on day (the engine's key of
	// a UTC day) once: citation_count grows by one and the last use becomes
	// at only when the entry held no citation by agent on day (counted
	// true). Returns not_found when there is no such entry.
	Cite(ctx context.Context, id, agent, day string, at time.Time) (counted bool, err error)
	// Endorse records agent's endorsement once; endorsement_count grows only
	// with a new endorser (counted true). The last use becomes at either way.
	// Returns not_found when there is no such entry.
	Endorse(ctx context.Context, id, agent string, at time.Time) (counted bool, err error)

	// Entries returns the stored entries among ids (absent ones are left
	// out), with their vectors, without contributions.
	Entries(ctx context.Context, ids []string) (map[string]StoredEntry, error)
	// Contributions lists an entry's attribution rows, oldest first.
	// Returns not_found when there is no such entry.
	Contributions(ctx context.Context, id string) ([]Contribution, error)

	// Nearest returns up to k ids of entries of hive (every hive when
	// empty) embedded by model, approximately the most cosine-similar to v
	// first. An index may miss some; the engine rescores exactly.
	Nearest(ctx context.Context, hive, model string, v []float32, k int) ([]string, error)
	// TermCounts returns, in terms' order, how many entries (of every hive)
	// each of terms matches as Match matches it: exactly, up to limit; past
	// limit, any number above limit (a driver may stop counting there, or
	// read the number from its statistics for a term they show to be far
	// more common than limit). The engine chooses which terms to search by
	// these counts (candidates.go), so two backends holding the same entries
	// choose alike.
	TermCounts(ctx context.Context, terms []Term, limit int) ([]int, error)
	// Match returns, in terms' order, the ids of the entries of hive (every
	// hive when empty) that each of terms matches (see Term), newest (the
	// highest Seq) first, up to k for each term. Terms are plain words that
	// the driver must escape for its query syntax.
	Match(ctx context.Context, hive string, terms []Term, k int) ([][]string, error)

	// Since returns up to limit entries whose Seq is above seq, in Seq
	// order: the sweep's batches. Seqs must become visible in order: once
	// Since has returned an entry, no entry with a smaller Seq may appear
	// later (a sweep mark past it would skip it).
	Since(ctx context.Context, seq int64, limit int) ([]StoredEntry, error)
	// SweepMark returns the highest Seq a finished sweep batch covered.
	SweepMark(ctx context.Context) (int64, error)
	// SetSweepMark records that entries up to seq have been swept.
	SetSweepMark(ctx context.Context, seq int64) error
	// Absorb folds entry m.EntryID into m.MergedInto in one atomic step and
	// keeps a record of it: the absorbed entry's text, tags, vector and
	// counts with m (when, similarity, via). Its contributions, endorsements
	// and citation rows move to the survivor, each keeping its origin (the
	// entry it was first made on); contribution_count and endorsement_count
	// become the survivor's distinct contributors and endorsers;
	// citation_count adds the absorbed entry's less the (agent, day) pairs
	// both had; the later last use is kept; the absorbed entry leaves every
	// index. With m.Apart, it first checks, in the same transaction, that
	// m.EntryID is not linked to m.MergedInto or an entry of its tree (it
	// and the entries absorbed into it, through any chain, by absorptions
	// in effect) by a chain of supersessions and absorptions in effect,
	// each either way, through any entries (so a chain passing through an
	// entry another absorbed, or through its survivor, counts), and returns
	// precondition_failed, changing nothing, when it is. The check sees
	// every supersession committed before it and, holding both entries'
	// rows, any later one of these two entries; a supersession of a third
	// entry of the chain committing at the same moment may go unseen on a
	// driver whose transactions read committed data (Postgres), where the
	// next sweep's check finds it. Returns not_found when either entry no
	// longer exists.
	Absorb(ctx context.Context, m Merge) error
	// Merges lists the records of absorptions that entry id took part in,
	// absorbed or absorbing, undone ones included, oldest first; none when
	// there are none.
	Merges(ctx context.Context, id string) ([]Merge, error)
	// RecentMerges lists one page of the records of absorptions that an
	// unmerge can undo (see MergeQuery): still in effect, and not blanked
	// by a redaction (Title empty), newest (the highest Seq) first.
	RecentMerges(ctx context.Context, q MergeQuery) ([]SeqMerge, error)
	// Unmerge undoes the absorption of entry u.EntryID still in effect, in
	// one atomic step: the entry is written again (a new Seq) from its
	// record; the rows whose origin is among u.Origins move back to it from
	// the survivor; both entries' contribution_count and endorsement_count
	// become their distinct contributors and endorsers again; the survivor
	// gives back the citations the absorb added; the restored entry keeps
	// its own quarantined bit (SetQuarantine lifted it with the survivor's
	// when a restore reviewed its flags); the record is marked undone at
	// u.At by u.By. Returns not_found when the entry is not absorbed or
	// its survivor is not a live entry, gone when the entry was redacted
	// (Moderation.RedactAbsorbed), name_conflict when its hive holds
	// another entry with its exact text.
	Unmerge(ctx context.Context, u Unmerge) error
	// CountUnused counts the entries last used before t.
	CountUnused(ctx context.Context, before time.Time) (int, error)
	// RecordSweep keeps a finished sweep's report.
	RecordSweep(ctx context.Context, rep SweepReport) error

	// Moderation keeps flags, quarantine, lineage and redactions
	// (moderation.go).
	Moderation
}

// NearestReader is what a driver may supply besides Driver when its
// nearest-neighbour search reads the entries' rows anyway (a database
// index scan): NearestEntries is Nearest answering the entries themselves,
// as Entries reads them (vectors included), nearest first. A query or a
// contribution's dedup probe then reads its vector candidates in the same
// round trip that finds them, instead of a second one through Entries.
type NearestReader interface {
	NearestEntries(ctx context.Context, hive, model string, v []float32, k int) ([]StoredEntry, error)
}

// ScoringReader is what a driver may supply besides NearestReader when it
// can compute the cosine similarity of the vectors it stores to a query's
// vector where it stores them: a query then reads no vector back.
// NearestScored is NearestEntries and EntriesScored is Entries, with each
// StoredEntry's Vector nil, Scored true and Similarity its Cosine to v, or
// 0 for an entry of another model than model (as the engine would compute
// it; to float32 precision). The engine still decides everything from the
// number; a contribution's dedup probe reads vectors as before.
type ScoringReader interface {
	NearestScored(ctx context.Context, hive, model string, v []float32, k int) ([]StoredEntry, error)
	EntriesScored(ctx context.Context, ids []string, model string, v []float32) (map[string]StoredEntry, error)
}

// StateReader is what a driver may supply besides Driver when it reads an
// entry's moderation state in the statement that reads its row (a join):
// when ReadsStates is true, every StoredEntry its Entries and
// NearestEntries return carries State, and a query or a read of one entry
// asks no ModStates of its own (one round trip fewer, and the row and its
// state from one snapshot). ReadsStates is a method, not a mere type
// assertion, so that a wrapper can pass its driver's answer on.
type StateReader interface {
	ReadsStates() bool
}

// readsStates reports whether d's entry reads carry their states.
func readsStates(d Driver) bool {
	r, ok := d.(StateReader)
	return ok && r.ReadsStates()
}

// statesOf returns the states the entries carry (see StateReader).
func statesOf(ents map[string]StoredEntry) map[string]ModState {
	out := make(map[string]ModState, len(ents))
	for id, e := range ents {
		if e.State != nil {
			out[id] = *e.State
		}
	}
	return out
}

// NewEntry is an entry as the engine hands it to Driver.Insert.
type NewEntry struct {
	ID          string
	Hive        string
	Title       string
	Content     string
	Tags        []string
	NormHash    string
	Model       string
	Vector      []float32
	Specificity float64
	At          time.Time
	// Analysis is the engine's lexical analysis of the entry's text
	// (analysis.go), for the driver to store as it is and give back as
	// StoredEntry.Analysis; nil when the engine made none.
	Analysis []byte
	// Details are the engine's parsed details of the entry's text
	// (details_store.go), stored and given back the same way
	// (StoredEntry.Details); nil when the engine made none.
	Details []byte
}

// StoredEntry is an entry as a driver reads it back: the public Entry (its
// Quality left for the engine to fill) plus what ranking and the sweep need.
type StoredEntry struct {
	Entry
	Model  string
	Vector []float32
	// Seq orders entries by insertion; the sweep walks it.
	Seq int64
	// Scored says that Similarity holds the entry's cosine to the vector
	// a ScoringReader was given, in place of Vector.
	Scored     bool
	Similarity float64
	// Analysis is what NewEntry.Analysis held when the entry was written
	// (nil when it held nothing, or when a driver rewrote the entry from a
	// record without it, as an unmerge may): opaque to a driver.
	Analysis []byte
	// Details is what NewEntry.Details held when the entry was written, or
	// what Redetailer.SetDetails stored since, in what Entries and
	// NearestEntries return (other reads may leave it nil); nil when it
	// held nothing or a driver rewrote the entry from a record without it:
	// opaque to a driver.
	Details []byte
	// State is the entry's moderation state (the zero state when nobody
	// moderated it) when the driver read it with the row (StateReader);
	// nil when it did not.
	State *ModState
}

// Reembedder is what a driver supplies, besides Driver, so
// that entries embedded by an earlier model can be embedded again when the
// deployment's embedder changes (Knowledge.Reembed). A driver without it
// keeps such entries findable by their words only.
type Reembedder interface {
	// OtherModel returns up to limit entries whose model is not model.
	OtherModel(ctx context.Context, model string, limit int) ([]StoredEntry, error)
	// SetVector replaces an entry's embedding and model, and makes every
	// process's vector index see the change. Returns not_found when the
	// entry is gone.
	SetVector(ctx context.Context, id, model string, v []float32) error
}

// Merge is the record of one absorption.
type Merge struct {
	// EntryID was absorbed into MergedInto.
	EntryID    string `json:"entry_id"`
	MergedInto string `json:"merged_into"`
	Hive       string `json:"hive"`
	// Title is the absorbed entry's.
	Title      string    `json:"title"`
	At         time.Time `json:"at"`
	Similarity float64   `json:"similarity"`
	// Via says what merged it: MergeViaSweep.
	Via string `json:"via"`
	// UnmergedAt is when an admin (UnmergedBy) undid it; zero while it is
	// in effect.
	UnmergedAt time.Time `json:"unmerged_at,omitzero"`
	UnmergedBy string    `json:"unmerged_by,omitempty"`
	// Apart is a precondition of Driver.Absorb, not part of the record:
	// the absorb must not fold a correction and the entry it corrects into
	// one (see Absorb).
	Apart bool `json:"-"`
}

// MergeViaSweep is what merged an entry into another (Merge.Via): the
// sweep, the only writer that absorbs an entry. A contribution that merges
// into an entry absorbs none; it is recorded as one of that entry's
// contributions, with its similarity.
const MergeViaSweep = "sweep"

// Unmerge is what Driver.Unmerge restores: EntryID, with the rows whose
// origin is among Origins (EntryID and the entries absorbed into it).
type Unmerge struct {
	EntryID string
	Origins []string
	At      time.Time
	By      string
}
