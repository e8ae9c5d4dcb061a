package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/jackc/pgx/v5"

	"pumasi/internal/testpeer"
)

// pgCluster is where a Postgres scenario makes its databases: a throwaway
// testpeer cluster, or (bench -pgdir DIR) one whose data outlives the run,
// so that a seed of tens of minutes is paid once and measured again.
type pgCluster interface {
	// database returns the URL of a database for the run named key
	// (such as 1000000): fresh each time on a throwaway cluster, the same
	// one (bench_<key>) on a kept cluster, with reused telling which.
	database(ctx context.Context, key string) (url string, reused bool, err error)
	// set applies settings (ALTER SYSTEM) and restarts the cluster when
	// any of them changed.
	set(ctx context.Context, settings map[string]string) error
	stop()
}

// openCluster starts the cluster of a Postgres scenario: in cfg.pgdir when
// set, else a throwaway one.
func openCluster(cfg config) (pgCluster, error) {
	if cfg.pgdir != "" {
		return startKeptCluster(cfg.pgdir)
	}
	srv, err := testpeer.StartPostgres()
	if err != nil {
		return nil, fmt.Errorf("start postgres (scripts/postgres.sh install): %w", err)
	}
	return throwaway{srv}, nil
}

// throwaway is a testpeer cluster: fsync off, data gone at stop.
type throwaway struct{ srv *testpeer.PostgresServer }

func (t throwaway) database(ctx context.Context, _ string) (string, bool, error) {
	u, _, err := t.srv.CreateDatabase(ctx)
	return u, false, err
}

func (t throwaway) set(ctx context.Context, settings map[string]string) error {
	changed, err := alterSystem(ctx, t.srv.URL("postgres"), settings)
	if err != nil || !changed {
		return err
	}
	return t.srv.Restart()
}

func (t throwaway) stop() { t.srv.Stop() }

// kept is a cluster in a folder of the caller's, run by scripts/postgres.sh
// (pg_ctl). Its backends inherit the niceness of the bench that started it,
// so a seed can run at nice 19 and a later measurement at nice -15 over the
// same data.
type kept struct {
	dir  string
	port int
}

// keptSettings are the throwaway clusters' durability settings (its data
// is a bench's), so a kept cluster's figures compare with theirs.
var keptSettings = map[string]string{
	"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off", "max_connections": "200",
}

func startKeptCluster(dir string) (*kept, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	port, err := freeTCPPort()
	if err != nil {
		return nil, err
	}
	k := &kept{dir: dir, port: port}
	if err := k.pgctl("start", dir, fmt.Sprint(port)); err != nil {
		return nil, err
	}
	if err := k.set(context.Background(), keptSettings); err != nil {
		k.stop()
		return nil, err
	}
	return k, nil
}

func (k *kept) pgctl(args ...string) error {
	cmd := exec.Command("bash", append([]string{"scripts/postgres.sh"}, args...)...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("scripts/postgres.sh %s: %w", strings.Join(args, " "), err)
	}
	return nil
}

func (k *kept) url(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", k.port, db)
}

func (k *kept) database(ctx context.Context, key string) (string, bool, error) {
	name := "bench_" + strings.ToLower(key)
	if !regexp.MustCompile(`^[a-z0-9_]+$`).MatchString(name) {
		return "", false, fmt.Errorf("database key %q: letters, digits and _ only", key)
	}
	admin, err := pgx.Connect(ctx, k.url("postgres"))
	if err != nil {
		return "", false, err
	}
	defer admin.Close(context.Background())
	var exists bool
	if err := admin.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err != nil {
		return "", false, err
	}
	if !exists {
		if _, err := admin.Exec(ctx, `CREATE DATABASE `+name); err != nil {
			return "", false, err
		}
	}
	return k.url(name), exists, nil
}

func (k *kept) set(ctx context.Context, settings map[string]string) error {
	changed, err := alterSystem(ctx, k.url("postgres"), settings)
	if err != nil || !changed {
		return err
	}
	if err := k.pgctl("stop", k.dir); err != nil {
		return err
	}
	return k.pgctl("start", k.dir, fmt.Sprint(k.port))
}

func (k *kept) stop() {
	if err := k.pgctl("stop", k.dir); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
	}
}

// alterSystem sets each of settings that differs from what the server
// runs with, or is pending, and says whether any did (a restart is due).
func alterSystem(ctx context.Context, url string, settings map[string]string) (bool, error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return false, err
	}
	defer conn.Close(context.Background())
	changed := false
	for name, want := range settings {
		var now string
		// pg_file_settings holds what ALTER SYSTEM wrote, applied or not.
		err := conn.QueryRow(ctx, `SELECT setting FROM pg_file_settings
			WHERE name = $1 AND sourcefile LIKE '%postgresql.auto.conf' ORDER BY seqno DESC LIMIT 1`, name).Scan(&now)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return false, err
		}
		if err == nil && now == want {
			continue
		}
		if _, err := conn.Exec(ctx, `ALTER SYSTEM SET `+pgx.Identifier{name}.Sanitize()+` = '`+strings.ReplaceAll(want, "'", "''")+`'`); err != nil {
			return false, err
		}
		changed = true
	}
	return changed, nil
}

func freeTCPPort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
