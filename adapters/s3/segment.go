package s3

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"pumasi"
)

// History segments: immutable objects holding a room's older changes
// (history.go says why they exist and when they are written).

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
