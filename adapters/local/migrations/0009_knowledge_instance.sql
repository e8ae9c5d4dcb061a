-- 0009_knowledge_instance: a name for this database, so that a process
-- never adopts a vector index saved for another one (a restored or replaced
-- pumasi.db).
INSERT OR IGNORE INTO knowledge_meta (key, value) VALUES ('instance', abs(random()));
