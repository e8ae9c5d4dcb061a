package local

import (
	"context"
	"testing"
)

// keptShas returns the sha256 of every blob a kept version of room
// references, as the sweep counts them.
func keptShas(t *testing.T, s *Store, room string) map[string]bool {
	t.Helper()
	rows, err := s.db.QueryContext(context.Background(), `SELECT to_sha256 FROM room_changes WHERE room_id = ? AND to_sha256 != ''`, room)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var sum string
		if err := rows.Scan(&sum); err != nil {
			t.Fatal(err)
		}
		out[sum] = true
	}
	return out
}
