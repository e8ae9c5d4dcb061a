-- 0020_knowledge_moderation: flags, quarantine, lineage and redaction of
-- knowledge entries (DESIGN.md §6, Lifecycle). The engine decides (the
-- threshold, who is an admin, what a query leaves out); these tables only
-- keep what was decided.
-- * knowledge_moderation: one row per entry anyone moderated: distinct
--   flaggers, how many of them the last restore cleared, quarantine, and
--   lineage (superseded_by, supersedes). No foreign key: it outlives a
--   redacted entry's row, as its history does.
-- * knowledge_flags: one flag per (entry, contributor).
-- * knowledge_events: an entry's lifecycle, oldest first (its history).
-- * knowledge_redactions: the tombstone of a redacted entry (id, hive,
--   when, why, by), nothing of its text.

CREATE TABLE IF NOT EXISTS knowledge_moderation (
    entry_id      TEXT PRIMARY KEY,
    hive          TEXT NOT NULL,
    flags         INTEGER NOT NULL DEFAULT 0,
    cleared       INTEGER NOT NULL DEFAULT 0,
    quarantined   INTEGER NOT NULL DEFAULT 0,
    superseded_by TEXT NOT NULL DEFAULT '',
    supersedes    TEXT NOT NULL DEFAULT '',
    flagged_at    TEXT NOT NULL DEFAULT ''
);

CREATE INDEX IF NOT EXISTS knowledge_moderation_review ON knowledge_moderation (flagged_at)
    WHERE flags > 0 OR quarantined = 1;

CREATE TABLE IF NOT EXISTS knowledge_flags (
    entry_id TEXT NOT NULL,
    agent    TEXT NOT NULL,
    reason   TEXT NOT NULL,
    note     TEXT NOT NULL,
    admin    INTEGER NOT NULL,
    at       TEXT NOT NULL,
    PRIMARY KEY (entry_id, agent)
);

CREATE TABLE IF NOT EXISTS knowledge_events (
    seq      INTEGER PRIMARY KEY AUTOINCREMENT,
    entry_id TEXT NOT NULL,
    kind     TEXT NOT NULL,
    at       TEXT NOT NULL,
    by       TEXT NOT NULL,
    other_id TEXT NOT NULL,
    reason   TEXT NOT NULL,
    note     TEXT NOT NULL
);

CREATE INDEX IF NOT EXISTS knowledge_events_entry ON knowledge_events (entry_id, seq);

CREATE TABLE IF NOT EXISTS knowledge_redactions (
    id     TEXT PRIMARY KEY,
    hive   TEXT NOT NULL,
    at     TEXT NOT NULL,
    reason TEXT NOT NULL,
    by     TEXT NOT NULL
);
