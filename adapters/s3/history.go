package s3

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
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

// segment is the body of a history segment object.
type segment struct {
	Changes []pumasi.Change `json:"changes"`
}

// segCache keeps decoded segments by key; they are immutable.
type segCache struct {
	mu sync.Mutex
	m  map[string][]pumasi.Change
}

func (c *segCache) get(key string) ([]pumasi.Change, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[key]
	return v, ok
}

func (c *segCache) put(key string, cs []pumasi.Change) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxSnaps {
		c.m = map[string][]pumasi.Change{}
	}
	c.m[key] = cs
}

// segmentChanges returns the changes of one segment, from memory once read.
func (s *Store) segmentChanges(ctx context.Context, key string) ([]pumasi.Change, error) {
	if cs, ok := s.segs.get(key); ok {
		return cs, nil
	}
	body, _, exists, err := s.getObject(ctx, key)
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, fmt.Errorf("read %s: %w", key, errSnapshotGone)
	}
	var seg segment
	if err := json.Unmarshal(body, &seg); err != nil {
		return nil, fmt.Errorf("decode %s: %w", key, err)
	}
	s.segs.put(key, seg.Changes)
	return seg.Changes, nil
}

// putSegment writes changes as a new segment of room and returns its key.
func (s *Store) putSegment(ctx context.Context, room string, rev int64, changes []pumasi.Change) (string, error) {
	key := s.prefix + "rooms/" + room + "/hist/" + strconv.FormatInt(rev, 10) + "-" + newWriteID() + ".json"
	body, err := json.Marshal(segment{Changes: changes})
	if err != nil {
		return "", fmt.Errorf("encode segment: %w", err)
	}
	// A fresh key per attempt: the SDK may retry this PUT freely.
	if _, err := s.putObject(ctx, key, body, "application/json", "", false); err != nil {
		return "", fmt.Errorf("put segment %s: %w", key, err)
	}
	s.segs.put(key, slices.Clone(changes))
	return key, nil
}

// record appends c to the manifest's inline changes (nothing with history
// off).
func (s *Store) record(m *manifest, c pumasi.Change) {
	if s.history.Off {
		return
	}
	m.Changes = append(m.Changes, c)
}

// flushChanges moves the inline changes into a new segment once there are
// more than maxChanges; store calls it before each compare-and-swap.
func (m *manifest) flushChanges(ctx context.Context, s *Store) error {
	if len(m.Changes) <= maxChanges {
		return nil
	}
	key, err := s.putSegment(ctx, m.room, m.Rev, m.Changes)
	if err != nil {
		return err
	}
	m.Segs = append(slices.Clip(m.Segs), key)
	m.Changes = nil
	return nil
}

// allChanges returns every kept change of the manifest's room, oldest
// first: its segments' and then the inline ones.
func (m *manifest) allChanges(ctx context.Context, s *Store) ([]pumasi.Change, error) {
	var out []pumasi.Change
	for _, key := range m.Segs {
		cs, err := s.segmentChanges(ctx, key)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	return append(out, m.Changes...), nil
}

// findChange returns the kept change that made version v of name, looking
// at the newest first.
func (m *manifest) findChange(ctx context.Context, s *Store, name string, v int) (pumasi.Change, bool, error) {
	if c, ok := pumasi.FindVersion(m.Changes, name, v); ok {
		return c, true, nil
	}
	for i := len(m.Segs) - 1; i >= 0; i-- {
		cs, err := s.segmentChanges(ctx, m.Segs[i])
		if err != nil {
			return pumasi.Change{}, false, err
		}
		if c, ok := pumasi.FindVersion(cs, name, v); ok {
			return c, true, nil
		}
	}
	return pumasi.Change{}, false, nil
}

// readHistory reads a room's manifest and every kept change at one rev.
func (s *Store) readHistory(ctx context.Context, room string) (manifest, []pumasi.Change, error) {
	for attempt := 0; ; attempt++ {
		m, err := s.readManifest(ctx, room)
		if err != nil {
			return manifest{}, nil, err
		}
		cs, err := m.allChanges(ctx, s)
		if err == nil || attempt >= 3 {
			return m, cs, err
		}
		// A segment gone means the sweep compacted: read the manifest again.
	}
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
		now := s.now().UTC()
		f := pumasi.File{
			ID: v.FileID, RoomID: in.Room, Name: name, SHA256: v.ToSHA256, Size: v.Size, ContentType: v.ContentType,
			Version: pumasi.NextVersion(cur, m.Deleted[name]), UploadedBy: in.By, CreatedAt: now, UpdatedAt: now,
		}
		if f.ID == "" {
			f.ID = uuid.NewString()
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

// applyRetention drops what falls out of retention from one room's history
// and returns how many changes it dropped: the segments read are rewritten
// as one and swapped in by compare-and-swap, only while the manifest still
// starts with them (else another sweep got there first; the next run
// retries).
func (s *Store) applyRetention(ctx context.Context, room string) (int, error) {
	m, all, err := s.readHistory(ctx, room)
	if err != nil {
		return 0, err
	}
	if len(all) == 0 && len(m.Deleted) == 0 {
		return 0, nil
	}
	live := make(map[string]string, len(m.Files))
	for _, f := range m.Files {
		live[f.Name] = f.SHA256
	}
	drop := map[int64]bool{}
	for _, rev := range pumasi.PlanRetention(all, live, s.history, s.now()) {
		drop[rev] = true
	}
	oldSegs := slices.Clone(m.Segs)
	var inSegs []pumasi.Change
	segDrops := 0
	for _, key := range oldSegs {
		cs, err := s.segmentChanges(ctx, key)
		if err != nil {
			return 0, err
		}
		for _, c := range cs {
			if drop[c.Rev] {
				segDrops++
			} else {
				inSegs = append(inSegs, c)
			}
		}
	}
	kept := map[string]bool{}
	for _, c := range all {
		if !drop[c.Rev] && c.Name != "" {
			kept[c.Name] = true
		}
	}
	staleDeleted := false
	for name := range m.Deleted {
		if !kept[name] {
			staleDeleted = true
		}
	}
	if len(drop) == 0 && len(oldSegs) <= 1 && !staleDeleted {
		return 0, nil
	}
	var newSegs []string
	if segDrops > 0 || len(oldSegs) > 1 {
		if len(inSegs) > 0 {
			key, err := s.putSegment(ctx, room, m.Rev, inSegs)
			if err != nil {
				return 0, err
			}
			newSegs = []string{key}
		}
	} else {
		newSegs = oldSegs
	}
	dropped := 0
	_, err = s.updateManifest(ctx, s.manifestKey(room), func(m *manifest, _ bool) (bool, error) {
		dropped = 0
		if len(m.Segs) < len(oldSegs) || !slices.Equal(m.Segs[:len(oldSegs)], oldSegs) {
			return false, nil // Compacted by another sweep meanwhile.
		}
		wrote := false
		if !slices.Equal(newSegs, oldSegs) {
			m.Segs = append(slices.Clone(newSegs), m.Segs[len(oldSegs):]...)
			dropped += segDrops
			wrote = true
		}
		keep := m.Changes[:0:0]
		for _, c := range m.Changes {
			if drop[c.Rev] {
				dropped++
				wrote = true
				continue
			}
			keep = append(keep, c)
		}
		m.Changes = keep
		if len(m.Segs) == len(newSegs) { // No segment newer than the plan.
			for name := range m.Deleted {
				if !kept[name] && m.findFile(name) < 0 && !slices.ContainsFunc(m.Changes, func(c pumasi.Change) bool { return c.Name == name }) {
					m.forget(name)
					wrote = true
				}
			}
		}
		return wrote, nil
	})
	if err != nil {
		return 0, fmt.Errorf("retention %s: %w", room, err)
	}
	return dropped, nil
}

// historyRefs returns the sha256 of every blob the kept changes of the
// manifest's room reference.
func (m *manifest) historyRefs(ctx context.Context, s *Store) (map[string]bool, error) {
	cs, err := m.allChanges(ctx, s)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, c := range cs {
		if c.ToSHA256 != "" {
			out[c.ToSHA256] = true
		}
	}
	return out, nil
}

// sweepSegments removes the room's history segments that its manifest does
// not name and that are older than snapshotGrace.
func (s *Store) sweepSegments(ctx context.Context, room string) error {
	base := s.prefix + "rooms/" + room + "/hist/"
	cutoff := time.Now().Add(-snapshotGrace)
	var old []string
	p := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{Bucket: aws.String(s.bucket), Prefix: aws.String(base)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("list segments: %w", err)
		}
		for _, o := range page.Contents {
			if o.LastModified != nil && o.LastModified.Before(cutoff) {
				old = append(old, aws.ToString(o.Key))
			}
		}
	}
	if len(old) == 0 {
		return nil
	}
	m, err := s.readManifest(ctx, room)
	if err != nil {
		return err
	}
	for _, key := range old {
		if slices.Contains(m.Segs, key) {
			continue
		}
		if _, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(key)}); err != nil {
			return fmt.Errorf("delete segment %s: %w", key, err)
		}
	}
	return nil
}
