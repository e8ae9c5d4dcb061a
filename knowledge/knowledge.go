package knowledge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"regexp"
	"strings"
	"time"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"pumasi"
)

// Verdicts of a contribution (DESIGN.md §6).
const (
	VerdictAccepted = "accepted"
	VerdictMerged   = "merged"
	VerdictRejected = "rejected"
)

// DefaultHive is the hive a contribution lands in when it names none, as in
// The Hive's own client.
const DefaultHive = "academy"

// DefaultMergeThreshold is the cosine similarity above which a contribution
// merges into the nearest entry of its hive.
const DefaultMergeThreshold = 0.94

// Query limits: the default and the cap of ?limit=.
const (
	DefaultQueryLimit = 5
	MaxQueryLimit     = 50
)

// Entry is one piece of collective knowledge. It is written once; only its
// counters move afterwards, atomically in the store.
type Entry struct {
	ID                string   `json:"id"`
	Hive              string   `json:"hive"`
	Title             string   `json:"title"`
	Content           string   `json:"content"`
	Tags              []string `json:"tags"`
	ContributionCount int64    `json:"contribution_count"`
	CitationCount     int64    `json:"citation_count"`
	EndorsementCount  int64    `json:"endorsement_count"`
	// Specificity is the gate's score when the entry was first accepted.
	Specificity float64 `json:"specificity"`
	// Quality is Specificity lifted by the entry's counters (see Quality).
	Quality   float64   `json:"quality"`
	CreatedAt time.Time `json:"created_at"`
	// LastUsedAt is when the entry was last used: created, contributed
	// to, cited or endorsed. Freshness decays from it (see Freshness).
	LastUsedAt time.Time `json:"last_used_at"`
	// Flags counts the entry's distinct flaggers; Quarantined says enough
	// of them (or an admin) took it out of queries (moderation.go).
	Flags       int64 `json:"flags"`
	Quarantined bool  `json:"quarantined"`
	// SupersededBy names the newer entry that replaces this one in
	// queries; Supersedes the older one this entry replaces.
	SupersededBy string `json:"superseded_by,omitempty"`
	Supersedes   string `json:"supersedes,omitempty"`
	// Contributions attribute the entry: its first contribution and every
	// one merged into it since. Only GetEntry fills them.
	Contributions []Contribution `json:"contributions,omitempty"`
	// MergedInto is set when the entry was asked for by the id of an entry
	// it absorbed: it is this entry's id (the live survivor).
	MergedInto string `json:"merged_into,omitempty"`
}

// Contribution is one agent's submission kept for attribution. Similarity is
// the cosine to the entry at merge time; 1 for the entry's first contribution.
type Contribution struct {
	Agent      string    `json:"agent"`
	Title      string    `json:"title"`
	Content    string    `json:"content"`
	At         time.Time `json:"at"`
	Similarity float64   `json:"similarity"`
}

// Hit is one query result: an entry with its exact cosine similarity to the
// query, its lexical match, its freshness and its rank score (see
// Knowledge.Query for how they combine).
type Hit struct {
	Entry
	Similarity float64 `json:"similarity"`
	// Lexical is the share of the query's weighted terms the entry holds.
	Lexical float64 `json:"lexical"`
	// Freshness is the staleness weight in [FreshnessFloor, 1].
	Freshness float64 `json:"freshness"`
	Score     float64 `json:"score"`
	// Features are the query's evidence features (decision.go), the same
	// on every hit of a query; not sent.
	Features []float64 `json:"-"`
}

// ContributeInput is a contribution that passed the gate, ready for dedup.
type ContributeInput struct {
	Hive    string
	Agent   string
	Title   string
	Content string
	Tags    []string
	// NormHash is Hash(Title, Content): the exact-duplicate key.
	NormHash string
	// Model names the embedder that made Vector; only vectors of the same
	// model are compared.
	Model  string
	Vector []float32
	// Specificity is the gate's score.
	Specificity float64
	// Threshold is the cosine above which the nearest entry absorbs this
	// contribution; values above 1 disable near-duplicate merging.
	Threshold float64
	At        time.Time
	// Supersedes names an older entry of the same hive that this
	// contribution replaces (lineage.go); empty for none.
	Supersedes string
}

// Validate checks what every knowledge store requires of a contribution
// before it touches storage. Returns invalid_request or agent_required.
func (in ContributeInput) Validate() error {
	switch {
	case !pumasi.ValidID(in.Hive):
		return pumasi.Errorf(pumasi.EInvalidRequest, "hive id must match ^[a-z0-9][a-z0-9._-]{0,62}$")
	case !ValidHandle(in.Agent):
		return CheckHandle(in.Agent)
	case strings.TrimSpace(in.Title) == "" || strings.TrimSpace(in.Content) == "":
		return pumasi.Errorf(pumasi.EInvalidRequest, "title and content are required")
	case len(in.NormHash) != 64:
		return pumasi.Errorf(pumasi.EInvalidRequest, "norm hash must be a sha256")
	case in.Model == "" || len(in.Vector) == 0:
		return pumasi.Errorf(pumasi.EInvalidRequest, "an embedding and its model are required")
	}
	for _, x := range in.Vector {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return pumasi.Errorf(pumasi.EInvalidRequest, "the embedding holds a non-finite value")
		}
	}
	return nil
}

// ContributeResult tells what became of a contribution: accepted as a new
// entry, or merged into Entry at Similarity.
type ContributeResult struct {
	Verdict    string
	Entry      Entry
	Similarity float64
}

// QueryInput asks for the entries that best answer Text, whose embedding
// is Vector. An empty Hive searches every hive; an empty Text ranks by the
// vector alone.
type QueryInput struct {
	Hive   string
	Text   string
	Model  string
	Vector []float32
	Limit  int
	// MinScore leaves out hits scoring less (0: none left out).
	MinScore float64
	// LaterMinScore leaves out the hits after the first whose score
	// without the injection decision's weight (Unweighted) is less: the
	// weight is one for a whole query, so without this a weight of 1 lets
	// every weak hit beside the right one (0: none left out).
	LaterMinScore float64
	// IncludeQuarantined keeps quarantined entries (an admin's review).
	IncludeQuarantined bool
}

// SweepReport counts what a knowledge sweep did.
type SweepReport struct {
	// Scanned is how many entries were compared.
	Scanned int `json:"scanned"`
	// Merged is how many entries were folded into older near-duplicates.
	Merged int `json:"merged"`
	// Aged is how many entries have gone unused for a half-life or more
	// (their rank weight is halfway to the floor or below).
	Aged int `json:"aged"`
	// CitesPruned is how many per-day citation rows past their window the
	// sweep deleted (cites.go).
	CitesPruned int64 `json:"cites_pruned"`
	// Batches is how many short batches the sweep ran in.
	Batches int `json:"batches"`
	// At is when the sweep ran; Took how long it took.
	At   time.Time     `json:"at"`
	Took time.Duration `json:"took_ns"`
}

// Store is collective knowledge as the handlers use it. Knowledge
// (the engine over a Driver) implements it for every backend. Every
// method is safe for concurrent use by many processes sharing one backend;
// counters move only by atomic increments in the store.
type Store interface {
	// Contribute adds in to its hive: an entry with the same NormHash, or
	// else the nearest entry of the same model with cosine above
	// in.Threshold, absorbs it (an attribution row, and contribution_count
	// + 1 when in.Agent had not contributed to it before); otherwise a new
	// entry is written. Exact duplicates never make two entries, however
	// many contribute at once.
	Contribute(ctx context.Context, in ContributeInput) (ContributeResult, error)
	// Query returns up to q.Limit entries ranked by relevance (vector and
	// lexical) × quality × freshness.
	Query(ctx context.Context, q QueryInput) ([]Hit, error)
	// GetEntry returns an entry with its contributions, oldest first; for
	// the id of an absorbed entry, the live entry that holds it, MergedInto
	// set. Returns not_found when there is no such entry.
	GetEntry(ctx context.Context, id string) (Entry, error)
	// Cite bumps an entry's citation_count once per agent and UTC day (on
	// its survivor for an absorbed id); a repeat answers Counted false and
	// changes nothing. Returns not_found when absent.
	Cite(ctx context.Context, id, agent string) (Bump, error)
	// Endorse bumps an entry's endorsement_count once per agent (on its
	// survivor for an absorbed id); endorsing again changes nothing but the
	// last use. Returns not_found when absent.
	Endorse(ctx context.Context, id, agent string) (Bump, error)
	// Unmerge restores an absorbed entry with its own contributions and
	// counts, taken back out of its survivor; on a live entry it changes
	// nothing. Returns not_found when there is no such entry.
	Unmerge(ctx context.Context, id, by string) (Entry, error)
	// History lists an entry's merges and their undoing, oldest first.
	// Returns not_found when there is no such entry.
	History(ctx context.Context, id string) (History, error)
	// RecentMerges lists up to limit merges an unmerge can undo (in
	// effect, not blanked by a redaction), newest first.
	RecentMerges(ctx context.Context, hive string, limit int) ([]Merge, error)
	// SweepKnowledge collapses near-duplicates (cosine above threshold within
	// a hive and model) that racing contributions let in: the older entry
	// absorbs the newer's contributors, counts and endorsements. It counts
	// the entries gone stale and records the run. Running it again finds
	// nothing more to do.
	SweepKnowledge(ctx context.Context, threshold float64) (SweepReport, error)
}

var handlePattern = regexp.MustCompile(`^[A-Za-z0-9._-]{3,64}$`)

// ValidHandle reports whether h is a valid X-Hive-Agent handle.
func ValidHandle(h string) bool { return handlePattern.MatchString(h) }

// CheckHandle validates an X-Hive-Agent handle. Returns agent_required when
// it is missing or malformed: either way the writer is unidentified.
func CheckHandle(h string) error {
	if h == "" {
		return pumasi.Errorf(pumasi.EAgentRequired, "the X-Hive-Agent header is required for writes")
	}
	if !ValidHandle(h) {
		return pumasi.Errorf(pumasi.EAgentRequired, "X-Hive-Agent must be 3-64 characters of A-Z a-z 0-9 . _ -")
	}
	return nil
}

// NormalizeText is the form under which two texts are exact duplicates: NFC,
// whitespace collapsed to single spaces, trimmed, and words case-folded —
// but not a word whose case is its meaning: a flag (-fdx cleans untracked
// files, -fdX only ignored ones) or a path (/etc/X, /etc/x). Those keep
// their case, so a look-alike that differs
// in one of them is no exact duplicate and goes to the near-duplicate
// rule, which reads its details. (Before session 12 every word folded, and
// git clean -fdx / -fdX merged as one text; a hash stored then differs from
// today's only for texts with such a word in capitals, whose exact repeat
// now merges through the near-duplicate rule instead.)
func NormalizeText(s string) string {
	words := strings.Fields(norm.NFC.String(s))
	fold := cases.Fold()
	for i, w := range words {
		if !caseMeant(w) {
			words[i] = fold.String(w)
		}
	}
	return strings.Join(words, " ")
}

// caseMeant reports whether a word's case is what it means: it is a flag
// (a dash then a letter, quoted or not) or holds a / (a path). Names with
// _ fold: SQL keywords, pragmas and settings are case-insensitive more often
// than not, and a look-alike there is read by the near-duplicate rule's
// details anyway once it is not the same text.
func caseMeant(w string) bool {
	w = strings.TrimLeft(w, "`'\"([{")
	if len(w) > 1 && w[0] == '-' {
		r := strings.TrimLeft(w, "-")
		if r != "" && (r[0] >= 'A' && r[0] <= 'Z' || r[0] >= 'a' && r[0] <= 'z') {
			return true
		}
	}
	return strings.Contains(w, "/")
}

// Hash is the exact-duplicate key of a contribution: the sha256 of
// its normalised title and content, lowercase hex. The hive is a separate
// column of the unique key.
func Hash(title, content string) string {
	sum := sha256.Sum256([]byte(NormalizeText(title) + "\n" + NormalizeText(content)))
	return hex.EncodeToString(sum[:])
}

// EmbeddingText is what gets embedded for a contribution or entry.
func EmbeddingText(title, content string) string {
	return strings.TrimSpace(title) + "\n" + strings.TrimSpace(content)
}

// Dot is the dot product of two equally long vectors (b may be longer),
// with four accumulators so the loop is not one long dependency chain: it is
// the hot path of every backend's knowledge query and dedup scan.
func Dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// Norm is the Euclidean length of v; backends cache it per stored vector so
// a scan costs one Dot per entry.
func Norm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

// Cosine returns the cosine similarity of a and b, 0 when their lengths
// differ or either is zero.
func Cosine(a, b []float32) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += x * y
		na += x * x
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
