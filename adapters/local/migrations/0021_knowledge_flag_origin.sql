-- 0021_knowledge_flag_origin: flags move with an absorbed entry, and the
-- sweep's report counts the citation rows it pruned (DESIGN.md §6,
-- Lifecycle).
-- * knowledge_flags.origin: the entry a flag was first made on. On absorb
--   the absorbed entry's flags move to the survivor (keeping their origin),
--   so its flaggers count there, once per agent; on unmerge they move back
--   by origin. One agent who flagged both entries has a row of each.
-- * knowledge_flags.cleared: an admin's restore dismissed this flag. The
--   moderation row's counts are the entry's rows' distinct agents (flags)
--   and those of them with no flag pending (cleared), so a merge and its
--   undoing recount both from the rows. Existing rows: an entry's first
--   `cleared` flags (the ones its last restore counted) are cleared.
-- * knowledge_sweeps.cites_pruned: per-day citation rows a sweep deleted.

CREATE TABLE knowledge_flags_0021 (
    entry_id TEXT NOT NULL,
    agent    TEXT NOT NULL,
    reason   TEXT NOT NULL,
    note     TEXT NOT NULL,
    admin    INTEGER NOT NULL,
    at       TEXT NOT NULL,
    origin   TEXT NOT NULL,
    cleared  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (entry_id, agent, origin)
);
INSERT INTO knowledge_flags_0021 (entry_id, agent, reason, note, admin, at, origin, cleared)
    SELECT f.entry_id, f.agent, f.reason, f.note, f.admin, f.at, f.entry_id,
        (SELECT COUNT(*) FROM knowledge_flags g WHERE g.entry_id = f.entry_id
            AND (g.at < f.at OR (g.at = f.at AND g.agent <= f.agent)))
        <= COALESCE((SELECT cleared FROM knowledge_moderation m WHERE m.entry_id = f.entry_id), 0)
    FROM knowledge_flags f;
DROP TABLE knowledge_flags;
ALTER TABLE knowledge_flags_0021 RENAME TO knowledge_flags;

ALTER TABLE knowledge_sweeps ADD COLUMN cites_pruned INTEGER NOT NULL DEFAULT 0;
