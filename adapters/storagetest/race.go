package storagetest

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"pumasi"
)

func testConcurrentUploads(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	const room, n = "busy", 100
	results := make([]pumasi.PutFileResult, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		var name, body string
		switch i % 4 {
		case 0: // Distinct names, distinct content.
			name, body = fmt.Sprintf("own-%02d.md", i), fmt.Sprintf("own content %d\n", i)
		case 1: // Distinct names sharing one blob.
			name, body = fmt.Sprintf("same-%02d.md", i), "identical content shared by many names\n"
		case 2: // Updates to one shared name.
			name, body = "shared.md", fmt.Sprintf("shared version from writer %d\n", i)
		case 3: // Repeated identical content under one name.
			name, body = "twin.md", "twin content\n"
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			results[i], errs[i] = s.PutFile(ctx, pumasi.PutFileInput{
				Room: room, Name: name, Body: []byte(body), ContentType: md, UploadedBy: fmt.Sprintf("w%d", i),
			})
		}()
	}
	close(start)
	wg.Wait()

	changed := 0
	sharedVersions := map[int]bool{}
	for i, err := range errs {
		if err != nil {
			t.Fatalf("upload %d error: %v", i, err)
		}
		if results[i].Changed {
			changed++
		}
		if i%4 == 2 {
			sharedVersions[results[i].File.Version] = true
		}
	}
	if changed != 76 {
		t.Fatalf("%d uploads changed something, want 76 (25 own + 25 same + 25 shared + 1 twin)", changed)
	}
	if len(sharedVersions) != 25 {
		t.Fatalf("shared.md writers saw %d distinct versions, want 25", len(sharedVersions))
	}
	l := blobsMatchListing(t, h, s, room)
	if l.Rev != int64(changed) {
		t.Fatalf("rev = %d, want %d (the number of changed results)", l.Rev, changed)
	}
	if len(l.Files) != 52 {
		t.Fatalf("listed %d files, want 52", len(l.Files))
	}
	for _, f := range l.Files {
		if f.Name == "shared.md" && f.Version != 25 {
			t.Fatalf("shared.md version = %d, want 25", f.Version)
		}
		if f.Name == "twin.md" && f.Version != 1 {
			t.Fatalf("twin.md version = %d, want 1", f.Version)
		}
	}
	sweep(t, s, 0)
	if got, want := blobSet(t, h, s, room), keptSet(t, s, room); !equalStrings(got, want) {
		t.Fatalf("blobs after sweep (%d) differ from listed and kept shas (%d)", len(got), len(want))
	}
	blobsMatchListing(t, h, s, room)
}

func testPutDeleteRace(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	const room = "race"
	for round := 0; round < 30; round++ {
		body := []byte(fmt.Sprintf("racing content %d\n", round%3))
		var wg sync.WaitGroup
		errc := make(chan error, 6)
		start := make(chan struct{})
		for _, name := range []string{"x.md", "y.md", "z.md"} {
			wg.Add(2)
			go func() {
				defer wg.Done()
				<-start
				_, err := s.PutFile(ctx, pumasi.PutFileInput{Room: room, Name: name, Body: body, ContentType: md})
				errc <- err
			}()
			go func() {
				defer wg.Done()
				<-start
				_, _, err := s.DeleteFile(ctx, room, name, "")
				if pumasi.ErrorCode(err) == pumasi.ENotFound {
					err = nil
				}
				errc <- err
			}()
		}
		close(start)
		wg.Wait()
		close(errc)
		for err := range errc {
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		blobsMatchListing(t, h, s, room)
	}
	sweep(t, s, 0)
	blobsMatchListing(t, h, s, room)
	if got, want := blobSet(t, h, s, room), keptSet(t, s, room); !equalStrings(got, want) {
		t.Fatalf("blobs after sweep = %v, want %v", got, want)
	}
}
