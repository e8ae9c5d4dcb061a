package s3_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"pumasi"
	s3store "pumasi/adapters/s3"
)

// TestLargeRoomManifestStaysSmall grows a room far past the inline limit
// from two stores at once (two processes on one bucket), replacing and
// deleting along the way, and checks that the manifest object stays small,
// that snapshots were written, and that a third store with cold caches lists
// exactly what both wrote.
func TestLargeRoomManifestStaysSmall(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	a := e.open(t, s3store.Options{MaxRoomFiles: 10000})
	b := e.open(t, s3store.Options{MaxRoomFiles: 10000})
	const perStore = 150
	want := map[string]string{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	var maxManifest int
	for w, st := range []*s3store.Store{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < perStore; i++ {
				name := fmt.Sprintf("s%d-%03d.md", w, i)
				res, err := st.PutFile(ctx, pumasi.PutFileInput{Room: "big", Name: name, Body: []byte(fmt.Sprintf("v1 %s\n", name))})
				if err != nil {
					t.Errorf("put %s: %v", name, err)
					return
				}
				mu.Lock()
				want[name] = res.File.SHA256
				mu.Unlock()
				switch {
				case i%10 == 3: // Replace an earlier file.
					old := fmt.Sprintf("s%d-%03d.md", w, i-2)
					res, err := st.PutFile(ctx, pumasi.PutFileInput{Room: "big", Name: old, Body: []byte("v2 " + old + "\n")})
					if err != nil {
						t.Errorf("replace %s: %v", old, err)
						return
					}
					mu.Lock()
					want[old] = res.File.SHA256
					mu.Unlock()
				case i%10 == 7: // Delete an earlier one.
					old := fmt.Sprintf("s%d-%03d.md", w, i-1)
					if _, _, err := st.DeleteFile(ctx, "big", old, ""); err != nil {
						t.Errorf("delete %s: %v", old, err)
						return
					}
					mu.Lock()
					delete(want, old)
					mu.Unlock()
				}
				if i%25 == 0 {
					n := len(e.getRaw(t, "rooms/big/manifest.json"))
					mu.Lock()
					maxManifest = max(maxManifest, n)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}

	cold := e.open(t, s3store.Options{})
	l, err := cold.ListFiles(ctx, "big")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for i, f := range l.Files {
		got[f.Name] = f.SHA256
		if i > 0 && l.Files[i-1].Name >= f.Name {
			t.Fatalf("listing not sorted at %s", f.Name)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("cold store lists %d files, want %d", len(got), len(want))
	}
	for name, sum := range want {
		if got[name] != sum {
			t.Fatalf("%s lists %q, want %q", name, got[name], sum)
		}
	}
	if _, body, err := cold.ReadFile(ctx, "big", "s1-005.md"); err != nil || !strings.HasPrefix(string(body), "v") {
		t.Fatalf("ReadFile = %q, %v", body, err)
	}
	// A full manifest of ~250 files would be ~80 KB; the log form stays
	// within the inline limit's size.
	if n := len(e.getRaw(t, "rooms/big/manifest.json")); n > 40<<10 || maxManifest > 40<<10 {
		t.Fatalf("manifest is %d bytes (at most %d seen), want it to stay small", n, maxManifest)
	}
	out, err := e.srv.Client().ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String(e.bucket), Prefix: aws.String(e.prefix + "/rooms/big/snap/")})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Contents) < 2 {
		t.Fatalf("%d snapshots written, want several", len(out.Contents))
	}
	// A sweep keeps the snapshot the manifest names (they are all young).
	if _, err := cold.Sweep(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if again, err := e.open(t, s3store.Options{}).ListFiles(ctx, "big"); err != nil || len(again.Files) != len(want) {
		t.Fatalf("after a sweep: %d files, %v; want %d", len(again.Files), err, len(want))
	}
}
