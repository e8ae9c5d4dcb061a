package testpeer_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"pumasi/internal/testpeer"
)

func connect(t *testing.T, url string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

func ids(t *testing.T, c *pgx.Conn, q string, args ...any) []int {
	t.Helper()
	rows, err := c.Query(context.Background(), q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	got, err := pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return got
}

func exec1(t *testing.T, c *pgx.Conn, q string, args ...any) {
	t.Helper()
	if _, err := c.Exec(context.Background(), q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// TestPostgres starts the real cluster and checks what the knowledge driver
// relies on: pgvector 0.8.0 with an HNSW cosine index the planner uses and
// that answers nearest-first, English full-text search with stemming, and
// pg_trgm similarity that works on Korean and identifiers. After the last
// test lets go of the cluster it must be gone.
func TestPostgres(t *testing.T) {
	var port int
	t.Run("run", func(t *testing.T) {
		url := testpeer.Postgres(t)
		port = testpeer.PostgresCluster(t).Port
		if !strings.HasPrefix(url, fmt.Sprintf("postgres://postgres@127.0.0.1:%d/t_", port)) {
			t.Fatalf("url = %q, want postgres://postgres@127.0.0.1:%d/t_<random>", url, port)
		}
		c := connect(t, url)
		ctx := context.Background()
		var ver string
		if err := c.QueryRow(ctx, `SELECT extversion FROM pg_extension WHERE extname = 'vector'`).Scan(&ver); err != nil {
			t.Fatalf("vector extension in the fresh database: %v", err)
		}
		if ver != "0.8.0" {
			t.Fatalf("vector extversion = %q, want 0.8.0", ver)
		}

		exec1(t, c, `CREATE TABLE items (id int PRIMARY KEY, embedding vector(3) NOT NULL)`)
		exec1(t, c, `INSERT INTO items VALUES (1, '[1,0,0]'), (2, '[0.9,0.1,0]'), (3, '[0,1,0]'), (4, '[0,0,1]'), (5, '[0.7,0.7,0]')`)
		exec1(t, c, `CREATE INDEX items_hnsw ON items USING hnsw (embedding vector_cosine_ops)`)
		knn := `SELECT id FROM items ORDER BY embedding <=> $1::vector LIMIT 3`
		// Off the sequential scan, so the answer below comes from the index.
		exec1(t, c, `SET enable_seqscan = off`)
		var plan strings.Builder
		rows, err := c.Query(ctx, "EXPLAIN "+knn, "[0.85,0.15,0]")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var line string
			rows.Scan(&line)
			plan.WriteString(line + "\n")
		}
		if rows.Err() != nil || !strings.Contains(plan.String(), "items_hnsw") {
			t.Fatalf("plan does not use the HNSW index (%v):\n%s", rows.Err(), plan.String())
		}
		if got, want := ids(t, c, knn, "[0.85,0.15,0]"), []int{2, 1, 5}; !slices.Equal(got, want) {
			t.Fatalf("nearest by cosine = %v, want %v", got, want)
		}

		exec1(t, c, `CREATE TABLE docs (id int PRIMARY KEY, title text NOT NULL, content text NOT NULL,
			search tsvector GENERATED ALWAYS AS (to_tsvector('english', title || ' ' || content)) STORED)`)
		exec1(t, c, `INSERT INTO docs (id, title, content) VALUES
			(1, 'pgx refuses connection', 'dial tcp 127.0.0.1:5432: connection refused when the server is down'),
			(2, 'sql.ErrNoRows from QueryRow', 'Scan returns sql.ErrNoRows when no row matched; map it to not_found'),
			(3, '데이터베이스 연결 오류', '서버가 꺼져 있으면 데이터베이스 연결이 거부됩니다'),
			(4, 'HNSW index build', 'maintenance_work_mem bounds the graph build of an hnsw index')`)
		// Stemming: "refusing connections" matches "refuses"/"refused".
		fts := `SELECT id FROM docs WHERE search @@ websearch_to_tsquery('english', $1)
			ORDER BY ts_rank(search, websearch_to_tsquery('english', $1)) DESC, id`
		if got, want := ids(t, c, fts, "refusing connections"), []int{1}; !slices.Equal(got, want) {
			t.Fatalf("full-text %q = %v, want %v", "refusing connections", got, want)
		}
		if got := ids(t, c, fts, "hnsw -graph"); len(got) != 0 {
			t.Fatalf("full-text %q = %v, want none (websearch negation)", "hnsw -graph", got)
		}

		exec1(t, c, `CREATE EXTENSION pg_trgm`)
		exec1(t, c, `CREATE INDEX docs_trgm ON docs USING gin ((title || ' ' || content) gin_trgm_ops)`)
		trgm := `SELECT id FROM docs WHERE $1 <% (title || ' ' || content)
			ORDER BY word_similarity($1, title || ' ' || content) DESC, id`
		for _, tt := range []struct {
			q    string
			want []int
		}{
			{"데이터베이스 연결", []int{3}}, // Korean: the English stemmer cannot split it
			{"ErrNoRows", []int{2}}, // an identifier inside sql.ErrNoRows
			{"maintenance_work_mem", []int{4}},
			{"쿠버네티스", nil},
		} {
			if got := ids(t, c, trgm, tt.q); !slices.Equal(got, tt.want) {
				t.Errorf("trigram %q = %v, want %v", tt.q, got, tt.want)
			}
		}
		var sim float64
		if err := c.QueryRow(ctx, `SELECT similarity('데이터베이스 연결 오류', '데이터베이스 연결')`).Scan(&sim); err != nil {
			t.Fatal(err)
		}
		if sim < 0.5 {
			t.Fatalf("similarity of Korean near-duplicates = %.2f, want >= 0.5 (is the cluster's LC_CTYPE C.UTF-8?)", sim)
		}
	})
	if port == 0 {
		return // skipped
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if c, err := pgx.Connect(ctx, fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)); err == nil {
		c.Close(ctx)
		t.Fatalf("postgres still answers on port %d after its last test ended", port)
	}
}

// TestPostgresDatabases runs tests in parallel on the shared cluster: each
// gets its own database on the same port, and a database is dropped when its
// test ends.
func TestPostgresDatabases(t *testing.T) {
	const n = 4
	var mu sync.Mutex
	var urls []string
	var ports []int
	// Holding the cluster for the whole test keeps it up between the group's
	// tests and afterwards, so we can ask whether their databases are gone.
	srv := testpeer.PostgresCluster(t)
	t.Run("group", func(t *testing.T) {
		for i := range n {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				t.Parallel()
				url := testpeer.Postgres(t)
				c := connect(t, url)
				exec1(t, c, `CREATE TABLE mine (v int)`)
				exec1(t, c, `INSERT INTO mine VALUES ($1)`, i)
				if got := ids(t, c, `SELECT v FROM mine`); !slices.Equal(got, []int{i}) {
					t.Fatalf("own table = %v, want [%d]", got, i)
				}
				mu.Lock()
				urls = append(urls, url)
				ports = append(ports, testpeer.PostgresCluster(t).Port)
				mu.Unlock()
			})
		}
	})
	if len(urls) == 0 {
		return // skipped
	}
	if len(urls) != n || len(slices.Compact(slices.Sorted(slices.Values(urls)))) != n {
		t.Fatalf("databases = %v, want %d distinct", urls, n)
	}
	if got := slices.Compact(slices.Sorted(slices.Values(ports))); !slices.Equal(got, []int{srv.Port}) {
		t.Fatalf("ports = %v, want only the shared cluster's %d", ports, srv.Port)
	}
	c := connect(t, srv.URL("postgres"))
	var left int
	if err := c.QueryRow(context.Background(), `SELECT count(*) FROM pg_database WHERE datname = ANY($1)`,
		dbNames(urls)).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Fatalf("%d test databases left after their tests ended, want 0", left)
	}
}

func dbNames(urls []string) []string {
	var names []string
	for _, u := range urls {
		name := u[strings.LastIndex(u, "/")+1:]
		names = append(names, strings.TrimSuffix(name, "?sslmode=disable"))
	}
	return names
}

// TestPostgresMissing runs this test binary again with an empty server
// folder: without CI it must skip with the install hint, with CI=1 or
// PUMASI_REQUIRE_PEERS=1 it must fail.
func TestPostgresMissing(t *testing.T) {
	if os.Getenv("TESTPEER_PG_CHILD") == "1" {
		testpeer.Postgres(t)
		t.Fatal("Postgres returned without binaries")
	}
	empty := t.TempDir()
	for _, tt := range []struct {
		env      []string
		wantFail bool
		want     string
	}{
		{env: nil, wantFail: false, want: "--- SKIP: TestPostgresMissing"},
		{env: []string{"CI=true"}, wantFail: true, want: "--- FAIL: TestPostgresMissing"},
		{env: []string{"PUMASI_REQUIRE_PEERS=1"}, wantFail: true, want: "--- FAIL: TestPostgresMissing"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestPostgresMissing$", "-test.v")
		var env []string
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "CI=") && !strings.HasPrefix(kv, "PUMASI_REQUIRE_PEERS=") && !strings.HasPrefix(kv, "PUMASI_PG_BINDIR=") {
				env = append(env, kv)
			}
		}
		cmd.Env = append(append(env, "TESTPEER_PG_CHILD=1", "PUMASI_PG_BINDIR="+empty), tt.env...)
		out, err := cmd.CombinedOutput()
		if failed := err != nil; failed != tt.wantFail {
			t.Errorf("env %v: failed = %v, want %v\n%s", tt.env, failed, tt.wantFail, out)
		}
		if !strings.Contains(string(out), tt.want) || !strings.Contains(string(out), "run scripts/postgres.sh install") {
			t.Errorf("env %v: output lacks %q or the install hint:\n%s", tt.env, tt.want, out)
		}
	}
}
