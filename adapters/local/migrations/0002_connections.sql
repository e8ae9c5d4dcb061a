-- 0002_connections: the WebSocket connections of machine daemons, by the id
-- the gateway gave them, so stateless functions can push to a machine.

CREATE TABLE IF NOT EXISTS connections (
    connection_id TEXT PRIMARY KEY,
    machine_id    TEXT NOT NULL,
    connected_at  TEXT NOT NULL
);

CREATE INDEX IF NOT EXISTS connections_machine ON connections (machine_id, connection_id);
