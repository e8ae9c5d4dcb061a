package gate

import (
	"regexp"
	"strings"
	"testing"
)

// TestVagueProse pins the long-prose rule: past vagueProseLength, a text
// with no concrete anchor is refused however technical its words, and one
// anchor (a digit, a code span, an identifier, a list after a colon, a
// quotation) or a narrator exempts it.
func TestVagueProse(t *testing.T) {
	vague := "Always make sure your distributed caching layer is configured with appropriate eviction policies and monitored for consistency across all replicas in production environments. " +
		"Kubernetes clusters and CI pipelines deserve the same rigor as customer-facing systems, and platform teams should provide sensible defaults and guardrails while letting application teams tune for their specific needs over time."
	for _, c := range []struct {
		name, text string
		want       bool
	}{
		{"vague", vague, true},
		{"short", "Set explicit connect and read timeouts on every outbound call.", false},
		{"digit", vague + " Keep at most 3 replicas.", false},
		{"code span", vague + " Use `maxmemory-policy`.", false},
		{"identifier", vague + " Set maxmemory_policy.", false},
		{"colon list", vague + " Check these: eviction, replicas and memory.", false},
		{"quotation", vague + ` It answers "connection reset by peer".`, false},
		{"narrator", vague + " Our cache lost its keys that week.", false},
	} {
		if got := vagueProse(c.text, strings.ToLower(c.text)); got != c.want {
			t.Fatalf("vagueProse(%s) = %v, want %v", c.name, got, c.want)
		}
	}
	if r := Check("Distributed caching", vague); r.Pass || r.Stage != StageSpecificity {
		t.Fatalf("Check(vague) = %+v, want a specificity refusal", r)
	}
}

// TestNamedVersionInnerCapital: a product's name with an inner capital and
// a release of one or two digits is a version; a year after it is not.
func TestNamedVersionInnerCapital(t *testing.T) {
	for text, want := range map[string]bool{
		"Copper pours are not refilled automatically in KiCad 7":     true,
		"PowerShell 7 reads UTF-8 without a BOM":                     true,
		"macOS 14 asks for the local network permission":             true,
		"the SoundCloud 2023 survey results":                         false,
		"Copper pours are not refilled automatically in this tool 7": false,
	} {
		if got := namedVersion(text); got != want {
			t.Fatalf("namedVersion(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestClockTimeIsADetail: a time of day or a schedule's window is a
// number a reader can check; a ratio is not one.
func TestClockTimeIsADetail(t *testing.T) {
	for text, want := range map[string]bool{
		"nightly builds run 01:00–04:00":      true,
		"the batch moved to 새벽 3시에 runs":      true,
		"the screen is 16:9 and the font big": false,
	} {
		_, found := Specificity("t", text)
		if got := hasString(found, signalNumber); got != want {
			t.Fatalf("Specificity(%q) number = %v, want %v (%v)", text, got, want, found)
		}
	}
}

// TestDistinctMatchesLimit: the count that stops at its limit is the full
// count capped there, on every tuning text, for the two lists Specificity
// counts (a signal's weight stops growing at the limit).
func TestDistinctMatchesLimit(t *testing.T) {
	full := func(res []*regexp.Regexp, text string) int {
		seen := map[string]bool{}
		for _, re := range res {
			for _, m := range re.FindAllString(text, 8) {
				seen[m] = true
			}
		}
		return len(seen)
	}
	capped := 0
	for _, tc := range tuningTexts(t) {
		text := tc[0] + "\n" + tc[1]
		for _, c := range []struct {
			res   []*regexp.Regexp
			limit int
		}{{reNumber, 3}, {reIdentifier, 4}} {
			var folded string
			want := min(full(c.res, text), c.limit)
			if got := distinctMatches(c.res, text, &folded, c.limit); got != want {
				t.Fatalf("distinctMatches(%q, limit %d) = %d, want %d", text, c.limit, got, want)
			}
			if want == c.limit {
				capped++
			}
		}
	}
	if capped == 0 {
		t.Fatal("no text reached a limit: the test checks nothing")
	}
	t.Logf("%d counts reached their limit", capped)
}
