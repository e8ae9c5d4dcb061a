-- 0024_knowledge_details: an entry's parsed details (its text's and its
-- title's decisive details, knowledge/details_store.go), as the engine made
-- them when the entry was written, stored opaque so a contribution's merge
-- decision weighs its candidates without parsing their texts again. Rows
-- written before hold NULL, and the engine parses their text as it did
-- until Engine.Redetail fills them in.

ALTER TABLE knowledge_entries ADD COLUMN details BLOB;
