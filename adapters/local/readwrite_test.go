package local_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pumasi"
	"pumasi/adapters/local"
	"pumasi/functions"
)

// TestReadsDuringWrites serves a real local store through the real GET
// handler while one writer replaces hot.md in a tight loop and another
// uploads and deletes cold.md, and 8 readers GET both: no GET may answer
// 5xx, every 200 must carry the bytes its ETag names, and cold.md may only
// be 200 or 404. Before replaced blobs were left for the sweep, a reader
// holding the old row met "no such file or directory" (500).
func TestReadsDuringWrites(t *testing.T) {
	gets := int64(50_000)
	if local.RaceEnabled || testing.Short() {
		gets = 5_000 // The race detector slows HTTP ~10x; make test also runs the full count without it.
	}
	const readers = 8
	st, err := local.Open(context.Background(), t.TempDir(), local.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	secret := []byte("reads-during-writes-secret-0123456789")
	tok, err := pumasi.SignToken(secret, "t", []string{"room:r"}, time.Hour, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer((&functions.API{Store: st, Secret: secret, Log: slog.New(slog.DiscardHandler)}).Handler())
	t.Cleanup(srv.Close)
	ctx := context.Background()
	if _, err := st.PutFile(ctx, pumasi.PutFileInput{Room: "r", Name: "hot.md", Body: []byte("v0")}); err != nil {
		t.Fatal(err)
	}

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var writes, cycles atomic.Int64
	var werr error
	var werrOnce sync.Once
	fail := func(err error) { werrOnce.Do(func() { werr = err }) }
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 1; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := st.PutFile(ctx, pumasi.PutFileInput{Room: "r", Name: "hot.md", Body: []byte(fmt.Sprintf("v%d %0100d", i, i))}); err != nil {
				fail(fmt.Errorf("update hot.md: %w", err))
				return
			}
			writes.Add(1)
		}
	}()
	go func() {
		defer wg.Done()
		for i := 1; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := st.PutFile(ctx, pumasi.PutFileInput{Room: "r", Name: "cold.md", Body: []byte(fmt.Sprintf("c%d", i))}); err != nil {
				fail(fmt.Errorf("upload cold.md: %w", err))
				return
			}
			if _, _, err := st.DeleteFile(ctx, "r", "cold.md", ""); err != nil {
				fail(fmt.Errorf("delete cold.md: %w", err))
				return
			}
			cycles.Add(1)
		}
	}()

	var total, hot200, cold200, cold404, fivexx, wrong atomic.Int64
	var firstBad atomic.Value
	deadline := time.Now().Add(3 * time.Minute)
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: readers}}
	var rg sync.WaitGroup
	for g := range readers {
		rg.Add(1)
		go func() {
			defer rg.Done()
			for i := 0; total.Load() < gets && time.Now().Before(deadline); i++ {
				name := "hot.md"
				if (g+i)%4 == 3 {
					name = "cold.md"
				}
				req, _ := http.NewRequest(http.MethodGet, srv.URL+"/rooms/r/files/"+name, nil)
				req.Header.Set("Authorization", "Bearer "+tok)
				res, err := client.Do(req)
				if err != nil {
					firstBad.CompareAndSwap(nil, err.Error())
					fivexx.Add(1) // No answer is as bad as a 5xx.
					total.Add(1)
					continue
				}
				body, _ := io.ReadAll(res.Body)
				res.Body.Close()
				total.Add(1)
				switch {
				case res.StatusCode >= 500:
					fivexx.Add(1)
					firstBad.CompareAndSwap(nil, strconv.Itoa(res.StatusCode)+" "+string(body))
				case res.StatusCode == http.StatusOK:
					sum := sha256.Sum256(body)
					if res.Header.Get("ETag") != strconv.Quote(hex.EncodeToString(sum[:])) {
						wrong.Add(1)
						firstBad.CompareAndSwap(nil, "ETag "+res.Header.Get("ETag")+" for body "+string(body))
					}
					if name == "hot.md" {
						hot200.Add(1)
					} else {
						cold200.Add(1)
					}
				case res.StatusCode == http.StatusNotFound && name == "cold.md":
					cold404.Add(1)
				default:
					wrong.Add(1)
					firstBad.CompareAndSwap(nil, fmt.Sprintf("%s: %d %s", name, res.StatusCode, body))
				}
			}
		}()
	}
	rg.Wait()
	close(stop)
	wg.Wait()
	if werr != nil {
		t.Fatal(werr)
	}
	t.Logf("%d GETs (hot 200: %d, cold 200: %d, cold 404: %d) against %d updates and %d upload/delete cycles: %d × 5xx, %d wrong",
		total.Load(), hot200.Load(), cold200.Load(), cold404.Load(), writes.Load(), cycles.Load(), fivexx.Load(), wrong.Load())
	if fivexx.Load() != 0 || wrong.Load() != 0 {
		t.Fatalf("%d × 5xx and %d wrong answers; first: %v", fivexx.Load(), wrong.Load(), firstBad.Load())
	}
	if total.Load() < gets {
		t.Fatalf("only %d of %d GETs within the time bound", total.Load(), gets)
	}
	if writes.Load() < 100 || cycles.Load() < 50 {
		t.Fatalf("writers made %d updates and %d cycles; too few to race the readers", writes.Load(), cycles.Load())
	}
}
