-- 0010_knowledge_reembed: an entry embedded again (a new embedder model)
-- takes a new seq, so every process's vector index adds it under its new
-- model, and leaves a tombstone for its old place. The full-text tables
-- follow the row to its new seq.
CREATE TRIGGER IF NOT EXISTS knowledge_entries_fts_update AFTER UPDATE OF seq ON knowledge_entries BEGIN
    INSERT INTO knowledge_fts (knowledge_fts, rowid, title, content, tags) VALUES ('delete', old.seq, old.title, old.content, old.tags);
    INSERT INTO knowledge_fts_tri (knowledge_fts_tri, rowid, title, content, tags) VALUES ('delete', old.seq, old.title, old.content, old.tags);
    INSERT INTO knowledge_fts (rowid, title, content, tags) VALUES (new.seq, new.title, new.content, new.tags);
    INSERT INTO knowledge_fts_tri (rowid, title, content, tags) VALUES (new.seq, new.title, new.content, new.tags);
END;
