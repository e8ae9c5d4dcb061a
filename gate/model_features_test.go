package gate

import "testing"

// TestConceptSetMatchesStems pins conceptSet, the per-script lookup the
// model's concept features use, to conceptMatch over every concept's
// stems, on every word of the tuning texts and on the stems themselves.
func TestConceptSetMatchesStems(t *testing.T) {
	words := map[string]bool{}
	for _, c := range concepts {
		for _, s := range c.stems {
			words[s], words[s+"s"], words[s[:len(s)/2]] = true, true, true
		}
	}
	for _, tc := range tuningTexts(t) {
		for _, w := range reModelWord.FindAllString(tc[0]+"\n"+tc[1], -1) {
			words[w] = true
		}
	}
	for w := range words {
		var want uint32
		for i, c := range concepts {
			if conceptMatch(w, c.stems) {
				want |= 1 << i
			}
		}
		if got := conceptSet(w); got != want {
			t.Fatalf("conceptSet(%q) = %b, want %b", w, got, want)
		}
	}
	t.Logf("%d words", len(words))
}
