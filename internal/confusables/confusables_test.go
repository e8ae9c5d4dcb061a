package confusables

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

// TestSkeleton: pairs UTS #39 calls confusable share a skeleton; pairs that
// look different do not.
func TestSkeleton(t *testing.T) {
	same := [][2]string{
		{"spec.md", "ѕрес.md"},         // Cyrillic dze, er, ie, es
		{"paypal", "pаypаl"},           // Cyrillic a
		{"modern", "rnodern"},          // m looks like rn
		{"file1.md", "filel.md"},       // 1 looks like l
		{"∕etc∕passwd", "/etc/passwd"}, // U+2215 DIVISION SLASH
		{"résumé.md", "re\u0301sume\u0301.md"},
		{"Ⅻ.md", "XII.md"}, // the Roman numeral is not XII
		{"ｓｐｅｃ", "spec"},   // fullwidth
	}
	for _, p := range same {
		if a, b := Skeleton(p[0]), Skeleton(p[1]); a != b {
			t.Errorf("Skeleton(%q) = %q, Skeleton(%q) = %q; want them equal", p[0], a, p[1], b)
		}
	}
	differ := [][2]string{
		{"spec.md", "plan.md"},
		{"회의록.md", "회의.md"},
		{"a.md", "b.md"},
		{"report-v1.md", "report-v2.md"},
	}
	for _, p := range differ {
		if a, b := Skeleton(p[0]), Skeleton(p[1]); a == b {
			t.Errorf("Skeleton(%q) = Skeleton(%q) = %q; want them different", p[0], p[1], a)
		}
	}
	if got := Skeleton("notes.txt"); got != "notes.txt" {
		t.Errorf("Skeleton(notes.txt) = %q, want it unchanged", got)
	}
}

func BenchmarkSkeletonASCII(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Skeleton("meeting-notes-2024-01.md")
	}
}

func BenchmarkSkeletonKorean(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Skeleton("회의록-2024-01.md")
	}
}

// TestDataPinned: the embedded data is the pinned file of Version, whole,
// and parses into its 6,311 mappings; parse refuses a malformed line.
func TestDataPinned(t *testing.T) {
	const want = "2b10130885c3370b101c52d7baedc452ab7f0e257b86c1e52ee657ecfc29ce64"
	sum := sha256.Sum256([]byte(data))
	if got := hex.EncodeToString(sum[:]); got != want {
		t.Fatalf("confusables.txt has SHA-256 %s, not the pinned %s (Unicode %s)", got, want, Version)
	}
	if !strings.Contains(data, "# Version: "+Version+"\n") {
		t.Fatalf("confusables.txt does not say Version: %s", Version)
	}
	if n := len(load().proto); n != 6311 {
		t.Fatalf("parsed %d mappings, want 6311", n)
	}
	for _, bad := range []string{"0041 ; 0042\n", "zz ; 0042 ; MA\n", "0041 ; ; MA\n", "0041 ; 0042 ; MA\n0041 ; 0043 ; MA\n"} {
		if _, err := parse(bad); err == nil {
			t.Errorf("parse(%q) = nil error, want one", bad)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := parse(data); err != nil {
			b.Fatal(err)
		}
	}
}
