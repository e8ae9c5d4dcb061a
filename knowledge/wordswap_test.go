package knowledge

import (
	"slices"
	"testing"
)

// TestWordSwapped: a word that names a thing in place of one that names
// another (no synonym of it) is a swap, whatever else was swapped with them
// and whichever text comes first; a swapped modifier, a synonym, or a thing
// said as an action (increase, raise) is not.
func TestWordSwapped(t *testing.T) {
	base := []string{"sidekiq", "workers", "drain", "the", "queue", "before", "deploy", "restart", "every", "process", "cleanly", "first", "then", "check", "latency"}
	words := func(extra ...string) map[string]bool {
		m := map[string]bool{}
		for _, w := range append(slices.Clone(base), extra...) {
			m[w] = true
		}
		return m
	}
	tests := []struct {
		name    string
		a, b    []string
		swapped bool
	}{
		{"noun for noun", []string{"mailers"}, []string{"billing"}, true},
		{"noun for noun and a verb", []string{"mailers"}, []string{"billing", "handled"}, true},
		{"noun and verb for noun and verb", []string{"mailers", "used"}, []string{"billing", "handled"}, true},
		{"verb for verb", []string{"used"}, []string{"handled"}, false},
		{"irregular verb for verb", []string{"caught"}, []string{"handled"}, false},
		{"synonym", []string{"raise"}, []string{"increase"}, false},
		{"modifier for modifier", []string{"private"}, []string{"internal"}, false},
		{"noun ending in -ed for a noun", []string{"seed"}, []string{"salt"}, true},
		{"noun ending in -ed for a noun, and a verb", []string{"speed", "used"}, []string{"throughput", "handled"}, true},
		{"noun ending in -ed for a verb", []string{"feed"}, []string{"handled"}, false},
		{"noun for a verb", []string{"increase"}, []string{"raise"}, false},
	}
	for _, tt := range tests {
		a, b := words(tt.a...), words(tt.b...)
		if got, back := wordSwapped(a, b), wordSwapped(b, a); got != tt.swapped || back != tt.swapped {
			t.Errorf("%s: wordSwapped(%v, %v) = %v, reversed %v, want %v", tt.name, tt.a, tt.b, got, back, tt.swapped)
		}
	}
}

// TestModifierLike: a regular past form of a verb reads as a modifier; a
// noun that merely ends in -ed does not.
func TestModifierLike(t *testing.T) {
	for w, want := range map[string]bool{
		"handled": true, "used": true, "stopped": true, "copied": true, "caught": true, "must": true, "internal": true,
		"seed": false, "speed": false, "feed": false, "red": false, "billing": false, "mailers": false, "queue": false,
	} {
		if got := modifierLike(w); got != want {
			t.Errorf("modifierLike(%s) = %v, want %v", w, got, want)
		}
	}
}

// TestSameFrame: identifiers of one family named for another rival; an
// identifier and itself, or two of different frames, do not.
func TestSameFrame(t *testing.T) {
	for _, c := range []struct {
		x, y string
		want bool
	}{
		{"useLayoutEffect", "useInsertionEffect", true},
		{"get_user_by_id", "get_group_by_id", true},
		{"HTTPServerTimeout", "HTTPClientTimeout", true},
		{"useLayoutEffect", "useLayoutEffect", false},
		{"useEffect", "useLayoutEffect", false}, // two parts: insertedVariant's case
		{"getElementById", "querySelectorAll", false},
		{"max_connections", "max_wal_senders", false},
	} {
		if got := sameFrame(identParts(c.x), identParts(c.y)); got != c.want {
			t.Errorf("sameFrame(%s, %s) = %v, want %v (parts %v, %v)", c.x, c.y, got, c.want, identParts(c.x), identParts(c.y))
		}
	}
}
