-- 0022_knowledge_analysis: an entry's lexical analysis, as the engine made
-- it when the entry was written (knowledge/analysis.go), stored opaque so a
-- query ranks its candidates without analysing their text again. Rows
-- written before hold NULL, and the engine analyses their text as it did.

ALTER TABLE knowledge_entries ADD COLUMN analysis BLOB;
