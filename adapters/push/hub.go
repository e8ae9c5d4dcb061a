// Package push delivers frames to machine daemons. Hub is localdev's
// WebSocket gateway: it holds the daemons' connections in process and pushes
// to them directly. An API Gateway @connections adapter sits beside it for
// AWS; both implement functions.Pusher (checked in conformance_test.go).
package push

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"pumasi"
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
	// DefaultSendBytes is how many bytes of messages may wait for one
	// connection (the one being written included) before it is dropped:
	// eight of the largest frames (pumasi.MaxInlineFrame), the burst of one
	// upload to a room with eight agents on that machine.
	DefaultSendBytes = 1 << 20
	// DefaultMaxQueuedBytes caps what all connections together may hold
	// queued; past it the connection holding the most is dropped, so many
	// daemons that never read cost no more memory than a few.
	DefaultMaxQueuedBytes = 8 << 20
	// DefaultReadRate and DefaultReadBurst bound the messages (data and
	// pings) a daemon may send: it pings every few seconds at most, so a
	// connection sending faster is flooding and is closed (1008).
	DefaultReadRate  = 20
	DefaultReadBurst = 100
)

// ErrGone is returned for a connection id that is no longer live, as API
// Gateway answers 410 Gone.
var ErrGone = errors.New("connection is gone")

// Hub keeps the live WebSocket connections of machine daemons, by machine.
// It is safe for concurrent use. Tune the exported fields before serving.
type Hub struct {
	PingInterval time.Duration
	PongWait     time.Duration
	WriteWait    time.Duration
	ReadLimit    int64
	SendQueue    int
	// SendBytes caps the bytes queued for one connection; a connection past
	// it is dropped, and its daemon reconciles when it reconnects.
	SendBytes int64
	// MaxQueuedBytes caps the bytes queued for all connections; past it the
	// connection holding the most is dropped. Zero turns the cap off.
	MaxQueuedBytes int64
	// ReadRate (messages a second) and ReadBurst bound what one connection
	// may send; zero turns the bound off.
	ReadRate  float64
	ReadBurst int

	// MaxIdle closes a connection that sent no data message for this long,
	// as API Gateway does after 10 minutes; zero never does.
	MaxIdle time.Duration
	// MaxLifetime closes every connection this long after it opened, as API
	// Gateway does after 2 hours; zero never does.
	MaxLifetime time.Duration

	// OnConnect, when set, runs for every connection ServeMachine accepts,
	// after its id is reserved (frames posted to the id from then on wait
	// in its queue) and before the upgrade is answered, the moment API
	// Gateway runs $connect: localdev's gateway mode records the id in the
	// store's connection registry here. An error refuses the connection.
	OnConnect func(ctx context.Context, machine, id string) error
	// OnDisconnect, when set, runs once after an accepted connection ended,
	// however it ended ($disconnect).
	OnDisconnect func(ctx context.Context, machine, id string)
	// OnMessage, when set, receives every data message a daemon sends; a
	// non-nil answer goes back on the same connection, as a $default route
	// response does. Without it, messages are read and dropped.
	OnMessage func(ctx context.Context, machine, id string, msg []byte) []byte
	// OnSlowDrop, when set, runs each time a connection is dropped for not
	// keeping up, with the reason: "byte budget" or "message queue" (its own
	// queue full), "hub byte budget" (the fullest while the hub was over
	// MaxQueuedBytes), "write timeout" (a write blocked for WriteWait).
	OnSlowDrop func(reason string)

	log      *slog.Logger
	upgrader websocket.Upgrader

	mu      sync.Mutex
	byID    map[string]*conn
	machine map[string]map[string]*conn
	closed  bool
	serving sync.WaitGroup

	// queued is the sum of every live connection's queued bytes.
	queued atomic.Int64
}

// conn is one daemon connection. Only its writer goroutine writes messages
// to ws. ws is nil while the connection is reserved and not yet upgraded;
// machine is empty until the connect step named it (both under mu).
type conn struct {
	id   string
	send chan []byte
	done chan struct{}
	once sync.Once
	// lastIn is when the daemon last sent a data message (unix nanoseconds).
	lastIn atomic.Int64

	// qmu orders the byte accounting of enqueue, the writer and drop, so
	// that what a dropped connection held leaves the hub's total once.
	qmu    sync.Mutex
	queued int64 // bytes enqueued and not yet written
	gone   bool  // dropped: nothing more is counted

	mu      sync.Mutex
	ws      *websocket.Conn
	machine string
	// closeCode and closeText are the close frame's (1001 going away
	// unless a reason was given, as when the token expired); under mu.
	closeCode int
	closeText string

	// expires is when the token that opened the connection expires; zero
	// for never. The writer closes the connection then (1008).
	expires time.Time
}

// close stops the connection once; the writer and reader goroutines exit.
// The close frame is sent in the background: on a peer that does not read,
// it waits for the writer's lock up to its deadline, and close is called
// from Push, which must never stall an upload.
func (c *conn) close() {
	c.once.Do(func() {
		close(c.done)
		c.mu.Lock()
		ws, code, text := c.ws, c.closeCode, c.closeText
		c.mu.Unlock()
		if code == 0 {
			code = websocket.CloseGoingAway
		}
		if ws != nil {
			go func() {
				_ = ws.WriteControl(websocket.CloseMessage,
					websocket.FormatCloseMessage(code, text), time.Now().Add(time.Second))
				if code != websocket.CloseGoingAway {
					drainAfterClose(ws) // so the reason reaches the peer
				}
				_ = ws.Close()
			}()
		}
	})
}

// attach gives a reserved connection its socket; false when the connection
// was dropped meanwhile (the caller then closes ws).
func (c *conn) attach(ws *websocket.Conn) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-c.done:
		return false
	default:
	}
	c.ws = ws
	return true
}

func (c *conn) machineID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.machine
}

// NewHub returns an empty hub that logs to log (slog.Default when nil).
func NewHub(log *slog.Logger) *Hub {
	if log == nil {
		log = slog.Default()
	}
	return &Hub{
		PingInterval:   DefaultPingInterval,
		PongWait:       DefaultPongWait,
		WriteWait:      DefaultWriteWait,
		ReadLimit:      DefaultReadLimit,
		SendQueue:      DefaultSendQueue,
		SendBytes:      DefaultSendBytes,
		MaxQueuedBytes: DefaultMaxQueuedBytes,
		ReadRate:       DefaultReadRate,
		ReadBurst:      DefaultReadBurst,
		log:            log,
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

// closeWait bounds how long Close waits for connection handlers (and their
// OnDisconnect) to finish.
const closeWait = 5 * time.Second

// Close drops every connection and refuses new ones. An http.Server's
// Shutdown does not close hijacked connections, so localdev calls this. It
// waits a little for the handlers to finish, so OnDisconnect runs before
// the caller closes what that hook uses.
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
	done := make(chan struct{})
	go func() { h.serving.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(closeWait):
	}
	return nil
}
