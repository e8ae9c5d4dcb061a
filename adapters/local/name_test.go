package local

import (
	"context"
	"testing"

	"pumasi"
)

// TestLookalikeKeysFilledAtOpen: rows from before migration 0018 have no
// lookalike key; opening the store fills them in, so a lookalike of an old
// name is refused too.
func TestLookalikeKeysFilledAtOpen(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	s := openT(t, home, Options{})
	if _, err := s.PutFile(ctx, pumasi.PutFileInput{Room: "r", Name: "spec.md", Body: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE files SET look = NULL`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = openT(t, home, Options{})
	var look string
	if err := s.db.QueryRowContext(ctx, `SELECT look FROM files WHERE name = 'spec.md'`).Scan(&look); err != nil || look != pumasi.LookalikeKey("spec.md") {
		t.Fatalf("look after reopen = %q, %v; want %q", look, err, pumasi.LookalikeKey("spec.md"))
	}
	_, err := s.PutFile(ctx, pumasi.PutFileInput{Room: "r", Name: "ѕрес.md", Body: []byte("y")})
	if pumasi.ErrorCode(err) != pumasi.ENameConflict {
		t.Fatalf("lookalike of an old name = %v, want name_conflict", err)
	}
}
