-- 0010_knowledge_common_terms: the terms a count found common, kept for
-- every process until an entry's text leaves the table. A query counts each
-- of its ~18 terms up to CommonTerm + 1 (TermCounts); for a word in most
-- entries that count is the expensive one, whatever the plan: a scan that
-- stops at 501 matches computes 501 rows' tsvectors (21 ms for a word in
-- every one of 100,000 entries), the GIN bitmap reads the whole posting
-- list first (10 ms). Entries are only ever added or deleted, never
-- rewritten, so a term seen in more than the limit stays past it until a
-- row goes: every statement that deletes (or rewrites the text of) an
-- entry moves the epoch, and a common term recorded at an older epoch is
-- counted again. The epoch is a row, not a sequence, so a reader sees it
-- and the entries in one snapshot: a term recorded as common was common
-- in the rows of its epoch.
--
-- A migration that changes knowledge_search or knowledge_text must empty
-- knowledge_common_terms.

CREATE TABLE knowledge_text_epoch (
	one boolean PRIMARY KEY DEFAULT true CHECK (one),
	epoch bigint NOT NULL
);
INSERT INTO knowledge_text_epoch (epoch) VALUES (0);

CREATE TABLE knowledge_common_terms (
	term text NOT NULL,
	substring boolean NOT NULL,
	at_least bigint NOT NULL,
	epoch bigint NOT NULL,
	PRIMARY KEY (term, substring)
);

CREATE FUNCTION knowledge_text_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE knowledge_text_epoch SET epoch = epoch + 1;
	RETURN NULL;
END
$$;

CREATE TRIGGER knowledge_entries_text_changed
	AFTER DELETE OR TRUNCATE OR UPDATE OF title, content, tags ON knowledge_entries
	FOR EACH STATEMENT EXECUTE FUNCTION knowledge_text_changed();
