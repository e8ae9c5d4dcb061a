package storagetest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"pumasi"
)

// testLookalikes: a new name with invisible or format characters, a
// Unicode space at either end, or a slash lookalike is invalid_name naming
// the character; a name whose confusable skeleton (Unicode TR39) equals
// another's in the room is name_conflict like a case clash, decided inside
// the write so two racing lookalikes never both land.
func testLookalikes(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	const room = "looks"
	for _, c := range []struct{ name, char string }{
		{"∕etc∕passwd", "U+2215"},
		{"spec\u200B.md", "U+200B"},
		{"\u202Edm.txt", "U+202E"},
		{"\u00A0spec.md", "U+00A0"},
		{"spec.md\u3000", "U+3000"},
	} {
		_, err := s.PutFile(ctx, pumasi.PutFileInput{Room: room, Name: c.name, Body: []byte("x"), ContentType: md})
		wantCode(t, fmt.Sprintf("PutFile(%q)", c.name), err, pumasi.EInvalidName)
		if !strings.Contains(pumasi.ErrorMessage(err), c.char) {
			t.Fatalf("PutFile(%q) message %q does not name %s", c.name, pumasi.ErrorMessage(err), c.char)
		}
	}
	if l := list(t, s, room); l.Rev != 0 || len(l.Files) != 0 {
		t.Fatalf("refused names stored something: rev %d files %q", l.Rev, names(l))
	}

	put(t, s, room, "spec.md", "the spec")
	rev := list(t, s, room).Rev
	for _, n := range []string{"ѕрес.md", "ЅРЕС.md", "ｓｐｅｃ.md", "SPEC.md"} {
		_, err := s.PutFile(ctx, pumasi.PutFileInput{Room: room, Name: n, Body: []byte("impostor"), ContentType: md})
		wantCode(t, fmt.Sprintf("PutFile(%q) beside spec.md", n), err, pumasi.ENameConflict)
		if !strings.Contains(pumasi.ErrorMessage(err), "spec.md") {
			t.Fatalf("PutFile(%q) message %q does not name spec.md", n, pumasi.ErrorMessage(err))
		}
	}
	if l := list(t, s, room); l.Rev != rev || len(l.Files) != 1 {
		t.Fatalf("after lookalikes: rev %d files %q, want rev %d and spec.md alone", l.Rev, names(l), rev)
	}
	if r := put(t, s, room, "spec.md", "the spec, v2"); !r.Changed || r.File.Version != 2 {
		t.Fatalf("update of spec.md beside refused lookalikes = %+v", r.File)
	}
	if _, _, err := s.DeleteFile(ctx, room, "spec.md", ""); err != nil {
		t.Fatal(err)
	}
	put(t, s, room, "ѕрес.md", "now alone") // nothing left to impersonate

	// Two lookalikes racing into an empty room: one lands.
	const race = "looks-race"
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, n := range []string{"plan.md", "рlаn.md"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = s.PutFile(ctx, pumasi.PutFileInput{Room: race, Name: n, Body: []byte(n), ContentType: md})
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case pumasi.ErrorCode(err) != pumasi.ENameConflict:
			t.Fatalf("racing lookalike: %v, want name_conflict", err)
		}
	}
	if l := list(t, s, race); ok != 1 || len(l.Files) != 1 {
		t.Fatalf("racing lookalikes: %d landed, listed %q; want exactly one", ok, names(l))
	}
}
