package knowledge

import (
	"math/rand"
	"reflect"
	"testing"
)

// atomSeeds are texts at the edges of atomMatches' chunks: atoms after a
// space or a bracket, at the start and the end, beside non-ASCII letters
// and spaces regexp's \s does not know.
var atomSeeds = []string{
	"", " ", "-f", " --force-with-lease", "(--dry-run)", "a\t-x", "\v-x", "x -", "~/.zprofile", " ./ansible.cfg",
	"../a/b", "/etc/redis/redis.conf", `C:\tools\npm`, `%APPDATA%\npm`, "${HOME}/bin", "{user:1}:a", "0xA700", "1,000,000",
	"v1.2.3", "09:00", "go.mod", "actions/checkout@v4", "readinessProbe", "psycopg2", "SIGTERM", "KEEPTTL.", "e.g. i.e.",
	"Transaction pooling.", "a::b", "std::vector", "x_y", "@", "A_", "AB", "aB", "ab\u00a0CD", "한국어 API를", "é-x",
	"Set `max_prepared_statements=100` in pgbouncer.ini.", `{"retries": 3, "lineEnding": "CRLF"}`, "?mode=ro&x=1", "p=quarantine;",
	"abc1 _abc abc_ a-b", "x=", `"`,
}

// TestAtomMatches: atomMatches finds what atomPattern finds, and the other
// scanners what their regexps find, on the seeds, every tuning text and
// random strings of the bytes atomMatches' chunks and triggers turn on
// (a 16th of them under -race: detailStride).
func TestAtomMatches(t *testing.T) {
	texts := append([]string(nil), atomSeeds...)
	tuning := detailTexts(t)
	for i := 0; i < len(tuning); i += detailStride() {
		texts = append(texts, tuning[i])
	}
	r := rand.New(rand.NewSource(17))
	alphabet := []string{" ", "\t", "\n", "\v", "(", ")", "-", "--", "=", ",", ";", ".", "..", ":", "::", "/", "\\", "%", "~", "$", "{", "}",
		"_", "@", "=", "\"", "a", "z", "A", "Z", "x", "X", "v", "0", "7", "9", "é", "한", "\u00a0", "ab", "AB", "aB", "0x", "C:"}
	for range 20000 / detailStride() {
		var b []byte
		for range r.Intn(12) {
			b = append(b, alphabet[r.Intn(len(alphabet))]...)
		}
		texts = append(texts, string(b))
	}
	for _, s := range texts {
		checkScanners(t, s)
	}
}

// checkScanners fails when a scanner of details_atoms.go finds otherwise
// than the regexp it stands for.
func checkScanners(t *testing.T, s string) {
	t.Helper()
	if got, want := atomMatches(s), atomPattern.FindAllStringIndex(s, -1); !reflect.DeepEqual(got, want) {
		t.Fatalf("atomMatches(%q) = %v, want %v", s, got, want)
	}
	if got, want := proseWords(s), proseWord.FindAllStringIndex(s, -1); !reflect.DeepEqual(got, want) {
		t.Fatalf("proseWords(%q) = %v, want %v", s, got, want)
	}
	if got, want := plainSettings(s), plainSetting.FindAllStringSubmatch(s, -1); !reflect.DeepEqual(got, want) {
		t.Fatalf("plainSettings(%q) = %v, want %v", s, got, want)
	}
	if got, want := jsonSettings(s), jsonSetting.FindAllStringSubmatch(s, -1); !reflect.DeepEqual(got, want) {
		t.Fatalf("jsonSettings(%q) = %v, want %v", s, got, want)
	}
}

// FuzzAtomMatches: the scanners find what their regexps find, whatever
// the text.
func FuzzAtomMatches(f *testing.F) {
	for _, s := range atomSeeds {
		f.Add(s)
	}
	f.Fuzz(checkScanners)
}
