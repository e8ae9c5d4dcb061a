package e2e

import (
	"context"
	"fmt"
	"net/url"
	"testing"
	"time"

	"pumasi"
)

// TestLocaldevGatewayPush runs localdev with --gateway-push and a real
// daemon on both backends: the daemon's connection is recorded in the
// store's registry while it is up, pushes go where that registry says (a
// stale record is dropped on 410 Gone, as in AWS), an upload reaches the
// daemon's disk through a frame, and the record is gone once the daemon
// stopped.
func TestLocaldevGatewayPush(t *testing.T) { forEachBackend(t, testGatewayPush) }

func testGatewayPush(t *testing.T, b *backend) {
	ctx := context.Background()
	s := &server{t: t, home: t.TempDir(), port: freePort(t), hc: newClient(), env: b.env, args: []string{"--gateway-push"}}
	s.url = fmt.Sprintf("http://127.0.0.1:%d", s.port)
	s.admin = signToken(t, pumasi.ScopeAdmin)
	s.start()
	st := b.open(t, s.home)

	s.place("r1", "a1", "m1")
	s.upload("r1", "before.md", []byte("uploaded before the daemon started\n"))
	home := t.TempDir()
	// An hourly poll: after the first backfill, files arrive by frames only.
	d := startDaemon(t, "m1", home, s.url, time.Hour)
	waitShared(t, 20*time.Second, home, "a1", map[string]string{"before.md": "uploaded before the daemon started\n"})

	conns := func() []pumasi.Connection {
		t.Helper()
		cs, err := st.MachineConnections(ctx, "m1")
		if err != nil {
			t.Fatalf("machine connections: %v", err)
		}
		return cs
	}
	var live string
	waitFor(t, 10*time.Second, "m1's connection in the registry", func() bool {
		if cs := conns(); len(cs) == 1 {
			live = cs[0].ID
		}
		return live != ""
	})
	// The record names a connection the @connections endpoint knows.
	if r := s.do("GET", "/@connections/"+url.PathEscape(live), nil); r.status != 200 {
		t.Fatalf("GET @connections/%s = %d %s, want 200", live, r.status, r.body)
	}
	// A record left by a daemon that vanished without $disconnect: the push
	// must try it (the registry drives it), get 410 and drop it.
	if err := st.SaveConnection(ctx, "m1", "stale-conn="); err != nil {
		t.Fatal(err)
	}

	want := map[string]string{"before.md": "uploaded before the daemon started\n", "pushed.md": "pushed through @connections\n"}
	start := time.Now()
	s.upload("r1", "pushed.md", []byte(want["pushed.md"]))
	waitShared(t, 10*time.Second, home, "a1", want)
	t.Logf("%s: upload to disk through @connections in %v", b.name, time.Since(start).Round(time.Millisecond))
	waitFor(t, 10*time.Second, "the stale record dropped on 410", func() bool {
		cs := conns()
		return len(cs) == 1 && cs[0].ID == live
	})

	d.proc.stop(t)
	waitFor(t, 10*time.Second, "m1's record gone after the daemon stopped", func() bool { return len(conns()) == 0 })
	if r := s.do("GET", "/@connections/"+url.PathEscape(live), nil); r.status != 410 {
		t.Fatalf("GET @connections/%s after stop = %d, want 410", live, r.status)
	}
}
