-- 0005_knowledge_flag_origin: flags move with an absorbed entry, and the
-- sweep's report counts the citation rows it pruned, mirroring
-- adapters/local's 0021.
-- * knowledge_flags.origin: the entry a flag was first made on. On absorb
--   the absorbed entry's flags move to the survivor (keeping their origin),
--   so its flaggers count there, once per agent; on unmerge they move back
--   by origin. One agent who flagged both entries has a row of each.
-- * knowledge_flags.cleared: an admin's restore dismissed this flag. The
--   moderation row's counts are the entry's rows' distinct agents (flags)
--   and those of them with no flag pending (cleared). Existing rows: an
--   entry's first `cleared` flags (the ones its last restore counted).
-- * knowledge_sweeps.cites_pruned: per-day citation rows a sweep deleted.

ALTER TABLE knowledge_flags ADD COLUMN IF NOT EXISTS origin text;
ALTER TABLE knowledge_flags ADD COLUMN IF NOT EXISTS cleared boolean NOT NULL DEFAULT false;
UPDATE knowledge_flags SET origin = entry_id WHERE origin IS NULL;
ALTER TABLE knowledge_flags ALTER COLUMN origin SET NOT NULL;
UPDATE knowledge_flags f SET cleared = true
    FROM (SELECT entry_id, agent, row_number() OVER (PARTITION BY entry_id ORDER BY at, agent) AS n
          FROM knowledge_flags) r
    JOIN knowledge_moderation m ON m.entry_id = r.entry_id
    WHERE f.entry_id = r.entry_id AND f.agent = r.agent AND r.n <= m.cleared;
ALTER TABLE knowledge_flags DROP CONSTRAINT IF EXISTS knowledge_flags_pkey;
ALTER TABLE knowledge_flags ADD PRIMARY KEY (entry_id, agent, origin);

ALTER TABLE knowledge_sweeps ADD COLUMN IF NOT EXISTS cites_pruned bigint NOT NULL DEFAULT 0;
