-- 0012_knowledge_details: an entry's parsed details (its text's and its
-- title's decisive details, knowledge/details_store.go), as the engine made
-- them when the entry was written, stored opaque so a contribution's merge
-- decision weighs its 16 candidates without parsing their texts again
-- (about 10 ms of CPU a contribution at 100,000 entries in bench
-- knowledge-postgres). Rows written before (or rewritten from a record, as
-- an unmerge does) hold NULL, and the engine parses their text as it did
-- until Engine.Redetail fills them in. Adding a nullable column without a
-- default rewrites nothing.

ALTER TABLE knowledge_entries ADD COLUMN IF NOT EXISTS details bytea;
