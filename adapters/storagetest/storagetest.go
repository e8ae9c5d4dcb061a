// Package storagetest is the one conformance suite every pumasi.Store backend
// passes. A backend runs it with a Harness from its own test:
//
//	func TestConformance(t *testing.T) { storagetest.Run(t, harness()) }
//
// The suite talks to the store only through pumasi.Store, except for the
// blob listing and orphan planting the Harness provides, which let it check
// that listings and blobs agree.
package storagetest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"
	"testing"
	"time"

	"pumasi"
)

// Limits are the room quotas a store under test is built with; zero values
// mean the backend's defaults.
type Limits struct {
	MaxRoomFiles int
	MaxRoomBytes int64
	// History is the store's retention; the zero value keeps the defaults.
	History pumasi.Retention
	// Now, when set, is the store's clock (history ages by it).
	Now func() time.Time
}

// Harness builds and inspects stores of one backend.
type Harness struct {
	// New returns a fresh, empty store with the given room limits. It must
	// close the store itself, with t.Cleanup.
	New func(t *testing.T, lim Limits) pumasi.Store
	// Blobs returns every content-addressed blob the backend holds for room,
	// keyed by sha256, with its bytes.
	Blobs func(t *testing.T, s pumasi.Store, room string) map[string][]byte
	// PutOrphan stores body as a blob of room that no file references, as an
	// upload that crashed before its commit leaves it, with a fresh
	// modification time.
	PutOrphan func(t *testing.T, s pumasi.Store, room string, body []byte)
	// Reopen returns a store on the same data as s with other room limits,
	// as a deployment restarted with a lowered quota sees it; it must close
	// the store itself, with t.Cleanup.
	Reopen func(t *testing.T, s pumasi.Store, lim Limits) pumasi.Store
}

// Run runs the whole suite against h.
func Run(t *testing.T, h Harness) {
	if h.New == nil || h.Blobs == nil || h.PutOrphan == nil || h.Reopen == nil {
		t.Fatal("storagetest: Harness needs New, Blobs, PutOrphan and Reopen")
	}
	tests := []struct {
		name string
		fn   func(t *testing.T, h Harness)
	}{
		{"RoundTrip", testRoundTrip},
		{"UnknownRoom", testUnknownRoom},
		{"InvalidIDs", testInvalidIDs},
		{"RoomsAreSeparate", testRoomsAreSeparate},
		{"SortOrder", testSortOrder},
		{"Reupload", testReupload},
		{"RecreateAfterDelete", testRecreateAfterDelete},
		{"Preconditions", testPreconditions},
		{"Names", testNames},
		{"Lookalikes", testLookalikes},
		{"Quotas", testQuotas},
		{"LoweredQuota", testLoweredQuota},
		{"WeakTag", testWeakTag},
		{"IfMatchAny", testIfMatchAny},
		{"ConcurrentMove", testConcurrentMove},
		{"ConcurrentUploads", testConcurrentUploads},
		{"PutDeleteRace", testPutDeleteRace},
		{"Placements", testPlacements},
		{"AgentPlacement", testAgentPlacement},
		{"Status", testStatus},
		{"Sweep", testSweep},
		{"ListRooms", testListRooms},
	}
	tests = append(tests, historyTests...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, h) })
	}
}

const md = "text/markdown; charset=utf-8"

func sum(b string) string {
	h := sha256.Sum256([]byte(b))
	return hex.EncodeToString(h[:])
}

func put(t *testing.T, s pumasi.Store, room, name, body string) pumasi.PutFileResult {
	t.Helper()
	r, err := s.PutFile(context.Background(), pumasi.PutFileInput{
		Room: room, Name: name, Body: []byte(body), ContentType: md, UploadedBy: "tester",
	})
	if err != nil {
		t.Fatalf("PutFile(%s, %q) error: %v", room, name, err)
	}
	return r
}

func wantCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	if got := pumasi.ErrorCode(err); got != code {
		t.Fatalf("%s: error code = %q (%v), want %q", what, got, err, code)
	}
}

func list(t *testing.T, s pumasi.Store, room string) pumasi.Listing {
	t.Helper()
	l, err := s.ListFiles(context.Background(), room)
	if err != nil {
		t.Fatalf("ListFiles(%s) error: %v", room, err)
	}
	if l.Files == nil {
		t.Fatalf("ListFiles(%s).Files is nil, want a non-nil slice", room)
	}
	if l.RoomID != room {
		t.Fatalf("ListFiles(%s).RoomID = %q", room, l.RoomID)
	}
	return l
}

func names(l pumasi.Listing) []string {
	out := make([]string, len(l.Files))
	for i, f := range l.Files {
		out[i] = f.Name
	}
	return out
}

func read(t *testing.T, s pumasi.Store, room, name string) (pumasi.File, string) {
	t.Helper()
	f, b, err := s.ReadFile(context.Background(), room, name)
	if err != nil {
		t.Fatalf("ReadFile(%s, %q) error: %v", room, name, err)
	}
	return f, string(b)
}

func sameFile(t *testing.T, what string, got, want pumasi.File) {
	t.Helper()
	if got.ID != want.ID || got.RoomID != want.RoomID || got.Name != want.Name || got.SHA256 != want.SHA256 ||
		got.Size != want.Size || got.ContentType != want.ContentType || got.Version != want.Version ||
		got.UploadedBy != want.UploadedBy || !got.CreatedAt.Equal(want.CreatedAt) || !got.UpdatedAt.Equal(want.UpdatedAt) {
		t.Fatalf("%s = %+v, want %+v", what, got, want)
	}
}

func sweep(t *testing.T, s pumasi.Store, grace time.Duration) pumasi.SweepReport {
	t.Helper()
	rep, err := s.Sweep(context.Background(), grace)
	if err != nil {
		t.Fatalf("Sweep(%v) error: %v", grace, err)
	}
	return rep
}

// blobsMatchListing checks that every listed file reads back with its sha256
// and that the backend holds its blob with exactly those bytes.
func blobsMatchListing(t *testing.T, h Harness, s pumasi.Store, room string) pumasi.Listing {
	t.Helper()
	l := list(t, s, room)
	blobs := h.Blobs(t, s, room)
	for _, f := range l.Files {
		b, ok := blobs[f.SHA256]
		if !ok {
			t.Fatalf("listed file %q has no blob %s", f.Name, f.SHA256)
		}
		if got := sum(string(b)); got != f.SHA256 {
			t.Fatalf("blob %s holds bytes hashing to %s", f.SHA256, got)
		}
		if int64(len(b)) != f.Size {
			t.Fatalf("file %q size = %d, blob has %d bytes", f.Name, f.Size, len(b))
		}
		_, body := read(t, s, room, f.Name)
		if sum(body) != f.SHA256 {
			t.Fatalf("ReadFile(%q) bytes hash to %s, want %s", f.Name, sum(body), f.SHA256)
		}
	}
	return l
}

func blobSet(t *testing.T, h Harness, s pumasi.Store, room string) []string {
	t.Helper()
	var out []string
	for k := range h.Blobs(t, s, room) {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func shaSet(l pumasi.Listing) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range l.Files {
		if !seen[f.SHA256] {
			seen[f.SHA256] = true
			out = append(out, f.SHA256)
		}
	}
	sort.Strings(out)
	return out
}

func equalStrings(a, b []string) bool {
	return strings.Join(a, "\x00") == strings.Join(b, "\x00") && len(a) == len(b)
}
