package s3_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"pumasi"
	s3store "pumasi/adapters/s3"
)

// behindProxy opens a store on e's bucket through a fault proxy that
// injects nothing by itself (tests drive it with Intercept).
func behindProxy(t *testing.T, e env, timeouts s3store.Timeouts) (*s3store.Store, *faultProxy) {
	t.Helper()
	proxy := newFaultProxy(t, e.srv.Endpoint, 1, 0, 0, func(string) bool { return false })
	behind := *e.srv
	behind.Endpoint = proxy.URL
	st, err := s3store.Open(context.Background(), behind.URL(e.bucket, e.prefix), s3store.Options{Credentials: e.srv.Credentials(), Timeouts: timeouts})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { proxy.Intercept(nil) })
	return st, proxy
}

// TestStalledReplyFailsAlone stalls one reply, the manifest GET of an
// upload, and never answers it: that upload must fail within its request
// deadline as 503 unavailable with nothing applied, while the next upload
// to the same room, from the same process, succeeds before the stalled
// request has even been given up; the room's manifest and log stay
// consistent.
func TestStalledReplyFailsAlone(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	const deadline = 3 * time.Second
	// The header timeout is past the request deadline, so that the
	// deadline, not an SDK retry, ends the stalled request.
	st, proxy := behindProxy(t, e, s3store.Timeouts{Request: deadline, Header: time.Minute})
	const patience = 100 * time.Millisecond
	s3store.SetStallPatience(st, patience)
	direct := e.open(t, s3store.Options{})
	if _, err := direct.PutFile(ctx, pumasi.PutFileInput{Room: "stall", Name: "a.md", Body: []byte("a\n")}); err != nil {
		t.Fatal(err)
	}

	held, gone := make(chan struct{}), make(chan struct{})
	var once sync.Once
	proxy.Intercept(func(w http.ResponseWriter, r *http.Request) bool {
		if r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, "/rooms/stall/manifest.json") {
			return false
		}
		caught := false
		once.Do(func() { caught = true })
		if !caught {
			return false
		}
		close(held)
		<-r.Context().Done() // the client gave up
		close(gone)
		return true
	})

	began := time.Now()
	stalled := make(chan error, 1)
	go func() {
		_, err := st.PutFile(ctx, pumasi.PutFileInput{Room: "stall", Name: "b.md", Body: []byte("b\n")})
		stalled <- err
	}()
	select {
	case <-held:
	case err := <-stalled:
		t.Fatalf("the upload ended (%v) before its manifest GET was stalled; the test proves nothing", err)
	}
	heldAt := time.Now()
	res, err := st.PutFile(ctx, pumasi.PutFileInput{Room: "stall", Name: "c.md", Body: []byte("c\n")})
	next := time.Since(heldAt)
	if err != nil || !res.Changed {
		t.Fatalf("the next upload to the room during the stall = %+v, %v; want it written", res, err)
	}
	select {
	case <-gone:
		t.Fatalf("the next upload took %v: it waited for the stalled request (deadline %v) instead of going ahead", next, deadline)
	default:
	}

	err = <-stalled
	took := time.Since(began)
	if pumasi.ErrorCode(err) != pumasi.EUnavailable || pumasi.HTTPStatus(pumasi.ErrorCode(err)) != http.StatusServiceUnavailable {
		t.Fatalf("the stalled upload = %v; want 503 unavailable", err)
	}
	<-gone
	if res, err := st.PutFile(ctx, pumasi.PutFileInput{Room: "stall", Name: "d.md", Body: []byte("d\n")}); err != nil || !res.Changed {
		t.Fatalf("an upload after the stall = %+v, %v", res, err)
	}

	// Read straight from MinIO: unavailable promised that b.md was not
	// applied; the others are there, one change each, in order.
	l, err := direct.ListFiles(ctx, "stall")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range l.Files {
		names = append(names, f.Name)
	}
	if strings.Join(names, ",") != "a.md,c.md,d.md" || l.Rev != 3 {
		t.Fatalf("room after the stall: rev %d, files %v; want rev 3 with a.md, c.md, d.md", l.Rev, names)
	}
	log, err := direct.RoomLog(ctx, "stall", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range log.Changes {
		if c.Rev != int64(i+1) || c.Kind != pumasi.ChangeUpload || c.Name != names[i] {
			t.Fatalf("room log entry %d = %+v; want rev %d, upload of %s", i, c, i+1, names[i])
		}
	}
	if len(log.Changes) != 3 {
		t.Fatalf("room log has %d changes, want 3", len(log.Changes))
	}
	t.Logf("stalled upload failed 503 after %v (request deadline %v); the next upload succeeded %v after the stall began (stall patience %v)",
		took.Round(time.Millisecond), deadline, next.Round(time.Millisecond), patience)
}

// TestLateLandingKeepsFirstAttempt loses the answer of a manifest PUT and
// lets that PUT land only after the store has read the manifest back (and
// found nothing) and retried: the retry meets the first write as a
// conflict, finds it was its own, and must report the file as the first
// attempt wrote it, id and timestamps included.
func TestLateLandingKeepsFirstAttempt(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	st, proxy := behindProxy(t, e, s3store.Timeouts{})
	s3store.SetWriteTimeout(st, 300*time.Millisecond)
	direct := e.open(t, s3store.Options{})
	if _, err := direct.PutFile(ctx, pumasi.PutFileInput{Room: "late", Name: "seed.md", Body: []byte("seed\n")}); err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	phase := 0 // 0: waiting for the first PUT; 1: it is held; 2: read back; 3: landed
	readBack, landed := make(chan struct{}), make(chan struct{})
	var landedStatus int
	var landErr error
	proxy.Intercept(func(w http.ResponseWriter, r *http.Request) bool {
		if !strings.HasSuffix(r.URL.Path, "/rooms/late/manifest.json") {
			return false
		}
		mu.Lock()
		p := phase
		if p == 0 && r.Method == http.MethodPut {
			phase = 1
		}
		mu.Unlock()
		switch {
		case p == 0 && r.Method == http.MethodPut:
			body, err := io.ReadAll(r.Body)
			if err != nil {
				landErr = err
				close(landed)
				return true
			}
			<-r.Context().Done() // the store's write timeout: the answer is lost
			<-readBack
			landedStatus, landErr = proxy.Replay(r, body)
			mu.Lock()
			phase = 3
			mu.Unlock()
			close(landed)
			return true
		case p == 1 && r.Method == http.MethodGet:
			proxy.rp.ServeHTTP(w, r) // answered before the held PUT lands
			mu.Lock()
			phase = 2
			mu.Unlock()
			close(readBack)
			return true
		case p >= 1 && r.Method == http.MethodPut:
			<-landed // the retry reaches S3 after the first write
			return false
		}
		return false
	})

	res, err := st.PutFile(ctx, pumasi.PutFileInput{Room: "late", Name: "late.md", Body: []byte("late\n"), UploadedBy: "ann"})
	select {
	case <-landed:
	default:
		t.Fatalf("the first write was never replayed (PutFile = %+v, %v); the test proves nothing", res, err)
	}
	if landErr != nil || landedStatus != http.StatusOK {
		t.Fatalf("replaying the held PUT: status %d, %v; want it landed", landedStatus, landErr)
	}
	if err != nil || !res.Changed || res.File.Version != 1 {
		t.Fatalf("PutFile after its first write landed late = %+v, %v; want changed at version 1", res, err)
	}
	if n := s3store.Landed(st); n < 1 {
		t.Fatalf("the store did not recognise its own late write (landed %d)", n)
	}
	got, err := direct.StatFile(ctx, "late", "late.md")
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != res.File.ID || !got.CreatedAt.Equal(res.File.CreatedAt) || !got.UpdatedAt.Equal(res.File.UpdatedAt) {
		t.Fatalf("stored file id %s created %v updated %v; the answer said id %s created %v updated %v: the answer must be the write that landed",
			got.ID, got.CreatedAt, got.UpdatedAt, res.File.ID, res.File.CreatedAt, res.File.UpdatedAt)
	}
	log, err := direct.RoomLog(ctx, "late", 0, 0)
	if err != nil || len(log.Changes) != 2 || log.Changes[1].FileID != res.File.ID || log.Rev != 2 {
		t.Fatalf("room log = %+v, %v; want 2 changes, the second naming file %s", log, err, res.File.ID)
	}
}
