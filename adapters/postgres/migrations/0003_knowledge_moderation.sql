-- 0003_knowledge_moderation: flags, quarantine, lineage and redaction of
-- knowledge entries (DESIGN.md §6, Lifecycle), mirroring adapters/local's
-- 0020. The engine decides; these tables keep what was decided.
-- knowledge_moderation, knowledge_events and knowledge_redactions have no
-- foreign key to knowledge_entries: they outlive a redacted entry's row.

CREATE TABLE IF NOT EXISTS knowledge_moderation (
    entry_id      text PRIMARY KEY,
    hive          text NOT NULL,
    flags         integer NOT NULL DEFAULT 0,
    cleared       integer NOT NULL DEFAULT 0,
    quarantined   boolean NOT NULL DEFAULT false,
    superseded_by text NOT NULL DEFAULT '',
    supersedes    text NOT NULL DEFAULT '',
    flagged_at    timestamptz
);

CREATE INDEX IF NOT EXISTS knowledge_moderation_review ON knowledge_moderation (flagged_at DESC)
    WHERE flags > 0 OR quarantined;

CREATE TABLE IF NOT EXISTS knowledge_flags (
    entry_id text NOT NULL,
    agent    text NOT NULL,
    reason   text NOT NULL,
    note     text NOT NULL,
    admin    boolean NOT NULL,
    at       timestamptz NOT NULL,
    PRIMARY KEY (entry_id, agent)
);

CREATE TABLE IF NOT EXISTS knowledge_events (
    seq      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    entry_id text NOT NULL,
    kind     text NOT NULL,
    at       timestamptz NOT NULL,
    by       text NOT NULL,
    other_id text NOT NULL,
    reason   text NOT NULL,
    note     text NOT NULL
);

CREATE INDEX IF NOT EXISTS knowledge_events_entry ON knowledge_events (entry_id, seq);

CREATE TABLE IF NOT EXISTS knowledge_redactions (
    id     text PRIMARY KEY,
    hive   text NOT NULL,
    at     timestamptz NOT NULL,
    reason text NOT NULL,
    by     text NOT NULL
);
