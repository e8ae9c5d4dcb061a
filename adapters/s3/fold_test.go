package s3

import (
	"testing"

	"pumasi"
)

// TestFindFold: the ASCII shortcut of findFold must agree with
// pumasi.FoldName, including non-ASCII names that fold onto ASCII ones.
func TestFindFold(t *testing.T) {
	m := manifest{Files: []pumasi.File{{Name: "Notes.md"}, {Name: "kelvin.txt"}, {Name: "straße.md"}, {Name: "sſ.md"}}}
	for _, c := range []struct {
		name string
		want int
	}{
		{"notes.MD", 0},
		{"Notes.md", 0},
		{"notes.md ", -1},
		{"\u212Aelvin.txt", 1}, // Kelvin sign folds to k
		{"KELVIN.TXT", 1},
		{"STRASSE.md", 2}, // ß folds to ss
		{"ss.md", 3},      // ſ folds to s
		{"other.md", -1},
	} {
		if got := m.findFold(c.name); got != c.want {
			t.Errorf("findFold(%q) = %d, want %d", c.name, got, c.want)
		}
		// The reference: the slow comparison findFold replaced.
		want := -1
		for j, f := range m.Files {
			if pumasi.FoldName(f.Name) == pumasi.FoldName(c.name) {
				want = j
				break
			}
		}
		if want != c.want {
			t.Errorf("case %q: FoldName says %d, the table %d", c.name, want, c.want)
		}
	}
}
