package localdev_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pumasi"
	"pumasi/internal/testpeer"
)

// healthServing reads GET /healthz's "serving".
func healthServing(t *testing.T, base string) (pumasi.Serving, string) {
	t.Helper()
	resp, err := http.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var raw json.RawMessage
	if err := json.NewDecoder(resp.Body).Decode(&raw); err != nil {
		t.Fatal(err)
	}
	var body struct {
		Serving *pumasi.Serving `json:"serving"`
	}
	if err := json.Unmarshal(raw, &body); err != nil || body.Serving == nil {
		t.Fatalf("GET /healthz has no serving: %s (%v)", raw, err)
	}
	return *body.Serving, string(raw)
}

// bannerLine returns the banner's line starting with prefix.
func bannerLine(t *testing.T, p *proc, prefix string) string {
	t.Helper()
	l, ok := p.out.wait(prefix, 10*time.Second)
	if !ok {
		t.Fatalf("the banner has no %q line", prefix)
	}
	return l
}

// TestServingLocal: with the defaults, the banner and GET /healthz name the
// address, the local home, the SQLite database and the offline embedder.
func TestServingLocal(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	home := t.TempDir()
	p := startLocaldev(t, home)
	sv, _ := healthServing(t, p.base)
	want := pumasi.Serving{Addr: p.base,
		Storage:   pumasi.StorageWhere{Kind: "local", Home: home},
		Knowledge: pumasi.KnowledgeWhere{Kind: "sqlite", Path: filepath.Join(home, "pumasi.db")}}
	if sv.Addr != want.Addr || sv.Storage != want.Storage || sv.Knowledge != want.Knowledge {
		t.Fatalf("serving = %+v, want %+v", sv, want)
	}
	if sv.Embedder == nil || !strings.HasPrefix(sv.Embedder.Model, "hashed-") || sv.Embedder.URL != "" {
		t.Fatalf("serving.embedder = %+v, want the offline hashed model", sv.Embedder)
	}
	for prefix, want := range map[string]string{
		"files: ":     "files: local disk under " + home,
		"knowledge: ": "knowledge: SQLite " + filepath.Join(home, "pumasi.db"),
		"embedder: ":  "embedder: " + sv.Embedder.Model + " (offline, built in)",
	} {
		if got := bannerLine(t, p, prefix); got != want {
			t.Errorf("banner line = %q, want %q", got, want)
		}
	}
}

// TestServingS3Postgres: on a MinIO bucket with knowledge in PostgreSQL,
// the banner and GET /healthz name the bucket, prefix and endpoint, and the
// database's host and name, with the password masked everywhere.
func TestServingS3Postgres(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	m := testpeer.MinIO(t)
	bucket := m.NewBucket(t)
	pg, err := url.Parse(testpeer.Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	// The throwaway cluster trusts loopback, so any password connects.
	const password = "hunter2-not-for-print"
	pg.User = url.UserPassword(pg.User.Username(), password)
	p := startLocaldev(t, t.TempDir(), append(m.Env(), "PUMASI_STORAGE="+m.URL(bucket, "team/pumasi"), "PUMASI_KNOWLEDGE="+pg.String())...)
	sv, raw := healthServing(t, p.base)
	if want := (pumasi.StorageWhere{Kind: "s3", Bucket: bucket, Prefix: "team/pumasi", Endpoint: m.Endpoint}); sv.Storage != want {
		t.Errorf("serving.storage = %+v, want %+v", sv.Storage, want)
	}
	db := strings.TrimPrefix(pg.Path, "/")
	if k := sv.Knowledge; k.Kind != "postgres" || k.Host != pg.Host || k.Database != db || !strings.Contains(k.URL, "xxxxx@") {
		t.Errorf("serving.knowledge = %+v, want postgres on %s, database %s, password masked", k, pg.Host, db)
	}
	files := bannerLine(t, p, "files: ")
	if want := "files: s3 bucket " + bucket + ", prefix team/pumasi, endpoint " + m.Endpoint; files != want {
		t.Errorf("banner line = %q, want %q", files, want)
	}
	know := bannerLine(t, p, "knowledge: ")
	if want := "knowledge: PostgreSQL database " + db + " on " + pg.Host + " ("; !strings.HasPrefix(know, want) {
		t.Errorf("banner line = %q, want it to start %q", know, want)
	}
	bannerLine(t, p, "dashboard")
	p.out.mu.Lock()
	banner := strings.Join(p.out.l, "\n")
	p.out.mu.Unlock()
	if strings.Contains(raw, password) || strings.Contains(banner, password) {
		t.Fatalf("the password is printed:\n%s\n%s", raw, banner)
	}
}
