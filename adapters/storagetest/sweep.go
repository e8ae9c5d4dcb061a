package storagetest

import (
	"testing"
	"time"
)

func testSweep(t *testing.T, h Harness) {
	s := h.New(t, Limits{})
	const room = "sweepy"
	keep := put(t, s, room, "keep.md", "kept content\n")
	put(t, s, room, "twin.md", "kept content\n")
	orphan := "nobody points at me\n"
	h.PutOrphan(t, s, room, []byte(orphan))

	sweep(t, s, time.Hour)
	blobs := h.Blobs(t, s, room)
	if _, ok := blobs[sum(orphan)]; !ok {
		t.Fatalf("Sweep(1h) removed a fresh orphan blob")
	}
	if string(blobs[keep.File.SHA256]) != "kept content\n" {
		t.Fatalf("Sweep(1h) damaged a referenced blob")
	}

	rep := sweep(t, s, 0)
	if rep.Blobs < 1 {
		t.Fatalf("Sweep(0) reported %d blobs removed, want at least 1", rep.Blobs)
	}
	blobs = h.Blobs(t, s, room)
	if _, ok := blobs[sum(orphan)]; ok {
		t.Fatalf("Sweep(0) kept the orphan blob")
	}
	if len(blobs) != 1 || string(blobs[keep.File.SHA256]) != "kept content\n" {
		t.Fatalf("after Sweep(0) blobs = %d, want only the referenced one", len(blobs))
	}
	for _, n := range []string{"keep.md", "twin.md"} {
		if _, b := read(t, s, room, n); b != "kept content\n" {
			t.Fatalf("%s after sweep = %q", n, b)
		}
	}
	if rep := sweep(t, s, 0); rep.Blobs != 0 {
		t.Fatalf("second Sweep(0) removed %d blobs, want 0", rep.Blobs)
	}
}
