package functions

import (
	"strconv"
	"strings"
	"time"

	"pumasi"
	"pumasi/knowledge"
)

// Env vars that tune the knowledge engine. localdev (also as flags) and
// every knowledge Lambda read them through ReadKnowledgeTuning, so one
// value ranks and deduplicates alike offline and in AWS.
const (
	EnvMergeThreshold        = "PUMASI_MERGE_THRESHOLD"
	EnvKnowledgeHalfLife     = "PUMASI_KNOWLEDGE_HALF_LIFE"
	EnvKnowledgeVectorWeight = "PUMASI_KNOWLEDGE_VECTOR_WEIGHT"
	// EnvQuarantineFlags is how many distinct flaggers quarantine an entry.
	EnvQuarantineFlags = "PUMASI_KNOWLEDGE_QUARANTINE_FLAGS"
)

// MaxQuarantineFlags is the highest quarantine threshold accepted.
const MaxQuarantineFlags = 1000

// KnowledgeTuningEnv lists the variables ReadKnowledgeTuning reads.
var KnowledgeTuningEnv = []string{EnvMergeThreshold, EnvKnowledgeHalfLife, EnvKnowledgeVectorWeight, EnvQuarantineFlags}

// MaxMergeThreshold is the highest merge threshold accepted. It is above 1
// on purpose: no cosine reaches it, so every contribution stays its own
// entry (dedup off).
const MaxMergeThreshold = 1.01

// KnowledgeTuning is how the knowledge engine ranks and deduplicates. Zero
// fields keep the defaults.
type KnowledgeTuning struct {
	// MergeThreshold is the cosine above which a contribution merges into
	// its nearest entry (API.MergeThreshold); 0 keeps the embedder's own.
	MergeThreshold float64
	// HalfLife is the staleness half-life; 0 keeps pumasi.DefaultHalfLife.
	HalfLife time.Duration
	// VectorWeight is the share of cosine similarity in a hit's relevance;
	// 0 keeps pumasi.DefaultVectorWeight.
	VectorWeight float64
	// QuarantineFlags is how many distinct flaggers quarantine an entry;
	// 0 keeps knowledge.DefaultQuarantineFlags.
	QuarantineFlags int
}

// Options returns the engine options t sets (the clock and candidate pool
// stay the engine's defaults).
func (t KnowledgeTuning) Options() knowledge.Options {
	return knowledge.Options{HalfLife: t.HalfLife, VectorWeight: t.VectorWeight, QuarantineFlags: t.QuarantineFlags}
}

// ReadKnowledgeTuning reads PUMASI_MERGE_THRESHOLD (a number in [0, 1.01]),
// PUMASI_KNOWLEDGE_HALF_LIFE (a positive Go duration such as 4320h) and
// PUMASI_KNOWLEDGE_VECTOR_WEIGHT (a number in [0, 1]) and
// PUMASI_KNOWLEDGE_QUARANTINE_FLAGS (a whole number in [1, 1000]) through getenv; an
// unset or blank variable keeps its default. Returns invalid_request naming
// the variable and the value when one does not parse or is out of range: a
// typo must stop the server or the cold start, not silently rank
// differently from what the operator asked for.
func ReadKnowledgeTuning(getenv func(string) string) (KnowledgeTuning, error) {
	var t KnowledgeTuning
	var err error
	if t.MergeThreshold, err = envNumber(getenv, EnvMergeThreshold, MaxMergeThreshold, "0 takes the embedder's own"); err != nil {
		return KnowledgeTuning{}, err
	}
	if t.VectorWeight, err = envNumber(getenv, EnvKnowledgeVectorWeight, 1, "0 takes the default 0.4"); err != nil {
		return KnowledgeTuning{}, err
	}
	if v := strings.TrimSpace(getenv(EnvKnowledgeHalfLife)); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return KnowledgeTuning{}, pumasi.Errorf(pumasi.EInvalidRequest, "%s %q: want a positive duration such as 4320h", EnvKnowledgeHalfLife, v)
		}
		t.HalfLife = d
	}
	if v := strings.TrimSpace(getenv(EnvQuarantineFlags)); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxQuarantineFlags {
			return KnowledgeTuning{}, pumasi.Errorf(pumasi.EInvalidRequest, "%s %q: want a whole number from 1 to %d (default %d)",
				EnvQuarantineFlags, v, MaxQuarantineFlags, knowledge.DefaultQuarantineFlags)
		}
		t.QuarantineFlags = n
	}
	return t, nil
}

// envNumber reads a number in [0, max] from key; blank is 0.
func envNumber(getenv func(string) string, key string, max float64, zero string) (float64, error) {
	v := strings.TrimSpace(getenv(key))
	if v == "" {
		return 0, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	// The comparisons are false for NaN, so it is refused too.
	if err != nil || !(f >= 0 && f <= max) {
		return 0, pumasi.Errorf(pumasi.EInvalidRequest, "%s %q: want a number in [0, %g] (%s)", key, v, max, zero)
	}
	return f, nil
}
