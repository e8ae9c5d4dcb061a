-- 0006_knowledge_gin_pending: the full-text and trigram indexes keep at most
-- 64 kB of entries not yet merged into them. A GIN index takes new entries
-- into a pending list that every search reads whole, until a vacuum or the
-- list's limit (4 MB by default) merges it; autovacuum comes after 20% of
-- the table is new, so a server that had taken a thousand contributions read
-- 366 pending pages of the trigram index on every substring search (bench
-- knowledge-postgres at 10,000 entries: a substring count 0.03 ms freshly
-- built, 40 ms after; a query's term counts 0.8 ms, 34 ms). At 64 kB a
-- search reads a few pages and the contribution that fills the list merges
-- it, a few milliseconds.

ALTER INDEX knowledge_entries_trgm SET (gin_pending_list_limit = 64);
ALTER INDEX knowledge_entries_search SET (gin_pending_list_limit = 64);
