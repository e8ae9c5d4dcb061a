package functions_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"pumasi"
	"pumasi/adapters/embed"
	"pumasi/adapters/local"
	"pumasi/adapters/push"
	"pumasi/functions"
)

// TestMetricsScrape drives real traffic through an API with metrics (local
// store, the WebSocket hub, a connected daemon) and scrapes /metrics: each
// family is there with the values the traffic implies, and only admin may
// read it.
func TestMetricsScrape(t *testing.T) {
	ctx := context.Background()
	st, err := local.Open(ctx, t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	hub := push.NewHub(quiet)
	api := &functions.API{Store: st, Secret: authzSecret, Pusher: hub, Socket: hub, Log: quiet,
		Knowledge: local.NewKnowledge(st), Embedder: embed.NewHashed(0), Metrics: functions.NewMetrics()}
	srv := httptest.NewServer(api.MetricsHandler(api.Handler()))
	t.Cleanup(func() { hub.Close(); srv.Close() })
	tok := func(scope string) string {
		s, err := pumasi.SignToken(authzSecret, "metrics", []string{scope}, time.Hour, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	admin := tok(pumasi.ScopeAdmin)
	do := func(method, path, token, body string, header map[string]string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		for k, v := range header {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	want := func(status int, method, path, token, body string, header map[string]string) {
		t.Helper()
		if got, b := do(method, path, token, body, header); got != status {
			t.Fatalf("%s %s = %d %s, want %d", method, path, got, b, status)
		}
	}

	// A daemon for m1 is connected while its agent's room changes.
	d := websocket.Dialer{HandshakeTimeout: 5 * time.Second}
	ws, _, err := d.Dial("ws"+strings.TrimPrefix(srv.URL, "http")+"/machines/m1/ws", http.Header{"Authorization": {"Bearer " + tok("machine:m1")}})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	want(200, "PUT", "/rooms/r1/agents/a1", admin, `{"machine_id":"m1"}`, nil)
	want(201, "POST", "/rooms/r1/files?name=spec.md", admin, "# spec, 22 bytes long\n", nil)
	want(200, "POST", "/rooms/r1/files?name=spec.md", admin, "# spec, 22 bytes long\n", nil)
	want(201, "POST", "/rooms/r1/files?name=plan.md", admin, "plan\n", nil)
	want(404, "GET", "/rooms/r1/files/nope.md", admin, "", nil)
	// The daemon reported before plan.md: one file missing, some lag.
	want(204, "POST", "/machines/m1/status", tok("machine:m1"), `{"agents":[{"agent_id":"a1","files":[{"name":"spec.md","sha256":"`+sha256hex("# spec, 22 bytes long\n")+`"}]}]}`, nil)
	hive := map[string]string{functions.HeaderAgent: "metrics-agent", "Content-Type": "application/json"}
	want(201, "POST", "/knowledge/contribute", "", findingB, hive)
	want(422, "POST", "/knowledge/contribute", "", `{"title":"My day","content":"Today I opened the project and I changed some things, finally it worked."}`, hive)
	if _, err := api.Sweep(ctx, time.Hour); err != nil {
		t.Fatal(err)
	}

	want(401, "GET", "/metrics", "", "", nil)
	want(403, "GET", "/metrics", tok("room:r1"), "", nil)
	status, text := do("GET", "/metrics", admin, "", nil)
	if status != 200 {
		t.Fatalf("GET /metrics = %d %s", status, text)
	}
	for _, line := range []string{
		`pumasi_http_requests_total{method="POST",route="/rooms/{room}/files",status="201"} 2`,
		`pumasi_http_requests_total{method="POST",route="/rooms/{room}/files",status="200"} 1`,
		`pumasi_http_requests_total{method="GET",route="/rooms/{room}/files/{name}",status="404"} 1`,
		`pumasi_http_request_duration_seconds_count{method="POST",route="/rooms/{room}/files"} 3`,
		`pumasi_uploads_total{changed="true"} 2`,
		`pumasi_uploads_total{changed="false"} 1`,
		`pumasi_upload_bytes_total 27`,
		`pumasi_connected_machines 1`,
		`pumasi_gate_verdicts_total{stage="",verdict="accepted"} 1`,
		`pumasi_gate_verdicts_total{stage="narrative",verdict="rejected"} 1`,
		`pumasi_knowledge_entries_created_total{hive="academy"} 1`,
		`pumasi_sweep_runs_total{result="ok"} 1`,
		`pumasi_agent_missing_files{agent="a1",room="r1"} 1`,
	} {
		if !strings.Contains(text, line+"\n") {
			t.Errorf("/metrics lacks %q", line)
		}
	}
	// Frames went to the connected daemon: the placement and two changed uploads.
	if m := regexp.MustCompile(`(?m)^pumasi_frames_pushed_total (\d+)$`).FindStringSubmatch(text); m == nil || m[1] == "0" {
		t.Errorf("frames pushed = %v, want some", m)
	}
	if !regexp.MustCompile(`(?m)^pumasi_agent_sync_lag_seconds\{agent="a1",room="r1"\} [0-9.e-]+$`).MatchString(text) {
		t.Errorf("no sync lag for a1:\n%s", grepLines(text, "pumasi_agent"))
	}
	if !strings.Contains(text, "# TYPE pumasi_http_request_duration_seconds histogram") || !strings.Contains(text, "go_goroutines ") {
		t.Errorf("histogram type or Go runtime metrics missing")
	}
}

func sha256hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func grepLines(text, prefix string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
