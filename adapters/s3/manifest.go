package s3

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"pumasi"
)

// A room's manifest stays small however many files the room holds, so that
// an upload's compare-and-swap costs the same at 20 files and at 5,000: past
// inlineFiles files, the manifest names an immutable snapshot of the file
// list (rooms/<room>/snap/<rev>-<id>.json, written once, never changed) and
// carries only the changes made since, oldest first. The writer whose change
// makes that log longer than maxLog writes a new snapshot before its
// compare-and-swap, so a snapshot's cost is spread over maxLog uploads.
//
// A change log over a snapshot, rather than one object per file: listing and
// every write's name, quota and precondition checks need the whole file set
// at one rev, which a per-file layout gives only through a LIST that S3 does
// not make consistent with the compare-and-swap. Here the manifest stays the
// one commit point, and a snapshot, being immutable, is read once per process
// and kept.
const (
	inlineFiles = 64
	maxLog      = 64
)

// snapshotGrace is the least age at which the sweep removes a snapshot the
// manifest no longer names: far beyond the time between a snapshot's PUT and
// the compare-and-swap that names it, so no sweep removes one about to be
// named.
const snapshotGrace = time.Hour

// manifest is a room's one mutable object: its revision, files and
// placements. Every change to it goes through update (compare-and-swap).
// Files is the whole list, sorted by name; what is stored is Files inline
// for a small room, else Base and Log (see load and store).
type manifest struct {
	Rev        int64         `json:"rev"`
	Files      []pumasi.File `json:"files,omitempty"`
	Placements []placement   `json:"placements"` // sorted by agent id
	Base       string        `json:"base,omitempty"`
	Log        []fileChange  `json:"log,omitempty"`
	// The room's history (history.go): the newest changes inline, the keys
	// of the segments holding older ones, and the last version of each
	// deleted name whose versions are kept. A manifest written before
	// history has none of them and loads as a room with no past.
	Changes []pumasi.Change `json:"changes,omitempty"`
	Segs    []string        `json:"segs,omitempty"`
	Deleted map[string]int  `json:"deleted,omitempty"`

	room   string
	loaded []pumasi.File // Files as load left them, to find what changed
	stored []pumasi.File // Files as store found them: the whole list written
}

// fileChange is one entry of a manifest's log: a file put (File set) or a
// name deleted.
type fileChange struct {
	File    *pumasi.File `json:"put,omitempty"`
	Deleted string       `json:"del,omitempty"`
}

// snapshot is the body of a snapshot object.
type snapshot struct {
	Files []pumasi.File `json:"files"`
}

// errSnapshotGone means the manifest named a snapshot that is no longer
// there: the manifest has moved on and the sweep took the old one; read the
// manifest again.
var errSnapshotGone = errors.New("snapshot gone")

// load turns the stored form into Files: the snapshot's list (or the inline
// one) with the log applied.
func (m *manifest) load(ctx context.Context, s *Store, key string) error {
	m.room = roomOfManifest(s, key)
	if m.Base != "" {
		files, err := s.snapshot(ctx, m.Base)
		if err != nil {
			return err
		}
		m.Files = slices.Clone(files)
	}
	for _, c := range m.Log {
		m.apply(c)
	}
	m.loaded = slices.Clone(m.Files)
	return nil
}

// apply makes one logged change to Files.
func (m *manifest) apply(c fileChange) {
	name := c.Deleted
	if c.File != nil {
		name = c.File.Name
	}
	i, found := slices.BinarySearchFunc(m.Files, name, func(f pumasi.File, n string) int { return strings.Compare(f.Name, n) })
	switch {
	case c.File != nil && found:
		m.Files[i] = *c.File
	case c.File != nil:
		m.Files = slices.Insert(m.Files, i, *c.File)
	case found:
		m.Files = slices.Delete(m.Files, i, i+1)
	}
}

// store turns Files back into the stored form: inline while the room is
// small, else the changes since load appended to the log, compacted into a
// new snapshot once the log is longer than maxLog.
func (m *manifest) store(ctx context.Context, s *Store) error {
	if err := m.flushChanges(ctx, s); err != nil {
		return err
	}
	m.stored = m.Files
	if len(m.Files) <= inlineFiles {
		m.Base, m.Log = "", nil
		return nil
	}
	log := m.Log
	if m.Base == "" {
		log = nil // Was inline: every file goes into the first snapshot.
	} else {
		log = append(slices.Clip(log), diffFiles(m.loaded, m.Files)...)
	}
	if m.Base != "" && len(log) <= maxLog {
		m.Log, m.Files = log, nil
		return nil
	}
	key := s.prefix + "rooms/" + m.room + "/snap/" + strconv.FormatInt(m.Rev, 10) + "-" + newWriteID() + ".json"
	body, err := json.Marshal(snapshot{Files: m.Files})
	if err != nil {
		return fmt.Errorf("encode snapshot: %w", err)
	}
	// A fresh key per attempt: the SDK may retry this PUT freely.
	if _, err := s.putObject(ctx, key, body, "application/json", "", false); err != nil {
		return fmt.Errorf("put snapshot %s: %w", key, err)
	}
	s.snaps.put(key, slices.Clone(m.Files))
	m.Base, m.Log, m.Files = key, nil, nil
	return nil
}

// keep returns the manifest as load would make it from the stored form that
// store just made, for the cache (see keeper in cas.go): the next write of
// this process then starts from it without decoding the body it wrote. The
// value is shared and must not change; restore hands out copies.
func (m *manifest) keep() any {
	return &manifest{Rev: m.Rev, Files: m.stored, Placements: m.Placements, Base: m.Base, Log: m.Log,
		Changes: m.Changes, Segs: m.Segs, Deleted: m.Deleted, room: m.room}
}

// restore sets m to a copy of a value keep returned, as load leaves it.
func (m *manifest) restore(kept any) bool {
	k, ok := kept.(*manifest)
	if !ok {
		return false
	}
	*m = manifest{
		Rev: k.Rev, Files: slices.Clone(k.Files), Placements: slices.Clone(k.Placements), Base: k.Base, Log: slices.Clone(k.Log),
		Changes: slices.Clone(k.Changes), Segs: slices.Clone(k.Segs), Deleted: k.Deleted, // Deleted is copied on write (forget, remember)
		room: k.room, loaded: k.Files, // loaded is only read (diffFiles)
	}
	return true
}

// diffFiles returns the changes that turn old into cur, both sorted by name.
func diffFiles(old, cur []pumasi.File) []fileChange {
	var out []fileChange
	i, j := 0, 0
	for i < len(old) || j < len(cur) {
		switch {
		case j == len(cur) || i < len(old) && old[i].Name < cur[j].Name:
			out = append(out, fileChange{Deleted: old[i].Name})
			i++
		case i == len(old) || cur[j].Name < old[i].Name:
			f := cur[j]
			out = append(out, fileChange{File: &f})
			j++
		default:
			if !sameFile(old[i], cur[j]) {
				f := cur[j]
				out = append(out, fileChange{File: &f})
			}
			i, j = i+1, j+1
		}
	}
	return out
}

func sameFile(a, b pumasi.File) bool {
	return a.ID == b.ID && a.SHA256 == b.SHA256 && a.Version == b.Version && a.Size == b.Size &&
		a.ContentType == b.ContentType && a.UploadedBy == b.UploadedBy &&
		a.CreatedAt.Equal(b.CreatedAt) && a.UpdatedAt.Equal(b.UpdatedAt)
}

// roomOfManifest returns the room id in a manifest key.
func roomOfManifest(s *Store, key string) string {
	return strings.TrimSuffix(strings.TrimPrefix(key, s.prefix+"rooms/"), "/manifest.json")
}

// readManifest reads a room's manifest and its file list at one rev.
func (s *Store) readManifest(ctx context.Context, room string) (manifest, error) {
	key := s.manifestKey(room)
	for attempt := 0; ; attempt++ {
		var m manifest
		if _, _, err := s.getJSON(ctx, key, &m); err != nil {
			return manifest{}, err
		}
		err := m.load(ctx, s, key)
		if errors.Is(err, errSnapshotGone) && attempt < 3 {
			continue
		}
		return m, err
	}
}

// snapshot returns the file list of a snapshot object, from memory once read:
// snapshots never change.
func (s *Store) snapshot(ctx context.Context, key string) ([]pumasi.File, error) {
	if files, ok := s.snaps.get(key); ok {
		return files, nil
	}
	body, _, exists, err := s.getObject(ctx, key)
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, fmt.Errorf("read %s: %w", key, errSnapshotGone)
	}
	var snap snapshot
	if err := json.Unmarshal(body, &snap); err != nil {
		return nil, fmt.Errorf("decode %s: %w", key, err)
	}
	s.snaps.put(key, snap.Files)
	return snap.Files, nil
}

// RoomRev returns a room's revision from its manifest (a conditional GET of a
// small object): what a listing cache needs to know whether it is current.
func (s *Store) RoomRev(ctx context.Context, room string) (int64, error) {
	if err := pumasi.CheckID("room", room); err != nil {
		return 0, err
	}
	var head struct {
		Rev int64 `json:"rev"`
	}
	if _, _, err := s.getJSON(ctx, s.manifestKey(room), &head); err != nil {
		return 0, fmt.Errorf("room rev %s: %w", room, err)
	}
	return head.Rev, nil
}

// snapCache keeps decoded snapshots by key; they are immutable.
type snapCache struct {
	mu sync.Mutex
	m  map[string][]pumasi.File
}

// maxSnaps bounds the snapshots kept; past it the cache starts over.
const maxSnaps = 256

func (c *snapCache) get(key string) ([]pumasi.File, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f, ok := c.m[key]
	return f, ok
}

func (c *snapCache) put(key string, files []pumasi.File) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxSnaps {
		c.m = map[string][]pumasi.File{}
	}
	c.m[key] = files
}

// sweepSnapshots removes the room's snapshots that its manifest does not
// name and that are older than snapshotGrace.
func (s *Store) sweepSnapshots(ctx context.Context, room string) error {
	base := s.prefix + "rooms/" + room + "/snap/"
	cutoff := time.Now().Add(-snapshotGrace)
	var old []string
	p := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{Bucket: aws.String(s.bucket), Prefix: aws.String(base)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("list snapshots: %w", err)
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
	var m manifest
	if _, _, err := s.getJSON(ctx, s.manifestKey(room), &m); err != nil {
		return err
	}
	for _, key := range old {
		if key == m.Base {
			continue
		}
		if _, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(key)}); err != nil {
			return fmt.Errorf("delete snapshot %s: %w", key, err)
		}
	}
	return nil
}
