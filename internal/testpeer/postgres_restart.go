package testpeer

import (
	"context"
	"testing"
)

// Halt stops the server the way an operator's fast shutdown does
// (SIGINT: every session is ended, 57P01 to each client), keeping its data
// for Resume. Tests of a database that goes away use a cluster of their
// own (StartPostgres), never the shared one.
func (p *PostgresServer) Halt() { p.kill() }

// Resume starts a halted server again on the same port and data, and
// returns once it answers.
func (p *PostgresServer) Resume() error {
	if err := p.launch(); err != nil {
		return err
	}
	if err := p.waitReady(); err != nil {
		p.kill()
		return err
	}
	return nil
}

// Restart is Halt then Resume: what `pg_ctl restart -m fast` does.
func (p *PostgresServer) Restart() error {
	p.Halt()
	return p.Resume()
}

// PrivatePostgres starts a cluster of t's own, with a fresh database, for a
// test that stops or restarts the server; it is stopped when t ends. It
// skips the test when PostgreSQL or pgvector is missing, and fails it
// instead when Required.
func PrivatePostgres(t testing.TB) (*PostgresServer, string) {
	t.Helper()
	bin, err := postgresBinaries()
	if err != nil {
		if Required() {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	srv, err := startPostgres(bin, true)
	if err != nil {
		t.Fatalf("start postgres: %v", err)
	}
	t.Cleanup(srv.stop)
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	url, _, err := srv.CreateDatabase(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return srv, url
}
