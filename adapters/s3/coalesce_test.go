package s3_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"pumasi"
	s3store "pumasi/adapters/s3"
)

// TestCoalescedManifestWrites runs 32 uploads, a refused upload and a
// placement into one room from one process at once: they must share
// compare-and-swaps (fewer manifest versions than changes, no conflict lost
// within the process), the refused one must fail alone, and a cold store
// must list every acknowledged file.
func TestCoalescedManifestWrites(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	st := e.open(t, s3store.Options{})
	// Nothing stalls here: a slow batch under load must not count as one
	// and let changes race in a second batch.
	s3store.SetStallPatience(st, time.Hour)
	if _, err := st.PutFile(ctx, pumasi.PutFileInput{Room: "co", Name: "taken.md", Body: []byte("taken\n")}); err != nil {
		t.Fatal(err)
	}
	const n = 32
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = st.PutFile(ctx, pumasi.PutFileInput{Room: "co", Name: fmt.Sprintf("f%02d.md", i), Body: []byte(fmt.Sprintf("file %d\n", i))})
		}()
	}
	var refused, placeErr error
	wg.Add(2)
	go func() {
		defer wg.Done()
		_, refused = st.PutFile(ctx, pumasi.PutFileInput{Room: "co", Name: "taken.md", Body: []byte("other\n"), IfNoneMatch: true})
	}()
	go func() {
		defer wg.Done()
		_, _, placeErr = st.PlaceAgent(ctx, "co", "agent-1", "m1")
	}()
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("upload %d: %v", i, err)
		}
	}
	if placeErr != nil {
		t.Fatalf("place: %v", placeErr)
	}
	if pumasi.ErrorCode(refused) != pumasi.EPreconditionFailed {
		t.Fatalf("If-None-Match on an existing name: %v, want %s", refused, pumasi.EPreconditionFailed)
	}
	if c := st.Conflicts(); c != 0 {
		t.Fatalf("%d compare-and-swap conflicts inside one process, want 0: changes must join, not race", c)
	}
	var head struct {
		CAS struct {
			Seq int64 `json:"seq"`
		} `json:"_cas"`
		Rev int64 `json:"rev"`
	}
	if err := json.Unmarshal(e.getRaw(t, "rooms/co/manifest.json"), &head); err != nil {
		t.Fatal(err)
	}
	// 1 (taken.md) + 32 uploads + 1 placement = 34 changes.
	if head.Rev != 34 || head.CAS.Seq >= 30 {
		t.Fatalf("manifest rev %d after %d manifest writes; want rev 34 in fewer writes than changes", head.Rev, head.CAS.Seq)
	}
	l, err := e.open(t, s3store.Options{}).ListFiles(ctx, "co")
	if err != nil || len(l.Files) != n+1 {
		t.Fatalf("cold listing: %d files, %v; want %d", len(l.Files), err, n+1)
	}
	if agents, err := st.RoomAgents(ctx, "co"); err != nil || len(agents) != 1 {
		t.Fatalf("RoomAgents = %v, %v", agents, err)
	}
	t.Logf("%d changes in %d manifest writes", head.Rev, head.CAS.Seq)
}
