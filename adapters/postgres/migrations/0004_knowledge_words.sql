-- 0004_knowledge_words: full-text search sees the words SQLite's unicode61
-- tokeniser sees (runs of letters and digits), so a term matches the same
-- entries on both backends and the engine, which chooses the terms to
-- search by their counts (knowledge/candidates.go), chooses alike. Left to
-- itself the english parser keeps host names, file paths, versions and
-- hyphenated words as single tokens: "max.poll.records", "/etc/redis/x.conf"
-- and "3.6" held no word "poll", "conf" or "3".
--
-- knowledge_words turns ASCII punctuation into spaces (the parser splits
-- non-ASCII punctuation itself). The tsvector is no longer a stored column
-- but an expression index over knowledge_search, as the trigram index is
-- over knowledge_text: changing a stored generated column rewrites the table
-- and rebuilds every index on it, the HNSW graph included (hours at a
-- million entries), while dropping a column only marks it dropped and this
-- index is built once from the rows as they are. A query must call
-- knowledge_search exactly as the index does.

CREATE OR REPLACE FUNCTION knowledge_words(t text)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN regexp_replace(t, '[[:punct:]]+', ' ', 'g');

CREATE OR REPLACE FUNCTION knowledge_search(title text, content text, tags text[])
RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN setweight(to_tsvector('english', knowledge_words(title)), 'A') ||
    setweight(to_tsvector('english', knowledge_words(content || ' ' || knowledge_tags_text(tags))), 'B');

DROP INDEX IF EXISTS knowledge_entries_search;
ALTER TABLE knowledge_entries DROP COLUMN IF EXISTS search;
CREATE INDEX knowledge_entries_search ON knowledge_entries USING gin (knowledge_search(title, content, tags));
