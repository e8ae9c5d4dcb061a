package functions

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"pumasi"
	"pumasi/adapters/local"
)

// TestLambdaEMF: through the Lambda adapter, an upload and a missing file
// each write one CloudWatch embedded-metric line with the route pattern,
// status, latency and, for the upload, its bytes.
func TestLambdaEMF(t *testing.T) {
	var out bytes.Buffer
	emfMu.Lock()
	saved := emfOut
	emfOut = &out
	emfMu.Unlock()
	defer func() { emfMu.Lock(); emfOut = saved; emfMu.Unlock() }()

	st, err := local.Open(context.Background(), t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	h := LambdaHTTP((&API{Store: st, Secret: testSecret}).Handler())
	tok, err := pumasi.SignToken(testSecret, "emf", []string{pumasi.ScopeAdmin}, time.Hour, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	auth := map[string]string{"authorization": "Bearer " + tok}
	for _, ev := range []struct {
		method, route, path, query string
		params                     map[string]string
		body                       string
		want                       int
	}{
		{"POST", "/rooms/{room}/files", "/rooms/r1/files", "name=spec.md", map[string]string{"room": "r1"}, "# spec\n", 201},
		{"GET", "/rooms/{room}/files/{name}", "/rooms/r1/files/nope.md", "", map[string]string{"room": "r1", "name": "nope.md"}, "", 404},
	} {
		res, err := h(context.Background(), v2(ev.method, ev.route, ev.params, ev.path, ev.query, auth, []byte(ev.body), false))
		if err != nil || res.StatusCode != ev.want {
			t.Fatalf("%s %s = %d %v, want %d", ev.method, ev.path, res.StatusCode, err, ev.want)
		}
	}
	var lines []map[string]any
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("EMF line is not JSON: %q", sc.Text())
		}
		lines = append(lines, m)
	}
	if len(lines) != 2 {
		t.Fatalf("got %d EMF lines, want 2:\n%s", len(lines), out.String())
	}
	up, miss := lines[0], lines[1]
	if up["Route"] != "/rooms/{room}/files" || up["Status"] != "201" || up["UploadBytes"] != float64(7) || up["Requests"] != float64(1) {
		t.Errorf("upload line: %v", up)
	}
	if miss["Route"] != "/rooms/{room}/files/{name}" || miss["Status"] != "404" || miss["UploadBytes"] != nil {
		t.Errorf("404 line: %v", miss)
	}
	aws, _ := up["_aws"].(map[string]any)
	cw, _ := aws["CloudWatchMetrics"].([]any)
	if aws["Timestamp"] == nil || len(cw) != 1 || cw[0].(map[string]any)["Namespace"] != "pumasi" {
		t.Errorf("upload line's _aws block: %v", aws)
	}
	if _, ok := up["Latency"].(float64); !ok {
		t.Errorf("no Latency: %v", up)
	}
}
