package localdev_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"pumasi/functions"
	"pumasi/internal/testpeer"
	"pumasi/internal/wire"
	"pumasi/localdev"
)

// finding is a distinct, gate-passing contribution body for seed i.
func finding(i int) (title, body string) {
	title = fmt.Sprintf("pgbouncer %d.%d drops idle clients after server_idle_timeout=%d", 1+i%20, i%30, 60+i)
	content := fmt.Sprintf("pgbouncer %d.%d: set `server_idle_timeout=%d` and `server_lifetime=%d` in /etc/pgbouncer/pool-%d.ini, or clients see `server conn crashed?` (case %d).",
		1+i%20, i%30, 60+i, 3600+i, i, i)
	return title, fmt.Sprintf(`{"title":%q,"content":%q,"tags":[]}`, title, content)
}

func contribute(t *testing.T, base string, i int) answer {
	t.Helper()
	_, body := finding(i)
	return call(t, "POST", base+"/knowledge/contribute", "", body, map[string]string{"X-Hive-Agent": fmt.Sprintf("pg-tester-%d", i%7)})
}

// noLimits turns the knowledge write limits off, for tests that write fast.
func noLimits(t *testing.T) functions.RateLimits {
	off, err := functions.ParseRateLimit("off")
	if err != nil {
		t.Fatal(err)
	}
	return functions.RateLimits{PerHandle: off, PerAddress: off}
}

// contributionTitles reads every contribution's title from the database.
func contributionTitles(t *testing.T, url string) map[string]bool {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT title FROM knowledge_contributions`)
	if err != nil {
		t.Fatal(err)
	}
	titles, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, s := range titles {
		out[s] = true
	}
	return out
}

// TestPostgresStopped: localdev keeps knowledge in PostgreSQL; while the
// server is stopped, knowledge writes and reads answer 503 unavailable
// with Retry-After and /healthz answers 503 naming the knowledge check
// (/livez stays 200); once it runs again, the same localdev, never
// restarted, answers 201 and 200, and the refused write is not there.
func TestPostgresStopped(t *testing.T) {
	pg, url := testpeer.PrivatePostgres(t)
	base := runLocaldevAt(t, localdev.Config{Home: t.TempDir(), Knowledge: wire.KnowledgeConfig{URL: url}, RateLimits: noLimits(t)})
	if a := contribute(t, base, 1); a.status != http.StatusCreated {
		t.Fatalf("contribution with postgres up = %d %s", a.status, a.body)
	}
	if a := call(t, "GET", base+"/healthz", "", "", nil); a.status != http.StatusOK {
		t.Fatalf("healthz with postgres up = %d %s", a.status, a.body)
	}

	pg.Halt()
	for i := 2; i <= 4; i++ { // the first may meet a pooled connection the stop killed
		if a := contribute(t, base, i); a.status != http.StatusServiceUnavailable || a.code != "unavailable" || a.header.Get("Retry-After") == "" {
			t.Fatalf("contribution %d with postgres stopped = %d %s (Retry-After %q), want 503 unavailable with Retry-After", i, a.status, a.body, a.header.Get("Retry-After"))
		}
	}
	if a := call(t, "GET", base+"/knowledge/query?q=pgbouncer", "", "", nil); a.status != http.StatusServiceUnavailable || a.code != "unavailable" {
		t.Fatalf("query with postgres stopped = %d %s, want 503", a.status, a.body)
	}
	h := call(t, "GET", base+"/healthz", "", "", nil)
	if h.status != http.StatusServiceUnavailable || !strings.Contains(h.body, `"failing":["knowledge"]`) {
		t.Fatalf("healthz with postgres stopped = %d %s, want 503 naming knowledge", h.status, h.body)
	}
	if a := call(t, "GET", base+"/livez", "", "", nil); a.status != http.StatusOK {
		t.Fatalf("livez with postgres stopped = %d", a.status)
	}

	if err := pg.Resume(); err != nil {
		t.Fatal(err)
	}
	if a := call(t, "GET", base+"/healthz", "", "", nil); a.status != http.StatusOK {
		t.Fatalf("healthz once postgres is back = %d %s, want 200", a.status, a.body)
	}
	if a := contribute(t, base, 5); a.status != http.StatusCreated {
		t.Fatalf("contribution once postgres is back = %d %s, want 201", a.status, a.body)
	}
	if a := call(t, "GET", base+"/knowledge/query?q=pgbouncer", "", "", nil); a.status != http.StatusOK {
		t.Fatalf("query once postgres is back = %d %s, want 200", a.status, a.body)
	}
	titles := contributionTitles(t, url)
	for i, want := range map[int]bool{1: true, 2: false, 3: false, 4: false, 5: true} {
		if title, _ := finding(i); titles[title] != want {
			t.Errorf("contribution %d stored = %v, want %v", i, titles[title], want)
		}
	}
}

// TestPostgresRestartMidLoad: eight clients contribute distinct findings
// while PostgreSQL restarts (a fast shutdown ends every session). Every
// acknowledged contribution is in the database afterwards; every one
// answered as failed (503, or a 500 that does not say the outcome is
// unknown) is not; only an "outcome unknown" answer may go either way.
func TestPostgresRestartMidLoad(t *testing.T) {
	pg, url := testpeer.PrivatePostgres(t)
	base := runLocaldevAt(t, localdev.Config{Home: t.TempDir(), Knowledge: wire.KnowledgeConfig{URL: url}, RateLimits: noLimits(t)})
	// Eight clients keep eight contributions in flight whatever their
	// count: the restart begins after a quarter of them, with as many in
	// flight as at 40 each, and the rest go on through it (20 each, not 40:
	// the acknowledged ones that met no restart were most of the test's
	// CPU under -race, and checked only what every other test does).
	const clients, perClient = 8, 20
	type result struct {
		i   int
		ans answer
	}
	var mu sync.Mutex
	var results []result
	var wg sync.WaitGroup
	started := make(chan struct{}, clients*perClient)
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < perClient; k++ {
				i := 1000 + c*perClient + k
				_, body := finding(i)
				req, _ := http.NewRequest("POST", base+"/knowledge/contribute", strings.NewReader(body))
				req.Header.Set("X-Hive-Agent", fmt.Sprintf("pg-load-%d", c))
				res, err := http.DefaultClient.Do(req)
				a := answer{status: -1}
				if err == nil {
					a = answer{status: res.StatusCode, body: readAll(res)}
				}
				mu.Lock()
				results = append(results, result{i, a})
				mu.Unlock()
				started <- struct{}{}
			}
		}()
	}
	for n := 0; n < clients*perClient/4; n++ {
		<-started // a quarter of the load done: restart under way of the rest
	}
	if err := pg.Restart(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	titles := contributionTitles(t, url)
	counts := map[string]int{}
	for _, r := range results {
		title, _ := finding(r.i)
		stored := titles[title]
		unknown := strings.Contains(r.ans.body, "outcome is unknown")
		switch {
		case r.ans.status == http.StatusCreated || r.ans.status == http.StatusOK:
			counts["acknowledged"]++
			if !stored {
				t.Errorf("contribution %d was acknowledged (%d) but is not in the database", r.i, r.ans.status)
			}
		case unknown:
			counts["unknown"]++
		case r.ans.status == http.StatusServiceUnavailable:
			counts["unavailable"]++
			if stored {
				t.Errorf("contribution %d was answered 503 (nothing applied) but is in the database: %s", r.i, r.ans.body)
			}
		default:
			counts[fmt.Sprintf("status %d", r.ans.status)]++
			if stored {
				t.Errorf("contribution %d was answered %d %s but is in the database", r.i, r.ans.status, r.ans.body)
			}
		}
	}
	t.Logf("%d contributions across a restart: %v", len(results), counts)
	if counts["acknowledged"] < clients*perClient/4 {
		t.Fatalf("only %d of %d acknowledged: the load did not run", counts["acknowledged"], len(results))
	}
	if a := contribute(t, base, 5000); a.status != http.StatusCreated {
		t.Fatalf("contribution after the restart = %d %s", a.status, a.body)
	}
}

func readAll(res *http.Response) string {
	defer res.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := res.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			return b.String()
		}
	}
}
