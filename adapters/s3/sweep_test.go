package s3_test

import (
	"context"
	"testing"
	"time"

	"pumasi"
	s3store "pumasi/adapters/s3"
)

// TestSweepDeleteRace: the sweep found a blob unreferenced and old; before
// its DELETE, an identical upload rewrote the blob and referenced it again
// (its own check that the blob is there passed, since the DELETE had not
// happened yet). The sweep must not leave the room pointing at nothing.
func TestSweepDeleteRace(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	// With history off the deleted content is no version: the blob is an
	// orphan at once.
	off := pumasi.Retention{Off: true}
	up := e.open(t, s3store.Options{History: off})
	// The sweeper's clock runs an hour ahead, so every blob is old to it,
	// even one rewritten a moment ago: the race is then the only guard.
	sweeper := e.open(t, s3store.Options{History: off, Now: func() time.Time { return time.Now().Add(time.Hour) }})
	const room, name = "swept", "a.md"
	body := []byte("# the same bytes twice\n")
	put := func() pumasi.PutFileResult {
		t.Helper()
		r, err := up.PutFile(ctx, pumasi.PutFileInput{Room: room, Name: name, Body: body, ContentType: "text/markdown; charset=utf-8"})
		if err != nil {
			t.Fatalf("PutFile: %v", err)
		}
		return r
	}
	put()
	if _, _, err := up.DeleteFile(ctx, room, name, ""); err != nil {
		t.Fatal(err)
	}
	raced := 0
	s3store.SetBeforeBlobDelete(sweeper, func(r, sha string) {
		if r == room && sha == sum(body) {
			raced++
			if res := put(); !res.Changed {
				t.Fatalf("re-upload after delete did not change the room: %+v", res)
			}
		}
	})
	rep, err := sweeper.Sweep(ctx, time.Minute)
	if err != nil {
		t.Fatalf("Sweep: %v", err)
	}
	if raced != 1 {
		t.Fatalf("the upload ran %d times between the sweep's check and its delete, want 1", raced)
	}
	if rep.Blobs != 0 {
		t.Fatalf("sweep reports %d blobs removed, want 0: the one it took is referenced again", rep.Blobs)
	}
	if _, got, err := up.ReadFile(ctx, room, name); err != nil || string(got) != string(body) {
		t.Fatalf("ReadFile after the race = %q, %v; want the bytes", got, err)
	}
	if _, ok := e.blobs(t, room)[sum(body)]; !ok {
		t.Fatalf("blob %s is missing from the bucket", sum(body)[:12])
	}
}
