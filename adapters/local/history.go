package local

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/google/uuid"

	"pumasi"
)

// The room log and file history live in room_changes (migration 0015): one
// row per effective change, written in the transaction that makes it, so
// the log never disagrees with the files. A file change's to_sha256 keeps
// its blob referenced (referenced, sweepRoom) until retention drops the
// row in the sweep.

const changeColumns = `rev, kind, name, file_id, version, from_sha256, to_sha256, size, content_type,
	restored_from, agent_id, machine_id, from_machine, from_room, to_room, actor, at`

// record writes c as a change of room. With history off nothing is kept.
func (s *Store) record(ctx context.Context, tx execer, room string, c pumasi.Change) error {
	if s.history.Off {
		return nil
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO room_changes (room_id, `+changeColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		room, c.Rev, c.Kind, c.Name, c.FileID, c.Version, c.FromSHA256, c.ToSHA256, c.Size, c.ContentType,
		c.RestoredFrom, c.Agent, c.Machine, c.FromMachine, c.FromRoom, c.ToRoom, c.By, formatTime(c.At))
	if err != nil {
		return fmt.Errorf("record change: %w", err)
	}
	return nil
}

// execer is what *sql.Tx and txStmts share for writes.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// lastVersion returns the newest version number any kept change of name
// has, 0 when none.
func lastVersion(ctx context.Context, q querier, room, name string) (int, error) {
	var v int
	err := q.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM room_changes WHERE room_id = ? AND name = ?`, room, name).Scan(&v)
	if err != nil {
		return 0, fmt.Errorf("last version: %w", err)
	}
	return v, nil
}

func scanChange(r scanner) (pumasi.Change, error) {
	var c pumasi.Change
	var at string
	if err := r.Scan(&c.Rev, &c.Kind, &c.Name, &c.FileID, &c.Version, &c.FromSHA256, &c.ToSHA256, &c.Size,
		&c.ContentType, &c.RestoredFrom, &c.Agent, &c.Machine, &c.FromMachine, &c.FromRoom, &c.ToRoom, &c.By, &at); err != nil {
		return c, err
	}
	t, err := parseTime(at)
	c.At = t
	return c, err
}

func changesWhere(ctx context.Context, q querier, where string, args ...any) ([]pumasi.Change, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+changeColumns+` FROM room_changes WHERE `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("select changes: %w", err)
	}
	defer rows.Close()
	var out []pumasi.Change
	for rows.Next() {
		c, err := scanChange(rows)
		if err != nil {
			return nil, fmt.Errorf("select changes: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// RoomLog returns room's changes with rev > since, oldest first, at most
// limit (1..1000, default 100) of them.
func (s *Store) RoomLog(ctx context.Context, room string, since int64, limit int) (pumasi.RoomLog, error) {
	l := pumasi.RoomLog{RoomID: room, Changes: []pumasi.Change{}}
	if err := pumasi.CheckID("room", room); err != nil {
		return l, err
	}
	limit = pumasi.LogLimit(limit)
	err := s.readTx(ctx, func(tx *sql.Tx) error {
		rev, err := roomRev(ctx, tx, room)
		if err != nil {
			return err
		}
		cs, err := changesWhere(ctx, tx, `room_id = ? AND rev > ? ORDER BY rev LIMIT ?`, room, since, limit+1)
		if err != nil {
			return err
		}
		l.Rev = rev
		if len(cs) > limit {
			cs, l.More = cs[:limit], true
		}
		l.Changes = append(l.Changes, cs...)
		return nil
	})
	if err != nil {
		return pumasi.RoomLog{RoomID: room, Changes: []pumasi.Change{}}, fmt.Errorf("room log %s: %w", room, err)
	}
	return l, nil
}

// FileVersions lists name's kept versions, newest first. Returns not_found
// when the name has neither a file nor a kept version.
func (s *Store) FileVersions(ctx context.Context, room, name string) ([]pumasi.FileVersion, error) {
	name, err := checkRoomName(room, name)
	if err != nil {
		return nil, err
	}
	var out []pumasi.FileVersion
	err = s.readTx(ctx, func(tx *sql.Tx) error {
		cur, found, err := fileByName(ctx, tx, room, name)
		if err != nil {
			return err
		}
		cs, err := changesWhere(ctx, tx, `room_id = ? AND name = ?`, room, name)
		if err != nil {
			return err
		}
		var curp *pumasi.File
		if found {
			curp = &cur
		}
		out = pumasi.FileVersionsOf(cs, curp)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("file versions: %w", err)
	}
	if len(out) == 0 {
		return nil, pumasi.Errorf(pumasi.ENotFound, "no file %q in room %s, and no version of it is kept", name, room)
	}
	return out, nil
}

// version returns version v of name as FileVersions lists it.
func (s *Store) version(ctx context.Context, room, name string, v int) (pumasi.FileVersion, error) {
	vs, err := s.FileVersions(ctx, room, name)
	if pumasi.ErrorCode(err) == pumasi.ENotFound {
		return pumasi.FileVersion{}, pumasi.VersionNotKept(room, name, v)
	}
	if err != nil {
		return pumasi.FileVersion{}, err
	}
	for _, fv := range vs {
		if fv.Version == v {
			return fv, nil
		}
	}
	return pumasi.FileVersion{}, pumasi.VersionNotKept(room, name, v)
}

// ReadVersion returns version v of name and its bytes, verified against its
// sha256. Returns not_found when the version is not kept and gone when it
// is the name's delete.
func (s *Store) ReadVersion(ctx context.Context, room, name string, v int) (pumasi.FileVersion, []byte, error) {
	name, err := checkRoomName(room, name)
	if err != nil {
		return pumasi.FileVersion{}, nil, err
	}
	for attempt := 0; ; attempt++ {
		fv, err := s.version(ctx, room, name, v)
		if err != nil {
			return pumasi.FileVersion{}, nil, err
		}
		if fv.Deleted {
			return fv, nil, pumasi.Errorf(pumasi.EGone, "version %d of %q is its delete; it has no content", v, name)
		}
		body, err := os.ReadFile(s.blobPath(room, fv.SHA256))
		if errors.Is(err, fs.ErrNotExist) && attempt < 5 {
			continue // Retention may have dropped it meanwhile: read the row again.
		}
		if err != nil {
			return pumasi.FileVersion{}, nil, fmt.Errorf("read version %s/%s: %w", room, fv.SHA256, err)
		}
		if got := sum256(body); got != fv.SHA256 {
			return pumasi.FileVersion{}, nil, fmt.Errorf("read version %s/%s: blob holds %s", room, fv.SHA256, got)
		}
		return fv, body, nil
	}
}

// DeletedFiles lists the deleted names of room that still have a version
// with content, sorted by name.
func (s *Store) DeletedFiles(ctx context.Context, room string) ([]pumasi.DeletedFile, error) {
	if err := pumasi.CheckID("room", room); err != nil {
		return nil, err
	}
	var out []pumasi.DeletedFile
	err := s.readTx(ctx, func(tx *sql.Tx) error {
		cs, err := changesWhere(ctx, tx, `room_id = ? AND name != '' AND name NOT IN (SELECT name FROM files WHERE room_id = ?)`, room, room)
		if err != nil {
			return err
		}
		out = pumasi.DeletedFilesOf(cs, nil)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("deleted files %s: %w", room, err)
	}
	return out, nil
}

// RestoreFile makes version in.Version of in.Name current again as a new
// version, in one write transaction that also reads the version's blob, so
// no sweep can take it between the check and the commit. Returns not_found,
// gone, name_conflict, precondition_failed and quota_exceeded.
func (s *Store) RestoreFile(ctx context.Context, in pumasi.RestoreInput) (pumasi.PutFileResult, []byte, error) {
	var res pumasi.PutFileResult
	name, err := checkRoomName(in.Room, in.Name)
	if err != nil {
		return res, nil, err
	}
	in.Name = name
	if s.history.Off {
		return res, nil, pumasi.VersionNotKept(in.Room, name, in.Version)
	}
	var body []byte
	var replaced string
	err = s.writeTx(ctx, func(tx *sql.Tx) error {
		res, body, replaced = pumasi.PutFileResult{}, nil, ""
		cs, err := changesWhere(ctx, tx, `room_id = ? AND name = ? AND version = ?`, in.Room, name, in.Version)
		if err != nil {
			return err
		}
		if len(cs) == 0 {
			return pumasi.VersionNotKept(in.Room, name, in.Version)
		}
		v := cs[0]
		cur, found, err := fileByFold(ctx, tx, in.Room, pumasi.FoldName(name))
		if err == nil && !found {
			cur, found, err = fileByLook(ctx, tx, in.Room, pumasi.LookalikeKey(name))
		}
		if err != nil {
			return err
		}
		var curp *pumasi.File
		if found {
			curp = &cur
		}
		var u usage
		if err := tx.QueryRowContext(ctx, `SELECT files, bytes FROM rooms WHERE room_id = ?`, in.Room).Scan(&u.files, &u.bytes); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("room usage: %w", err)
		}
		plan, err := pumasi.PlanRestore(curp, pumasi.RoomUsage{Files: u.files, Bytes: u.bytes, MaxFiles: s.maxFiles, MaxBytes: s.maxBytes}, in, v)
		if err != nil {
			return err
		}
		if body, err = os.ReadFile(s.blobPath(in.Room, v.ToSHA256)); err != nil {
			return fmt.Errorf("read version %d blob %s: %w", v.Version, v.ToSHA256, err)
		}
		if got := sum256(body); got != v.ToSHA256 {
			return fmt.Errorf("read version %d: blob %s holds %s", v.Version, v.ToSHA256, got)
		}
		if plan == pumasi.PutUnchanged {
			rev, err := roomRev(ctx, tx, in.Room)
			res = pumasi.PutFileResult{File: cur, Changed: false, Rev: rev}
			return err
		}
		last, err := lastVersion(ctx, tx, in.Room, name)
		if err != nil {
			return err
		}
		now := s.now().UTC()
		f := pumasi.File{
			ID: v.FileID, RoomID: in.Room, Name: name, SHA256: v.ToSHA256, Size: v.Size, ContentType: v.ContentType,
			Version: pumasi.NextVersion(curp, last), UploadedBy: in.By, CreatedAt: now, UpdatedAt: now,
		}
		if f.ID == "" {
			f.ID = uuid.NewString()
		}
		if found {
			f.ID, f.CreatedAt, replaced = cur.ID, cur.CreatedAt, cur.SHA256
			_, err = tx.ExecContext(ctx, `UPDATE files SET sha256 = ?, size = ?, content_type = ?, version = ?,
				uploaded_by = ?, updated_at = ? WHERE id = ?`,
				f.SHA256, f.Size, f.ContentType, f.Version, f.UploadedBy, formatTime(now), f.ID)
		} else {
			_, err = tx.ExecContext(ctx, `INSERT INTO files (`+fileColumns+`, fold, look) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				f.ID, f.RoomID, f.Name, f.SHA256, f.Size, f.ContentType, f.Version, f.UploadedBy,
				formatTime(now), formatTime(now), pumasi.FoldName(name), pumasi.LookalikeKey(name))
		}
		if err != nil {
			return fmt.Errorf("write row: %w", err)
		}
		rev, err := bumpRev(ctx, tx, in.Room)
		if err != nil {
			return err
		}
		c := pumasi.Change{Rev: rev, Kind: pumasi.ChangeRestore, Name: name, FileID: f.ID, Version: f.Version,
			ToSHA256: f.SHA256, Size: f.Size, ContentType: f.ContentType, RestoredFrom: v.Version, By: in.By, At: now}
		if found {
			c.FromSHA256 = cur.SHA256
		}
		if err := s.record(ctx, tx, in.Room, c); err != nil {
			return err
		}
		res = pumasi.PutFileResult{File: f, Changed: true, Rev: rev}
		return nil
	})
	if err != nil {
		return pumasi.PutFileResult{}, nil, wrapInternal("restore file", err)
	}
	if replaced != "" {
		s.retire(in.Room, replaced)
	}
	return res, body, nil
}

// applyRetention drops the changes of room that fall out of retention, in
// one synced write transaction (the sweep then reaps the blobs nothing
// references any more), and returns how many it dropped.
func (s *Store) applyRetention(ctx context.Context, room string) (int, error) {
	var dropped int
	err := s.writeTx(ctx, func(tx *sql.Tx) error {
		dropped = 0
		var cs []pumasi.Change
		var err error
		if cs, err = changesWhere(ctx, tx, `room_id = ?`, room); err != nil || len(cs) == 0 {
			return err
		}
		live := map[string]string{}
		rows, err := tx.QueryContext(ctx, `SELECT name, sha256 FROM files WHERE room_id = ?`, room)
		if err != nil {
			return fmt.Errorf("live files: %w", err)
		}
		for rows.Next() {
			var n, sum string
			if err := rows.Scan(&n, &sum); err != nil {
				rows.Close()
				return err
			}
			live[n] = sum
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		drop := pumasi.PlanRetention(cs, live, s.history, s.now())
		for len(drop) > 0 {
			n := min(len(drop), 500)
			args := []any{room}
			for _, rev := range drop[:n] {
				args = append(args, rev)
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM room_changes WHERE room_id = ? AND rev IN (?`+
				strings.Repeat(", ?", n-1)+`)`, args...); err != nil {
				return fmt.Errorf("drop changes: %w", err)
			}
			dropped += n
			drop = drop[n:]
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("retention %s: %w", room, err)
	}
	return dropped, nil
}
