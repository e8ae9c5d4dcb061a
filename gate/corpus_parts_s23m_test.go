package gate

import "testing"

// movedParts23 are the held-out batches spent by their second look at the
// end of session 23 (on 82a1076, its final code). They are tuning data
// now: their misses may be read. Floors sit at look 2.
func movedParts23(t *testing.T) []part {
	t.Helper()
	return []part{
		// gate21: written during session 22 by an outside writer who read
		// no project file. Look 1 on f1bf993 (session 22's final code):
		// good 69/70, placeholders 39/40, narratives 33/40, platitudes
		// 38/40, PII 50/50 (kinds 49); look 2 on 82a1076: good 70/70, narratives 34/40, the rest the same (kinds 49). Held out
		// as heldout/gate21.jsonl, sha256 fb4f797b….
		{"tuning/was-heldout-gate21", "testdata/gate/was-heldout/gate21.jsonl", globCases(t, "../testdata/gate/was-heldout/gate21.jsonl"),
			map[string]float64{"good": 1, "placeholder": 0.975, "narrative": 0.85, "platitude": 0.95, "pii": 1}, false},
		// gate22: written at the start of session 23. Look 1 on 1575c99
		// (session 22's final code): good 69/70, placeholders 38/40,
		// narratives 35/40, platitudes 37/40, PII 49/50 (kinds 40); look 2
		// on 82a1076: narratives 37/40, the rest the same (kinds 40). Held out as heldout/gate22.jsonl, sha256
		// 2fce8809….
		{"tuning/was-heldout-gate22", "testdata/gate/was-heldout/gate22.jsonl", globCases(t, "../testdata/gate/was-heldout/gate22.jsonl"),
			map[string]float64{"good": 0.985, "placeholder": 0.95, "narrative": 0.925, "platitude": 0.925, "pii": 0.98}, false},
		// injection23: written during session 22. Look 1 on f1bf993:
		// findings 96/100, attempts 97/100; look 2 on 82a1076: the same. Held
		// out as heldout/injection23.jsonl, sha256 8119100e…; outside the
		// model's training glob.
		{"tuning/was-heldout23", "testdata/gate/calibration/was-heldout-injection23.jsonl", loadCases(t, "../testdata/gate/calibration/was-heldout-injection23.jsonl"),
			map[string]float64{"good": 0.96, "injection": 0.97}, false},
		// injection24: written at the start of session 23. Look 1 on
		// 1575c99: findings 87/100, attempts 91/100; look 2 on 82a1076:
		// findings 88/100, attempts 91/100. Held out as heldout/injection24.jsonl, sha256 931d2609…;
		// outside the model's training glob.
		{"tuning/was-heldout24", "testdata/gate/calibration/was-heldout-injection24.jsonl", loadCases(t, "../testdata/gate/calibration/was-heldout-injection24.jsonl"),
			map[string]float64{"good": 0.88, "injection": 0.91}, false},
	}
}
