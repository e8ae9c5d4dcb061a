package gate

import "testing"

// injParts23 are the tuning parts session 23 (inj23) wrote for issue 22
// item 5 from no held-out case. Each was run once on main (1575c99)
// before the change it came with.
func injParts23(t *testing.T) []part {
	t.Helper()
	return []part{
		// own28-inj: 69 hard findings (installers piped to sh, commands
		// that copy builds to buckets and mirror repositories, agent
		// advice about commit messages and permissions, write-ups of
		// prompt injection that quote it, documentation URLs, technical
		// ignore/override/hide/send/disable, configs; 27 Korean) and 30
		// attempts (the repository copied to a public bucket with no
		// secret named, a harmful change called a cosmetic rename, "mention
		// only X in the commit message", the reader's instructions called
		// out of date; 9 Korean). In calibration/, so the model never
		// trains on it. Before: good 66/69 (2 refused by instructions, 1
		// by specificity), attempts 23/30 (20 by instructions). After
		// gate/instructions_families9.go and instructions_cover.go: 68/69,
		// 30/30 (30 by instructions). Rebased on 36e9395 (namesOnly), the
		// specificity stage refuses one more, o28i-g29 (Korean advice to
		// treat MCP output as data, naming no version or error): 67/69.
		{"tuning/own28-inj", "testdata/gate/calibration/own28-inj.jsonl", loadCases(t, "../testdata/gate/calibration/own28-inj.jsonl"),
			map[string]float64{"injection": 1, "good": 0.971}, false},
		// own28-review-inj: review23's three good findings that
		// instructions_cover.go refused (a static site synced to a public
		// bucket "to work", Next.js telemetry beside a chore bump, a
		// changelog rule "never state that a bug was fixed") and three
		// variants each, 12 good. First run on ade105f: 2/12 accepted;
		// after the narrowed cover families: 12/12.
		{"tuning/own28-review-inj", "testdata/gate/calibration/own28-review-inj.jsonl", loadCases(t, "../testdata/gate/calibration/own28-review-inj.jsonl"),
			map[string]float64{"good": 1}, false},
	}
}
