package testpeer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// pgInstallHint is how to get what a missing Postgres part needs.
const pgInstallHint = "run scripts/postgres.sh install"

// pgTemplate is the database every test database is copied from.
const pgTemplate = "pumasi_template"

// PostgresBinDir is where the PostgreSQL 15 server binaries are:
// $PUMASI_PG_BINDIR, else Debian's /usr/lib/postgresql/15/bin.
func PostgresBinDir() string {
	if d := os.Getenv("PUMASI_PG_BINDIR"); d != "" {
		return d
	}
	return "/usr/lib/postgresql/15/bin"
}

// PostgresServer is a running throwaway PostgreSQL cluster on a loopback
// port: trust auth for 127.0.0.1 only, no unix socket, and durability off
// (fsync, synchronous_commit), because its data dies with it.
type PostgresServer struct {
	Port int

	cmd     *exec.Cmd
	exited  chan struct{}
	dir     string
	logPath string
	// bin and cred start it again after Halt (postgres_restart.go).
	bin  string
	cred *syscall.Credential
}

// pgShared is the cluster every test of one binary shares. Under Main it
// lives until Main ends; without Main it lives while some test holds it
// (refs) and stops at the last holder's cleanup.
var pgShared struct {
	mu   sync.Mutex
	srv  *PostgresServer
	err  error // a failed start under Main, not retried
	refs int
}

// Postgres returns the URL of a fresh database (t_<random>, with
// CREATE EXTENSION vector done) on the test binary's shared cluster, dropped
// when t ends. It skips the test when PostgreSQL or pgvector is missing, and
// fails it instead when Required.
func Postgres(t testing.TB) string {
	t.Helper()
	return PostgresFrom(t, pgTemplate)
}

// PostgresCluster returns the test binary's shared cluster (started on first
// use), for tests that need more than one database or the admin database.
func PostgresCluster(t testing.TB) *PostgresServer {
	t.Helper()
	bin, err := postgresBinaries()
	if err != nil {
		if Required() {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	pgShared.mu.Lock()
	defer pgShared.mu.Unlock()
	if pgShared.srv == nil {
		if pgShared.err != nil {
			t.Fatalf("start postgres: %v", pgShared.err)
		}
		srv, err := startPostgres(bin, true)
		if err != nil {
			if shared.enabled {
				pgShared.err = err
			}
			t.Fatalf("start postgres: %v", err)
		}
		pgShared.srv = srv
	}
	srv := pgShared.srv
	if !shared.enabled {
		pgShared.refs++
		t.Cleanup(releasePostgres)
	}
	return srv
}

// releasePostgres drops one test's hold on the shared cluster and stops it
// when no test holds it any more (only without Main).
func releasePostgres() {
	pgShared.mu.Lock()
	defer pgShared.mu.Unlock()
	pgShared.refs--
	if pgShared.refs == 0 && pgShared.srv != nil {
		pgShared.srv.stop()
		pgShared.srv = nil
	}
}

// stopPostgres stops the shared cluster at the end of Main.
func stopPostgres() {
	pgShared.mu.Lock()
	defer pgShared.mu.Unlock()
	if pgShared.srv != nil {
		pgShared.srv.stop()
		pgShared.srv = nil
	}
}

// StartPostgres starts a cluster for programs that are not tests (the
// bench); the caller must Stop it.
func StartPostgres() (*PostgresServer, error) {
	bin, err := postgresBinaries()
	if err != nil {
		return nil, err
	}
	return startPostgres(bin, false)
}

// Stop stops a cluster from StartPostgres and removes its data.
func (p *PostgresServer) Stop() { p.stop() }

// URL returns the connection URL of database db on this cluster.
func (p *PostgresServer) URL(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", p.Port, db)
}

// CreateDatabase creates a database with a fresh random name and the vector
// extension, and returns its URL and name. It copies pgTemplate, where
// startPostgres created the extension once: about 4x faster than creating
// the extension in every database.
func (p *PostgresServer) CreateDatabase(ctx context.Context) (dbURL, name string, err error) {
	return p.createFrom(ctx, pgTemplate)
}

// createTemplate makes pgTemplate: an empty database with CREATE EXTENSION
// vector done, the template of every test database.
func (p *PostgresServer) createTemplate(ctx context.Context) error {
	admin, err := pgx.Connect(ctx, p.URL("postgres"))
	if err != nil {
		return fmt.Errorf("connect to postgres: %w", err)
	}
	defer admin.Close(context.Background())
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+pgTemplate); err != nil {
		return fmt.Errorf("create database %s: %w", pgTemplate, err)
	}
	tpl, err := pgx.Connect(ctx, p.URL(pgTemplate))
	if err != nil {
		return fmt.Errorf("connect to %s: %w", pgTemplate, err)
	}
	// A template must have no sessions while it is copied, so close at once.
	defer tpl.Close(context.Background())
	if _, err := tpl.Exec(ctx, "CREATE EXTENSION vector"); err != nil {
		return fmt.Errorf("create extension vector: %w (%s)", err, pgInstallHint)
	}
	return nil
}

// DropDatabase drops database name, ending any sessions still in it.
func (p *PostgresServer) DropDatabase(ctx context.Context, name string) error {
	admin, err := pgx.Connect(ctx, p.URL("postgres"))
	if err != nil {
		return fmt.Errorf("connect to postgres: %w", err)
	}
	defer admin.Close(context.Background())
	if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("drop database %s: %w", name, err)
	}
	return nil
}

// postgresBinaries returns the server binary folder once initdb, postgres
// and the vector extension are all there, else an error naming the fix.
func postgresBinaries() (string, error) {
	bin := PostgresBinDir()
	for _, name := range []string{"initdb", "postgres", "pg_config"} {
		if _, err := os.Stat(filepath.Join(bin, name)); err != nil {
			return "", fmt.Errorf("postgresql 15 not found (no %s in %s): %s", name, bin, pgInstallHint)
		}
	}
	out, err := exec.Command(filepath.Join(bin, "pg_config"), "--sharedir").Output()
	if err != nil {
		return "", fmt.Errorf("pg_config --sharedir: %w", err)
	}
	control := filepath.Join(strings.TrimSpace(string(out)), "extension", "vector.control")
	if _, err := os.Stat(control); err != nil {
		return "", fmt.Errorf("pgvector not installed (no %s): %s", control, pgInstallHint)
	}
	return bin, nil
}

// serverCredential is who initdb and postgres run as: the postgres user when
// we are root (the server refuses to run as root), else nil (ourselves).
func serverCredential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root needs the postgres user: %w", err)
	}
	uid, err := strconv.ParseUint(u.Uid, 10, 32)
	if err != nil {
		return nil, err
	}
	gid, err := strconv.ParseUint(u.Gid, 10, 32)
	if err != nil {
		return nil, err
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// startPostgres initialises and starts a cluster; a test's (test) keeps its
// data in memory when there is room (peerDir), the bench's on disk.
func startPostgres(bin string, test bool) (*PostgresServer, error) {
	cred, err := serverCredential()
	if err != nil {
		return nil, err
	}
	dir, err := peerDir("pumasi-testpg-", test)
	if err != nil {
		return nil, err
	}
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	data := filepath.Join(dir, "data")
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	initdb := exec.CommandContext(ctx, filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres",
		"--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGKILL}
	if out, err := initdb.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %w: %s", err, out)
	}
	// Only TCP from 127.0.0.1 is let in (trusted); initdb's other lines go.
	if err := os.WriteFile(filepath.Join(data, "pg_hba.conf"), []byte("host all all 127.0.0.1/32 trust\n"), 0o600); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if cred != nil {
		if err := os.Chown(filepath.Join(data, "pg_hba.conf"), int(cred.Uid), int(cred.Gid)); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		srv, err := tryStartPostgres(bin, dir, cred)
		if err == nil {
			return srv, nil
		}
		lastErr = err
	}
	os.RemoveAll(dir)
	return nil, lastErr
}

// tryStartPostgres starts the server once on a port that was free a moment
// ago; the caller retries when another process took the port in between.
func tryStartPostgres(bin, dir string, cred *syscall.Credential) (*PostgresServer, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	srv := &PostgresServer{Port: port, exited: make(chan struct{}), dir: dir, bin: bin, cred: cred,
		logPath: filepath.Join(dir, fmt.Sprintf("postgres-%d.log", port))}
	if err := srv.launch(); err != nil {
		return nil, err
	}
	if err := srv.waitReady(); err != nil {
		srv.kill()
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	if err := srv.createTemplate(ctx); err != nil {
		srv.kill()
		return nil, err
	}
	return srv, nil
}

// launch starts the postmaster on p's data folder and port.
func (p *PostgresServer) launch() error {
	logf, err := os.OpenFile(p.logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer logf.Close()
	bin, dir, port, cred := p.bin, p.dir, p.Port, p.cred
	p.exited = make(chan struct{})
	cmd := exec.Command(filepath.Join(bin, "postgres"), "-D", filepath.Join(dir, "data"),
		"-p", strconv.Itoa(port),
		"-c", "listen_addresses=127.0.0.1",
		"-c", "unix_socket_directories=",
		"-c", "max_connections=200",
		"-c", "fsync=off",
		"-c", "synchronous_commit=off",
		"-c", "full_page_writes=off",
	)
	cmd.Stdout, cmd.Stderr = logf, logf
	// Pdeathsig kills the postmaster if the test binary dies without cleaning
	// up; Go sets it after switching to cred, so the switch does not clear it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	p.cmd = cmd
	exited := p.exited
	go func() { cmd.Wait(); close(exited) }()
	return nil
}

// waitReady returns once the server has answered SELECT 1 over a real
// connection, retried with backoff until startTimeout. pg_isready is not
// enough: it reports a server that accepts connections but may still refuse
// sessions ("the database system is starting up").
func (p *PostgresServer) waitReady() error {
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	backoff := 20 * time.Millisecond
	var lastErr error
	for tries := 1; ; tries++ {
		if lastErr = p.probe(ctx); lastErr == nil {
			return nil
		}
		select {
		case <-p.exited:
			return fmt.Errorf("postgres exited early: %s", tail(p.logPath))
		case <-ctx.Done():
			return fmt.Errorf("postgres not ready after %s (%d tries, last: %v): %s", startTimeout, tries, lastErr, tail(p.logPath))
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, time.Second)
	}
}

func (p *PostgresServer) probe(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, p.URL("postgres"))
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	var one int
	if err := conn.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil {
		return err
	}
	if one != 1 {
		return errors.New("SELECT 1 answered " + strconv.Itoa(one))
	}
	return nil
}

// kill asks for a fast shutdown (SIGINT: sessions are ended, no waiting for
// clients) and kills the server if it has not stopped in 10 s.
func (p *PostgresServer) kill() {
	if p.cmd != nil && p.cmd.Process != nil {
		p.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-p.exited:
		case <-time.After(10 * time.Second):
			p.cmd.Process.Kill()
			<-p.exited
		}
	}
}

func (p *PostgresServer) stop() {
	p.kill()
	os.RemoveAll(p.dir)
}
