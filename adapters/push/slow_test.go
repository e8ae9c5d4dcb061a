package push

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"pumasi"
)

// TestStuckSocketsStayBounded opens 40 sockets for 40 machines that never
// read and pushes large frames to all of them while one healthy machine
// reads: the hub must hold at most SendBytes for each stuck socket and
// MaxQueuedBytes in all, drop
// every one of them, keep the heap bounded, and deliver the healthy
// machine's frames as fast as with no stuck socket at all.
func TestStuckSocketsStayBounded(t *testing.T) {
	const stuck = 40
	e := newEnv(t)
	ok := e.mustDial("ok")
	lat := make(chan time.Duration, 1024)
	go func() {
		for {
			_, msg, err := ok.ReadMessage()
			if err != nil {
				return
			}
			var sent int64
			if _, err := fmt.Sscanf(string(msg), `{"type":"agent_memory.shared_file.write","agent_id":"a1","room_id":"r1","storage_name":"t%d.md"`, &sent); err == nil {
				lat <- time.Since(time.Unix(0, sent))
			}
		}
	}()
	// probe pushes one small frame to the healthy machine and returns how
	// long it took to arrive.
	probe := func() time.Duration {
		t.Helper()
		name := fmt.Sprintf("t%d.md", time.Now().UnixNano())
		if err := e.hub.Push(context.Background(), "ok", []pumasi.Frame{{Type: pumasi.FrameWrite, AgentID: "a1", RoomID: "r1", StorageName: name}}); err != nil {
			t.Fatal(err)
		}
		select {
		case d := <-lat:
			return d
		case <-time.After(5 * time.Second):
			t.Fatalf("healthy machine's frame did not arrive within 5s")
			return 0
		}
	}
	pct := func(ds []time.Duration, p int) time.Duration {
		ds = slices.Clone(ds)
		slices.Sort(ds)
		return ds[len(ds)*p/100]
	}
	var base []time.Duration
	for range 200 {
		base = append(base, probe())
	}

	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heap0 := ms.HeapAlloc
	for i := range stuck {
		e.mustDial(fmt.Sprintf("stuck-%d", i)) // Never read.
	}

	// A frame of the largest inline size for every stuck machine, each
	// its own bytes as uploads to 40 rooms would fan out; posted by
	// connection id (the path Push takes after encoding), so that the race
	// detector's slow JSON does not bound how fast the sockets fill.
	// Loopback buffers a few MB per socket in the kernel before writes
	// block, so up to 200 rounds (25 MB a socket) are allowed.
	frame := bytes.Repeat([]byte("x"), pumasi.MaxInlineFrame)
	var during []time.Duration
	var maxQueued int64
	var maxHeap uint64
	pushes := 0
	deadline := time.Now().Add(60 * time.Second)
	for round := 0; round < 200 && time.Now().Before(deadline); round++ {
		live := 0
		for i := range stuck {
			for _, id := range e.hub.Connections(fmt.Sprintf("stuck-%d", i)) {
				live++
				msg := append([]byte(nil), frame...)
				copy(msg, fmt.Sprintf("%d %d ", i, round))
				_ = e.hub.PostToConnection(context.Background(), id, msg) // ErrGone once dropped.
				pushes++
			}
		}
		maxQueued = max(maxQueued, e.hub.QueuedBytes())
		if round%10 == 0 || live == 0 {
			runtime.GC() // Live memory only: what the stuck sockets retain.
			runtime.ReadMemStats(&ms)
			maxHeap = max(maxHeap, ms.HeapAlloc)
		}
		during = append(during, probe())
		if live == 0 {
			break
		}
	}
	left := 0
	for i := range stuck {
		left += len(e.hub.Connections(fmt.Sprintf("stuck-%d", i)))
	}
	growth := int64(maxHeap) - int64(heap0)
	t.Logf("%d posts of %d KB frames to %d stuck sockets: max queued %.1f MB (budgets %.1f MB a socket, %.1f MB in all), live heap growth at most %.1f MB; healthy p50 %s before, %s during, p99 %s, %s (%d probes); %d stuck sockets left",
		pushes, len(frame)>>10, stuck, float64(maxQueued)/(1<<20), float64(e.hub.SendBytes)/(1<<20), float64(e.hub.MaxQueuedBytes)/(1<<20), float64(growth)/(1<<20),
		pct(base, 50), pct(during, 50), pct(base, 99), pct(during, 99), len(during), left)
	if left != 0 {
		t.Fatalf("%d stuck sockets still live after the pushes, want all dropped", left)
	}
	if limit := min(int64(stuck)*e.hub.SendBytes, e.hub.MaxQueuedBytes); maxQueued > limit {
		t.Fatalf("queued bytes reached %d, over min(%d stuck × SendBytes, MaxQueuedBytes) = %d", maxQueued, stuck, limit)
	}
	if growth > 64<<20 {
		t.Fatalf("live heap grew by %.1f MB with %d stuck sockets, want at most 64 MB", float64(growth)/(1<<20), stuck)
	}
	// A hub that waited on a stuck socket would hold the healthy one for
	// its write deadline (10 s) on every round, which the median shows. It
	// is compared with the slowest probes measured before in this run
	// (p99), never with a fixed time, so a loaded machine slows both alike.
	if b, d := pct(base, 99), pct(during, 50); d > 20*b {
		t.Fatalf("healthy machine's p50 latency %s with stuck sockets, %.1f× its p99 %s without, want at most 20×", d, float64(d)/float64(b), b)
	}
}
