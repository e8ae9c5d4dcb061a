package gate

import (
	"encoding/base64"
	"regexp"
	"strconv"
	"strings"
)

// Values in a personal datum's or a secret's form that are something else
// or stand for nobody: a systemd unit's instance name in a mail address's
// form, a millisecond timestamp with a resident number's digits, the
// password inside an RFC's documented Basic credential, placeholder words
// with a counting run, a vendor's prefix cut off before a template, a
// dummy phone number of repeated blocks, the tail of an IBAN read as a card
// and the registry's example IBANs in a list of test values.

// reVersionDomain is a version string read as a mail domain: v1.2 or 1.2.
var reVersionDomain = regexp.MustCompile(`^v?\d+\.\d+(?:[.-]|$)`)

// unitSuffixes are the types of systemd's units: postgresql@16-main.service
// is an instance of a template unit, not a mailbox.
var unitSuffixes = []string{".service", ".socket", ".timer", ".target", ".mount", ".automount", ".path", ".slice", ".scope", ".swap", ".device"}

// mailAddress rejects a match whose domain ends in a systemd unit's type.
func mailAddress(m string) bool {
	l := strings.ToLower(m)
	// A package pinned to a version (golang.org/toolchain@v0.0.1-go1.22.0,
	// pkg@1.2.0-rc.tgz): no mail domain begins with two numbered labels.
	if _, dom, ok := strings.Cut(l, "@"); ok && reVersionDomain.MatchString(dom) {
		return false
	}
	for _, s := range unitSuffixes {
		if strings.HasSuffix(l, s) {
			return false
		}
	}
	return true
}

// reRemotePath is what follows user@host in an scp, rsync or git target:
// a colon and a path (deploy@build01.lan:/srv/www/, git@github.com:org/
// repo.git, backup@nas.local:~/snap). No mail address is written so.
var reRemotePath = regexp.MustCompile(`^:(?:[/~.]|[\w.-]+/)`)

// notRemoteTarget refuses a user@host that an scp, rsync or git target
// writes before its path.
func notRemoteTarget(text string, _, hi int) bool {
	return !reRemotePath.MatchString(text[hi:])
}

// epochMillis reports thirteen digits that read as a Unix time in
// milliseconds between 2000 and 2040 on a whole second (1710028800000):
// JavaScript's Date.now() and every log's epoch in ms have a resident
// registration number's length, and one in eleven passes its check.
func epochMillis(d string) bool {
	if len(d) != 13 {
		return false
	}
	n, err := strconv.ParseInt(d, 10, 64)
	return err == nil && n >= 946684800000 && n < 2208988800000 && strings.HasSuffix(d, "000")
}

// docPasswords are the passwords inside docSecrets' Basic credentials
// (RFC 7617's Aladdin:open sesame, RFC 2617's test:123£), which
// documentation also prints in the clear.
var docPasswords = func() map[string]bool {
	out := map[string]bool{}
	for s := range docSecrets {
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			continue
		}
		if _, pw, ok := strings.Cut(string(b), ":"); ok && pw != "" {
			out[pw] = true
		}
	}
	return out
}()

// reValueParts splits a value into runs of letters and runs of digits.
var reValueParts = regexp.MustCompile(`[a-z]+|[0-9]+`)

// placeholderParts reports a lowercase value made only of placeholder
// words (test, password, changeme), single letters and counting runs
// (x-test-1234, test_pass_123), with one placeholder word at least: what
// test code writes where a password goes. A year or any other number
// (changeme2024!) is a password's own digits.
func placeholderParts(l string) bool {
	word := false
	for _, p := range reValueParts.FindAllString(l, -1) {
		switch {
		case p[0] >= '0' && p[0] <= '9':
			if !strings.HasPrefix("1234567890", p) {
				return false
			}
		case placeholderSecrets[p], fillWords[p]:
			word = true
		case fillParts[p]:
		case len(p) > 1:
			return false
		}
	}
	return word
}

// fillWords ask the reader to put their own value in the value's place
// (REPLACE_ME, CHANGE_ME, SET_THIS, YOUR_PASSWORD_HERE, <fill-in>, the
// word todo): Helm's values.yaml, .env.example and .pgpass samples write them
// where a secret goes. fillParts are the words they go with, which alone
// are no placeholder (me, this, here). A generated password mixes digits
// and cases, which these values do not.
var fillWords = map[string]bool{"replace": true, "change": true, "fill": true, "insert": true, "enter": true,
	"todo": true, "fixme": true, "tbd": true, "placeholder": true, "dummy": true, "fake": true, "sample": true}

var fillParts = map[string]bool{"me": true, "this": true, "here": true, "your": true, "my": true, "own": true,
	"in": true, "set": true, "value": true, "goes": true, "real": true, "actual": true, "with": true, "it": true}

// cutBeforeTemplate reports a value that is a lowercase word or two and a
// separator: a vendor's prefix whose rest is a template the value's pattern
// stops at (password = pypi-<your-token>, token: glpat-{{ token }}). A
// generated password may end in a separator too, but mixes cases and
// digits (nz7OVvf1hn09XItSE-).
func cutBeforeTemplate(v string) bool { return reVendorPrefix.MatchString(v) }

var reVendorPrefix = regexp.MustCompile(`^[a-z]{2,10}(?:[_-][a-z]{2,10})?[_-]$`)

// repeatedBlocks reports a phone number whose subscriber blocks are each
// one digit repeated (010-1111-2222, 02-3333-4444): forms' and fixtures'
// dummies, which pass where the text calls them one (examplePhone).
func repeatedBlocks(m string) bool {
	blocks := strings.FieldsFunc(m, func(r rune) bool { return r < '0' || r > '9' })
	if len(blocks) < 3 {
		return false
	}
	for _, b := range blocks[1:] {
		if len(b) < 3 || strings.Count(b, b[:1]) != len(b) {
			return false
		}
	}
	return true
}

// reIBANHead is an IBAN's country code and check digits right before a
// run of digits.
var reIBANHead = regexp.MustCompile(`\b[A-Z]{2}\d{2} ?$`)

// notIBANTail rejects a card number's digits that follow an IBAN's head
// (DE89 3704 0044 0532 0130 01, an IBAN whose check fails on purpose in a
// validator's test): they are the account's digits, not a card's.
func notIBANTail(text string, lo, _ int) bool {
	return !reIBANHead.MatchString(text[max(lo-6, 0):lo])
}

// cardNear passes a card number that is no IBAN's tail and no number in
// E.164 (+49 1523 4817265 passes Luhn's check by chance: a card is never
// written after a plus).
func cardNear(text string, lo, hi int) bool {
	return notIBANTail(text, lo, hi) && (lo == 0 || text[lo-1] != '+')
}

// testValueWords say that values are a test's or the documentation's.
var testValueWords = []string{"example", "examples", "sample", "samples", "test", "tests", "testing", "documented", "fixture", "fixtures", "예시", "샘플", "테스트"}

// listedExample reports a value the paragraph before it, or the text's
// first line, calls an example or a test value: a validator's list of
// registry examples under "use the examples published in the standards".
func listedExample(text string, lo, _ int) bool {
	head := text
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		head = text[:i]
	}
	before := strings.ToLower(text[max(lo-400, 0):lo])
	return containsAnyWord(strings.ToLower(head), testValueWords) || containsAnyWord(before, testValueWords)
}

func containsAnyWord(s string, words []string) bool {
	for _, w := range words {
		if w[0] < 0x80 && containsWord(s, w) || w[0] >= 0x80 && strings.Contains(s, w) {
			return true
		}
	}
	return false
}
