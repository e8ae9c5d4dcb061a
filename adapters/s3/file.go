package s3

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/google/uuid"

	"pumasi"
)

// findFold returns the index of the file whose name equals name up to case
// (pumasi.FoldName), or -1; names are unique that way within a room.
// FoldName costs about a microsecond a name, which every upload paid for
// every file of the room; for two ASCII names (NFC leaves them alone, and
// full case folding maps A-Z to a-z and nothing else) ASCII case-insensitive
// equality gives the same answer. A non-ASCII name may still fold to an
// ASCII one (the Kelvin sign folds to k), so such pairs take FoldName.
func (m *manifest) findFold(name string) int {
	ascii := isASCII(name)
	var fold string
	for j, f := range m.Files {
		if ascii && isASCII(f.Name) {
			if strings.EqualFold(f.Name, name) {
				return j
			}
			continue
		}
		if fold == "" {
			fold = pumasi.FoldName(name)
		}
		if pumasi.FoldName(f.Name) == fold {
			return j
		}
	}
	return -1
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// findFile returns the index of name in m.Files, or -1.
func (m *manifest) findFile(name string) int {
	i, ok := slices.BinarySearchFunc(m.Files, name, func(f pumasi.File, n string) int { return strings.Compare(f.Name, n) })
	if !ok {
		return -1
	}
	return i
}

// usage returns the room's file count and total bytes.
func (m *manifest) usage() (files int, bytes int64) {
	for _, f := range m.Files {
		bytes += f.Size
	}
	return len(m.Files), bytes
}

// PutFile stores the blob first (content-addressed, so idempotent) and then
// records it in the room's manifest by compare-and-swap. A crash between the
// two leaves only an unreferenced blob, which the sweep collects.
func (s *Store) PutFile(ctx context.Context, in pumasi.PutFileInput) (pumasi.PutFileResult, error) {
	if err := pumasi.CheckID("room", in.Room); err != nil {
		return pumasi.PutFileResult{}, err
	}
	name, err := pumasi.NormalizeName(in.Name)
	if err != nil {
		return pumasi.PutFileResult{}, err
	}
	if len(in.Body) > pumasi.MaxFileSize {
		// PlanPut refuses it too; refusing here saves writing the blob.
		return pumasi.PutFileResult{}, pumasi.Errorf(pumasi.ETooLarge, "file is %d bytes; the limit is %d", len(in.Body), pumasi.MaxFileSize)
	}
	contentType := in.ContentType
	if contentType == "" {
		contentType = pumasi.DetectContentType(name, in.Body)
	}
	h := sha256.Sum256(in.Body)
	sum := hex.EncodeToString(h[:])
	size := int64(len(in.Body))

	existed, err := s.putBlob(ctx, in.Room, sum, in.Body, contentType)
	if err != nil {
		return pumasi.PutFileResult{}, err
	}
	if s.afterBlob != nil {
		s.afterBlob()
	}

	// Drawn once: the closure may run again after a lost answer, and the
	// write that lands must be the one reported.
	newID, now := uuid.NewString(), s.now().UTC()
	var res pumasi.PutFileResult
	changed, err := s.updateManifest(ctx, s.manifestKey(in.Room), func(m *manifest, _ bool) (bool, error) {
		res = pumasi.PutFileResult{}
		i := m.findFile(name)
		var cur *pumasi.File
		if j := m.findFold(name); j >= 0 {
			cur = &m.Files[j]
		} else if j := m.findLookalike(name); j >= 0 {
			cur = &m.Files[j]
		}
		count, total := m.usage()
		use := pumasi.RoomUsage{Files: count, Bytes: total, MaxFiles: s.maxFiles, MaxBytes: s.maxBytes}
		in := in
		in.Name = name
		plan, err := pumasi.PlanPut(cur, use, in, sum)
		if err != nil {
			return false, err
		}
		if plan == pumasi.PutUnchanged {
			res = pumasi.PutFileResult{File: *cur, Changed: false, Rev: m.Rev}
			return false, nil
		}
		f := pumasi.File{
			ID: newID, RoomID: in.Room, Name: name, SHA256: sum, Size: size,
			ContentType: contentType, Version: 1, UploadedBy: in.UploadedBy, CreatedAt: now, UpdatedAt: now,
		}
		m.Rev++
		c := pumasi.Change{Rev: m.Rev, Kind: pumasi.ChangeUpload, Name: name, ToSHA256: sum, Size: size,
			ContentType: contentType, By: in.UploadedBy, At: now}
		if i >= 0 {
			old := m.Files[i]
			f.ID, f.CreatedAt, f.Version = old.ID, old.CreatedAt, old.Version+1
			c.FromSHA256 = old.SHA256
			m.Files[i] = f
		} else {
			// A name deleted before goes on from its kept versions.
			f.Version = pumasi.NextVersion(nil, m.Deleted[name])
			m.forget(name)
			at, _ := slices.BinarySearchFunc(m.Files, name, func(f pumasi.File, n string) int { return strings.Compare(f.Name, n) })
			m.Files = slices.Insert(m.Files, at, f)
		}
		c.FileID, c.Version = f.ID, f.Version
		s.record(m, c)
		res = pumasi.PutFileResult{File: f, Changed: true, Rev: m.Rev}
		return true, nil
	})
	if err != nil {
		if pumasi.ErrorCode(err) == pumasi.EInternal {
			return pumasi.PutFileResult{}, fmt.Errorf("put file %s/%s: %w", in.Room, name, err)
		}
		return pumasi.PutFileResult{}, err
	}
	if changed && existed {
		// A sweep that judged the existing blob an old orphan just before
		// our rewrite may have deleted it after; the manifest now points at
		// it, so make sure it is there. A blob we created is young, and the
		// sweep leaves young blobs alone.
		if err := s.ensureBlob(ctx, in.Room, sum, in.Body, contentType); err != nil {
			return pumasi.PutFileResult{}, err
		}
	}
	return res, nil
}

// putBlob stores a blob, creating it with If-None-Match: * so that it learns
// whether the blob already existed. An existing blob is written again: its
// age restarts, so a sweep no longer takes it for an old orphan.
func (s *Store) putBlob(ctx context.Context, room, sum string, body []byte, contentType string) (existed bool, err error) {
	key := s.blobKey(room, sum)
	_, err = s.putObject(ctx, key, body, contentType, "", true)
	if err == nil {
		return false, nil
	}
	if st := statusOf(err); st != 412 && st != 409 {
		return false, fmt.Errorf("put blob %s: %w", sum, err)
	}
	if _, err := s.putObject(ctx, key, body, contentType, "", false); err != nil {
		return true, fmt.Errorf("put blob %s: %w", sum, err)
	}
	return true, nil
}

// ensureBlob re-uploads a blob that is missing.
func (s *Store) ensureBlob(ctx context.Context, room, sum string, body []byte, contentType string) error {
	_, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(s.blobKey(room, sum))})
	if err == nil {
		return nil
	}
	if !isNotFound(err) {
		return fmt.Errorf("check blob %s: %w", sum, err)
	}
	s.log.Warn("s3 blob vanished during upload; restoring it", "room", room, "sha256", sum)
	if _, err := s.putObject(ctx, s.blobKey(room, sum), body, contentType, "", false); err != nil {
		return fmt.Errorf("restore blob %s: %w", sum, err)
	}
	return nil
}

// StatFile returns a file's metadata from the room's manifest.
func (s *Store) StatFile(ctx context.Context, room, name string) (pumasi.File, error) {
	return s.statFile(ctx, room, name)
}

func (s *Store) statFile(ctx context.Context, room, name string) (pumasi.File, error) {
	if err := pumasi.CheckID("room", room); err != nil {
		return pumasi.File{}, err
	}
	n, err := pumasi.NormalizeName(name)
	if err != nil {
		return pumasi.File{}, err
	}
	m, err := s.readManifest(ctx, room)
	if err != nil {
		return pumasi.File{}, fmt.Errorf("stat file %s/%s: %w", room, n, err)
	}
	i := m.findFile(n)
	if i < 0 {
		return pumasi.File{}, pumasi.Errorf(pumasi.ENotFound, "no file %q in room %s", n, room)
	}
	return m.Files[i], nil
}

// ReadFile returns a file's metadata and bytes, checking the bytes against
// the sha256 the manifest records.
func (s *Store) ReadFile(ctx context.Context, room, name string) (pumasi.File, []byte, error) {
	f, err := s.statFile(ctx, room, name)
	if err != nil {
		return pumasi.File{}, nil, err
	}
	body, _, exists, err := s.getObject(ctx, s.blobKey(room, f.SHA256))
	if err != nil {
		return pumasi.File{}, nil, fmt.Errorf("read file %s/%s: %w", room, f.Name, err)
	}
	if !exists {
		return pumasi.File{}, nil, fmt.Errorf("read file %s/%s: blob %s is missing", room, f.Name, f.SHA256)
	}
	if h := sha256.Sum256(body); hex.EncodeToString(h[:]) != f.SHA256 {
		return pumasi.File{}, nil, fmt.Errorf("read file %s/%s: blob %s does not match its sha256", room, f.Name, f.SHA256)
	}
	return f, body, nil
}

// ListFiles lists a room from its manifest; an unknown room lists empty at
// rev 0.
func (s *Store) ListFiles(ctx context.Context, room string) (pumasi.Listing, error) {
	if err := pumasi.CheckID("room", room); err != nil {
		return pumasi.Listing{}, err
	}
	m, err := s.readManifest(ctx, room)
	if err != nil {
		return pumasi.Listing{}, fmt.Errorf("list files %s: %w", room, err)
	}
	files := m.Files
	if files == nil {
		files = []pumasi.File{}
	}
	return pumasi.Listing{RoomID: room, Rev: m.Rev, Files: files}, nil
}

// DeleteFile drops a file from the room's manifest. Its blob stays until the
// sweep finds it unreferenced: deleting it here would race with an upload of
// the same content that has already PUT the blob.
func (s *Store) DeleteFile(ctx context.Context, room, name, ifMatch string) (pumasi.File, int64, error) {
	return s.Delete(ctx, pumasi.DeleteInput{Room: room, Name: name, IfMatch: ifMatch})
}

// Delete is DeleteFile recording in.By in the room log; the deleted content
// stays a version of the name until retention drops it.
func (s *Store) Delete(ctx context.Context, in pumasi.DeleteInput) (pumasi.File, int64, error) {
	room, name, ifMatch := in.Room, in.Name, in.IfMatch
	if err := pumasi.CheckID("room", room); err != nil {
		return pumasi.File{}, 0, err
	}
	n, err := pumasi.NormalizeName(name)
	if err != nil {
		return pumasi.File{}, 0, err
	}
	var removed pumasi.File
	var rev int64
	now := s.now().UTC() // drawn once, as in PutFile
	_, err = s.updateManifest(ctx, s.manifestKey(room), func(m *manifest, _ bool) (bool, error) {
		i := m.findFile(n)
		var cur *pumasi.File
		if i >= 0 {
			cur = &m.Files[i]
		}
		if err := pumasi.PlanDelete(cur, room, n, ifMatch); err != nil {
			return false, err
		}
		removed = m.Files[i]
		m.Files = slices.Delete(m.Files, i, i+1)
		m.Rev++
		rev = m.Rev
		s.record(m, pumasi.Change{Rev: m.Rev, Kind: pumasi.ChangeDelete, Name: n, FileID: removed.ID,
			Version: removed.Version + 1, FromSHA256: removed.SHA256, By: in.By, At: now})
		s.remember(m, n, removed.Version+1)
		return true, nil
	})
	if err != nil {
		if pumasi.ErrorCode(err) == pumasi.EInternal {
			return pumasi.File{}, 0, fmt.Errorf("delete file %s/%s: %w", room, n, err)
		}
		return pumasi.File{}, 0, err
	}
	return removed, rev, nil
}

// Sweep repairs placement projections a crash left behind (see
// PlaceAgent) and removes, room by room, blobs that the room's manifest does not
// reference and that were last written before now-grace; grace should exceed
// the longest upload (blob PUT to manifest update), or an upload in flight
// loses its blob. It lists the blobs before reading the manifest, checks
// each candidate's age again right before deleting it, and puts back a blob
// that an identical upload re-referenced meanwhile (see sweepBlob), so a
// referenced blob never stays deleted. S3 keeps no temp files, so TempFiles
// is always 0.
func (s *Store) Sweep(ctx context.Context, grace time.Duration) (pumasi.SweepReport, error) {
	if grace < 0 {
		grace = 0
	}
	cutoff := s.now().Add(-grace)
	var rep pumasi.SweepReport
	rooms, err := s.listRooms(ctx)
	if err != nil {
		return rep, fmt.Errorf("sweep: %w", err)
	}
	for _, room := range rooms {
		v, err := s.applyRetention(ctx, room)
		rep.Versions += v
		if err != nil {
			return rep, fmt.Errorf("sweep room %s: %w", room, err)
		}
		if err := s.sweepSegments(ctx, room); err != nil {
			return rep, fmt.Errorf("sweep room %s: %w", room, err)
		}
		n, err := s.sweepRoom(ctx, room, cutoff)
		rep.Blobs += n
		if err != nil {
			return rep, fmt.Errorf("sweep room %s: %w", room, err)
		}
	}
	repaired, err := s.repairPlacements(ctx, rooms, cutoff)
	if err != nil {
		return rep, fmt.Errorf("sweep: %w", err)
	}
	if rep.Blobs > 0 || repaired > 0 {
		s.log.Info("s3 sweep", "bucket", s.bucket, "prefix", s.prefix, "blobs", rep.Blobs, "agents_repaired", repaired)
	}
	return rep, nil
}

// listRooms returns every room id that has objects under the prefix.
func (s *Store) listRooms(ctx context.Context) ([]string, error) {
	base := s.prefix + "rooms/"
	var rooms []string
	p := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{
		Bucket: aws.String(s.bucket), Prefix: aws.String(base), Delimiter: aws.String("/"),
	})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("list rooms: %w", err)
		}
		for _, cp := range page.CommonPrefixes {
			room := strings.TrimSuffix(strings.TrimPrefix(aws.ToString(cp.Prefix), base), "/")
			if pumasi.ValidID(room) {
				rooms = append(rooms, room)
			}
		}
	}
	return rooms, nil
}

func (s *Store) sweepRoom(ctx context.Context, room string, cutoff time.Time) (int, error) {
	if err := s.sweepSnapshots(ctx, room); err != nil {
		return 0, err
	}
	base := s.prefix + "rooms/" + room + "/blobs/"
	var old []string
	p := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{Bucket: aws.String(s.bucket), Prefix: aws.String(base)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return 0, fmt.Errorf("list blobs: %w", err)
		}
		for _, o := range page.Contents {
			if o.LastModified != nil && o.LastModified.Before(cutoff) {
				old = append(old, strings.TrimPrefix(aws.ToString(o.Key), base))
			}
		}
	}
	if len(old) == 0 {
		return 0, nil
	}
	m, err := s.readManifest(ctx, room)
	if err != nil {
		return 0, err
	}
	referenced, err := m.historyRefs(ctx, s)
	if err != nil {
		return 0, err
	}
	for _, f := range m.Files {
		referenced[f.SHA256] = true
	}
	removed := 0
	for _, sum := range old {
		if referenced[sum] {
			continue
		}
		ok, err := s.sweepBlob(ctx, room, sum, cutoff)
		if err != nil {
			return removed, err
		}
		if ok {
			removed++
		}
	}
	return removed, nil
}

// sweepBlob deletes one blob the manifest did not reference, if it is still
// older than cutoff, and reports whether it stayed deleted. S3 has no delete
// conditional on "nobody rewrote it since" (an identical upload rewrites the
// same bytes, so the ETag does not change), so the sweep reads the bytes
// first, deletes, and then reads the manifest again: an upload that
// re-referenced the blob in between, and whose own check that the blob is
// there ran before the DELETE, finds it put back. An upload whose manifest
// write comes after that re-read checks for the blob itself afterwards
// (ensureBlob), so one of the two always restores it.
func (s *Store) sweepBlob(ctx context.Context, room, sum string, cutoff time.Time) (bool, error) {
	key := s.blobKey(room, sum)
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(key)})
	if err != nil {
		if isNotFound(err) {
			return false, nil
		}
		return false, fmt.Errorf("check blob %s: %w", sum, err)
	}
	body, err := io.ReadAll(out.Body)
	out.Body.Close()
	if err != nil {
		return false, fmt.Errorf("read blob %s: %w", sum, err)
	}
	if out.LastModified == nil || !out.LastModified.Before(cutoff) {
		return false, nil
	}
	if s.beforeBlobDelete != nil {
		s.beforeBlobDelete(room, sum)
	}
	if _, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(key)}); err != nil {
		return false, fmt.Errorf("delete blob %s: %w", sum, err)
	}
	m, cs, err := s.readHistory(ctx, room)
	if err != nil {
		return false, fmt.Errorf("recheck blob %s: %w", sum, err)
	}
	refs := map[string]bool{}
	for _, c := range cs {
		refs[c.ToSHA256] = true
	}
	for _, f := range m.Files {
		refs[f.SHA256] = true
	}
	if refs[sum] {
		if h := sha256.Sum256(body); hex.EncodeToString(h[:]) != sum {
			return false, fmt.Errorf("restore blob %s: the bytes read do not match", sum)
		}
		s.log.Warn("s3 sweep: a blob was referenced again while it was deleted; restoring it", "room", room, "sha256", sum)
		if _, err := s.putObject(ctx, key, body, aws.ToString(out.ContentType), "", false); err != nil {
			return false, fmt.Errorf("restore blob %s: %w", sum, err)
		}
		return false, nil
	}
	return true, nil
}
