package storagetest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"golang.org/x/text/unicode/norm"

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

func testNames(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	const room = "names"

	for _, n := range []string{"회의록.md", "my notes.md", "a.md", "b\u00a0c.md"} {
		put(t, s, room, n, "content of "+n)
	}
	for _, n := range []string{"회의록.md", "my notes.md", "a.md", "b\u00a0c.md"} {
		f, b := read(t, s, room, n)
		if f.Name != n || b != "content of "+n {
			t.Fatalf("ReadFile(%q) = name %q body %q", n, f.Name, b)
		}
	}
	// A Cyrillic а looks like the Latin a (Unicode TR39 confusables).
	_, err := s.PutFile(ctx, pumasi.PutFileInput{Room: room, Name: "\u0430.md", Body: []byte("x"), ContentType: md})
	wantCode(t, "PutFile(Cyrillic а.md) beside a.md", err, pumasi.ENameConflict)
	if l := list(t, s, room); len(l.Files) != 4 {
		t.Fatalf("a lookalike was stored; listed %q", names(l))
	}

	for _, base := range []string{"한글.md", "café.md"} {
		nfc, nfd := norm.NFC.String(base), norm.NFD.String(base)
		if nfc == nfd {
			t.Fatalf("test bug: %q has one normal form", base)
		}
		r1 := put(t, s, room, nfc, "same text")
		if r1.File.Name != nfc {
			t.Fatalf("stored name %q, want NFC %q", r1.File.Name, nfc)
		}
		r2 := put(t, s, room, nfd, "same text")
		if r2.Changed || r2.File.ID != r1.File.ID || r2.File.Name != nfc {
			t.Fatalf("NFD re-upload of %q = changed %v id %s name %q; want the same file unchanged", base, r2.Changed, r2.File.ID, r2.File.Name)
		}
		r3 := put(t, s, room, nfd, "new text")
		if !r3.Changed || r3.File.ID != r1.File.ID || r3.File.Version != 2 || r3.File.Name != nfc {
			t.Fatalf("NFD update of %q = %+v; want version 2 of the NFC file", base, r3.File)
		}
		st, err := s.StatFile(ctx, room, nfd)
		if err != nil || st.ID != r1.File.ID {
			t.Fatalf("StatFile(NFD %q) = %+v, %v", base, st, err)
		}
	}
	count := 0
	for _, n := range names(list(t, s, room)) {
		if n == norm.NFD.String("한글.md") || n == norm.NFD.String("café.md") {
			t.Fatalf("an NFD name was stored: %q", n)
		}
		count++
	}
	if count != 6 {
		t.Fatalf("listed %d files, want 6", count)
	}

	put(t, s, room, "Spec.md", "spec")
	rev := list(t, s, room).Rev
	for _, n := range []string{"spec.md", "SPEC.MD", "sPeC.md"} {
		_, err := s.PutFile(ctx, pumasi.PutFileInput{Room: room, Name: n, Body: []byte("other"), ContentType: md})
		wantCode(t, fmt.Sprintf("PutFile(%q) beside Spec.md", n), err, pumasi.ENameConflict)
		if got := pumasi.HTTPStatus(pumasi.ErrorCode(err)); got != 409 {
			t.Fatalf("name conflict status = %d, want 409", got)
		}
		if _, err := s.StatFile(ctx, room, n); pumasi.ErrorCode(err) != pumasi.ENotFound {
			t.Fatalf("StatFile(%q) after conflict: %v, want not_found", n, err)
		}
	}
	l := list(t, s, room)
	if l.Rev != rev || len(l.Files) != 7 {
		t.Fatalf("after conflicts: rev %d files %d, want rev %d files 7", l.Rev, len(l.Files), rev)
	}
	if _, b := read(t, s, room, "Spec.md"); b != "spec" {
		t.Fatalf("Spec.md = %q after conflicts", b)
	}
	if _, _, err := s.DeleteFile(ctx, room, "Spec.md", ""); err != nil {
		t.Fatalf("DeleteFile(Spec.md) error: %v", err)
	}
	put(t, s, room, "spec.md", "lower case now")

	fresh := "refused"
	for _, n := range []string{"..", ".", "a/b", "a\\b", "", ".hidden", " lead.md", "trail.md ", "dot.", "nul\x00.md", "bell\a.md", strings.Repeat("x", 129)} {
		_, err := s.PutFile(ctx, pumasi.PutFileInput{Room: fresh, Name: n, Body: []byte("x"), ContentType: md})
		wantCode(t, fmt.Sprintf("PutFile(%q)", n), err, pumasi.EInvalidName)
	}
	if l := list(t, s, fresh); l.Rev != 0 || len(l.Files) != 0 {
		t.Fatalf("invalid names stored something: rev %d files %q", l.Rev, names(l))
	}
	_, err = s.StatFile(ctx, room, "../names/a.md")
	if c := pumasi.ErrorCode(err); c != pumasi.EInvalidName && c != pumasi.ENotFound {
		t.Fatalf("StatFile(../names/a.md) code = %q, want invalid_name or not_found", c)
	}
}
