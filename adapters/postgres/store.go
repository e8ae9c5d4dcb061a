// Package postgres keeps collective knowledge in PostgreSQL with pgvector:
// the backend users move to when one machine is not enough. It opens a pgx
// pool, migrates its schema (embedded, versioned, safe when many processes
// and Lambda functions start at once) and creates the per-dimension HNSW
// indexes the vectors need.
package postgres

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	pgxvec "github.com/pgvector/pgvector-go/pgx"

	"pumasi"
)

// Options tune the pool Open makes.
type Options struct {
	// MaxConns caps the pool's connections unless the URL sets
	// pool_max_conns; zero means DefaultMaxConns.
	MaxConns int32
}

// DefaultMaxConns is a pool's size when neither the URL nor Options set
// one. pgx's own default (4, or the CPU count) queued 8 concurrent
// contributors for 18 ms per acquire, a third of their time in the driver,
// while each held a connection through a commit's fsync (bench
// knowledge-postgres). A Lambda sets its own (2 per warm container).
const DefaultMaxConns = 16

// Open opens a connection pool on rawURL (postgres://user:pass@host/db?...,
// or a keyword/value string; pgx's pool_max_conns and friends apply) and
// checks that the database answers. Errors name the URL with its password
// masked.
func Open(ctx context.Context, rawURL string) (*pgxpool.Pool, error) {
	return OpenWith(ctx, rawURL, Options{})
}

// OpenWith is Open with options. Every connection learns pgvector's types
// (binary vectors) once the extension exists; Migrate resets the pool after
// it creates the extension, so no connection keeps the text fallback.
func OpenWith(ctx context.Context, rawURL string, opt Options) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(rawURL)
	if err != nil {
		// pgx's parse errors carry the URL; keep only our redacted copy.
		return nil, fmt.Errorf("open knowledge database %s: invalid connection string", redact(rawURL))
	}
	if !strings.Contains(rawURL, "pool_max_conns") {
		cfg.MaxConns = cmp.Or(opt.MaxConns, DefaultMaxConns)
	}
	cfg.AfterConnect = func(ctx context.Context, conn *pgx.Conn) error {
		if _, err := conn.Exec(ctx, sessionSettings); err != nil {
			return err
		}
		return registerVector(ctx, conn)
	}
	// Outcomes of writes for the request's log, and a live connection for
	// a retry after a break (retry.go).
	cfg.ConnConfig.Tracer = outcomeTracer{}
	cfg.ShouldPing = shouldPing
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open knowledge database %s: %w", redact(rawURL), err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open knowledge database %s: %w", redact(rawURL), err)
	}
	return pool, nil
}

// sessionSettings are every connection's HNSW search settings, so a
// nearest-neighbour query is one statement: iterative scans (pgvector 0.8)
// go on past rows a hive or model filter drops until the LIMIT is met, in
// approximately exact order (the engine rescores its candidates exactly);
// ef_search is pgvector's default, which keeps the planner on the index (see
// Knowledge.Nearest). Before the extension exists these are placeholders
// that it adopts when it loads. JIT is off: every statement of the driver
// is short, and a plan whose cost passes jit_above_cost on an estimate
// (TermCounts' one statement for a query's words, planned for any terms)
// spent 150-280 ms compiling what then ran in 0.3 ms (EXPLAIN ANALYZE at
// 100,000 entries).
const sessionSettings = `SET hnsw.ef_search = 40; SET hnsw.iterative_scan = relaxed_order; SET jit = off`

// registerVector teaches conn pgvector's types when the extension is
// installed. Before Migrate creates it there is nothing to register, and
// pgvector.Vector still works in its text form.
func registerVector(ctx context.Context, conn *pgx.Conn) error {
	var ok bool
	if err := conn.QueryRow(ctx, `SELECT to_regtype('vector') IS NOT NULL`).Scan(&ok); err != nil || !ok {
		return err
	}
	return pgxvec.RegisterTypes(ctx, conn)
}

// redactedPassword stands in for a password in anything we print.
const redactedPassword = "xxxxx"

var (
	// userinfoPassword is the password of a URL's user:password@ part.
	userinfoPassword = regexp.MustCompile(`(://[^:/@?#]*:)[^/?#]*@`)
	// keywordPassword is password=... in a keyword/value connection string
	// or a URL's query, quoted or not.
	keywordPassword = regexp.MustCompile(`(?i)(password\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s&]*)`)
)

// Redact returns rawURL with any password masked: what to print of a
// connection string.
func Redact(rawURL string) string { return redact(rawURL) }

// redact returns rawURL with any password masked, for logs and errors: the
// user:password@ part of a URL, a password= query parameter, or password=
// in a keyword/value string. A string that does not parse is masked by
// pattern, so a malformed URL still never prints its password.
func redact(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme == "" || u.Opaque != "" {
		return keywordPassword.ReplaceAllString(userinfoPassword.ReplaceAllString(rawURL, "${1}"+redactedPassword+"@"),
			"${1}"+redactedPassword)
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), redactedPassword)
	}
	if q := u.Query(); q.Has("password") {
		q.Set("password", redactedPassword)
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// Describe says where rawURL keeps knowledge, for GET /healthz and
// localdev's banner: host, database and the URL with its password masked.
// It parses without connecting; an error never holds the password.
func Describe(rawURL string) (pumasi.KnowledgeWhere, error) {
	cfg, err := pgconn.ParseConfig(rawURL)
	if err != nil {
		return pumasi.KnowledgeWhere{}, pumasi.Errorf(pumasi.EInvalidRequest, "%s is not a valid connection string", redact(rawURL))
	}
	host := cfg.Host
	if strings.Contains(host, ":") && !strings.HasPrefix(host, "/") {
		host = "[" + host + "]"
	}
	if !strings.HasPrefix(cfg.Host, "/") {
		host = fmt.Sprintf("%s:%d", host, cfg.Port)
	}
	return pumasi.KnowledgeWhere{Kind: pumasi.KnowledgePG, Host: host, Database: cfg.Database, URL: redact(rawURL)}, nil
}
