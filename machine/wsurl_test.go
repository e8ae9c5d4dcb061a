package machine

import (
	"testing"
	"time"
)

// TestSocketURL shows where a daemon subscribes: its server's own
// /machines/{id}/ws by default, or a separate WebSocket API (Config.WS) with
// ?machine=<id> added to whatever query the URL already has.
func TestSocketURL(t *testing.T) {
	for _, tc := range []struct {
		server, ws, want string
	}{
		{"http://127.0.0.1:8787", "", "ws://127.0.0.1:8787/machines/m1/ws"},
		{"https://api.example.com/", "", "wss://api.example.com/machines/m1/ws"},
		{"https://x.execute-api.eu-west-1.amazonaws.com", "wss://y.execute-api.eu-west-1.amazonaws.com/prod", "wss://y.execute-api.eu-west-1.amazonaws.com/prod?machine=m1"},
		{"http://127.0.0.1:1", "https://y.example.com/prod", "wss://y.example.com/prod?machine=m1"},
		{"http://127.0.0.1:1", "ws://127.0.0.1:2/dev?x=1&machine=other", "ws://127.0.0.1:2/dev?machine=m1&x=1"},
	} {
		d, err := newDaemon(Config{Server: tc.server, WS: tc.ws, Machine: "m1", Token: "t", Home: t.TempDir()})
		if err != nil {
			t.Fatalf("newDaemon(%q, %q): %v", tc.server, tc.ws, err)
		}
		if got := d.socketURL(); got != tc.want {
			t.Errorf("socketURL(%q, %q) = %q, want %q", tc.server, tc.ws, got, tc.want)
		}
		if d.cfg.WSPing != DefaultWSPing {
			t.Errorf("WSPing = %v, want the default %v", d.cfg.WSPing, DefaultWSPing)
		}
	}
	for _, bad := range []string{"ftp://x/prod", "wss://", "not a url", "/prod"} {
		if _, err := newDaemon(Config{Server: "http://127.0.0.1:1", WS: bad, Machine: "m1", Token: "t", Home: t.TempDir()}); err == nil {
			t.Errorf("newDaemon with WS %q: no error, want one", bad)
		}
	}
	d, err := newDaemon(Config{Server: "http://127.0.0.1:1", WS: "ws://h/p", WSPing: time.Minute, Machine: "m1", Token: "t", Home: t.TempDir()})
	if err != nil || d.cfg.WSPing != time.Minute {
		t.Fatalf("WSPing = %v (%v), want 1m kept", d.cfg.WSPing, err)
	}
}
