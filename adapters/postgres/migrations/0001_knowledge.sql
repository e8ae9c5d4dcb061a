-- 0001_knowledge: collective knowledge (DESIGN.md §6) on PostgreSQL with
-- pgvector, mirroring adapters/local's 0007 and 0008. Entries are written
-- once; only their counters move, by UPDATE ... SET n = n + 1. The unique key
-- on (hive, norm_hash) makes exact duplicates merge race-free across
-- processes (INSERT ... ON CONFLICT (hive, norm_hash) DO NOTHING).
--
-- Vectors: embedding is a dimension-free `vector`, so one table holds every
-- embedder's vectors. pgvector 0.8.0 refuses an HNSW index on such a column
-- ("column does not have dimensions") and caps HNSW on `vector` at 2000
-- dimensions (halfvec: 4000). What it allows is an expression index over a
-- cast, partial on the dimension, one per dimension in use:
--
--   CREATE INDEX knowledge_entries_hnsw_512 ON knowledge_entries
--     USING hnsw ((embedding::vector(512)) vector_cosine_ops) WHERE dims = 512;
--
-- EnsureVectorIndex creates it when a dimension is first used. The planner
-- picks it only for a query with the same expression and predicate:
--
--   ... WHERE dims = 512 AND hive = $1 AND model = $2
--       ORDER BY embedding::vector(512) <=> $3::vector(512) LIMIT $4
--
-- Filters on hive and model run after the index scan; with
-- SET LOCAL hnsw.iterative_scan = relaxed_order (new in 0.8.0) the scan goes
-- on until LIMIT rows pass them, instead of answering fewer than asked.
--
-- Lexical side: `search` (English stemming, title weighted above content and
-- tags) for @@ websearch_to_tsquery('english', ...) or to_tsquery, and a
-- trigram index over knowledge_text(title, content, tags) for Korean and
-- identifiers (similarity, word_similarity, `<%`). The cluster's LC_CTYPE must
-- know non-ASCII letters (C.UTF-8 or a UTF-8 locale), else pg_trgm drops them.
--
-- CREATE EXTENSION needs a superuser (or rds_superuser) unless the extension
-- is already there: pg_trgm is trusted, vector 0.8.0 is not.

CREATE EXTENSION IF NOT EXISTS vector;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- knowledge_tags_text is an entry's tags as words. IMMUTABLE is true for
-- text[] (array_to_string is STABLE only because other element types print
-- by settings); generated columns and index expressions need it.
CREATE OR REPLACE FUNCTION knowledge_tags_text(tags text[])
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN array_to_string(tags, ' ');

-- knowledge_text is the text the trigram index sees; a query must use the
-- same call for the planner to pick the index.
CREATE OR REPLACE FUNCTION knowledge_text(title text, content text, tags text[])
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN title || ' ' || content || ' ' || knowledge_tags_text(tags);

CREATE TABLE IF NOT EXISTS knowledge_entries (
    seq                bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    id                 text PRIMARY KEY,
    hive               text NOT NULL,
    title              text NOT NULL,
    content            text NOT NULL,
    tags               text[] NOT NULL DEFAULT '{}',
    norm_hash          text NOT NULL,
    model              text NOT NULL,          -- embedder that made embedding
    embedding          vector NOT NULL,
    dims               integer GENERATED ALWAYS AS (vector_dims(embedding)) STORED,
    specificity        double precision NOT NULL,
    contribution_count integer NOT NULL DEFAULT 1,
    citation_count     integer NOT NULL DEFAULT 0,
    endorsement_count  integer NOT NULL DEFAULT 0,
    created_at         timestamptz NOT NULL,
    last_used_at       timestamptz NOT NULL,   -- staleness decays from here
    search             tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', title), 'A') ||
        setweight(to_tsvector('english', content || ' ' || knowledge_tags_text(tags)), 'B')) STORED,
    UNIQUE (hive, norm_hash),
    CHECK (contribution_count >= 1 AND citation_count >= 0 AND endorsement_count >= 0)
);

CREATE INDEX IF NOT EXISTS knowledge_entries_hive_model ON knowledge_entries (hive, model, dims);
CREATE INDEX IF NOT EXISTS knowledge_entries_last_used ON knowledge_entries (last_used_at);
CREATE INDEX IF NOT EXISTS knowledge_entries_search ON knowledge_entries USING gin (search);
CREATE INDEX IF NOT EXISTS knowledge_entries_trgm ON knowledge_entries
    USING gin (knowledge_text(title, content, tags) gin_trgm_ops);

-- knowledge_contributions keeps every contribution for attribution, repeats
-- by one agent included; the sweep moves them to the entry that absorbs.
CREATE TABLE IF NOT EXISTS knowledge_contributions (
    seq        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    entry_id   text NOT NULL REFERENCES knowledge_entries (id),
    agent      text NOT NULL,
    title      text NOT NULL,
    content    text NOT NULL,
    similarity double precision NOT NULL,
    at         timestamptz NOT NULL
);

CREATE INDEX IF NOT EXISTS knowledge_contributions_entry ON knowledge_contributions (entry_id, seq);

-- knowledge_contributors: one contributor counts once per entry.
-- contribution_count grows only when INSERT ... ON CONFLICT DO NOTHING here
-- inserted a row.
CREATE TABLE IF NOT EXISTS knowledge_contributors (
    entry_id text NOT NULL REFERENCES knowledge_entries (id),
    agent    text NOT NULL,
    PRIMARY KEY (entry_id, agent)
);

CREATE TABLE IF NOT EXISTS knowledge_endorsements (
    entry_id text NOT NULL REFERENCES knowledge_entries (id),
    agent    text NOT NULL,
    at       timestamptz NOT NULL,
    PRIMARY KEY (entry_id, agent)
);

-- knowledge_sweeps: what each finished sweep collapsed and aged.
CREATE TABLE IF NOT EXISTS knowledge_sweeps (
    seq     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at      timestamptz NOT NULL,
    scanned integer NOT NULL,
    merged  integer NOT NULL,
    aged    integer NOT NULL,
    batches integer NOT NULL,
    took_ms bigint NOT NULL
);

-- knowledge_meta holds the knowledge tables' counters: sweep_seq is the
-- highest entry seq a finished sweep batch covered.
CREATE TABLE IF NOT EXISTS knowledge_meta (
    key   text PRIMARY KEY,
    value bigint NOT NULL
);

INSERT INTO knowledge_meta (key, value) VALUES ('sweep_seq', 0) ON CONFLICT (key) DO NOTHING;
