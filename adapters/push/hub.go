// Package push delivers frames to machine daemons. Hub is localdev's
// WebSocket gateway: it holds the daemons' connections in process and pushes
// to them directly. An API Gateway @connections adapter sits beside it for
// AWS; both implement functions.Pusher.
package push

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/gorilla/websocket"

	"pumasi"
	"pumasi/functions"
)

// Defaults of a Hub; API Gateway closes idle connections after 10 minutes,
// so pinging well inside that keeps both gateways alike for the daemon.
const (
	DefaultPingInterval = 25 * time.Second
	DefaultPongWait     = 60 * time.Second
	DefaultWriteWait    = 10 * time.Second
	// DefaultReadLimit caps a message from a daemon: daemons send nothing
	// but pings and small acknowledgements.
	DefaultReadLimit = 64 << 10
	// DefaultSendQueue is how many messages may wait for a slow connection
	// before it is dropped; the daemon then reconnects and backfills.
	DefaultSendQueue = 1024
)

// ErrGone is returned for a connection id that is no longer live, as API
// Gateway answers 410 Gone.
var ErrGone = errors.New("connection is gone")

var (
	_ functions.Pusher        = (*Hub)(nil)
	_ functions.MachineSocket = (*Hub)(nil)
)

// Hub keeps the live WebSocket connections of machine daemons, by machine.
// It is safe for concurrent use. Tune the exported fields before serving.
type Hub struct {
	PingInterval time.Duration
	PongWait     time.Duration
	WriteWait    time.Duration
	ReadLimit    int64
	SendQueue    int

	log      *slog.Logger
	upgrader websocket.Upgrader

	mu      sync.Mutex
	byID    map[string]*conn
	machine map[string]map[string]*conn
	closed  bool
}

// conn is one daemon connection. Only its writer goroutine writes to ws.
type conn struct {
	id      string
	machine string
	ws      *websocket.Conn
	send    chan []byte
	done    chan struct{}
	once    sync.Once
}

// close stops the connection once; the writer and reader goroutines exit.
func (c *conn) close() {
	c.once.Do(func() {
		close(c.done)
		_ = c.ws.WriteControl(websocket.CloseMessage,
			websocket.FormatCloseMessage(websocket.CloseGoingAway, ""), time.Now().Add(time.Second))
		_ = c.ws.Close()
	})
}

// NewHub returns an empty hub that logs to log (slog.Default when nil).
func NewHub(log *slog.Logger) *Hub {
	if log == nil {
		log = slog.Default()
	}
	return &Hub{
		PingInterval: DefaultPingInterval,
		PongWait:     DefaultPongWait,
		WriteWait:    DefaultWriteWait,
		ReadLimit:    DefaultReadLimit,
		SendQueue:    DefaultSendQueue,
		log:          log,
		upgrader: websocket.Upgrader{
			HandshakeTimeout: 10 * time.Second,
			// CheckOrigin admits any origin: the daemon authenticates with an
			// Authorization header, which a browser page cannot set on a
			// WebSocket, so a cross-site page cannot open a daemon's socket.
			CheckOrigin: func(*http.Request) bool { return true },
		},
		byID:    map[string]*conn{},
		machine: map[string]map[string]*conn{},
	}
}

// Push sends each frame as one JSON text message to every live connection of
// machine, never to another machine's. A machine with no connection is not
// an error; a connection whose queue is full is dropped, and its daemon
// catches up from its assignments when it reconnects.
func (h *Hub) Push(ctx context.Context, machine string, frames []pumasi.Frame) error {
	msgs := make([][]byte, 0, len(frames))
	for _, f := range frames {
		b, err := json.Marshal(f)
		if err != nil {
			return fmt.Errorf("encode frame: %w", err)
		}
		msgs = append(msgs, b)
	}
	h.mu.Lock()
	conns := make([]*conn, 0, len(h.machine[machine]))
	for _, c := range h.machine[machine] {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	for _, c := range conns {
		for _, m := range msgs {
			if !h.enqueue(c, m) {
				break
			}
		}
	}
	return nil
}

// enqueue queues one message without blocking; a full queue drops the
// connection so one slow daemon never stalls an upload.
func (h *Hub) enqueue(c *conn, msg []byte) bool {
	select {
	case <-c.done:
		return false
	default:
	}
	select {
	case c.send <- msg:
		return true
	default:
		h.log.Warn("push: connection too slow, dropping it", "machine", c.machine, "conn", c.id)
		h.drop(c)
		return false
	}
}

// PostToConnection sends one message to a connection by id, the operation
// API Gateway's @connections endpoint offers. Returns ErrGone when the
// connection is not live.
func (h *Hub) PostToConnection(ctx context.Context, id string, msg []byte) error {
	h.mu.Lock()
	c := h.byID[id]
	h.mu.Unlock()
	if c == nil || !h.enqueue(c, msg) {
		return ErrGone
	}
	return nil
}

// DeleteConnection closes a connection by id. Returns ErrGone when the
// connection is not live.
func (h *Hub) DeleteConnection(ctx context.Context, id string) error {
	h.mu.Lock()
	c := h.byID[id]
	h.mu.Unlock()
	if c == nil {
		return ErrGone
	}
	h.drop(c)
	return nil
}

// Connections returns the ids of machine's live connections.
func (h *Hub) Connections(machine string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	ids := make([]string, 0, len(h.machine[machine]))
	for id := range h.machine[machine] {
		ids = append(ids, id)
	}
	return ids
}

// Close drops every connection and refuses new ones. An http.Server's
// Shutdown does not close hijacked connections, so localdev calls this.
func (h *Hub) Close() error {
	h.mu.Lock()
	h.closed = true
	all := make([]*conn, 0, len(h.byID))
	for _, c := range h.byID {
		all = append(all, c)
	}
	h.mu.Unlock()
	for _, c := range all {
		h.drop(c)
	}
	return nil
}

// ServeMachine upgrades an already authenticated request to a WebSocket for
// machine and serves it until the connection dies. It implements
// functions.MachineSocket.
func (h *Hub) ServeMachine(w http.ResponseWriter, r *http.Request, machine string) {
	h.mu.Lock()
	closed := h.closed
	h.mu.Unlock()
	if closed {
		http.Error(w, "gateway is shutting down", http.StatusServiceUnavailable)
		return
	}
	ws, err := h.upgrader.Upgrade(w, r, nil)
	if err != nil {
		// Upgrade has already answered the client with an error status.
		h.log.Debug("websocket upgrade failed", "machine", machine, "err", err)
		return
	}
	c := &conn{
		id:      uuid.NewString(),
		machine: machine,
		ws:      ws,
		send:    make(chan []byte, h.SendQueue),
		done:    make(chan struct{}),
	}
	if !h.register(c) {
		_ = ws.Close()
		return
	}
	h.log.Info("machine connected", "machine", machine, "conn", c.id)
	go h.writeLoop(c)
	h.readLoop(c)
	h.drop(c)
	h.log.Info("machine disconnected", "machine", machine, "conn", c.id)
}

func (h *Hub) register(c *conn) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	h.byID[c.id] = c
	if h.machine[c.machine] == nil {
		h.machine[c.machine] = map[string]*conn{}
	}
	h.machine[c.machine][c.id] = c
	return true
}

// drop unregisters and closes a connection; safe to call more than once.
func (h *Hub) drop(c *conn) {
	h.mu.Lock()
	if h.byID[c.id] == c {
		delete(h.byID, c.id)
		delete(h.machine[c.machine], c.id)
		if len(h.machine[c.machine]) == 0 {
			delete(h.machine, c.machine)
		}
	}
	h.mu.Unlock()
	c.close()
}

// readLoop reads until the connection fails. Any message or pong proves the
// daemon alive; gorilla answers the daemon's pings itself (through
// WriteControl, which is safe beside the writer goroutine).
func (h *Hub) readLoop(c *conn) {
	c.ws.SetReadLimit(h.ReadLimit)
	alive := func() { _ = c.ws.SetReadDeadline(time.Now().Add(h.PongWait)) }
	alive()
	c.ws.SetPongHandler(func(string) error { alive(); return nil })
	defaultPing := c.ws.PingHandler()
	c.ws.SetPingHandler(func(data string) error { alive(); return defaultPing(data) })
	for {
		if _, _, err := c.ws.ReadMessage(); err != nil {
			return
		}
		alive()
	}
}

// writeLoop is the only writer of messages: queued frames and periodic pings.
func (h *Hub) writeLoop(c *conn) {
	t := time.NewTicker(h.PingInterval)
	defer t.Stop()
	defer h.drop(c)
	for {
		select {
		case <-c.done:
			return
		case msg := <-c.send:
			_ = c.ws.SetWriteDeadline(time.Now().Add(h.WriteWait))
			if err := c.ws.WriteMessage(websocket.TextMessage, msg); err != nil {
				return
			}
		case <-t.C:
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(h.WriteWait)); err != nil {
				return
			}
		}
	}
}
