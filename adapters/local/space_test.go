package local

import (
	"context"
	"sync/atomic"
	"testing"

	"pumasi"
)

// TestFreeSpaceFloor: below the floor an upload is insufficient_storage,
// a delete still works, and the disk check fails naming the figures; above
// it all is well again. (TestFullDisk in localdev fills a real tmpfs.)
func TestFreeSpaceFloor(t *testing.T) {
	ctx := context.Background()
	var free atomic.Int64
	free.Store(1 << 30)
	s := openT(t, t.TempDir(), Options{MinFree: 10 << 20, statfs: func(string) (int64, error) { return free.Load(), nil }})
	if _, err := s.PutFile(ctx, pumasi.PutFileInput{Room: "r", Name: "a.md", Body: []byte("a")}); err != nil {
		t.Fatal(err)
	}
	free.Store(1 << 20)
	_, err := s.PutFile(ctx, pumasi.PutFileInput{Room: "r", Name: "b.md", Body: []byte("b")})
	if pumasi.ErrorCode(err) != pumasi.EInsufficientStorage || pumasi.HTTPStatus(pumasi.ErrorCode(err)) != 507 {
		t.Fatalf("upload below the floor = %v, want insufficient_storage (507)", err)
	}
	var disk pumasi.HealthCheck
	for _, c := range s.HealthChecks(ctx) {
		if c.Name == pumasi.CheckDisk {
			disk = c
		}
	}
	if disk.OK || disk.FreeBytes != 1<<20 || disk.FloorBytes != 10<<20 || disk.Message == "" {
		t.Fatalf("disk check below the floor = %+v", disk)
	}
	if _, _, err := s.DeleteFile(ctx, "r", "a.md", ""); err != nil {
		t.Fatalf("delete below the floor: %v", err)
	}
	free.Store(1 << 30)
	if _, err := s.PutFile(ctx, pumasi.PutFileInput{Room: "r", Name: "b.md", Body: []byte("b")}); err != nil {
		t.Fatalf("upload above the floor: %v", err)
	}
}

// TestParseMinFree: sizes with units, off, and refusals.
func TestParseMinFree(t *testing.T) {
	for in, want := range map[string]int64{"": 0, "off": -1, "0": -1, "1024": 1024, "64MiB": 64 << 20, "2GiB": 2 << 30, "1GB": 1e9, "512 KiB": 512 << 10} {
		if got, err := ParseMinFree(in); err != nil || got != want {
			t.Errorf("ParseMinFree(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"-1", "ten", "5PB", "1.5GiB"} {
		if _, err := ParseMinFree(bad); err == nil {
			t.Errorf("ParseMinFree(%q) accepted", bad)
		}
	}
}
