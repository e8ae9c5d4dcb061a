package gate

import "testing"

// TestSpecificMarks pins the marks of specific_marks.go: each finding below
// names something a reader can type or open and passes, and the platitude
// beside it, built on the same mark, is still refused.
func TestSpecificMarks(t *testing.T) {
	for _, c := range []struct {
		name, good, plat string
	}{
		{"command line in a span",
			"Agents must not edit an applied migration file; add a new one with `alembic revision -m`.",
			"Slash commands like `/help` make working with your agent easier. Try them out and see what works for you."},
		{"dotfiles and globs",
			"Cursor reads .cursorignore with .gitignore syntax and leaves those files out of chat context; list .env*, secrets/ and *.pem there, but do not treat it as a security boundary.",
			"Keep your .gitignore tidy and up to date. A clean repository is a happy repository."},
		{"lint directive",
			"Reviewers: do not approve a PR that adds `# nosec` without a comment saying why the finding is wrong.",
			"Don't overuse `# noqa`; linters are there to help you write better code."},
		{"a value's format",
			"주문번호는 `20261204-558812`처럼 날짜 8자리와 일련번호 6자리입니다. 전화번호 정규식에 걸려 마스킹되던 문제를 고쳤습니다.",
			"Good practices work 9 out of 10 times, so always follow best practices and stay consistent."},
	} {
		if r := Check(c.name, c.good); !r.Pass {
			t.Errorf("%s: finding refused: %+v", c.name, r)
		}
		if r := Check(c.name, c.plat); r.Pass {
			t.Errorf("%s: platitude accepted (specificity %.2f)", c.name, r.Specificity)
		}
	}
	if cmd, named := commandLineSpan("use `/clear` between tasks"); !cmd || named {
		t.Errorf("a bare slash command: command %v named %v, want true false", cmd, named)
	}
	if cmd, named := commandLineSpan("then `/compact keep the plan`"); !cmd || !named {
		t.Errorf("a slash command with its argument: command %v named %v, want true true", cmd, named)
	}
}
