package s3

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"pumasi"
	"pumasi/internal/testpeer"
)

// TestKeptManifestMatchesDecoded: the manifest update keeps beside the body
// it wrote must be what decoding and loading that body gives, through
// inline rooms, the first snapshot, log growth, compaction, overwrites and
// deletes; otherwise the next write would start from a state nobody stored.
func TestKeptManifestMatchesDecoded(t *testing.T) {
	ctx := context.Background()
	srv := testpeer.MinIO(t)
	st, err := Open(ctx, srv.URL(srv.NewBucket(t), "keep"), Options{Credentials: srv.Credentials()})
	if err != nil {
		t.Fatal(err)
	}
	key := st.manifestKey("r")
	check := func(step string) {
		t.Helper()
		c, ok := st.cache.get(key)
		if !ok || c.kept == nil || c.mark == nil {
			t.Fatalf("%s: no kept manifest in the cache", step)
		}
		var kept manifest
		if !kept.restore(c.kept) {
			t.Fatalf("%s: restore refused its own kept value", step)
		}
		var dec manifest
		if err := json.Unmarshal(c.body, &dec); err != nil {
			t.Fatal(err)
		}
		if err := dec.load(ctx, st, key); err != nil {
			t.Fatal(err)
		}
		if m := readMark(c.body); m.Seq != c.mark.Seq || fmt.Sprint(m.IDs) != fmt.Sprint(c.mark.IDs) {
			t.Fatalf("%s: kept mark %+v, body's mark %+v", step, *c.mark, m)
		}
		for _, part := range []struct {
			name     string
			got, dec any
		}{
			{"files", kept.Files, dec.Files}, {"loaded", kept.loaded, dec.loaded}, {"placements", kept.Placements, dec.Placements},
			{"log", kept.Log, dec.Log}, {"rev", kept.Rev, dec.Rev}, {"base", kept.Base, dec.Base}, {"room", kept.room, dec.room},
		} {
			a, _ := json.Marshal(part.got)
			b, _ := json.Marshal(part.dec)
			if !bytes.Equal(a, b) {
				t.Fatalf("%s: kept %s differ from decoded:\nkept    %.300s\ndecoded %.300s", step, part.name, a, b)
			}
		}
	}
	put := func(name, body string) {
		t.Helper()
		if _, err := st.PutFile(ctx, pumasi.PutFileInput{Room: "r", Name: name, Body: []byte(body)}); err != nil {
			t.Fatalf("put %s: %v", name, err)
		}
		check("put " + name)
	}
	for i := 0; i < 160; i++ {
		put(fmt.Sprintf("f%03d.md", i), fmt.Sprint("v1 ", i))
		if i%7 == 3 {
			put(fmt.Sprintf("f%03d.md", i/2), fmt.Sprint("v2 ", i))
		}
		if i%11 == 5 {
			if _, _, err := st.DeleteFile(ctx, "r", fmt.Sprintf("f%03d.md", i-1), ""); err != nil {
				t.Fatal(err)
			}
			check(fmt.Sprint("delete ", i-1))
		}
	}
	// A second store, which decodes, must list what the first one's kept
	// state led it to write.
	other, err := Open(ctx, srv.URL(st.bucket, "keep"), Options{Credentials: srv.Credentials()})
	if err != nil {
		t.Fatal(err)
	}
	l1, err := st.ListFiles(ctx, "r")
	if err != nil {
		t.Fatal(err)
	}
	l2, err := other.ListFiles(ctx, "r")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(l1)
	b, _ := json.Marshal(l2)
	if !bytes.Equal(a, b) || len(l1.Files) < 100 {
		t.Fatalf("listings differ or are short: %d and %d files", len(l1.Files), len(l2.Files))
	}
}
