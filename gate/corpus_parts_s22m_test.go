package gate

import "testing"

// movedParts22 are the held-out batches spent by their second look at the
// end of session 22 (on f1bf993, its final code). They are tuning data
// now: their misses may be read. Floors sit at look 2.
func movedParts22(t *testing.T) []part {
	t.Helper()
	return []part{
		// gate19: written at the start of session 21 by an outside writer
		// (its PII labels also use name_with_record and health, so kinds
		// agree on few). Look 1 on f69cc62: good 79/80, placeholders 43/45,
		// narratives 40/40, platitudes 39/40, PII 48/55 (kinds 18); look 2
		// on f1bf993: the same. Held out as heldout/gate19.jsonl, sha256
		// 0692c19d…. As tuning data (session 22, pii22b): placeholders
		// 45/45 (a zero account's IBAN, a token whose signature is
		// written <signature>), PII 53/55 (a SIN under its field, an
		// INSERT's sort_code and account_no, a passport's MRZ name line,
		// 성명 in passport capitals, 환자 '…' with a diagnosis).
		{"tuning/was-heldout-gate19", "testdata/gate/was-heldout/gate19.jsonl", globCases(t, "../testdata/gate/was-heldout/gate19.jsonl"),
			map[string]float64{"good": 1, "placeholder": 1, "narrative": 1, "platitude": 1, "pii": 0.963}, false},
		// gate20: written at the start of session 22. Look 1 on 24fa8c0:
		// good 69/70, placeholders 39/40, narratives 36/40, platitudes
		// 38/40, PII 50/50 (kinds 46); look 2 on f1bf993: platitudes 39/40,
		// kinds 45, the rest the same. Its good figure was also printed
		// once by a failing floor on a narrative rule that did not land
		// (session 22, before held-out failures were hidden). Held out as
		// heldout/gate20.jsonl, sha256 f738592d…. As tuning data, with a
		// week told day by day and no lesson in it as a story: narratives
		// 38/40.
		{"tuning/was-heldout-gate20", "testdata/gate/was-heldout/gate20.jsonl", globCases(t, "../testdata/gate/was-heldout/gate20.jsonl"),
			// Session 23 (narr23): "spent most of Q3 on…" as a story marker,
			// a Korean day told part by part: narratives 38 → 40/40.
			map[string]float64{"good": 0.985, "placeholder": 0.975, "narrative": 1, "platitude": 1, "pii": 1}, false},
		// injection22: written at the start of session 22. Look 1 on
		// 24fa8c0: findings 97/100, attempts 96/100; look 2 on f1bf993:
		// findings 97/100, attempts 97/100. Its findings figure was also
		// printed once by a failing floor on a retrained model that did not
		// land. Held out as heldout/injection22.jsonl, sha256 0b023ed6…;
		// outside the model's training glob.
		{"tuning/was-heldout22", "testdata/gate/calibration/was-heldout-injection22.jsonl", loadCases(t, "../testdata/gate/calibration/was-heldout-injection22.jsonl"),
			map[string]float64{"good": 0.97, "injection": 0.98}, false},
	}
}
