package gate

import "testing"

// ownParts22 are the tuning parts session 22 (gate22) wrote for issue 23
// item 5 from no held-out case, reported after ownParts21. Each was run
// once on main (24fa8c0) before the change it came with.
func ownParts22(t *testing.T) []part {
	t.Helper()
	return []part{
		// own27-pii: phones, addresses and national ids of more countries
		// beside a name, secrets in more shapes (connection strings,
		// Basic and Proxy-Authorization headers, .npmrc, .pypirc,
		// .yarnrc.yml, passwords on command lines, a Kubernetes Secret's
		// data), health data beside a patient, and look-alikes (ports
		// after -p, templates, medical-software findings). Before: pii
		// 54/65 (kinds agree 52), placeholders 6/6, good 9/10. After the
		// health kind, foreign recipients' words, postcodes after a comma,
		// Polish streets, Proxy-Authorization and 4-3-4 mobiles: pii 65/65
		// (65), 6/6, 9/10 (left: a build number in a Turkish mobile's form,
		// which the text says is none).
		{"tuning/own27-pii", "testdata/gate/calibration/own27-pii.jsonl", loadCases(t, "../testdata/gate/calibration/own27-pii.jsonl"),
			map[string]float64{"pii": 1, "placeholder": 1, "good": 0.9}, false},
		// own27-vague: 24 platitudes that name tools and give nothing a
		// reader can look up (10 Korean), 14 specific findings in the same
		// topics. Before: platitudes 9/24, good 14/14. After adviceList
		// (a short list of imperatives with no detail): 23/24, 14/14.
		{"tuning/own27-vague", "testdata/gate/calibration/own27-vague.jsonl", loadCases(t, "../testdata/gate/calibration/own27-vague.jsonl"),
			map[string]float64{"platitude": 0.958, "good": 1}, false},
	}
}
