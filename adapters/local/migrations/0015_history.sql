-- 0015_history: every effective change of a room, at the rev it made. A file
-- change (upload, delete, restore) is also a version of its name and keeps
-- its to_sha256 blob referenced until retention drops the row (the sweep);
-- placement changes name the agent. Times are UTC text as in 0001.
CREATE TABLE IF NOT EXISTS room_changes (
    room_id       TEXT NOT NULL,
    rev           INTEGER NOT NULL,
    kind          TEXT NOT NULL,
    name          TEXT NOT NULL DEFAULT '',
    file_id       TEXT NOT NULL DEFAULT '',
    version       INTEGER NOT NULL DEFAULT 0,
    from_sha256   TEXT NOT NULL DEFAULT '',
    to_sha256     TEXT NOT NULL DEFAULT '',
    size          INTEGER NOT NULL DEFAULT 0,
    content_type  TEXT NOT NULL DEFAULT '',
    restored_from INTEGER NOT NULL DEFAULT 0,
    agent_id      TEXT NOT NULL DEFAULT '',
    machine_id    TEXT NOT NULL DEFAULT '',
    from_machine  TEXT NOT NULL DEFAULT '',
    from_room     TEXT NOT NULL DEFAULT '',
    to_room       TEXT NOT NULL DEFAULT '',
    actor         TEXT NOT NULL DEFAULT '',
    at            TEXT NOT NULL,
    PRIMARY KEY (room_id, rev)
) WITHOUT ROWID;

CREATE INDEX IF NOT EXISTS room_changes_name ON room_changes (room_id, name, version);
CREATE INDEX IF NOT EXISTS room_changes_sha ON room_changes (room_id, to_sha256);
