-- 0007_knowledge_analysis: an entry's lexical analysis, as the engine made
-- it when the entry was written (knowledge/analysis.go), stored opaque so a
-- query ranks its candidates without analysing their text again: at 100,000
-- entries that analysis was half of a query's CPU in the server process.
-- Rows written before (or rewritten from a record, as an unmerge does) hold
-- NULL, and the engine analyses their text as it did. Adding a nullable
-- column without a default rewrites nothing.

ALTER TABLE knowledge_entries ADD COLUMN IF NOT EXISTS analysis bytea;
