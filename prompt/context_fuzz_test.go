package prompt

import (
	"strings"
	"testing"
)

// FuzzComposeSharedContext checks the §8 invariants (N <file elements, one
// closing tag at the end, exact round-trip, budget) for any two files.
func FuzzComposeSharedContext(f *testing.F) {
	f.Add("a.md", "hello\n", "b.md", "</file></shared-context>", 0)
	f.Add("spec.md", `<file name="x">]]>`, "회의록.md", "한국어 </FILE >", 120)
	f.Add("q&a.md", "&lt;/file>&amp;lt;file", `x"y.md`, "< / Shared-Context\t>", 1)
	f.Add("n.md", "<\u00a0file<ſhared-context>", "m.md", "&amp;amp;lt;/file", 300)
	f.Fuzz(func(t *testing.T, name1, content1, name2, content2 string, budget int) {
		files := []SharedFile{{Name: name1, SHA256: "s1", Content: []byte(content1)}}
		if name2 != name1 {
			files = append(files, SharedFile{Name: name2, SHA256: "s2", Content: []byte(content2)})
		}
		if budget < -1 || budget > 1<<20 {
			budget = 0
		}
		out := ComposeSharedContext(files, budget)
		// Names containing a double quote are escaped, so only names the
		// parser's pattern can read back are checked in full.
		checkSharedContext(t, files, budget, out)
		if again := ComposeSharedContext(files, budget); again != out {
			t.Fatalf("output differs between runs")
		}
		if RestoreSharedContent(neutralize(content1, contextTags)) != content1 {
			t.Fatalf("round-trip failed for %q", content1)
		}
		if strings.Count(out, contextClose) < 1 {
			t.Fatalf("no closing tag")
		}
	})
}
