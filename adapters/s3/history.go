package s3

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"

	"github.com/google/uuid"

	"pumasi"
)

// A room's history lives with its manifest, so the compare-and-swap that
// commits a change also commits its log entry: the manifest carries the
// newest changes inline (Changes, at most maxChanges) and the keys of
// immutable history segments holding the older ones (Segs, oldest first,
// rooms/<room>/hist/<rev>-<id>.json). The writer whose change makes the
// inline list longer than maxChanges writes a segment before its
// compare-and-swap, as for snapshots, so each upload's manifest stays
// small. The sweep applies the retention: it rewrites the segments it read
// as one, minus what fell out, and swaps the new key in for theirs; the old
// segments are removed after snapshotGrace. Names deleted while their
// versions are kept remember their last version in Deleted, so a name that
// comes back goes on numbering. Plain S3 objects only: no bucket
// versioning.
const maxChanges = 32

// record appends c to the manifest's inline changes (nothing with history
// off).
func (s *Store) record(m *manifest, c pumasi.Change) {
	if s.history.Off {
		return
	}
	m.Changes = append(m.Changes, c)
}

// RoomLog returns room's changes with rev > since, oldest first.
func (s *Store) RoomLog(ctx context.Context, room string, since int64, limit int) (pumasi.RoomLog, error) {
	l := pumasi.RoomLog{RoomID: room, Changes: []pumasi.Change{}}
	if err := pumasi.CheckID("room", room); err != nil {
		return l, err
	}
	limit = pumasi.LogLimit(limit)
	m, cs, err := s.readHistory(ctx, room)
	if err != nil {
		return l, fmt.Errorf("room log %s: %w", room, err)
	}
	l.Rev = m.Rev
	for _, c := range cs {
		if c.Rev <= since {
			continue
		}
		if len(l.Changes) == limit {
			l.More = true
			break
		}
		l.Changes = append(l.Changes, c)
	}
	return l, nil
}

// FileVersions lists name's kept versions, newest first.
func (s *Store) FileVersions(ctx context.Context, room, name string) ([]pumasi.FileVersion, error) {
	if err := pumasi.CheckID("room", room); err != nil {
		return nil, err
	}
	n, err := pumasi.NormalizeName(name)
	if err != nil {
		return nil, err
	}
	m, cs, err := s.readHistory(ctx, room)
	if err != nil {
		return nil, fmt.Errorf("file versions %s/%s: %w", room, n, err)
	}
	var mine []pumasi.Change
	for _, c := range cs {
		if c.Name == n {
			mine = append(mine, c)
		}
	}
	var cur *pumasi.File
	if i := m.findFile(n); i >= 0 {
		cur = &m.Files[i]
	}
	out := pumasi.FileVersionsOf(mine, cur)
	if len(out) == 0 {
		return nil, pumasi.Errorf(pumasi.ENotFound, "no file %q in room %s, and no version of it is kept", n, room)
	}
	return out, nil
}

// ReadVersion returns version v of name and its bytes, verified.
func (s *Store) ReadVersion(ctx context.Context, room, name string, v int) (pumasi.FileVersion, []byte, error) {
	vs, err := s.FileVersions(ctx, room, name)
	if pumasi.ErrorCode(err) == pumasi.ENotFound {
		return pumasi.FileVersion{}, nil, pumasi.VersionNotKept(room, name, v)
	}
	if err != nil {
		return pumasi.FileVersion{}, nil, err
	}
	i := slices.IndexFunc(vs, func(fv pumasi.FileVersion) bool { return fv.Version == v })
	if i < 0 {
		return pumasi.FileVersion{}, nil, pumasi.VersionNotKept(room, name, v)
	}
	fv := vs[i]
	if fv.Deleted {
		return fv, nil, pumasi.Errorf(pumasi.EGone, "version %d of %q is its delete; it has no content", v, name)
	}
	body, err := s.readBlob(ctx, room, fv.SHA256)
	if err != nil {
		return pumasi.FileVersion{}, nil, fmt.Errorf("read version %d of %s/%s: %w", v, room, name, err)
	}
	return fv, body, nil
}

// readBlob reads a blob and checks its bytes against sum.
func (s *Store) readBlob(ctx context.Context, room, sum string) ([]byte, error) {
	body, _, exists, err := s.getObject(ctx, s.blobKey(room, sum))
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, fmt.Errorf("blob %s is missing", sum)
	}
	if h := sha256.Sum256(body); hex.EncodeToString(h[:]) != sum {
		return nil, fmt.Errorf("blob %s does not match its sha256", sum)
	}
	return body, nil
}

// DeletedFiles lists the deleted names of room that still have a version
// with content.
func (s *Store) DeletedFiles(ctx context.Context, room string) ([]pumasi.DeletedFile, error) {
	if err := pumasi.CheckID("room", room); err != nil {
		return nil, err
	}
	m, cs, err := s.readHistory(ctx, room)
	if err != nil {
		return nil, fmt.Errorf("deleted files %s: %w", room, err)
	}
	live := make(map[string]bool, len(m.Files))
	for _, f := range m.Files {
		live[f.Name] = true
	}
	return pumasi.DeletedFilesOf(cs, live), nil
}

// RestoreFile makes a kept version current again as a new version. The
// version's bytes are read and checked before the compare-and-swap, and
// the blob is made sure of after it, as an upload does.
func (s *Store) RestoreFile(ctx context.Context, in pumasi.RestoreInput) (pumasi.PutFileResult, []byte, error) {
	var res pumasi.PutFileResult
	if err := pumasi.CheckID("room", in.Room); err != nil {
		return res, nil, err
	}
	name, err := pumasi.NormalizeName(in.Name)
	if err != nil {
		return res, nil, err
	}
	in.Name = name
	if s.history.Off {
		return res, nil, pumasi.VersionNotKept(in.Room, name, in.Version)
	}
	m, err := s.readManifest(ctx, in.Room)
	if err != nil {
		return res, nil, fmt.Errorf("restore %s/%s: %w", in.Room, name, err)
	}
	v, ok, err := m.findChange(ctx, s, name, in.Version)
	if err != nil {
		return res, nil, fmt.Errorf("restore %s/%s: %w", in.Room, name, err)
	}
	if !ok {
		return res, nil, pumasi.VersionNotKept(in.Room, name, in.Version)
	}
	if v.Kind == pumasi.ChangeDelete {
		return res, nil, pumasi.Errorf(pumasi.EGone, "version %d of %q is its delete; restore a version with content", v.Version, name)
	}
	body, err := s.readBlob(ctx, in.Room, v.ToSHA256)
	if err != nil {
		return res, nil, fmt.Errorf("restore %s/%s version %d: %w", in.Room, name, in.Version, err)
	}
	// Drawn once, as in PutFile: the closure may run again.
	newID, now := uuid.NewString(), s.now().UTC()
	changed, err := s.updateManifest(ctx, s.manifestKey(in.Room), func(m *manifest, _ bool) (bool, error) {
		res = pumasi.PutFileResult{}
		v, ok, err := m.findChange(ctx, s, name, in.Version)
		if err != nil {
			return false, err
		}
		if !ok {
			return false, pumasi.VersionNotKept(in.Room, name, in.Version)
		}
		var cur *pumasi.File
		if j := m.findFold(name); j >= 0 {
			cur = &m.Files[j]
		} else if j := m.findLookalike(name); j >= 0 {
			cur = &m.Files[j]
		}
		count, total := m.usage()
		plan, err := pumasi.PlanRestore(cur, pumasi.RoomUsage{Files: count, Bytes: total, MaxFiles: s.maxFiles, MaxBytes: s.maxBytes}, in, v)
		if err != nil {
			return false, err
		}
		if plan == pumasi.PutUnchanged {
			res = pumasi.PutFileResult{File: *cur, Changed: false, Rev: m.Rev}
			return false, nil
		}
		f := pumasi.File{
			ID: v.FileID, RoomID: in.Room, Name: name, SHA256: v.ToSHA256, Size: v.Size, ContentType: v.ContentType,
			Version: pumasi.NextVersion(cur, m.Deleted[name]), UploadedBy: in.By, CreatedAt: now, UpdatedAt: now,
		}
		if f.ID == "" {
			f.ID = newID
		}
		m.Rev++
		c := pumasi.Change{Rev: m.Rev, Kind: pumasi.ChangeRestore, Name: name, Version: f.Version,
			ToSHA256: f.SHA256, Size: f.Size, ContentType: f.ContentType, RestoredFrom: v.Version, By: in.By, At: now}
		if i := m.findFile(name); i >= 0 {
			old := m.Files[i]
			f.ID, f.CreatedAt, c.FromSHA256 = old.ID, old.CreatedAt, old.SHA256
			m.Files[i] = f
		} else {
			at, _ := slices.BinarySearchFunc(m.Files, name, byName)
			m.Files = slices.Insert(m.Files, at, f)
			m.forget(name)
		}
		c.FileID = f.ID
		s.record(m, c)
		res = pumasi.PutFileResult{File: f, Changed: true, Rev: m.Rev}
		return true, nil
	})
	if err != nil {
		if pumasi.ErrorCode(err) == pumasi.EInternal {
			return pumasi.PutFileResult{}, nil, fmt.Errorf("restore %s/%s: %w", in.Room, name, err)
		}
		return pumasi.PutFileResult{}, nil, err
	}
	if changed {
		if err := s.ensureBlob(ctx, in.Room, v.ToSHA256, body, v.ContentType); err != nil {
			return pumasi.PutFileResult{}, nil, err
		}
	}
	return res, body, nil
}

func byName(f pumasi.File, n string) int {
	switch {
	case f.Name < n:
		return -1
	case f.Name > n:
		return 1
	}
	return 0
}

// forget drops a name from Deleted once it is live again.
func (m *manifest) forget(name string) {
	if _, ok := m.Deleted[name]; ok {
		m.Deleted = maps.Clone(m.Deleted)
		delete(m.Deleted, name)
	}
}

// remember notes the version a delete gave a name.
func (s *Store) remember(m *manifest, name string, v int) {
	if s.history.Off {
		return
	}
	d := maps.Clone(m.Deleted)
	if d == nil {
		d = map[string]int{}
	}
	d[name] = v
	m.Deleted = d
}
