package gate

import "testing"

// ownParts23Spec are the tuning parts session 23 (spec23) wrote for issue
// 23 item 5's good class against the specificity stage, from no held-out
// case, reported after ownParts23Plat. Each was run once before the
// change it is reported with.
func ownParts23Spec(t *testing.T) []part {
	t.Helper()
	return []part{
		// own28-spec: 50 short-to-medium findings a vagueness rule could
		// wrongly refuse (one-liners with a flag or a value, concrete rules
		// for coding agents, security write-ups, installers, configs, error
		// texts, versions; 10 Korean) and 20 platitudes as controls. Before
		// (main at 93df3f4): good 47/50 (2 refused as vague: "add a new one
		// with `alembic revision -m`", a zip-slip note naming archive/zip
		// and `../x`; 1 by the instructions stage), platitudes 20/20. After
		// specific_marks.go (a command line in a code span, dotfiles, a
		// directory in a code span, ../, Go standard import paths, chat
		// channels, lint directives, "N of M" counts, Hz, a call with
		// arguments or a value's format in a code span): good 49/50 (the
		// instructions miss left to its owner), platitudes 20/20.
		{"tuning/own28-spec", "testdata/gate/calibration/own28-spec.jsonl", loadCases(t, "../testdata/gate/calibration/own28-spec.jsonl"),
			map[string]float64{"platitude": 1, "good": 0.98}, false},
		// own28b-spec: 10 findings and 10 platitudes built on those marks
		// (a dotfile, a channel, a bare slash command, "9 out of 10", # noqa
		// in a platitude), written after that change and run once on it:
		// good 9/10, platitudes 9/10 ("Slash commands like `/help` make
		// working with your agent easier" passed: a bare slash command
		// named a program). After a bare slash command counts as a command
		// only: platitudes 10/10, good 8/10 (left: two channel names and a
		// routing rule, 0.35; "`/clear` 로 컨텍스트를 비우세요", 0.46).
		{"tuning/own28b-spec", "testdata/gate/calibration/own28b-spec.jsonl", loadCases(t, "../testdata/gate/calibration/own28b-spec.jsonl"),
			map[string]float64{"platitude": 1, "good": 0.8}, false},
	}
}
