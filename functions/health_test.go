package functions

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pumasi"
	"pumasi/adapters/local"
)

// TestHealthAfterFailedSync: once the local store's WAL sync has failed
// (made to fail here by hiding <db>-wal behind a symlink loop), writes are
// refused and /healthz answers 503, so a supervisor restarts the server and
// the store is reopened; it stays so when the file is back.
func TestHealthAfterFailedSync(t *testing.T) {
	e := newTestEnv(t)
	if r := e.do("POST", "/rooms/r/files?name=warm.md", e.admin, strings.NewReader("warm\n"), nil); r.status != http.StatusCreated {
		t.Fatalf("warm-up upload = %d %s", r.status, r.body)
	}
	if r := e.do("GET", "/healthz", "", nil, nil); r.status != http.StatusOK {
		t.Fatalf("healthz before = %d", r.status)
	}
	restore := breakWAL(t, e.home)
	r := e.do("POST", "/rooms/r/files?name=x.md", e.admin, strings.NewReader("x\n"), nil)
	restore()
	if r.status != http.StatusInternalServerError || r.code() != pumasi.EInternal {
		t.Fatalf("upload whose sync failed = %d %s, want 500 internal", r.status, r.body)
	}
	h := e.do("GET", "/healthz", "", nil, nil)
	if h.status != http.StatusServiceUnavailable || h.code() != pumasi.EUnavailable || !strings.Contains(string(h.body), `"ok":false`) ||
		!strings.Contains(string(h.body), `"failing":["durable"]`) {
		t.Fatalf("healthz after a failed sync = %d %s, want 503", h.status, h.body)
	}
	if r := e.do("DELETE", "/rooms/r/files/warm.md", e.admin, nil, nil); r.status != http.StatusInternalServerError {
		t.Fatalf("delete after a failed sync = %d %s, want 500 until the store is reopened", r.status, r.body)
	}
}

// breakWAL hides home's <db>-wal behind a symlink loop, so the store's next
// WAL sync fails (SQLite keeps writing through its open descriptors), and
// returns what puts it back.
func breakWAL(t *testing.T, home string) (restore func()) {
	t.Helper()
	wal := filepath.Join(home, "pumasi.db-wal")
	hidden := wal + ".hidden"
	if err := os.Rename(wal, hidden); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Base(wal), wal); err != nil {
		t.Fatal(err)
	}
	return func() {
		os.Remove(wal)
		if err := os.Rename(hidden, wal); err != nil {
			t.Fatal(err)
		}
	}
}

// TestHealthSeesTheKnowledgeStore: with knowledge kept in a store of its
// own (as beside S3 file storage), a failed WAL sync there also makes
// /healthz answer 503, though the file store is fine.
func TestHealthSeesTheKnowledgeStore(t *testing.T) {
	ctx := context.Background()
	files, err := local.Open(ctx, t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer files.Close()
	home := t.TempDir()
	know, err := local.Open(ctx, home, local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer know.Close()
	srv := httptest.NewServer((&API{Store: files, Secret: testSecret, Knowledge: local.NewKnowledge(know)}).Handler())
	defer srv.Close()
	health := func() int {
		t.Helper()
		res, err := http.Get(srv.URL + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if got := health(); got != http.StatusOK {
		t.Fatalf("healthz = %d, want 200", got)
	}
	restore := breakWAL(t, home)
	_, _, err = know.PlaceAgent(ctx, "r", "a1", "m1") // any write through the knowledge store's database
	restore()
	if err == nil {
		t.Fatal("a write whose WAL sync failed was acknowledged")
	}
	if got := health(); got != http.StatusServiceUnavailable {
		t.Fatalf("healthz after the knowledge store's sync failed = %d, want 503", got)
	}
}

// TestHealthServing: GET /healthz names where the server keeps what it
// serves (API.Serving), in the shape docs/openapi.yaml gives it, for both
// kinds of storage and knowledge.
func TestHealthServing(t *testing.T) {
	st, err := local.Open(context.Background(), t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, sv := range []pumasi.Serving{
		{Addr: "http://127.0.0.1:8787", Storage: pumasi.StorageWhere{Kind: "local", Home: "/h"},
			Knowledge: pumasi.KnowledgeWhere{Kind: "sqlite", Path: "/h/pumasi.db"}, Embedder: &pumasi.EmbedderServing{Model: "hashed-x"}},
		{Storage: pumasi.StorageWhere{Kind: "s3", Bucket: "b", Prefix: "p"},
			Knowledge: pumasi.KnowledgeWhere{Kind: "postgres", Host: "db:5432", Database: "k", URL: "postgres://u:xxxxx@db/k"}},
	} {
		api := &API{Store: st, Secret: testSecret, Serving: &sv}
		srv := httptest.NewServer(api.Handler())
		resp, err := http.Get(srv.URL + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		var body struct {
			Serving pumasi.Serving `json:"serving"`
		}
		err = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		srv.Close()
		if err != nil || body.Serving.Storage != sv.Storage || body.Serving.Knowledge != sv.Knowledge || body.Serving.Addr != sv.Addr {
			t.Fatalf("healthz serving = %+v (%v), want %+v", body.Serving, err, sv)
		}
	}
}
