package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pgvector/pgvector-go"
	pgxvec "github.com/pgvector/pgvector-go/pgx"

	"pumasi/adapters/embed"
	"pumasi/adapters/postgres"
	"pumasi/knowledge"
)

// pgSeed is what seeding took, phase by phase.
type pgSeed struct {
	copy, indexes, hnsw time.Duration
}

// seedPostgres bulk-loads n bench findings into the migrated database at
// dbURL the way an operator would load a large corpus: the secondary
// indexes (the migrations' GIN, trigram and b-tree ones; the keys stay)
// dropped, the rows streamed in by one COPY, the indexes built again from
// their own definitions, then the HNSW index (EnsureVectorIndex) with
// maintenance_work_mem large enough for the graph. pgvector's notices
// (such as a graph outgrowing maintenance_work_mem) go to stderr. It
// returns the vectors and ids in seed order for the exact baseline, with
// the entries earlier runs contributed after them (a kept database), and
// the model the seed's vectors are labelled with.
//
// Each phase done is recorded in the table bench_seed, so on a kept
// cluster (bench -pgdir, reuse true) a later run resumes at the first
// phase not done, or skips the seed, and reports the times of the run that
// did them.
func seedPostgres(ctx context.Context, dbURL string, n int, emb *embed.Hashed, mwm string, reuse bool) (vecs [][]float32, ids []string, took pgSeed, model string, err error) {
	cfg, err := pgxpool.ParseConfig(dbURL)
	if err != nil {
		return nil, nil, took, "", err
	}
	cfg.MaxConns = 1
	cfg.ConnConfig.RuntimeParams["maintenance_work_mem"] = mwm
	// Two processes build the graph (the leader and one worker): the
	// machine has two cores.
	cfg.ConnConfig.RuntimeParams["max_parallel_maintenance_workers"] = "1"
	cfg.ConnConfig.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
		fmt.Fprintf(os.Stderr, "bench: postgres %s: %s %s\n", n.Severity, n.Message, n.Detail)
	}
	cfg.AfterConnect = func(ctx context.Context, conn *pgx.Conn) error { return pgxvec.RegisterTypes(ctx, conn) }
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, nil, took, "", err
	}
	defer pool.Close()

	if _, err := pool.Exec(ctx, `CREATE TABLE IF NOT EXISTS bench_seed (
		n integer NOT NULL, copy_s float8, indexes_s float8, hnsw_s float8, defs text[], names text[])`); err != nil {
		return nil, nil, took, "", err
	}
	var st struct {
		n                  int
		copyS, idxS, hnswS *float64
		defs, names        []string
	}
	err = pool.QueryRow(ctx, `SELECT n, copy_s, indexes_s, hnsw_s, defs, names FROM bench_seed`).
		Scan(&st.n, &st.copyS, &st.idxS, &st.hnswS, &st.defs, &st.names)
	switch {
	case err == nil && reuse && st.n == n:
		fmt.Fprintf(os.Stderr, "bench: reusing the seed of %d entries in %s\n", n, postgres.Redact(dbURL))
		// A seed made before entries kept their analysis ranks by analysing
		// its candidates' text, as the code before did: say so.
		var bare int
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM knowledge_entries WHERE analysis IS NULL`).Scan(&bare); err != nil {
			return nil, nil, took, "", err
		}
		if bare > 0 {
			fmt.Fprintf(os.Stderr, "bench: %d of the kept entries have no stored analysis (seeded by an older build): queries analyse their text; drop the database to seed again\n", bare)
		}
		// And one made before they kept their details has its candidates'
		// details parsed by every contribution's merge decision.
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM knowledge_entries WHERE details IS NULL`).Scan(&bare); err != nil {
			return nil, nil, took, "", err
		}
		if bare > 0 {
			fmt.Fprintf(os.Stderr, "bench: %d of the kept entries have no stored details (seeded by an older build): contributions parse their text; drop the database to seed again\n", bare)
		}
	case err == nil || !errors.Is(err, pgx.ErrNoRows):
		if err != nil {
			return nil, nil, took, "", err
		}
		// Another size's, or an unfinished seed without reuse: start over.
		if _, err := pool.Exec(ctx, `TRUNCATE knowledge_entries CASCADE; DELETE FROM bench_seed`); err != nil {
			return nil, nil, took, "", err
		}
		st.n, st.copyS, st.idxS, st.hnswS = 0, nil, nil, nil
	}
	if st.copyS == nil {
		if st.n == 0 { // a fresh seed: the indexes go, their definitions are kept
			names, defs, err := dropSecondaryIndexes(ctx, pool)
			if err != nil {
				return nil, nil, took, "", err
			}
			st.n, st.names, st.defs = n, names, defs
			if _, err := pool.Exec(ctx, `INSERT INTO bench_seed (n, defs, names) VALUES ($1, $2, $3)`, n, defs, names); err != nil {
				return nil, nil, took, "", err
			}
		}
		if _, err := pool.Exec(ctx, `TRUNCATE knowledge_entries CASCADE`); err != nil {
			return nil, nil, took, "", err
		}
		start := time.Now()
		if err := copyFindings(ctx, pool, n, emb); err != nil {
			return nil, nil, took, "", err
		}
		s := time.Since(start).Seconds()
		st.copyS = &s
		if _, err := pool.Exec(ctx, `UPDATE bench_seed SET copy_s = $1`, s); err != nil {
			return nil, nil, took, "", err
		}
	}
	if st.idxS == nil {
		start := time.Now()
		for j, def := range st.defs {
			s := time.Now()
			def = strings.Replace(def, "CREATE INDEX ", "CREATE INDEX IF NOT EXISTS ", 1)
			if _, err := pool.Exec(ctx, def); err != nil {
				return nil, nil, took, "", fmt.Errorf("rebuild %s: %w", st.names[j], err)
			}
			fmt.Fprintf(os.Stderr, "bench: index %s built in %s\n", st.names[j], time.Since(s).Round(time.Millisecond))
		}
		s := time.Since(start).Seconds()
		st.idxS = &s
		if _, err := pool.Exec(ctx, `UPDATE bench_seed SET indexes_s = $1`, s); err != nil {
			return nil, nil, took, "", err
		}
	}
	if st.hnswS == nil {
		start := time.Now()
		if err := postgres.EnsureVectorIndex(ctx, pool, emb.Dim()); err != nil {
			return nil, nil, took, "", err
		}
		s := time.Since(start).Seconds()
		st.hnswS = &s
		fmt.Fprintf(os.Stderr, "bench: HNSW index over %d entries built in %s\n", n, time.Since(start).Round(time.Millisecond))
		if _, err := pool.Exec(ctx, `VACUUM ANALYZE knowledge_entries`); err != nil {
			return nil, nil, took, "", err
		}
		if _, err := pool.Exec(ctx, `UPDATE bench_seed SET hnsw_s = $1`, s); err != nil {
			return nil, nil, took, "", err
		}
	}
	secs := func(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }
	took = pgSeed{copy: secs(*st.copyS), indexes: secs(*st.idxS), hnsw: secs(*st.hnswS)}

	// The entries' ids and vectors in seq order, the seed's and whatever
	// earlier runs contributed after it, as stored: a kept seed may be
	// older than this build's embedder.
	if err := pool.QueryRow(ctx, `SELECT model FROM knowledge_entries ORDER BY seq LIMIT 1`).Scan(&model); err != nil {
		return nil, nil, took, "", err
	}
	rows, err := pool.Query(ctx, `SELECT id, embedding FROM knowledge_entries ORDER BY seq`)
	if err != nil {
		return nil, nil, took, "", err
	}
	vecs = make([][]float32, 0, n)
	ids = make([]string, 0, n)
	for rows.Next() {
		var id string
		var v pgvector.Vector
		if err := rows.Scan(&id, &v); err != nil {
			return nil, nil, took, "", err
		}
		ids, vecs = append(ids, id), append(vecs, v.Slice())
	}
	if err := rows.Err(); err != nil {
		return nil, nil, took, "", err
	}
	if len(ids) < n {
		return nil, nil, took, "", fmt.Errorf("seed holds %d entries, want %d", len(ids), n)
	}
	if len(ids) > n {
		fmt.Fprintf(os.Stderr, "bench: %d entries contributed by earlier runs are in the exact baseline too\n", len(ids)-n)
	}
	return vecs, ids, took, model, nil
}

// dropSecondaryIndexes drops the table's indexes other than its keys and
// returns their names and definitions, to build again after the COPY.
func dropSecondaryIndexes(ctx context.Context, pool *pgxpool.Pool) (names, defs []string, err error) {
	rows, err := pool.Query(ctx, `SELECT indexname, indexdef FROM pg_indexes
		WHERE schemaname = current_schema() AND tablename = 'knowledge_entries'
		  AND indexname NOT IN (SELECT conname FROM pg_constraint)`)
	if err != nil {
		return nil, nil, err
	}
	for rows.Next() {
		var name, def string
		if err := rows.Scan(&name, &def); err != nil {
			return nil, nil, err
		}
		names, defs = append(names, name), append(defs, def)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	for _, name := range names {
		if _, err := pool.Exec(ctx, `DROP INDEX `+pgx.Identifier{name}.Sanitize()); err != nil {
			return nil, nil, err
		}
	}
	return names, defs, nil
}

// copyFindings streams n bench findings into knowledge_entries by one COPY,
// each with the analysis and details the engine would store with it
// (knowledge.Analysis, knowledge.Details), with a contributor row each.
func copyFindings(ctx context.Context, pool *pgxpool.Pool, n int, emb *embed.Hashed) error {
	at := time.Now().UTC()
	start := time.Now()
	i := 0
	src := pgx.CopyFromFunc(func() ([]any, error) {
		if i == n {
			return nil, nil
		}
		title, content := benchFinding(i)
		v := emb.Vector(knowledge.EmbeddingText(title, content))
		row := []any{uuid.NewString(), "academy", title, content, []string{}, knowledge.Hash(title, content),
			emb.Model(), pgvector.NewVector(v), 0.5 + float64(i%50)/100, at, at, knowledge.Analysis(title, content, []string{}),
			knowledge.Details(title, content)}
		i++
		if i%100000 == 0 {
			fmt.Fprintf(os.Stderr, "bench: seeded %d of %d in %s\n", i, n, time.Since(start).Round(time.Second))
		}
		return row, nil
	})
	if _, err := pool.CopyFrom(ctx, pgx.Identifier{"knowledge_entries"},
		[]string{"id", "hive", "title", "content", "tags", "norm_hash", "model", "embedding", "specificity", "created_at", "last_used_at", "analysis", "details"},
		src); err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO knowledge_contributors (entry_id, agent) SELECT id, 'bench-seed' FROM knowledge_entries`); err != nil {
		return fmt.Errorf("seed contributors: %w", err)
	}
	return nil
}

// pgFootprint is the table's size on disk and in shared buffers.
type pgFootprint struct {
	total, heap, hnsw    int64 // pg_total_relation_size, heap with TOAST, the HNSW index
	cached, cachedHNSW   int64 // bytes of the table (all its relations) and of the index in shared buffers
	sharedBuffers        string
	bufferCacheAvailable bool
}

// footprint measures pgFootprint; shared buffers through pg_buffercache
// when the extension is installed (else those stay 0).
func footprint(ctx context.Context, pool *pgxpool.Pool, dims int) (pgFootprint, error) {
	var f pgFootprint
	idx := postgres.VectorIndexName(dims)
	err := pool.QueryRow(ctx, `SELECT pg_total_relation_size('knowledge_entries'),
		pg_relation_size('knowledge_entries') + COALESCE(pg_total_relation_size(NULLIF(
			(SELECT reltoastrelid FROM pg_class WHERE oid = 'knowledge_entries'::regclass), 0)), 0),
		pg_relation_size($1::regclass), current_setting('shared_buffers')`, idx).Scan(&f.total, &f.heap, &f.hnsw, &f.sharedBuffers)
	if err != nil {
		return f, err
	}
	if _, err := pool.Exec(ctx, `CREATE EXTENSION IF NOT EXISTS pg_buffercache`); err != nil {
		fmt.Fprintf(os.Stderr, "bench: no pg_buffercache, shared buffers not measured: %v\n", err)
		return f, nil
	}
	f.bufferCacheAvailable = true
	err = pool.QueryRow(ctx, `WITH rel AS (
			SELECT 'knowledge_entries'::regclass::oid AS oid
			UNION SELECT indexrelid FROM pg_index WHERE indrelid = 'knowledge_entries'::regclass
			UNION SELECT reltoastrelid FROM pg_class WHERE oid = 'knowledge_entries'::regclass
			UNION SELECT i.indexrelid FROM pg_index i JOIN pg_class c ON i.indrelid = c.reltoastrelid
				WHERE c.oid = 'knowledge_entries'::regclass)
		SELECT COALESCE(sum(current_setting('block_size')::bigint), 0),
			COALESCE(sum(current_setting('block_size')::bigint) FILTER (WHERE c.oid = $1::regclass), 0)
		FROM pg_buffercache b JOIN pg_class c ON b.relfilenode = pg_relation_filenode(c.oid)
		JOIN rel ON rel.oid = c.oid
		WHERE b.reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())`, idx).Scan(&f.cached, &f.cachedHNSW)
	return f, err
}
