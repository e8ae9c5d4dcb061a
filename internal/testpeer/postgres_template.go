package testpeer

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
)

// pgMade holds, per cluster, the templates PostgresTemplate made on it.
var pgMade struct {
	mu   sync.Mutex
	made map[*PostgresServer]map[string]pgMadeTemplate
}

type pgMadeTemplate struct {
	name string
	err  error
}

// PostgresTemplate returns the name of a database on the test binary's
// shared cluster that prepare made once (for that cluster) under key: a
// copy of the empty template that prepare filled through its URL, such as
// a migrated schema, and must leave with no session open. A test copies it
// with PostgresFrom instead of repeating prepare in every database. A
// failed prepare fails every test that asks for key.
func PostgresTemplate(t testing.TB, key string, prepare func(ctx context.Context, url string) error) string {
	t.Helper()
	srv := PostgresCluster(t)
	pgMade.mu.Lock()
	defer pgMade.mu.Unlock()
	if pgMade.made == nil {
		pgMade.made = map[*PostgresServer]map[string]pgMadeTemplate{}
	}
	if pgMade.made[srv] == nil {
		pgMade.made[srv] = map[string]pgMadeTemplate{}
	}
	m, ok := pgMade.made[srv][key]
	if !ok {
		ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
		defer cancel()
		url, name, err := srv.CreateDatabase(ctx)
		if err == nil {
			if err = prepare(ctx, url); err != nil {
				err = fmt.Errorf("prepare template %s: %w", key, err)
			}
		}
		if err == nil {
			err = srv.freeze(ctx, name)
		}
		m = pgMadeTemplate{name: name, err: err}
		pgMade.made[srv][key] = m
	}
	if m.err != nil {
		t.Fatal(m.err)
	}
	return m.name
}

// freeze closes template to connections: no test can change it, and
// autovacuum, which skips such a database, cannot analyze its tables after
// prepare, so every copy has the statistics prepare left (a database fresh
// from prepare would have).
func (p *PostgresServer) freeze(ctx context.Context, template string) error {
	admin, err := pgx.Connect(ctx, p.URL("postgres"))
	if err != nil {
		return fmt.Errorf("connect to postgres: %w", err)
	}
	defer admin.Close(context.Background())
	if _, err := admin.Exec(ctx, "ALTER DATABASE "+pgx.Identifier{template}.Sanitize()+" WITH ALLOW_CONNECTIONS false"); err != nil {
		return fmt.Errorf("freeze template %s: %w", template, err)
	}
	return nil
}

// PostgresFrom returns the URL of a fresh database copied from template
// (from PostgresTemplate) on the shared cluster, dropped when t ends.
func PostgresFrom(t testing.TB, template string) string {
	t.Helper()
	srv := PostgresCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	dbURL, name, err := srv.createFrom(ctx, template)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
		defer cancel()
		if err := srv.DropDatabase(ctx, name); err != nil {
			t.Errorf("drop test database: %v", err)
		}
	})
	return dbURL
}

// createFrom creates a database with a fresh random name copied from
// template and returns its URL and name.
func (p *PostgresServer) createFrom(ctx context.Context, template string) (dbURL, name string, err error) {
	name = "t_" + randHex(8)
	admin, err := pgx.Connect(ctx, p.URL("postgres"))
	if err != nil {
		return "", "", fmt.Errorf("connect to postgres: %w", err)
	}
	defer admin.Close(context.Background())
	// The name is ours (hex), so it needs no quoting.
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name+" TEMPLATE "+pgx.Identifier{template}.Sanitize()); err != nil {
		return "", "", fmt.Errorf("create database %s from %s: %w", name, template, err)
	}
	return p.URL(name), name, nil
}
