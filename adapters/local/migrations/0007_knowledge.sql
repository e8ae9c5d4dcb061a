-- 0007_knowledge: collective knowledge (DESIGN.md §6). Entries are written
-- once; only their counters move, by atomic increments. The unique key on
-- (hive, norm_hash) makes exact duplicates merge race-free.

CREATE TABLE IF NOT EXISTS knowledge_entries (
    seq                INTEGER PRIMARY KEY AUTOINCREMENT,
    id                 TEXT NOT NULL UNIQUE,
    hive               TEXT NOT NULL,
    title              TEXT NOT NULL,
    content            TEXT NOT NULL,
    tags               TEXT NOT NULL,              -- JSON array of strings
    norm_hash          TEXT NOT NULL,
    model              TEXT NOT NULL,              -- embedder that made vector
    vector             BLOB NOT NULL,              -- little-endian float32
    specificity        REAL NOT NULL,
    contribution_count INTEGER NOT NULL DEFAULT 1,
    citation_count     INTEGER NOT NULL DEFAULT 0,
    endorsement_count  INTEGER NOT NULL DEFAULT 0,
    created_at         TEXT NOT NULL,
    UNIQUE (hive, norm_hash)
);

CREATE TABLE IF NOT EXISTS knowledge_contributions (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    entry_id   TEXT NOT NULL REFERENCES knowledge_entries (id),
    agent      TEXT NOT NULL,
    title      TEXT NOT NULL,
    content    TEXT NOT NULL,
    similarity REAL NOT NULL,
    at         TEXT NOT NULL
);

CREATE INDEX IF NOT EXISTS knowledge_contributions_entry ON knowledge_contributions (entry_id, seq);

CREATE TABLE IF NOT EXISTS knowledge_endorsements (
    entry_id TEXT NOT NULL REFERENCES knowledge_entries (id),
    agent    TEXT NOT NULL,
    at       TEXT NOT NULL,
    PRIMARY KEY (entry_id, agent)
);

-- knowledge_meta holds counters of the knowledge tables: del_gen grows with
-- every sweep that removed entries (so in-memory vector caches reload), and
-- sweep_seq is the highest entry seq the last sweep compared.
CREATE TABLE IF NOT EXISTS knowledge_meta (
    key   TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);

INSERT OR IGNORE INTO knowledge_meta (key, value) VALUES ('del_gen', 0), ('sweep_seq', 0);
