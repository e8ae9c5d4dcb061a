package functions

import (
	"strings"
	"testing"
	"time"

	"pumasi"
)

// TestReadKnowledgeTuning: unset keeps every default, valid values reach
// the engine options, and a bad or out-of-range value is refused naming
// the variable and the value.
func TestReadKnowledgeTuning(t *testing.T) {
	read := func(m map[string]string) (KnowledgeTuning, error) {
		return ReadKnowledgeTuning(func(k string) string { return m[k] })
	}
	got, err := read(nil)
	if err != nil || got != (KnowledgeTuning{}) {
		t.Fatalf("unset = %+v, %v; want the zero tuning", got, err)
	}
	got, err = read(map[string]string{EnvMergeThreshold: " 1.01 ", EnvKnowledgeHalfLife: "720h", EnvKnowledgeVectorWeight: "0.6",
		EnvQuarantineFlags: " 5 "})
	if want := (KnowledgeTuning{MergeThreshold: 1.01, HalfLife: 720 * time.Hour, VectorWeight: 0.6, QuarantineFlags: 5}); err != nil || got != want {
		t.Fatalf("valid = %+v, %v; want %+v", got, err, want)
	}
	if o := got.Options(); o.HalfLife != 720*time.Hour || o.VectorWeight != 0.6 || o.QuarantineFlags != 5 {
		t.Fatalf("Options() = %+v", o)
	}
	for _, tc := range []struct{ key, value string }{
		{EnvMergeThreshold, "abc"},
		{EnvMergeThreshold, "1.02"},
		{EnvMergeThreshold, "-0.1"},
		{EnvMergeThreshold, "NaN"},
		{EnvKnowledgeVectorWeight, "1.5"},
		{EnvKnowledgeVectorWeight, "heavy"},
		{EnvKnowledgeHalfLife, "180d"},
		{EnvKnowledgeHalfLife, "-1h"},
		{EnvKnowledgeHalfLife, "0s"},
		{EnvQuarantineFlags, "0"},
		{EnvQuarantineFlags, "three"},
		{EnvQuarantineFlags, "1001"},
		{EnvQuarantineFlags, "2.5"},
	} {
		_, err := read(map[string]string{tc.key: tc.value})
		if err == nil {
			t.Errorf("%s=%q accepted", tc.key, tc.value)
			continue
		}
		if pumasi.ErrorCode(err) != pumasi.EInvalidRequest || !strings.Contains(err.Error(), tc.key) || !strings.Contains(err.Error(), tc.value) {
			t.Errorf("%s=%q: error %q (code %s), want invalid_request naming both", tc.key, tc.value, err, pumasi.ErrorCode(err))
		}
	}
}
