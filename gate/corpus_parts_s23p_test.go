package gate

import "testing"

// ownParts23Plat are the tuning parts session 23 (plat23) wrote for issue
// 23 item 5's platitude class, from no held-out case, reported after
// ownParts22Narr. Each was run once before the change it came with.
func ownParts23Plat(t *testing.T) []part {
	t.Helper()
	return []part{
		// own28-vague: 45 platitudes of varied shapes (a tool named with
		// nothing said of it, long padded prose, generic advice to AI
		// agents, buzzword hedges, process slogans, Korean) and 35 short
		// specific findings a vagueness rule could wrongly refuse
		// (one-liners with a flag, a number or a setting). Before (main at
		// d850c9b): platitudes 41/45 (4 accepted, all a tool named and
		// judged: "PostgreSQL is a mature and reliable database"), good
		// 34/35 (Gunicorn unknown). After namesOnly (identifiers that are
		// only the products' names, beside a hedge or praise, under 250
		// letters), a tool followed by a prose word being no command, and
		// gunicorn: 45/45, 35/35.
		{"tuning/own28-vague", "testdata/gate/calibration/own28-vague.jsonl", loadCases(t, "../testdata/gate/calibration/own28-vague.jsonl"),
			map[string]float64{"platitude": 1, "good": 1}, false},
		// own28b-vague: 20 more platitudes and 15 more short findings,
		// written after that change and run once on it: platitudes 19/20
		// (Vue.js read as a file), good 13/15 ("go test -race" and "ls -A"
		// named no tool). After a command line naming its program, ls and
		// the other coreutils with a flag as commands, and a product's name
		// in a file's shape (Vue.js) counted as a name: 20/20, 15/15.
		{"tuning/own28b-vague", "testdata/gate/calibration/own28b-vague.jsonl", loadCases(t, "../testdata/gate/calibration/own28b-vague.jsonl"),
			map[string]float64{"platitude": 1, "good": 1}, false},
		// own28c-vague: 25 platitudes (lists of tools, a tool judged,
		// agent tools named, a hedged number, Korean) and 15 findings
		// about the same tools, run once on main at 36e9395: platitudes
		// 20/25, good 15/15. After domain acronyms (API, AI) and
		// "really need" in namesOnly: 23/25, 15/15 (left: "Helm charts
		// can get complicated", read as a command, and a CLAUDE.md judged,
		// a file's name; treating a capitalised tool as no command cost
		// good.jsonl's Cargo finding, so it did not stay).
		{"tuning/own28c-vague", "testdata/gate/calibration/own28c-vague.jsonl", loadCases(t, "../testdata/gate/calibration/own28c-vague.jsonl"),
			map[string]float64{"platitude": 0.92, "good": 1}, false},
	}
}
