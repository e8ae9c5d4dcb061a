package gate

import "testing"

// ownParts21 are the tuning parts session 21 (gate21) wrote for issue 23
// item 5 by family, from no held-out case, reported after ownParts20.
// Each was run once on main (91eef70) before the change it came with.
func ownParts21(t *testing.T) []part {
	t.Helper()
	return []part{
		// own26-pii: personal data in many countries' formats and carriers
		// (log, CSV, JSON, curl, env, SQL, commit message) and 18
		// look-alikes. Before: pii 32/40, placeholders 7/8, good 8/10.
		// After (the SQL INSERT password, Japanese addresses beside whom
		// they are for, scp/rsync/git targets no mail): 34/40, 7/8, 9/10;
		// with a GCP key file's private_key_id and app passwords 35/40.
		// Left: health data of a named person (no health kind), a US
		// address in a verification log, a masked SSN and a
		// Korean order-number note the specificity stage refuses.
		// Session 22 (gate22): the health kind, an Elm Street house no
		// longer a placeholder, a postcode after a comma: 40/40 (kinds
		// 33 → 39).
		{"tuning/own26-pii", "testdata/gate/calibration/own26-pii.jsonl", loadCases(t, "../testdata/gate/calibration/own26-pii.jsonl"),
			map[string]float64{"pii": 1, "placeholder": 0.875, "good": 1}, false},
		// own26-vague: 22 platitudes that name tools and jargon but no
		// detail a reader could look up (10 Korean), 16 specific findings
		// in the same topics. Before: platitudes 13/22, good 16/16. After
		// platitudeUnchecked: 15/22, 16/16. Session 22 (gate22): adviceList:
		// 18/22. Session 23 (plat23): namesOnly: 19/22.
		{"tuning/own26-vague", "testdata/gate/calibration/own26-vague.jsonl", loadCases(t, "../testdata/gate/calibration/own26-vague.jsonl"),
			map[string]float64{"platitude": 0.863, "good": 1}, false},
	}
}
