-- 0008_knowledge_engine: what the knowledge engine needs of SQLite.
-- * last_used_at: staleness decays from the last contribution, citation or
--   endorsement.
-- * knowledge_contributors: one contributor counts once per entry; a repeat
--   is kept in knowledge_contributions for attribution only.
-- * knowledge_fts (porter stemming) and knowledge_fts_tri (trigrams, for
--   Korean and identifiers): the lexical side of hybrid ranking, kept in step
--   with the entries by triggers (entries are written once, deleted by the
--   sweep).
-- * knowledge_tombstones: entries the sweep removed, so every process's
--   in-memory vector index drops them without a reload.
-- * knowledge_sweeps: what each sweep collapsed and aged.

ALTER TABLE knowledge_entries ADD COLUMN last_used_at TEXT NOT NULL DEFAULT '';

UPDATE knowledge_entries SET last_used_at = COALESCE(
    (SELECT MAX(at) FROM knowledge_contributions c WHERE c.entry_id = knowledge_entries.id), created_at);

CREATE INDEX IF NOT EXISTS knowledge_entries_last_used ON knowledge_entries (last_used_at);

CREATE TABLE IF NOT EXISTS knowledge_contributors (
    entry_id TEXT NOT NULL REFERENCES knowledge_entries (id),
    agent    TEXT NOT NULL,
    PRIMARY KEY (entry_id, agent)
);

INSERT OR IGNORE INTO knowledge_contributors (entry_id, agent)
    SELECT entry_id, agent FROM knowledge_contributions;

UPDATE knowledge_entries SET contribution_count = MAX(1,
    (SELECT COUNT(*) FROM knowledge_contributors k WHERE k.entry_id = knowledge_entries.id));

CREATE TABLE IF NOT EXISTS knowledge_tombstones (
    seq       INTEGER PRIMARY KEY AUTOINCREMENT,
    id        TEXT NOT NULL,
    entry_seq INTEGER NOT NULL,
    hive      TEXT NOT NULL,
    model     TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS knowledge_sweeps (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,
    at      TEXT NOT NULL,
    scanned INTEGER NOT NULL,
    merged  INTEGER NOT NULL,
    aged    INTEGER NOT NULL,
    batches INTEGER NOT NULL,
    took_ms INTEGER NOT NULL
);

CREATE VIRTUAL TABLE IF NOT EXISTS knowledge_fts USING fts5(
    title, content, tags, content = 'knowledge_entries', content_rowid = 'seq',
    tokenize = 'porter unicode61 remove_diacritics 2');

CREATE VIRTUAL TABLE IF NOT EXISTS knowledge_fts_tri USING fts5(
    title, content, tags, content = 'knowledge_entries', content_rowid = 'seq',
    tokenize = 'trigram');

INSERT INTO knowledge_fts (knowledge_fts) VALUES ('rebuild');
INSERT INTO knowledge_fts_tri (knowledge_fts_tri) VALUES ('rebuild');

CREATE TRIGGER IF NOT EXISTS knowledge_entries_fts_insert AFTER INSERT ON knowledge_entries BEGIN
    INSERT INTO knowledge_fts (rowid, title, content, tags) VALUES (new.seq, new.title, new.content, new.tags);
    INSERT INTO knowledge_fts_tri (rowid, title, content, tags) VALUES (new.seq, new.title, new.content, new.tags);
END;

CREATE TRIGGER IF NOT EXISTS knowledge_entries_fts_delete AFTER DELETE ON knowledge_entries BEGIN
    INSERT INTO knowledge_fts (knowledge_fts, rowid, title, content, tags) VALUES ('delete', old.seq, old.title, old.content, old.tags);
    INSERT INTO knowledge_fts_tri (knowledge_fts_tri, rowid, title, content, tags) VALUES ('delete', old.seq, old.title, old.content, old.tags);
END;
