-- 0004_knowledge_words: the search column sees the words SQLite's unicode61
-- tokeniser sees (runs of letters and digits), so a term matches the same
-- entries on both backends and the engine, which chooses the terms to
-- search by their counts (knowledge/candidates.go), chooses alike. Left to
-- itself the english parser keeps host names, file paths, versions and
-- hyphenated words as single tokens: "max.poll.records", "/etc/redis/x.conf"
-- and "3.6" held no word "poll", "conf" or "3".
--
-- knowledge_words turns ASCII punctuation into spaces (the parser splits
-- non-ASCII punctuation itself). The column is dropped and added again,
-- which rewrites the table once.

CREATE OR REPLACE FUNCTION knowledge_words(t text)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN regexp_replace(t, '[[:punct:]]+', ' ', 'g');

ALTER TABLE knowledge_entries DROP COLUMN IF EXISTS search;
ALTER TABLE knowledge_entries ADD COLUMN search tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', knowledge_words(title)), 'A') ||
    setweight(to_tsvector('english', knowledge_words(content || ' ' || knowledge_tags_text(tags))), 'B')) STORED;
CREATE INDEX IF NOT EXISTS knowledge_entries_search ON knowledge_entries USING gin (search);
