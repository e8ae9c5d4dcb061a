package prompt

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Patterns a reader might take for the block's own tags. The whitespace
// class is unicode.IsSpace's set, wider than the regexp \s.
const tagSpace = `[\s\x{85}\x{a0}\p{Z}]*`

var (
	fileOpenRE     = regexp.MustCompile(`(?i)<` + tagSpace + `file`)
	fileCloseRE    = regexp.MustCompile(`(?i)<` + tagSpace + `/` + tagSpace + `file`)
	contextTagRE   = regexp.MustCompile(`(?i)<` + tagSpace + `/?` + tagSpace + `shared-context`)
	elementStartRE = regexp.MustCompile(`^  <file name="([^"]*)" sha256="([^"]*)"(?: path="([^"]*)" omitted="budget"(/))?>\n`)
)

// parsedFile is one element read back from a <shared-context> block.
type parsedFile struct {
	name, sum, path string
	omitted         bool
	content         string
}

// parseSharedContext reads a block back by the documented format, restoring
// each file's content, and fails the test on anything malformed.
func parseSharedContext(t testing.TB, out string) []parsedFile {
	t.Helper()
	if !strings.HasPrefix(out, contextOpen) || !strings.HasSuffix(out, contextClose) {
		t.Fatalf("block not framed by %q ... %q: %q", contextOpen, contextClose, out)
	}
	rest := out[len(contextOpen) : len(out)-len(contextClose)]
	var got []parsedFile
	for rest != "" {
		m := elementStartRE.FindStringSubmatch(rest)
		if m == nil {
			t.Fatalf("no element at %q", rest[:min(len(rest), 80)])
		}
		p := parsedFile{name: html.UnescapeString(m[1]), sum: html.UnescapeString(m[2]), path: html.UnescapeString(m[3]), omitted: m[4] == "/"}
		rest = rest[len(m[0]):]
		if !p.omitted {
			end := strings.Index(rest, "\n  </file>\n")
			if end < 0 {
				t.Fatalf("element %q is not closed", p.name)
			}
			p.content = RestoreSharedContent(rest[:end])
			rest = rest[end+len("\n  </file>\n"):]
		}
		got = append(got, p)
	}
	return got
}

// checkSharedContext asserts the invariants of §8 for out, the block of
// files under budget: exactly N <file elements, one closing
// </shared-context> at the very end, name order, escaped attributes
// restored exactly, content round-tripping, omitted files listed with
// their path, and the budget kept whenever it can be.
func checkSharedContext(t testing.TB, files []SharedFile, budget int, out string) {
	t.Helper()
	if n := len(fileOpenRE.FindAllStringIndex(out, -1)); n != len(files) {
		t.Fatalf("%d <file elements for %d files:\n%s", n, len(files), out)
	}
	if locs := contextTagRE.FindAllStringIndex(out, -1); len(locs) != 2 || locs[0][0] != 0 || locs[1][0] != len(out)-len(contextClose) {
		t.Fatalf("shared-context tags at %v, want one at 0 and one at %d:\n%s", locs, len(out)-len(contextClose), out)
	}
	want := slices.Clone(files)
	slices.SortStableFunc(want, func(a, b SharedFile) int { return strings.Compare(a.Name, b.Name) })
	got := parseSharedContext(t, out)
	if len(got) != len(want) {
		t.Fatalf("parsed %d files, want %d", len(got), len(want))
	}
	full := 0
	for i, p := range got {
		w := want[i]
		if p.name != w.Name || p.sum != w.SHA256 {
			t.Fatalf("file %d = %q %q, want %q %q", i, p.name, p.sum, w.Name, w.SHA256)
		}
		if p.omitted {
			if p.path != "memory/shared/"+w.Name {
				t.Fatalf("omitted %q path = %q", w.Name, p.path)
			}
			if budget <= 0 {
				t.Fatalf("file %q omitted without a budget", w.Name)
			}
			continue
		}
		full++
		if p.content != string(w.Content) {
			t.Fatalf("content of %q does not round-trip:\n got %q\nwant %q", w.Name, p.content, w.Content)
		}
	}
	if n := len(fileCloseRE.FindAllStringIndex(out, -1)); n != full {
		t.Fatalf("%d closing </file for %d full files", n, full)
	}
	if budget > 0 && len(out) > budget && full > 0 {
		t.Fatalf("output is %d bytes over budget %d with %d files inlined", len(out), budget, full)
	}
}

// hostile are the fragments random contents are built from: everything
// that could close or forge the block, in several cases and spacings,
// pre-escaped forms that must survive restoration, Korean text and odd markup.
var hostile = []string{
	"</file>", "</shared-context>", `<file name="x">`, "]]>", "<![CDATA[", "<!-- -->",
	"</FILE>", "</File >", "< / file>", "<\tfile", "</\nfile>", "<\u00a0file", "<\u3000/file",
	"<Shared-Context>", "</SHARED-CONTEXT\n>", "< shared-context>", "<ſhared-context>", "</\u212a>",
	"&lt;/file>", "&amp;lt;file", "&amp;amp;lt;/shared-context", "&lt;", "&amp;", "&", "<", ">", "/",
	"lt;", "amp;", "file", "shared-context", "<filesystem>", "<fil", "<f", "&lt", "&am",
	"한국어 파일 내용", "회의록", "\n", " ", "\t", "\r\n", `"`, "'", "\ufeff", "$spec.md", "<<", "&&",
	"<?xml version=\"1.0\"?>", "<file/>", "<file name=\"a\" sha256=\"b\"/>", "\\", "😀",
}

var nameParts = []string{"spec", "회의록", "notes", "a&b", `q"uote`, "<file>", "</shared-context>", "x'y", " space", "Z", "ä"}

func randomFiles(rng *rand.Rand) []SharedFile {
	n := rng.IntN(8)
	seen := map[string]bool{}
	var files []SharedFile
	for len(files) < n {
		name := nameParts[rng.IntN(len(nameParts))] + fmt.Sprint(rng.IntN(100)) + ".md"
		if seen[name] {
			continue
		}
		seen[name] = true
		var b strings.Builder
		for range rng.IntN(40) {
			if rng.IntN(4) == 0 {
				b.WriteString(strings.Repeat("x", rng.IntN(30)))
			} else {
				b.WriteString(hostile[rng.IntN(len(hostile))])
			}
		}
		sum := sha256.Sum256([]byte(b.String()))
		files = append(files, SharedFile{Name: name, SHA256: hex.EncodeToString(sum[:]), Content: []byte(b.String())})
	}
	return files
}

func TestComposeSharedContextProperty(t *testing.T) {
	iterations := 0
	omittedSeen := 0
	for seed := uint64(1); seed <= 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, seed*7919))
		for range 250 {
			files := randomFiles(rng)
			budget := 0
			if rng.IntN(2) == 0 {
				budget = 1 + rng.IntN(3000)
			}
			out := ComposeSharedContext(files, budget)
			checkSharedContext(t, files, budget, out)
			omittedSeen += strings.Count(out, `omitted="budget"`)
			iterations++
		}
	}
	if omittedSeen == 0 {
		t.Fatalf("no file was ever omitted in %d iterations; the budget path is untested", iterations)
	}
	t.Logf("%d random file sets, %d omitted entries", iterations, omittedSeen)
}

// TestNeutraliseRoundTrip checks the escaping scheme on its own, including
// texts whose pre-escaped forms would be confused by a naive scheme.
func TestNeutraliseRoundTrip(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"</file>", "&lt;/file>"},
		{"<FILE x>", "&lt;FILE x>"},
		{"< / Shared-Context >", "&lt; / Shared-Context >"},
		{"&lt;/file>", "&amp;lt;/file>"},
		{"&amp;lt;file", "&amp;amp;lt;file"},
		{"&lt;b> & <b>", "&lt;b> & <b>"},
		{"a<b", "a<b"},
		{"&&lt;file", "&&amp;lt;file"},
		{"<<file", "<&lt;file"},
		{"]]></shared-context>", "]]>&lt;/shared-context>"},
		{"한국어</file>끝", "한국어&lt;/file>끝"},
	}
	for _, tt := range tests {
		got := neutralize(tt.in, contextTags)
		if got != tt.want {
			t.Errorf("neutralize(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if back := RestoreSharedContent(got); back != tt.in {
			t.Errorf("RestoreSharedContent(%q) = %q, want %q", got, back, tt.in)
		}
	}
}

func TestComposeSharedContextGolden(t *testing.T) {
	files := []SharedFile{
		{Name: "z.md", SHA256: "22", Content: []byte("last\n")},
		{Name: `a"<&'>.md`, SHA256: "11", Content: []byte("see </file> here")},
	}
	want := "<shared-context>\n" +
		`  <file name="a&quot;&lt;&amp;&apos;&gt;.md" sha256="11">` + "\n" +
		"see &lt;/file> here\n" +
		"  </file>\n" +
		`  <file name="z.md" sha256="22">` + "\n" +
		"last\n\n" +
		"  </file>\n" +
		"</shared-context>\n"
	if got := ComposeSharedContext(files, 0); got != want {
		t.Fatalf("ComposeSharedContext =\n%s\nwant\n%s", got, want)
	}
}

func TestComposeSharedContextEmpty(t *testing.T) {
	want := "<shared-context>\n</shared-context>\n"
	for _, budget := range []int{0, 1, 65536} {
		if got := ComposeSharedContext(nil, budget); got != want {
			t.Fatalf("ComposeSharedContext(nil, %d) = %q, want %q", budget, got, want)
		}
	}
}

func TestComposeSharedContextBudget(t *testing.T) {
	files := []SharedFile{
		{Name: "c.md", SHA256: "cc", Content: []byte("small c\n")},
		{Name: "b.md", SHA256: "bb", Content: []byte(strings.Repeat("big b ", 500))},
		{Name: "a.md", SHA256: "aa", Content: []byte("small a\n")},
	}
	unlimited := ComposeSharedContext(files, 0)
	if strings.Contains(unlimited, "omitted") {
		t.Fatalf("unlimited output omits a file:\n%s", unlimited)
	}
	if got := ComposeSharedContext(files, len(unlimited)); got != unlimited {
		t.Fatalf("budget equal to the full size changed the output:\n%s", got)
	}

	budget := 400
	out := ComposeSharedContext(files, budget)
	checkSharedContext(t, files, budget, out)
	if len(out) > budget {
		t.Fatalf("output is %d bytes, budget %d", len(out), budget)
	}
	wantOmitted := `  <file name="b.md" sha256="bb" path="memory/shared/b.md" omitted="budget"/>` + "\n"
	if !strings.Contains(out, wantOmitted) {
		t.Fatalf("b.md not listed as omitted:\n%s", out)
	}
	for _, inlined := range []string{"small a\n", "small c\n"} {
		if !strings.Contains(out, inlined) {
			t.Fatalf("%q missing: the smaller file after an omitted one should still fit:\n%s", inlined, out)
		}
	}

	// Byte-identical across runs and input orders.
	for i := range 20 {
		shuffled := slices.Clone(files)
		rand.New(rand.NewPCG(uint64(i), 1)).Shuffle(len(shuffled), func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
		if again := ComposeSharedContext(shuffled, budget); again != out {
			t.Fatalf("run %d differs:\n%s\nvs\n%s", i, again, out)
		}
	}

	// One byte short of the full size omits something, and stays in budget.
	short := ComposeSharedContext(files, len(unlimited)-1)
	if !strings.Contains(short, `omitted="budget"`) || len(short) > len(unlimited)-1 {
		t.Fatalf("budget one byte short: %d bytes, omitted=%v", len(short), strings.Contains(short, "omitted"))
	}

	// A budget too small for anything lists every file as omitted.
	tiny := ComposeSharedContext(files, 1)
	if n := strings.Count(tiny, `omitted="budget"`); n != 3 {
		t.Fatalf("tiny budget omitted %d files, want 3:\n%s", n, tiny)
	}
	checkSharedContext(t, files, 1, tiny)
}
