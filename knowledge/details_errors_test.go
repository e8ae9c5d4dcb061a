package knowledge

import (
	"maps"
	"strings"
	"testing"
)

// TestAddErrors pins how messages are found: at word edges, the longest
// message at a place only, the prose-like ones only as written with their
// capital, and errno names in capitals.
func TestAddErrors(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"open: Too many open files in system.", []string{"enfile"}},
		{"too many open files (ulimit -n), then Too many open files in system", []string{"emfile", "enfile"}},
		{"write failed: Permission denied.", []string{"eacces"}},
		{"see nopermission deniedx", nil},
		{"업로드가 permission denied로 실패", []string{"eacces"}},
		{"the path is a directory of logs", nil},
		{"rm: cannot remove 'x': Is a directory", []string{"eisdir"}},
		{"connect() failed with ECONNREFUSED, then EFOO", []string{"econnrefused"}},
		{"nginx answers 502 Bad Gateway", []string{"http502"}},
	} {
		d := DetailSet{Errors: map[string]bool{}}
		d.addErrors(c.text)
		want := map[string]bool{}
		for _, w := range c.want {
			want[w] = true
		}
		if !maps.Equal(d.Errors, want) {
			t.Errorf("addErrors(%q) = %v, want %v", c.text, d.Errors, want)
		}
	}
}

// BenchmarkParseDetails prices what every contribution pays for each of
// its merge candidates (on 2 cores: about 0.66 ms for this text, 1.09 ms
// while addErrors was one alternation of every message).
func BenchmarkParseDetails(b *testing.B) {
	text := strings.Repeat("Clients see connection refused from the sidecar while the pod starts; raise the timeout in the config and restart. ", 5)
	for range b.N {
		ParseDetails(text)
	}
}
