package local

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"pumasi"
)

// benchStore opens a store with limits high enough for any b.N.
func benchStore(b *testing.B) *Store {
	b.Helper()
	s, err := Open(context.Background(), b.TempDir(), Options{Logger: quiet, MaxRoomFiles: 1 << 30, MaxRoomBytes: 1 << 50})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

var benchBody = []byte(strings.Repeat("a line of shared notes for the bench\n", 100)) // 3.7 KB

// BenchmarkPut uploads new files one after another: temp write, fsync,
// rename, directory fsync and one write transaction each.
func BenchmarkPut(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	b.SetBytes(int64(len(benchBody)))
	for i := 0; b.Loop(); i++ {
		body := append([]byte(fmt.Sprintf("%d\n", i)), benchBody...)
		if _, err := s.PutFile(ctx, pumasi.PutFileInput{Room: "bench", Name: fmt.Sprintf("f-%d.md", i), Body: body}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPutIdentical re-uploads unchanged content: the idempotent path.
func BenchmarkPutIdentical(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	in := pumasi.PutFileInput{Room: "bench", Name: "same.md", Body: benchBody}
	if _, err := s.PutFile(ctx, in); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if r, err := s.PutFile(ctx, in); err != nil || r.Changed {
			b.Fatal(err, r.Changed)
		}
	}
}

// BenchmarkPutParallel uploads from many goroutines into one room.
func BenchmarkPutParallel(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	var n atomic.Int64
	b.SetBytes(int64(len(benchBody)))
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			body := append([]byte(fmt.Sprintf("%d\n", i)), benchBody...)
			if _, err := s.PutFile(ctx, pumasi.PutFileInput{Room: "bench", Name: fmt.Sprintf("f-%d.md", i), Body: body}); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkList lists a room of 200 files.
func BenchmarkList(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	for i := 0; i < 200; i++ {
		if _, err := s.PutFile(ctx, pumasi.PutFileInput{Room: "bench", Name: fmt.Sprintf("f-%03d.md", i), Body: []byte(fmt.Sprint(i))}); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if l, err := s.ListFiles(ctx, "bench"); err != nil || len(l.Files) != 200 {
			b.Fatal(err)
		}
	}
}
