-- 0001_files: room files, room revisions, placements and delivery status.
-- Times are UTC text in RFC 3339 with nanoseconds; bodies live on disk, never here.

CREATE TABLE IF NOT EXISTS rooms (
    room_id TEXT PRIMARY KEY,
    rev     INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS files (
    id           TEXT PRIMARY KEY,
    room_id      TEXT NOT NULL,
    name         TEXT NOT NULL,
    fold         TEXT NOT NULL,
    sha256       TEXT NOT NULL,
    size         INTEGER NOT NULL,
    content_type TEXT NOT NULL,
    version      INTEGER NOT NULL,
    uploaded_by  TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    UNIQUE (room_id, name),
    UNIQUE (room_id, fold)
);

CREATE INDEX IF NOT EXISTS files_room_sha ON files (room_id, sha256);

CREATE TABLE IF NOT EXISTS placements (
    agent_id   TEXT PRIMARY KEY,
    room_id    TEXT NOT NULL,
    machine_id TEXT NOT NULL,
    placed_at  TEXT NOT NULL
);

CREATE INDEX IF NOT EXISTS placements_room ON placements (room_id, agent_id);
CREATE INDEX IF NOT EXISTS placements_machine ON placements (machine_id, agent_id);

CREATE TABLE IF NOT EXISTS agent_status (
    agent_id    TEXT PRIMARY KEY,
    machine_id  TEXT NOT NULL,
    files       TEXT NOT NULL,
    reported_at TEXT NOT NULL
);
