package s3_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"pumasi"
	s3store "pumasi/adapters/s3"
	"pumasi/adapters/storagetest"
	"pumasi/internal/testpeer"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv("PUMASI_S3_HELPER"); mode != "" {
		os.Exit(helper(mode))
	}
	os.Exit(testpeer.Main(m))
}

// env is one store location on the test MinIO.
type env struct {
	srv    *testpeer.MinIOServer
	bucket string
	prefix string
}

var prefixSeq atomic.Int64

func newEnv(t testing.TB) env {
	t.Helper()
	srv := testpeer.MinIO(t)
	return env{srv: srv, bucket: srv.NewBucket(t), prefix: fmt.Sprintf("p%d/x", prefixSeq.Add(1))}
}

func (e env) url() string { return e.srv.URL(e.bucket, e.prefix) }

func (e env) open(t testing.TB, opts s3store.Options) *s3store.Store {
	t.Helper()
	if opts.Credentials == nil {
		opts.Credentials = e.srv.Credentials()
	}
	st, err := s3store.Open(context.Background(), e.url(), opts)
	if err != nil {
		t.Fatalf("Open(%s) error: %v", e.url(), err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func (e env) blobPrefix(room string) string { return e.prefix + "/rooms/" + room + "/blobs/" }

// blobs lists room's blob objects straight from the bucket, with their bytes.
func (e env) blobs(t *testing.T, room string) map[string][]byte {
	t.Helper()
	ctx := context.Background()
	c := e.srv.Client()
	out := map[string][]byte{}
	p := s3.NewListObjectsV2Paginator(c, &s3.ListObjectsV2Input{Bucket: aws.String(e.bucket), Prefix: aws.String(e.blobPrefix(room))})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			t.Fatalf("list blobs: %v", err)
		}
		for _, o := range page.Contents {
			g, err := c.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(e.bucket), Key: o.Key})
			if err != nil {
				t.Fatalf("get %s: %v", aws.ToString(o.Key), err)
			}
			b, err := io.ReadAll(g.Body)
			g.Body.Close()
			if err != nil {
				t.Fatalf("read %s: %v", aws.ToString(o.Key), err)
			}
			out[strings.TrimPrefix(aws.ToString(o.Key), e.blobPrefix(room))] = b
		}
	}
	return out
}

func (e env) putOrphan(t *testing.T, room string, body []byte) {
	t.Helper()
	_, err := e.srv.Client().PutObject(context.Background(), &s3.PutObjectInput{
		Bucket: aws.String(e.bucket), Key: aws.String(e.blobPrefix(room) + sum(body)), Body: bytes.NewReader(body),
	})
	if err != nil {
		t.Fatalf("put orphan: %v", err)
	}
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// TestConformance runs the shared storage suite, unchanged, against a real
// MinIO; every store gets its own prefix in one bucket.
func TestConformance(t *testing.T) {
	base := newEnv(t)
	var mu sync.Mutex
	envs := map[pumasi.Store]env{}
	envOf := func(t *testing.T, s pumasi.Store) env {
		mu.Lock()
		defer mu.Unlock()
		e, ok := envs[s]
		if !ok {
			t.Fatalf("store %p was not made by this harness", s)
		}
		return e
	}
	storagetest.Run(t, storagetest.Harness{
		New: func(t *testing.T, lim storagetest.Limits) pumasi.Store {
			e := base
			e.prefix = fmt.Sprintf("conf%d/%s", prefixSeq.Add(1), strings.ToLower(strings.ReplaceAll(t.Name(), "/", "-")))
			st := e.open(t, s3store.Options{MaxRoomFiles: lim.MaxRoomFiles, MaxRoomBytes: lim.MaxRoomBytes, History: lim.History, Now: lim.Now})
			mu.Lock()
			envs[st] = e
			mu.Unlock()
			t.Cleanup(func() {
				if c := st.Conflicts(); c > 0 {
					t.Logf("compare-and-swap conflicts retried: %d, at most %d for one update", c, s3store.MaxLosses(st))
				}
			})
			return st
		},
		Blobs: func(t *testing.T, s pumasi.Store, room string) map[string][]byte {
			return envOf(t, s).blobs(t, room)
		},
		PutOrphan: func(t *testing.T, s pumasi.Store, room string, body []byte) {
			envOf(t, s).putOrphan(t, room, body)
		},
		Reopen: func(t *testing.T, s pumasi.Store, lim storagetest.Limits) pumasi.Store {
			e := envOf(t, s)
			st := e.open(t, s3store.Options{MaxRoomFiles: lim.MaxRoomFiles, MaxRoomBytes: lim.MaxRoomBytes, History: lim.History, Now: lim.Now})
			mu.Lock()
			envs[st] = e
			mu.Unlock()
			return st
		},
	})
}

// TestTwoStoresConcurrentUploads has two independent Stores (own clients,
// own connection pools) share one bucket and take 50 concurrent uploads of
// distinct names into one room.
func TestTwoStoresConcurrentUploads(t *testing.T) {
	e := newEnv(t)
	stores := []*s3store.Store{e.open(t, s3store.Options{}), e.open(t, s3store.Options{})}
	const room, n = "shared-room", 50
	ctx := context.Background()
	errs := make([]error, n)
	results := make([]pumasi.PutFileResult, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			results[i], errs[i] = stores[i%2].PutFile(ctx, pumasi.PutFileInput{
				Room: room, Name: fmt.Sprintf("file-%02d.md", i), Body: []byte(fmt.Sprintf("body %d\n", i)),
				UploadedBy: fmt.Sprintf("store-%d", i%2),
			})
		}()
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("upload %d: %v", i, err)
		}
		if !results[i].Changed {
			t.Fatalf("upload %d reported unchanged", i)
		}
	}
	checkRoom(t, stores[1], room, n)
	revs := map[int64]bool{}
	for _, r := range results {
		revs[r.Rev] = true
	}
	if len(revs) != n {
		t.Fatalf("uploads saw %d distinct revs, want %d (each its own step)", len(revs), n)
	}
	t.Logf("50 uploads over 2 stores: %d + %d compare-and-swap conflicts retried, at most %d/%d for one update",
		stores[0].Conflicts(), stores[1].Conflicts(), s3store.MaxLosses(stores[0]), s3store.MaxLosses(stores[1]))
}

// checkRoom asserts room holds exactly file-00.md..file-(n-1).md with their
// bodies, at rev n.
func checkRoom(t *testing.T, st *s3store.Store, room string, n int) {
	t.Helper()
	ctx := context.Background()
	l, err := st.ListFiles(ctx, room)
	if err != nil {
		t.Fatalf("ListFiles: %v", err)
	}
	if l.Rev != int64(n) || len(l.Files) != n {
		t.Fatalf("room has rev %d and %d files, want rev %d and %d files", l.Rev, len(l.Files), n, n)
	}
	for i, f := range l.Files {
		want := fmt.Sprintf("file-%02d.md", i)
		if f.Name != want {
			t.Fatalf("file %d is %q, want %q", i, f.Name, want)
		}
		_, b, err := st.ReadFile(ctx, room, f.Name)
		if err != nil || string(b) != fmt.Sprintf("body %d\n", i) {
			t.Fatalf("ReadFile(%s) = %q, %v", f.Name, b, err)
		}
	}
}

// TestTwoProcessesConcurrentUploads runs two separate processes (this test
// binary in helper mode) that reach MinIO through the standard AWS credential
// chain and upload 25 distinct names each into one room at the same moment.
func TestTwoProcessesConcurrentUploads(t *testing.T) {
	e := newEnv(t)
	const room, n = "two-procs", 50
	startAt := time.Now().Add(1500 * time.Millisecond).UnixNano()
	var wg sync.WaitGroup
	outs := make([]string, 2)
	errs := make([]error, 2)
	for p := 0; p < 2; p++ {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), e.srv.Env()...)
		cmd.Env = append(cmd.Env,
			"PUMASI_S3_HELPER=upload",
			"PUMASI_STORAGE="+e.url(),
			"HELPER_ROOM="+room,
			fmt.Sprintf("HELPER_FIRST=%d", p),
			fmt.Sprintf("HELPER_STEP=%d", 2),
			fmt.Sprintf("HELPER_N=%d", n),
			fmt.Sprintf("HELPER_START=%d", startAt),
		)
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := cmd.CombinedOutput()
			outs[p], errs[p] = string(out), err
		}()
	}
	wg.Wait()
	total, maxLoss := 0, 0
	for p := 0; p < 2; p++ {
		if errs[p] != nil {
			t.Fatalf("process %d: %v\n%s", p, errs[p], outs[p])
		}
		var c, most int
		if _, err := fmt.Sscanf(strings.TrimSpace(outs[p]), "conflicts=%d max=%d", &c, &most); err != nil {
			t.Fatalf("process %d output %q: %v", p, outs[p], err)
		}
		total += c
		maxLoss = max(maxLoss, most)
	}
	checkRoom(t, e.open(t, s3store.Options{}), room, n)
	t.Logf("50 uploads over 2 processes: %d compare-and-swap conflicts retried, at most %d for one update", total, maxLoss)
}

// helper runs this binary as a child process for the tests above; it
// returns the exit code.
func helper(mode string) int {
	ctx := context.Background()
	st, err := s3store.Open(ctx, os.Getenv("PUMASI_STORAGE"), s3store.Options{})
	if err != nil {
		fmt.Println("open:", err)
		return 2
	}
	room := os.Getenv("HELPER_ROOM")
	switch mode {
	case "upload":
		first, _ := strconv.Atoi(os.Getenv("HELPER_FIRST"))
		step, _ := strconv.Atoi(os.Getenv("HELPER_STEP"))
		n, _ := strconv.Atoi(os.Getenv("HELPER_N"))
		startAt, _ := strconv.ParseInt(os.Getenv("HELPER_START"), 10, 64)
		time.Sleep(time.Until(time.Unix(0, startAt)))
		var wg sync.WaitGroup
		var failed atomic.Int64
		for i := first; i < n; i += step {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := st.PutFile(ctx, pumasi.PutFileInput{
					Room: room, Name: fmt.Sprintf("file-%02d.md", i), Body: []byte(fmt.Sprintf("body %d\n", i)),
				})
				if err != nil {
					fmt.Println("upload:", err)
					failed.Add(1)
				}
			}()
		}
		wg.Wait()
		if failed.Load() > 0 {
			return 1
		}
		fmt.Printf("conflicts=%d max=%d\n", st.Conflicts(), s3store.MaxLosses(st))
		return 0
	case "crash":
		s3store.SetAfterBlob(st, func() {
			// The blob is stored; die before the manifest hears of it.
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		})
		_, err := st.PutFile(ctx, pumasi.PutFileInput{Room: room, Name: "lost.md", Body: []byte(os.Getenv("HELPER_BODY"))})
		fmt.Println("PutFile returned instead of dying:", err)
		return 1
	}
	fmt.Println("unknown helper mode", mode)
	return 2
}

// TestSweepAfterCrash kills a process between its blob PUT and its manifest
// update, then checks the sweep keeps the orphan within the grace period,
// removes it after, and never touches a referenced blob.
func TestSweepAfterCrash(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	st := e.open(t, s3store.Options{})
	const room = "crashy"
	kept := []byte("still referenced\n")
	if _, err := st.PutFile(ctx, pumasi.PutFileInput{Room: room, Name: "kept.md", Body: kept}); err != nil {
		t.Fatal(err)
	}

	lost := []byte("uploaded by a process that died\n")
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), e.srv.Env()...)
	cmd.Env = append(cmd.Env, "PUMASI_S3_HELPER=crash", "PUMASI_STORAGE="+e.url(), "HELPER_ROOM="+room, "HELPER_BODY="+string(lost))
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if err == nil || !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("crash helper = %v, want killed by SIGKILL\n%s", err, out)
	}

	if _, ok := e.blobs(t, room)[sum(lost)]; !ok {
		t.Fatalf("the killed upload left no blob; the crash came too early to test anything")
	}
	if _, err := st.StatFile(ctx, room, "lost.md"); pumasi.ErrorCode(err) != pumasi.ENotFound {
		t.Fatalf("StatFile(lost.md) = %v, want not_found: the manifest must not have it", err)
	}
	if l, _ := st.ListFiles(ctx, room); l.Rev != 1 || len(l.Files) != 1 {
		t.Fatalf("room after crash: rev %d, %d files; want rev 1, 1 file", l.Rev, len(l.Files))
	}

	rep, err := st.Sweep(ctx, time.Hour)
	if err != nil || rep.Blobs != 0 {
		t.Fatalf("Sweep(1h) = %+v, %v; want nothing removed within the grace period", rep, err)
	}
	if len(e.blobs(t, room)) != 2 {
		t.Fatalf("blobs after Sweep(1h) = %d, want 2", len(e.blobs(t, room)))
	}

	// S3 times have one-second resolution: wait out a 1 s grace plus one.
	time.Sleep(2100 * time.Millisecond)
	rep, err = st.Sweep(ctx, time.Second)
	if err != nil || rep.Blobs != 1 {
		t.Fatalf("Sweep(1s) after 2.1s = %+v, %v; want 1 blob removed", rep, err)
	}
	blobs := e.blobs(t, room)
	if _, ok := blobs[sum(lost)]; ok || len(blobs) != 1 || !bytes.Equal(blobs[sum(kept)], kept) {
		t.Fatalf("blobs after sweep: %d, orphan present %v; want only the referenced one", len(blobs), ok)
	}
	if _, b, err := st.ReadFile(ctx, room, "kept.md"); err != nil || !bytes.Equal(b, kept) {
		t.Fatalf("ReadFile(kept.md) = %q, %v", b, err)
	}

	// The same content can come back later: the re-upload rewrites the
	// blob, so the referenced file reads back.
	if _, err := st.PutFile(ctx, pumasi.PutFileInput{Room: room, Name: "lost.md", Body: lost}); err != nil {
		t.Fatal(err)
	}
	if _, b, err := st.ReadFile(ctx, room, "lost.md"); err != nil || !bytes.Equal(b, lost) {
		t.Fatalf("ReadFile(lost.md) after re-upload = %q, %v", b, err)
	}
}

func (e env) getRaw(t *testing.T, key string) []byte {
	t.Helper()
	out, err := e.srv.Client().GetObject(context.Background(), &s3.GetObjectInput{Bucket: aws.String(e.bucket), Key: aws.String(e.prefix + "/" + key)})
	if err != nil {
		t.Fatalf("get %s: %v", key, err)
	}
	defer out.Body.Close()
	b, err := io.ReadAll(out.Body)
	if err != nil {
		t.Fatalf("read %s: %v", key, err)
	}
	return b
}

func (e env) putRaw(t *testing.T, key string, body []byte) {
	t.Helper()
	_, err := e.srv.Client().PutObject(context.Background(), &s3.PutObjectInput{
		Bucket: aws.String(e.bucket), Key: aws.String(e.prefix + "/" + key), Body: bytes.NewReader(body),
	})
	if err != nil {
		t.Fatalf("put %s: %v", key, err)
	}
}

// TestBlobRestoredAfterSweepRace replays the one race between an upload and
// the sweep: the upload rewrites an existing old orphan blob, the sweep
// (which judged it old a moment before) deletes it, then the upload commits
// its manifest. The upload must notice and put the blob back.
func TestBlobRestoredAfterSweepRace(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	st := e.open(t, s3store.Options{})
	const room = "racy"
	body := []byte("content that outlives its first file\n")
	if _, err := st.PutFile(ctx, pumasi.PutFileInput{Room: room, Name: "a.md", Body: body}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.DeleteFile(ctx, room, "a.md", ""); err != nil {
		t.Fatal(err)
	}
	deleted := false
	s3store.SetAfterBlob(st, func() {
		_, err := e.srv.Client().DeleteObject(ctx, &s3.DeleteObjectInput{
			Bucket: aws.String(e.bucket), Key: aws.String(e.blobPrefix(room) + sum(body)),
		})
		deleted = err == nil
	})
	if _, err := st.PutFile(ctx, pumasi.PutFileInput{Room: room, Name: "b.md", Body: body}); err != nil {
		t.Fatal(err)
	}
	if !deleted {
		t.Fatal("the simulated sweep did not delete the blob")
	}
	s3store.SetAfterBlob(st, nil)
	if _, b, err := st.ReadFile(ctx, room, "b.md"); err != nil || !bytes.Equal(b, body) {
		t.Fatalf("ReadFile(b.md) = %q, %v; want the body back", b, err)
	}
}

// TestStaleCacheNeverAnswers makes one Store's cached manifest stale through
// another Store, then asks the first for things its stale copy would answer
// wrongly without writing: an identical re-upload of a file deleted since,
// and If-None-Match on that name. Both must see the current manifest.
func TestStaleCacheNeverAnswers(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	a, b := e.open(t, s3store.Options{}), e.open(t, s3store.Options{})
	const room = "cached"
	body := []byte("hello\n")
	if _, err := a.PutFile(ctx, pumasi.PutFileInput{Room: room, Name: "x.md", Body: body}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.DeleteFile(ctx, room, "x.md", ""); err != nil {
		t.Fatal(err)
	}
	r, err := a.PutFile(ctx, pumasi.PutFileInput{Room: room, Name: "x.md", Body: body})
	if err != nil || !r.Changed || r.Rev != 3 {
		t.Fatalf("re-upload after another store's delete = %+v, %v; want changed at rev 3", r, err)
	}
	if _, _, err := b.DeleteFile(ctx, room, "x.md", ""); err != nil {
		t.Fatal(err)
	}
	r, err = a.PutFile(ctx, pumasi.PutFileInput{Room: room, Name: "x.md", Body: body, IfNoneMatch: true})
	if err != nil || !r.Changed || r.Rev != 5 {
		t.Fatalf("If-None-Match after another store's delete = %+v, %v; want created at rev 5", r, err)
	}
	if l, err := b.ListFiles(ctx, room); err != nil || l.Rev != 5 || len(l.Files) != 1 {
		t.Fatalf("other store lists rev %d, %d files, %v; want rev 5, 1 file", l.Rev, len(l.Files), err)
	}
}
