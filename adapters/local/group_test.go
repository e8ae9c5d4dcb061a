package local

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"pumasi"
)

// queued waits until the group commit holds want queued uploads behind a
// leader that has taken its own.
func queued(t *testing.T, s *Store, want int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s.group.mu.Lock()
		n, leading := len(s.group.pending), s.group.leading
		s.group.mu.Unlock()
		if leading && n == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d uploads queued (leading %v), want %d", n, leading, want)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestGroupCommit holds the write lock so that one leader waits with its own
// upload while the others queue, then checks that the queued uploads commit
// as one group in which refused and cancelled members fail alone.
func TestGroupCommit(t *testing.T) {
	s := openT(t, t.TempDir(), Options{})
	ctx := context.Background()
	taken := putT(t, s, "r", "taken.md", "taken\n")
	before := s.group.commits

	type outcome struct {
		name string
		res  pumasi.PutFileResult
		err  error
	}
	out := make(chan outcome)
	put := func(ctx context.Context, in pumasi.PutFileInput) {
		go func() {
			res, err := s.PutFile(ctx, in)
			out <- outcome{in.Name, res, err}
		}()
	}
	s.wmu.Lock()
	put(ctx, pumasi.PutFileInput{Room: "r", Name: "lead.md", Body: []byte("lead\n")})
	queued(t, s, 0)

	const ok = 10
	for i := 0; i < ok; i++ {
		put(ctx, pumasi.PutFileInput{Room: "r", Name: fmt.Sprintf("ok%02d.md", i), Body: []byte(fmt.Sprintf("ok %d\n", i))})
	}
	put(ctx, pumasi.PutFileInput{Room: "r", Name: "same.md", Body: []byte("first\n")})
	put(ctx, pumasi.PutFileInput{Room: "r", Name: "same.md", Body: []byte("second\n")})
	put(ctx, pumasi.PutFileInput{Room: "r", Name: "taken.md", Body: []byte("x\n"), IfNoneMatch: true})
	put(ctx, pumasi.PutFileInput{Room: "r", Name: "TAKEN.md", Body: []byte("y\n")})
	put(ctx, pumasi.PutFileInput{Room: "r", Name: "taken.md", Body: []byte("z\n"), IfMatch: `"` + sum256([]byte("nope")) + `"`})
	cctx, cancel := context.WithCancel(ctx)
	put(cctx, pumasi.PutFileInput{Room: "r", Name: "cancelled.md", Body: []byte("gone\n")})
	const members = ok + 6
	queued(t, s, members)
	cancel()
	s.wmu.Unlock()

	got := map[string][]outcome{}
	for i := 0; i < members+1; i++ {
		o := <-out
		got[o.name] = append(got[o.name], o)
	}
	if n := s.group.commits - before; n != 2 {
		t.Fatalf("%d group commits for a leader and %d queued uploads, want 2", n, members)
	}
	for _, name := range []string{"lead.md", "ok00.md", "ok09.md"} {
		if o := got[name][0]; o.err != nil || !o.res.Changed {
			t.Fatalf("%s: %+v, %v; want stored", name, o.res, o.err)
		}
	}
	for name, code := range map[string]string{"TAKEN.md": pumasi.ENameConflict} {
		if o := got[name][0]; pumasi.ErrorCode(o.err) != code {
			t.Fatalf("%s: error %v, want %s", name, o.err, code)
		}
	}
	for _, o := range got["taken.md"] {
		if pumasi.ErrorCode(o.err) != pumasi.EPreconditionFailed {
			t.Fatalf("taken.md with an unmet precondition: error %v, want %s", o.err, pumasi.EPreconditionFailed)
		}
	}
	if o := got["cancelled.md"][0]; !errors.Is(o.err, context.Canceled) {
		t.Fatalf("cancelled member: %v, want context.Canceled", o.err)
	}
	versions := map[int]bool{}
	for _, o := range got["same.md"] {
		if o.err != nil {
			t.Fatalf("same.md: %v", o.err)
		}
		versions[o.res.File.Version] = true
	}
	if !versions[1] || !versions[2] {
		t.Fatalf("two uploads of same.md in one group got versions %v, want 1 and 2", versions)
	}

	l, err := s.ListFiles(ctx, "r")
	if err != nil {
		t.Fatal(err)
	}
	if want := ok + 3; len(l.Files) != want { // ok*, lead, same, taken
		t.Fatalf("%d files listed, want %d", len(l.Files), want)
	}
	if want := taken.Rev + ok + 3; l.Rev != want { // lead, ok*, same twice
		t.Fatalf("rev %d, want %d", l.Rev, want)
	}
	for _, f := range l.Files {
		if f.Name == "taken.md" && f.SHA256 != taken.File.SHA256 {
			t.Fatalf("taken.md changed to %s by refused uploads", f.SHA256)
		}
		if _, b, err := s.ReadFile(ctx, "r", f.Name); err != nil || sum256(b) != f.SHA256 {
			t.Fatalf("ReadFile(%s) = %v", f.Name, err)
		}
	}
	// Refused members left no blob and no temp file behind; only same.md's
	// first body waits, retired, for the reaper.
	if got, want := len(blobsOn(t, s.home, "r")), len(l.Files)+1; got != want {
		t.Fatalf("%d blobs on disk, want %d", got, want)
	}
	if tmps, _ := os.ReadDir(s.tmpDir("r")); len(tmps) != 0 {
		t.Fatalf("%d temp files left", len(tmps))
	}
}

// BenchmarkPutGroup uploads new files from 8 goroutines at once and reports
// how many uploads shared each group commit.
func BenchmarkPutGroup(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	b.SetBytes(int64(len(benchBody)))
	b.SetParallelism(4) // 8 goroutines on 2 cores.
	var seq atomic.Int64
	before := s.group.commits
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := seq.Add(1)
			body := append([]byte(fmt.Sprintf("%d\n", i)), benchBody...)
			if _, err := s.PutFile(ctx, pumasi.PutFileInput{Room: "bench", Name: fmt.Sprintf("f-%d.md", i), Body: body}); err != nil {
				b.Error(err)
				return
			}
		}
	})
	if n := s.group.commits - before; n > 0 {
		b.ReportMetric(float64(seq.Load())/float64(n), "uploads/group")
	}
}
