-- 0019_knowledge_lifecycle: merges that can be undone, and fair cites
-- (DESIGN.md §6, Lifecycle).
-- * knowledge_absorbed: the record of every absorption, the absorbed
--   entry's row as it was (text, tags, vector, counts) with the survivor,
--   when, similarity and what merged it; unmerged_at/by once undone. At
--   most one record per entry is in effect.
-- * origin: the entry a contribution, endorsement or citation was first
--   made on. Rows move to the survivor on absorb and back, by origin, on
--   unmerge; endorsements and citations key on it too, so rows of two
--   entries by one agent both survive a merge (counted once, as distinct
--   agents).
-- * knowledge_cites: one row per (entry, agent, UTC day): a cite counts
--   once a day per agent.

CREATE TABLE IF NOT EXISTS knowledge_absorbed (
    seq                INTEGER PRIMARY KEY AUTOINCREMENT,
    entry_id           TEXT NOT NULL,
    merged_into        TEXT NOT NULL,
    hive               TEXT NOT NULL,
    title              TEXT NOT NULL,
    content            TEXT NOT NULL,
    tags               TEXT NOT NULL,
    norm_hash          TEXT NOT NULL,
    model              TEXT NOT NULL,
    vector             BLOB NOT NULL,
    specificity        REAL NOT NULL,
    contribution_count INTEGER NOT NULL,
    citation_count     INTEGER NOT NULL,
    endorsement_count  INTEGER NOT NULL,
    created_at         TEXT NOT NULL,
    last_used_at       TEXT NOT NULL,
    at                 TEXT NOT NULL,
    similarity         REAL NOT NULL,
    via                TEXT NOT NULL,
    unmerged_at        TEXT,
    unmerged_by        TEXT
);

CREATE UNIQUE INDEX IF NOT EXISTS knowledge_absorbed_current ON knowledge_absorbed (entry_id) WHERE unmerged_at IS NULL;
CREATE INDEX IF NOT EXISTS knowledge_absorbed_entry ON knowledge_absorbed (entry_id, seq);
CREATE INDEX IF NOT EXISTS knowledge_absorbed_into ON knowledge_absorbed (merged_into, seq);
CREATE INDEX IF NOT EXISTS knowledge_absorbed_hash ON knowledge_absorbed (hive, norm_hash) WHERE unmerged_at IS NULL;

ALTER TABLE knowledge_contributions ADD COLUMN origin TEXT NOT NULL DEFAULT '';
UPDATE knowledge_contributions SET origin = entry_id;
CREATE INDEX IF NOT EXISTS knowledge_contributions_origin ON knowledge_contributions (entry_id, origin);

CREATE TABLE knowledge_endorsements_0019 (
    entry_id TEXT NOT NULL REFERENCES knowledge_entries (id),
    agent    TEXT NOT NULL,
    at       TEXT NOT NULL,
    origin   TEXT NOT NULL,
    PRIMARY KEY (entry_id, agent, origin)
);
INSERT INTO knowledge_endorsements_0019 (entry_id, agent, at, origin)
    SELECT entry_id, agent, at, entry_id FROM knowledge_endorsements;
DROP TABLE knowledge_endorsements;
ALTER TABLE knowledge_endorsements_0019 RENAME TO knowledge_endorsements;

CREATE TABLE IF NOT EXISTS knowledge_cites (
    entry_id TEXT NOT NULL REFERENCES knowledge_entries (id),
    agent    TEXT NOT NULL,
    day      TEXT NOT NULL,
    origin   TEXT NOT NULL,
    PRIMARY KEY (entry_id, agent, day, origin)
);
