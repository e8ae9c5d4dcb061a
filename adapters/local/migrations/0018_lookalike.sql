-- 0018_lookalike: each file's pumasi.LookalikeKey (the Unicode TR39
-- confusable skeleton of its name, folded for case), so that a new name
-- that looks like another in its room is refused like a case clash. Rows
-- from before are filled in at open (Store.fillLookalikeKeys, in Go: SQL
-- cannot compute skeletons). Not unique: names stored before the rule may
-- share a key, and stay.
ALTER TABLE files ADD COLUMN look TEXT;
CREATE INDEX IF NOT EXISTS files_room_look ON files (room_id, look);
