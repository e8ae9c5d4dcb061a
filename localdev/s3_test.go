package localdev_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"pumasi"
	"pumasi/internal/testpeer"
)

// TestTwoLocaldevsShareOneBucket runs two localdev processes on one MinIO
// bucket and splits 50 concurrent uploads of distinct names to one room
// between them: compare-and-swap on the room manifest must lose none.
func TestTwoLocaldevsShareOneBucket(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	m := testpeer.MinIO(t)
	bucket := m.NewBucket(t)
	secret := "shared-secret-for-two-localdevs-0123456789"
	env := append(m.Env(), "PUMASI_STORAGE="+m.URL(bucket, "pumasi"), "PUMASI_SECRET="+secret)
	a := startLocaldev(t, t.TempDir(), env...)
	b := startLocaldev(t, t.TempDir(), env...)
	token, err := pumasi.SignToken([]byte(secret), "test", []string{"room:r1"}, time.Hour, time.Now())
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	statuses := make([]int, 50)
	errs := make([]error, 50)
	for i := range 50 {
		base := a.base
		if i%2 == 1 {
			base = b.base
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i], errs[i] = upload(ctx, base, token, "r1", fmt.Sprintf("note-%02d.md", i), []byte(fmt.Sprintf("note %d\n", i)))
		}()
	}
	wg.Wait()
	for i := range 50 {
		if errs[i] != nil || statuses[i] != 201 {
			t.Fatalf("upload %d: status %d, %v", i, statuses[i], errs[i])
		}
	}
	for _, p := range []*proc{a, b} {
		req, _ := http.NewRequest("GET", p.base+"/rooms/r1/files", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var l pumasi.Listing
		json.NewDecoder(resp.Body).Decode(&l)
		resp.Body.Close()
		if len(l.Files) != 50 || l.Rev != 50 {
			t.Fatalf("%s lists %d files at rev %d, want 50 at rev 50", p.base, len(l.Files), l.Rev)
		}
	}
}
