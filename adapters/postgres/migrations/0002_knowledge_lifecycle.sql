-- 0002_knowledge_lifecycle: merges that can be undone, and fair cites
-- (DESIGN.md §6, Lifecycle), mirroring adapters/local's 0019.
-- * knowledge_absorbed: the record of every absorption, the absorbed
--   entry's row as it was (text, tags, embedding, counts) with the
--   survivor, when, similarity and what merged it; unmerged_at/by once
--   undone. At most one record per entry is in effect.
-- * origin: the entry a contribution, endorsement or citation was first
--   made on. Rows move to the survivor on absorb and back, by origin, on
--   unmerge; endorsements and citations key on it too, so rows of two
--   entries by one agent both survive a merge (counted once, as distinct
--   agents).
-- * knowledge_cites: one row per (entry, agent, UTC day): a cite counts
--   once a day per agent.

CREATE TABLE IF NOT EXISTS knowledge_absorbed (
    seq                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    entry_id           text NOT NULL,
    merged_into        text NOT NULL,
    hive               text NOT NULL,
    title              text NOT NULL,
    content            text NOT NULL,
    tags               text[] NOT NULL,
    norm_hash          text NOT NULL,
    model              text NOT NULL,
    embedding          vector NOT NULL,
    specificity        double precision NOT NULL,
    contribution_count integer NOT NULL,
    citation_count     integer NOT NULL,
    endorsement_count  integer NOT NULL,
    created_at         timestamptz NOT NULL,
    last_used_at       timestamptz NOT NULL,
    at                 timestamptz NOT NULL,
    similarity         double precision NOT NULL,
    via                text NOT NULL,
    unmerged_at        timestamptz,
    unmerged_by        text
);

CREATE UNIQUE INDEX IF NOT EXISTS knowledge_absorbed_current ON knowledge_absorbed (entry_id) WHERE unmerged_at IS NULL;
CREATE INDEX IF NOT EXISTS knowledge_absorbed_entry ON knowledge_absorbed (entry_id, seq);
CREATE INDEX IF NOT EXISTS knowledge_absorbed_into ON knowledge_absorbed (merged_into, seq);
CREATE INDEX IF NOT EXISTS knowledge_absorbed_hash ON knowledge_absorbed (hive, norm_hash) WHERE unmerged_at IS NULL;

ALTER TABLE knowledge_contributions ADD COLUMN IF NOT EXISTS origin text;
UPDATE knowledge_contributions SET origin = entry_id WHERE origin IS NULL;
ALTER TABLE knowledge_contributions ALTER COLUMN origin SET NOT NULL;
CREATE INDEX IF NOT EXISTS knowledge_contributions_origin ON knowledge_contributions (entry_id, origin);

ALTER TABLE knowledge_endorsements ADD COLUMN IF NOT EXISTS origin text;
UPDATE knowledge_endorsements SET origin = entry_id WHERE origin IS NULL;
ALTER TABLE knowledge_endorsements ALTER COLUMN origin SET NOT NULL;
ALTER TABLE knowledge_endorsements DROP CONSTRAINT IF EXISTS knowledge_endorsements_pkey;
ALTER TABLE knowledge_endorsements ADD PRIMARY KEY (entry_id, agent, origin);

CREATE TABLE IF NOT EXISTS knowledge_cites (
    entry_id text NOT NULL REFERENCES knowledge_entries (id),
    agent    text NOT NULL,
    day      text NOT NULL,
    origin   text NOT NULL,
    PRIMARY KEY (entry_id, agent, day, origin)
);
