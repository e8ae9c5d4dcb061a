package gate

import (
	"regexp"
	"strings"
)

// Marks of a concrete finding that the patterns of specificity.go miss:
// each is something a reader can type, open or look up, so it counts like
// the signal it stands beside (issue 23 item 5: good findings refused as
// vague named a dotfile, a slash command, a lint directive, a channel).

var (
	// reMorePath finds the files and directories a finding names without a
	// "/" between two words: dotfiles (.gitignore, .cursorignore, .env,
	// .npmrc, ~/.zprofile), a directory in a code span (`migrations/`), a
	// glob of an extension (*.pem) and a path up from here (`../x`).
	reMorePath = regexp.MustCompile("(?:^|[\\s`(\"',])\\.(?:[a-z]+ignore|env(?:\\.[a-z]+)?\\*?|[a-z]+rc|gitattributes|gitmodules|editorconfig|zprofile|bash_profile|profile|npmrc|nvmrc)(?:$|[\\s`)\"',.;:])|`[\\w.-]+/`|(?:^|[\\s`(])\\*\\.[a-z]{2,5}\\b|(?:^|[\\s`(\"'])\\.\\./[\\w.-]")
	// reMoreIdentifier finds names a reader looks up as written: a chat
	// channel with a compound name (#oncall-handover), a Go standard
	// library import path (archive/zip, net/http, crypto/tls).
	reMoreIdentifier = regexp.MustCompile(`(?:^|\s)#[a-z][a-z0-9]*(?:-[a-z0-9]+)+\b|\b(?:archive|compress|crypto|database|encoding|go|hash|html|image|io|math|mime|net|os|path|regexp|runtime|sync|text|unicode)/[a-z][a-z0-9]+\b`)
	// reDirective finds a linter's or checker's suppression comment, a
	// technology named by its syntax: # nosec, # noqa, # type: ignore,
	// @ts-ignore, @ts-expect-error, eslint-disable, #pragma.
	reDirective = regexp.MustCompile(`#\s?(?:nosec|noqa|type:\s?ignore|pragma)\b|@ts-(?:ignore|expect-error|nocheck)\b|\beslint-disable(?:-next-line|-line)?\b|\bNOLINT\b`)
	// reMoreNumber finds measured counts ("4 of 30 runs", "200 out of
	// 200") and frequencies (50 Hz), which reNumber's units leave out.
	reMoreNumber = regexp.MustCompile(`(?i)\b\d+\s(?:of|out of)\s\d+\b|\b\d+(?:\.\d+)?\s?(?:hz|khz|mhz|ghz|runs?)\b|\d+\s?건\s?중\s?\d+`)
	// reCallArgs finds a call with arguments inside a code span
	// (`unicodedata.normalize('NFKC', s)`): code, not a word in backticks.
	reCallArgs = regexp.MustCompile("`[^`\\n]*\\b[A-Za-z_][\\w.]*\\([^()`\\n]+\\)[^`\\n]*`")
	// reValueSpan finds a literal value's format in a code span
	// (`20261204-558812`, `10.0.0.0/8` is a path already): digits joined
	// by a separator, a sample a reader can match.
	reValueSpan = regexp.MustCompile("`\\d+(?:[-_.:]\\d+)+`")
)

// commandLineSpan reports a code span that holds a command: an agent's
// or chat tool's slash command (`/clear`), or a command line, which names
// its program (named): a program's name with a flag after it (`alembic
// revision -m`) or a slash command with its argument (`/compact keep the
// plan`). A bare slash command names no program: "`/help` makes it
// easier" is no finding.
func commandLineSpan(text string) (command, named bool) {
	for _, m := range reCodeSpan.FindAllString(text, 16) {
		f := strings.Fields(strings.Trim(m, "`"))
		if len(f) == 0 {
			continue
		}
		if w := f[0]; len(w) > 2 && w[0] == '/' && isProgramName(w[1:]) {
			command = true
			if len(f) >= 2 {
				return true, true
			}
			continue
		}
		if len(f) < 2 || !isProgramName(f[0]) {
			continue
		}
		for _, a := range f[1:] {
			if len(a) >= 2 && a[0] == '-' && (a[1] >= 'a' && a[1] <= 'z' || a[1] >= 'A' && a[1] <= 'Z' || a[1] == '-') {
				return true, true
			}
		}
	}
	return command, false
}
