package local

import (
	"context"
	"database/sql"
	"fmt"

	"pumasi"
)

// fileByLook returns a file of room whose name looks like one with key
// (pumasi.LookalikeKey), if any.
func fileByLook(ctx context.Context, q querier, room, key string) (pumasi.File, bool, error) {
	return fileWhere(ctx, q, `room_id = ? AND look = ? LIMIT 1`, room, key)
}

// fillLookalikeKeys computes the lookalike key of every file row that has
// none (rows written before migration 0018), in batches of short write
// transactions.
func (s *Store) fillLookalikeKeys(ctx context.Context) error {
	var todo bool
	if err := s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM files WHERE look IS NULL)`).Scan(&todo); err != nil {
		return fmt.Errorf("fill lookalike keys: %w", err)
	}
	for todo {
		n := 0
		err := s.writeTxNoSync(ctx, func(tx *sql.Tx) error {
			n = 0
			rows, err := tx.QueryContext(ctx, `SELECT id, name FROM files WHERE look IS NULL LIMIT 500`)
			if err != nil {
				return err
			}
			type row struct{ id, name string }
			var todo []row
			for rows.Next() {
				var r row
				if err := rows.Scan(&r.id, &r.name); err != nil {
					rows.Close()
					return err
				}
				todo = append(todo, r)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
			for _, r := range todo {
				if _, err := tx.ExecContext(ctx, `UPDATE files SET look = ? WHERE id = ?`, pumasi.LookalikeKey(r.name), r.id); err != nil {
					return err
				}
			}
			n = len(todo)
			return nil
		})
		if err != nil {
			return fmt.Errorf("fill lookalike keys: %w", err)
		}
		todo = n > 0
	}
	return s.durable()
}
