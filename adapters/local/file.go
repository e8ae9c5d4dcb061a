package local

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/google/uuid"

	"pumasi"
)

const fileColumns = `id, room_id, name, sha256, size, content_type, version, uploaded_by, created_at, updated_at`

// PutFile stores a file: the body goes to .tmp/ and is synced first, then a
// group commit shared with concurrent uploads (group.go) checks the name,
// preconditions and quotas, renames the body into its content-addressed
// place and writes the row, and answers once the blob's name and the row are
// durable; a replaced blob is retired after the commit (see retire). Returns
// invalid_request for a bad room id, invalid_name, name_conflict,
// precondition_failed, too_large and quota_exceeded.
func (s *Store) PutFile(ctx context.Context, in pumasi.PutFileInput) (pumasi.PutFileResult, error) {
	var res pumasi.PutFileResult
	if err := pumasi.CheckID("room", in.Room); err != nil {
		return res, err
	}
	name, err := pumasi.NormalizeName(in.Name)
	if err != nil {
		return res, err
	}
	if len(in.Body) > pumasi.MaxFileSize {
		return res, pumasi.Errorf(pumasi.ETooLarge, "file is %d bytes; the limit is %d", len(in.Body), pumasi.MaxFileSize)
	}
	sum := sum256(in.Body)
	size := int64(len(in.Body))
	ifMatch := normalizeETag(in.IfMatch)
	contentType := in.ContentType
	if contentType == "" {
		contentType = pumasi.DetectContentType(name, in.Body)
	}

	if !in.IfNoneMatch {
		if r, ok, err := s.unchanged(ctx, in.Room, name, sum, ifMatch); err != nil || ok {
			return r, err
		}
	}

	if err := s.roomToGrow(); err != nil {
		return res, err
	}
	tmp, err := s.writeTemp(in.Room, in.Body)
	if err != nil {
		return res, wrapInternal("put file", err)
	}
	defer os.Remove(tmp) // Gone already once renamed into place.

	var placed bool
	var replaced string
	op := &putOp{ctx: ctx, undo: func() { replaced, res = "", pumasi.PutFileResult{} }}
	// apply runs in the group's context, never the caller's: cancelling a
	// statement inside the shared transaction could roll back the group.
	op.apply = func(ctx context.Context, tx txStmts, g *groupTx) error {
		cur, found, err := fileByFold(ctx, tx, in.Room, pumasi.FoldName(name))
		if err == nil && !found {
			cur, found, err = fileByLook(ctx, tx, in.Room, pumasi.LookalikeKey(name))
		}
		if err != nil {
			return err
		}
		u, err := g.roomUsage(ctx, tx, in.Room)
		if err != nil {
			return err
		}
		var curp *pumasi.File
		if found {
			curp = &cur
		}
		planIn := in
		planIn.Name = name
		plan, err := pumasi.PlanPut(curp, pumasi.RoomUsage{Files: u.files, Bytes: u.bytes, MaxFiles: s.maxFiles, MaxBytes: s.maxBytes}, planIn, sum)
		if err != nil {
			return err
		}

		if plan == pumasi.PutUnchanged {
			// Identical content: nothing changes, but heal a missing blob.
			if _, err := os.Stat(s.blobPath(in.Room, sum)); errors.Is(err, fs.ErrNotExist) {
				if err := s.renameBlob(in.Room, sum, tmp); err != nil {
					return err
				}
				placed, g.dirs[s.roomDir(in.Room)] = true, true
				s.log.Warn("restored missing blob on identical upload", "room", in.Room, "sha256", sum)
			}
			rev, err := roomRev(ctx, tx, in.Room)
			if err != nil {
				return err
			}
			res = pumasi.PutFileResult{File: cur, Changed: false, Rev: rev}
			return nil
		}

		if err := s.renameBlob(in.Room, sum, tmp); err != nil {
			return err
		}
		placed, g.dirs[s.roomDir(in.Room)] = true, true

		now := s.now().UTC()
		f := pumasi.File{
			ID: uuid.NewString(), RoomID: in.Room, Name: name, SHA256: sum, Size: size,
			ContentType: contentType, Version: 1, UploadedBy: in.UploadedBy, CreatedAt: now, UpdatedAt: now,
		}
		if !found && !s.history.Off {
			// A name deleted before goes on from its kept versions.
			last, err := lastVersion(ctx, tx, in.Room, name)
			if err != nil {
				return err
			}
			f.Version = pumasi.NextVersion(nil, last)
		}
		if found {
			f.ID, f.Version, f.CreatedAt = cur.ID, cur.Version+1, cur.CreatedAt
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
		c := pumasi.Change{Rev: rev, Kind: pumasi.ChangeUpload, Name: name, FileID: f.ID, Version: f.Version,
			ToSHA256: sum, Size: size, ContentType: contentType, By: in.UploadedBy, At: now}
		if found {
			c.FromSHA256 = cur.SHA256
		}
		if err := s.record(ctx, tx, in.Room, c); err != nil {
			return err
		}
		if found {
			replaced = cur.SHA256 // Retired after the commit, never before.
			u.bytes += f.Size - cur.Size
		} else {
			u.files++
			u.bytes += f.Size
		}
		res = pumasi.PutFileResult{File: f, Changed: true, Rev: rev}
		return nil
	}
	if err := s.commitPut(op); err != nil {
		if placed {
			s.dropBlobIfOrphan(ctx, in.Room, sum)
		}
		return pumasi.PutFileResult{}, wrapInternal("put file", err)
	}
	if replaced != "" {
		s.retire(in.Room, replaced)
	}
	s.reap(ctx, time.Now())
	return res, nil
}

// unchanged is PutFile's fast path for re-delivery: when name already holds
// sum (and its blob is on disk), the upload is answered from one statement
// (a consistent snapshot of the row and the room's rev) without writing a
// temp file or taking the write lock.
func (s *Store) unchanged(ctx context.Context, room, name, sum, ifMatch string) (pumasi.PutFileResult, bool, error) {
	if ifMatch != "" && ifMatch != sum {
		return pumasi.PutFileResult{}, false, nil
	}
	var rev int64
	cur, err := scanFile(revScanner{s.reads.QueryRowContext(ctx, `SELECT `+fileColumns+`,
		(SELECT rev FROM rooms r WHERE r.room_id = files.room_id) FROM files WHERE room_id = ? AND name = ?`,
		room, name), &rev})
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return pumasi.PutFileResult{}, false, nil
	case err != nil:
		return pumasi.PutFileResult{}, false, fmt.Errorf("put file: %w", err)
	case cur.SHA256 != sum:
		return pumasi.PutFileResult{}, false, nil
	}
	if _, err := os.Stat(s.blobPath(room, sum)); err != nil {
		return pumasi.PutFileResult{}, false, nil // Let the slow path heal it.
	}
	// The row may be an upload group's commit not synced yet (a racing
	// identical upload, or one whose sync failed): answer only once it is
	// durable. Nothing pending costs nothing. (A row another process on
	// the same home committed and has not synced yet is not waited for.)
	if err := s.durableFiles(); err != nil {
		return pumasi.PutFileResult{}, false, fmt.Errorf("put file: %w", err)
	}
	return pumasi.PutFileResult{File: cur, Changed: false, Rev: rev}, true, nil
}

// revScanner scans a file row followed by one more column, the room's rev.
type revScanner struct {
	row *sql.Row
	rev *int64
}

func (r revScanner) Scan(dest ...any) error { return r.row.Scan(append(dest, r.rev)...) }

// StatFile returns a file's metadata. Returns not_found when absent.
func (s *Store) StatFile(ctx context.Context, room, name string) (pumasi.File, error) {
	name, err := checkRoomName(room, name)
	if err != nil {
		return pumasi.File{}, err
	}
	f, found, err := fileByName(ctx, s.reads, room, name)
	if err != nil {
		return pumasi.File{}, fmt.Errorf("stat file: %w", err)
	}
	if !found {
		return pumasi.File{}, pumasi.Errorf(pumasi.ENotFound, "no file %q in room %s", name, room)
	}
	return f, nil
}

// ReadFile returns a file's metadata and bytes, verified against its sha256.
// A concurrent update or delete may remove the blob between reading the row
// and the body; then the row is read again. Returns not_found when absent.
func (s *Store) ReadFile(ctx context.Context, room, name string) (pumasi.File, []byte, error) {
	name, err := checkRoomName(room, name)
	if err != nil {
		return pumasi.File{}, nil, err
	}
	for attempt := 0; ; attempt++ {
		f, found, err := fileByName(ctx, s.reads, room, name)
		if err != nil {
			return pumasi.File{}, nil, fmt.Errorf("read file: %w", err)
		}
		if !found {
			return pumasi.File{}, nil, pumasi.Errorf(pumasi.ENotFound, "no file %q in room %s", name, room)
		}
		body, err := os.ReadFile(s.blobPath(room, f.SHA256))
		if errors.Is(err, fs.ErrNotExist) && attempt < 5 {
			continue
		}
		if err != nil {
			return pumasi.File{}, nil, fmt.Errorf("read file %s/%s: %w", room, f.SHA256, err)
		}
		if got := sum256(body); got != f.SHA256 {
			return pumasi.File{}, nil, fmt.Errorf("read file %s/%s: blob holds %s", room, f.SHA256, got)
		}
		return f, body, nil
	}
}

// ListFiles lists a room sorted by name (byte order of the NFC names) at one
// consistent revision. An unknown room lists empty at rev 0.
func (s *Store) ListFiles(ctx context.Context, room string) (pumasi.Listing, error) {
	l := pumasi.Listing{RoomID: room, Files: []pumasi.File{}}
	if err := pumasi.CheckID("room", room); err != nil {
		return l, err
	}
	err := s.readTx(ctx, func(tx *sql.Tx) error {
		rev, err := roomRev(ctx, tx, room)
		if err != nil {
			return err
		}
		l.Rev = rev
		rows, err := tx.QueryContext(ctx, `SELECT `+fileColumns+` FROM files WHERE room_id = ? ORDER BY name`, room)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			f, err := scanFile(rows)
			if err != nil {
				return err
			}
			l.Files = append(l.Files, f)
		}
		return rows.Err()
	})
	if err != nil {
		return pumasi.Listing{RoomID: room, Files: []pumasi.File{}}, fmt.Errorf("list files %s: %w", room, err)
	}
	return l, nil
}

// RoomRev returns a room's revision from its one row, 0 for a room never
// changed: what a listing cache needs to know whether it is current.
func (s *Store) RoomRev(ctx context.Context, room string) (int64, error) {
	if err := pumasi.CheckID("room", room); err != nil {
		return 0, err
	}
	return roomRev(ctx, s.reads, room)
}

// DeleteFile removes a file's row; its blob is retired after the commit and
// reaped once no row references it (see retire). Returns not_found when absent and
// precondition_failed when ifMatch is set and differs from the current sha256.
func (s *Store) DeleteFile(ctx context.Context, room, name, ifMatch string) (pumasi.File, int64, error) {
	return s.Delete(ctx, pumasi.DeleteInput{Room: room, Name: name, IfMatch: ifMatch})
}

// Delete is DeleteFile recording in.By in the room log; the deleted
// content stays a version of the name until retention drops it.
func (s *Store) Delete(ctx context.Context, in pumasi.DeleteInput) (pumasi.File, int64, error) {
	room, ifMatch := in.Room, in.IfMatch
	name, err := checkRoomName(room, in.Name)
	if err != nil {
		return pumasi.File{}, 0, err
	}
	var f pumasi.File
	var rev int64
	err = s.writeTx(ctx, func(tx *sql.Tx) error {
		cur, found, err := fileByName(ctx, tx, room, name)
		if err != nil {
			return err
		}
		var curp *pumasi.File
		if found {
			curp = &cur
		}
		if err := pumasi.PlanDelete(curp, room, name, ifMatch); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM files WHERE id = ?`, cur.ID); err != nil {
			return fmt.Errorf("delete row: %w", err)
		}
		if rev, err = bumpRev(ctx, tx, room); err != nil {
			return err
		}
		if err := s.record(ctx, tx, room, pumasi.Change{Rev: rev, Kind: pumasi.ChangeDelete, Name: name, FileID: cur.ID,
			Version: cur.Version + 1, FromSHA256: cur.SHA256, By: in.By, At: s.now().UTC()}); err != nil {
			return err
		}
		f = cur
		return nil
	})
	if err != nil {
		return pumasi.File{}, 0, wrapInternal("delete file", err)
	}
	s.retire(room, f.SHA256)
	s.reap(ctx, time.Now())
	return f, rev, nil
}

// checkRoomName validates the room id and returns the NFC form of name.
func checkRoomName(room, name string) (string, error) {
	if err := pumasi.CheckID("room", room); err != nil {
		return "", err
	}
	return pumasi.NormalizeName(name)
}

func fileByName(ctx context.Context, q querier, room, name string) (pumasi.File, bool, error) {
	return fileWhere(ctx, q, `room_id = ? AND name = ?`, room, name)
}

func fileByFold(ctx context.Context, q querier, room, fold string) (pumasi.File, bool, error) {
	return fileWhere(ctx, q, `room_id = ? AND fold = ?`, room, fold)
}

func fileWhere(ctx context.Context, q querier, where string, args ...any) (pumasi.File, bool, error) {
	f, err := scanFile(q.QueryRowContext(ctx, `SELECT `+fileColumns+` FROM files WHERE `+where, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return pumasi.File{}, false, nil
	}
	if err != nil {
		return pumasi.File{}, false, fmt.Errorf("select file: %w", err)
	}
	return f, true, nil
}

// scanner is what *sql.Row and *sql.Rows share.
type scanner interface{ Scan(dest ...any) error }

func scanFile(r scanner) (pumasi.File, error) {
	var f pumasi.File
	var created, updated string
	if err := r.Scan(&f.ID, &f.RoomID, &f.Name, &f.SHA256, &f.Size, &f.ContentType, &f.Version,
		&f.UploadedBy, &created, &updated); err != nil {
		return f, err
	}
	var err error
	if f.CreatedAt, err = parseTime(created); err != nil {
		return f, err
	}
	if f.UpdatedAt, err = parseTime(updated); err != nil {
		return f, err
	}
	return f, nil
}

// normalizeETag accepts a sha256 bare or as a quoted ETag, in any case.
func normalizeETag(s string) string {
	return strings.ToLower(strings.Trim(strings.TrimSpace(s), `"`))
}

// wrapInternal leaves coded errors as they are and wraps the rest with op
// (a lack of space becomes insufficient_storage).
func wrapInternal(op string, err error) error {
	var pe *pumasi.Error
	if errors.As(err, &pe) {
		return err
	}
	return storageErr(fmt.Errorf("%s: %w", op, err))
}
