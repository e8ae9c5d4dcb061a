-- 0011_room_usage: each room's file count and bytes, kept by triggers in the
-- transaction that changes its files, so a quota check reads one row instead
-- of summing the room's files on every upload (which grew with the room).
ALTER TABLE rooms ADD COLUMN files INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rooms ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;

INSERT OR IGNORE INTO rooms (room_id, rev) SELECT DISTINCT room_id, 0 FROM files;
UPDATE rooms SET
    files = (SELECT COUNT(*) FROM files f WHERE f.room_id = rooms.room_id),
    bytes = (SELECT COALESCE(SUM(size), 0) FROM files f WHERE f.room_id = rooms.room_id);

CREATE TRIGGER IF NOT EXISTS files_usage_insert AFTER INSERT ON files BEGIN
    INSERT OR IGNORE INTO rooms (room_id, rev) VALUES (new.room_id, 0);
    UPDATE rooms SET files = files + 1, bytes = bytes + new.size WHERE room_id = new.room_id;
END;

CREATE TRIGGER IF NOT EXISTS files_usage_delete AFTER DELETE ON files BEGIN
    UPDATE rooms SET files = files - 1, bytes = bytes - old.size WHERE room_id = old.room_id;
END;

CREATE TRIGGER IF NOT EXISTS files_usage_update AFTER UPDATE OF room_id, size ON files BEGIN
    UPDATE rooms SET files = files - 1, bytes = bytes - old.size WHERE room_id = old.room_id;
    INSERT OR IGNORE INTO rooms (room_id, rev) VALUES (new.room_id, 0);
    UPDATE rooms SET files = files + 1, bytes = bytes + new.size WHERE room_id = new.room_id;
END;
