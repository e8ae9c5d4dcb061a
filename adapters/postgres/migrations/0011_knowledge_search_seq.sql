-- 0011_knowledge_search_seq: the full-text index also holds each entry's
-- seq (btree_gin), so Match's search for a common word among the newest
-- entries (matchRecentSQL: the word AND seq past a bound) is one GIN scan
-- that intersects the word's posting list with the short seq range, skipping
-- through the word's list, instead of a BitmapAnd that decodes the word's
-- whole posting list into a bitmap first: at 1,000,000 entries that was 34-44
-- ms for a word in 6 % of them (62,501 entries) and about 100 ms for one in
-- 18 %, whatever the range held (EXPLAIN ANALYZE, bench knowledge-postgres-1m),
-- and a query's two fallback words made Match 59 ms a statement; now 2.7 ms.
-- A search on the tsvector alone (TermCounts, Match of a rarer word) uses the
-- same index as before: a GIN index answers a condition on any of its columns.
--
-- btree_gin is a trusted contrib extension (PostgreSQL 13 and later), so the
-- database owner may create it.
--
-- The new index is built beside the old one, from the rows (112 s at a
-- million entries on a busy 2-core machine: every row's tsvector); the build
-- blocks writes to the table, not reads, and the old index is dropped last,
-- so the exclusive lock that takes is held only to the commit. On a large
-- table an operator may build it first without blocking writes (README,
-- "Knowledge on Postgres"): CREATE INDEX CONCURRENTLY with this name and
-- definition, and this migration then only swaps the names.
--
-- ANALYZE gathers the new index's expression statistics at once: the driver
-- reads its lexemes' shares from them (termStatsSQL) to tell which words
-- Match looks for among the newest entries, and until the next ANALYZE,
-- which autovacuum brings only after many new rows, it would find none and
-- read every common word's whole posting list.

CREATE EXTENSION IF NOT EXISTS btree_gin;

CREATE INDEX IF NOT EXISTS knowledge_entries_search_seq ON knowledge_entries
    USING gin (knowledge_search(title, content, tags), seq) WITH (gin_pending_list_limit = 64);

ANALYZE knowledge_entries;

DROP INDEX IF EXISTS knowledge_entries_search;
ALTER INDEX knowledge_entries_search_seq RENAME TO knowledge_entries_search;
