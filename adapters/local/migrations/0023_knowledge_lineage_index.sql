-- 0023_knowledge_lineage_index: a sweep's absorb walks an entry's lineage
-- (lineageLinkedSQL in knowledge_merges.go) from id to id, both ways along
-- supersessions: the way back needs these lookups by value, which without an
-- index scanned the whole moderation table at every step.

CREATE INDEX IF NOT EXISTS knowledge_moderation_supersedes ON knowledge_moderation (supersedes) WHERE supersedes != '';
CREATE INDEX IF NOT EXISTS knowledge_moderation_superseded_by ON knowledge_moderation (superseded_by) WHERE superseded_by != '';
