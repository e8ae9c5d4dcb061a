package functions

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"pumasi"
	"pumasi/adapters/local"
)

// TestHealthNamesEveryCheck: /healthz answers the same three checks
// wherever it runs: with a local store and knowledge all are checked; with
// neither (a Lambda health function without PUMASI_STORAGE and
// PUMASI_KNOWLEDGE) they pass as not applicable. /livez answers 200.
func TestHealthNamesEveryCheck(t *testing.T) {
	st, err := local.Open(context.Background(), t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for name, api := range map[string]*API{
		"local":   {Store: st, Secret: testSecret, Knowledge: local.NewKnowledge(st)},
		"nothing": {Secret: testSecret},
	} {
		srv := httptest.NewServer(api.Handler())
		res, err := http.Get(srv.URL + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		var body healthBody
		err = json.NewDecoder(res.Body).Decode(&body)
		res.Body.Close()
		if err != nil || res.StatusCode != 200 || !body.OK {
			t.Fatalf("%s: healthz = %d %+v, %v", name, res.StatusCode, body, err)
		}
		for _, c := range pumasi.HealthChecks {
			got, ok := body.Checks[c]
			if !ok || !got.OK {
				t.Fatalf("%s: check %q = %+v (present %v), want passing", name, c, got, ok)
			}
		}
		if name == "local" && body.Checks[pumasi.CheckDisk].FreeBytes <= 0 {
			t.Fatalf("local: the disk check reports no free bytes: %+v", body.Checks[pumasi.CheckDisk])
		}
		if res, err := http.Get(srv.URL + "/livez"); err != nil || res.StatusCode != 200 {
			t.Fatalf("%s: livez = %v, %v", name, res, err)
		}
		srv.Close()
	}
}

// TestHealthMetrics: /metrics exposes each readiness check and the home's
// disk use by part.
func TestHealthMetrics(t *testing.T) {
	st, err := local.Open(context.Background(), t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	api := &API{Store: st, Secret: testSecret, Knowledge: local.NewKnowledge(st), Metrics: NewMetrics()}
	api.Handler()
	srv := httptest.NewServer(api.Metrics.Handler())
	defer srv.Close()
	res, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, want := range []string{`pumasi_health_check_ok{check="durable"} 1`, `pumasi_health_check_ok{check="knowledge"} 1`,
		`pumasi_health_check_ok{check="disk"} 1`, `pumasi_ready 1`, `pumasi_home_disk_bytes{part="database"}`,
		`pumasi_home_disk_bytes{part="wal"}`, `pumasi_home_disk_bytes{part="blobs"}`, `pumasi_home_disk_bytes{part="index"}`,
		`pumasi_home_free_bytes `, `pumasi_home_free_floor_bytes 6.7108864e+07`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}
