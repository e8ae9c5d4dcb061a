package push

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/gorilla/websocket"
	"golang.org/x/time/rate"

	"pumasi"
)

// ServeMachine upgrades an already authenticated request to a WebSocket for
// machine and serves it until the connection dies, or until expires (the
// token's expiry; zero for never): then it is closed with 1008 (policy
// violation) and the reason "token expired", and nothing more is sent on
// it. It implements functions.MachineSocket. OnConnect, when set, runs
// before the upgrade.
func (h *Hub) ServeMachine(w http.ResponseWriter, r *http.Request, machine string, expires time.Time) {
	id := uuid.NewString()
	h.serveConnection(w, r, id, expires, func(ctx context.Context) (string, bool) {
		if h.OnConnect != nil {
			if err := h.OnConnect(ctx, machine, id); err != nil {
				h.log.Error("websocket: connect hook", "machine", machine, "err", err)
				jsonError(w, http.StatusInternalServerError, "could not record the connection")
				return "", false
			}
		}
		return machine, true
	})
}

// ServeConnection serves one connection under id the way API Gateway does:
// it reserves id first, so messages posted to it wait in its queue, then
// calls connect (the $connect step), which names the machine or refuses
// the connection after answering w itself. Only then is the upgrade
// answered, the connection joins its machine and is served until it dies;
// OnDisconnect runs at the end. An id already live is refused with 409.
func (h *Hub) ServeConnection(w http.ResponseWriter, r *http.Request, id string, connect func(ctx context.Context) (machine string, ok bool)) {
	h.serveConnection(w, r, id, time.Time{}, connect)
}

func (h *Hub) serveConnection(w http.ResponseWriter, r *http.Request, id string, expires time.Time, connect func(ctx context.Context) (machine string, ok bool)) {
	c := &conn{id: id, send: make(chan []byte, h.SendQueue), done: make(chan struct{}), expires: expires}
	switch h.reserve(c) {
	case errClosed:
		jsonError(w, http.StatusServiceUnavailable, "gateway is shutting down")
		return
	case errTaken:
		jsonError(w, http.StatusConflict, "connection id is taken")
		return
	}
	defer h.serving.Done()
	machine, ok := connect(r.Context())
	if !ok {
		h.drop(c)
		return
	}
	// $disconnect outlives the request: the hook must run even when the
	// client went away.
	defer func() {
		if h.OnDisconnect == nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), 10*time.Second)
		defer cancel()
		h.OnDisconnect(ctx, machine, id)
	}()
	if !h.bind(c, machine) {
		jsonError(w, http.StatusServiceUnavailable, "gateway is shutting down")
		return
	}
	ws, err := h.upgrader.Upgrade(w, r, nil)
	if err != nil {
		// Upgrade has already answered the client with an error status.
		h.log.Debug("websocket upgrade failed", "machine", machine, "err", err)
		h.drop(c)
		return
	}
	if !c.attach(ws) {
		_ = ws.Close()
		return
	}
	c.lastIn.Store(time.Now().UnixNano())
	h.log.Info("machine connected", "machine", machine, "conn", id)
	go h.writeLoop(c)
	h.readLoop(r.Context(), c, machine)
	h.drop(c)
	h.log.Info("machine disconnected", "machine", machine, "conn", id)
}

var (
	errClosed = errors.New("hub is closed")
	errTaken  = errors.New("connection id is taken")
)

// reserve registers c by id only; it joins its machine in bind.
func (h *Hub) reserve(c *conn) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return errClosed
	}
	if h.byID[c.id] != nil {
		return errTaken
	}
	h.byID[c.id] = c
	h.serving.Add(1)
	return nil
}

// bind makes a reserved connection one of machine's; false when it was
// dropped meanwhile.
func (h *Hub) bind(c *conn, machine string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.byID[c.id] != c {
		return false
	}
	c.mu.Lock()
	c.machine = machine
	c.mu.Unlock()
	if h.machine[machine] == nil {
		h.machine[machine] = map[string]*conn{}
	}
	h.machine[machine][c.id] = c
	return true
}

// errFlood ends a connection that sent messages faster than ReadRate.
var errFlood = errors.New("message rate exceeded")

// drainAfterClose discards what the peer still sends, for at most a second
// or until it hangs up, after a close frame was sent: closing a socket with
// unread data resets it, and the reset can destroy the close frame (and its
// reason) before the peer reads it.
func drainAfterClose(ws *websocket.Conn) {
	nc := ws.UnderlyingConn()
	_ = nc.SetReadDeadline(time.Now().Add(time.Second))
	_, _ = io.Copy(io.Discard, nc)
}

// readLoop reads until the connection fails. Any message or pong proves the
// daemon alive; gorilla answers the daemon's pings itself (through
// WriteControl, which is safe beside the writer goroutine). A message past
// ReadLimit closes the connection with 1009 (gorilla), a flood of messages
// or pings past ReadRate with 1008.
func (h *Hub) readLoop(ctx context.Context, c *conn, machine string) {
	c.ws.SetReadLimit(h.ReadLimit)
	var lim *rate.Limiter
	if h.ReadRate > 0 && h.ReadBurst > 0 {
		lim = rate.NewLimiter(rate.Limit(h.ReadRate), h.ReadBurst)
	}
	allow := func() error {
		if lim == nil || lim.Allow() {
			return nil
		}
		h.log.Warn("push: connection sends too fast, closing it", "machine", machine, "conn", c.id)
		_ = c.ws.WriteControl(websocket.CloseMessage,
			websocket.FormatCloseMessage(websocket.ClosePolicyViolation, errFlood.Error()), time.Now().Add(time.Second))
		drainAfterClose(c.ws)
		return errFlood
	}
	alive := func() { _ = c.ws.SetReadDeadline(time.Now().Add(h.PongWait)) }
	alive()
	c.ws.SetPongHandler(func(string) error { alive(); return nil })
	defaultPing := c.ws.PingHandler()
	c.ws.SetPingHandler(func(data string) error {
		if err := allow(); err != nil {
			return err
		}
		alive()
		return defaultPing(data)
	})
	for {
		_, msg, err := c.ws.ReadMessage()
		if err != nil {
			if errors.Is(err, websocket.ErrReadLimit) {
				drainAfterClose(c.ws) // gorilla has sent 1009.
			}
			return
		}
		if allow() != nil {
			return
		}
		alive()
		c.lastIn.Store(time.Now().UnixNano())
		if h.OnMessage != nil {
			if reply := h.OnMessage(ctx, machine, c.id, msg); reply != nil && !h.enqueue(c, reply) {
				return
			}
		}
	}
}

// writeLoop is the only writer of messages: queued frames and periodic pings.
func (h *Hub) writeLoop(c *conn) {
	t := time.NewTicker(h.PingInterval)
	defer t.Stop()
	defer h.drop(c)
	var lifetime, idle <-chan time.Time
	if h.MaxLifetime > 0 {
		lt := time.NewTimer(h.MaxLifetime)
		defer lt.Stop()
		lifetime = lt.C
	}
	var it *time.Timer
	if h.MaxIdle > 0 {
		it = time.NewTimer(h.MaxIdle)
		defer it.Stop()
		idle = it.C
	}
	var expiry <-chan time.Time
	if !c.expires.IsZero() {
		et := time.NewTimer(time.Until(c.expires))
		defer et.Stop()
		expiry = et.C
	}
	for {
		select {
		case <-c.done:
			return
		case <-expiry:
			h.expired(c)
			return
		case <-lifetime:
			h.log.Info("websocket: closing a connection at its maximum lifetime", "conn", c.id)
			return
		case <-idle:
			quiet := time.Since(time.Unix(0, c.lastIn.Load()))
			if quiet >= h.MaxIdle {
				h.log.Info("websocket: closing an idle connection", "conn", c.id, "idle", quiet.Round(time.Millisecond))
				return
			}
			it.Reset(h.MaxIdle - quiet)
		case msg := <-c.send:
			if !c.expires.IsZero() && !time.Now().Before(c.expires) {
				h.expired(c) // the timer may not have fired yet
				return
			}
			_ = c.ws.SetWriteDeadline(time.Now().Add(h.WriteWait))
			err := c.ws.WriteMessage(websocket.TextMessage, msg)
			h.written(c, int64(len(msg)))
			if err != nil {
				// A daemon that stopped reading for WriteWait is too slow;
				// it reconciles when it reconnects.
				h.dropIfTimeout(c, err)
				return
			}
		case <-t.C:
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(h.WriteWait)); err != nil {
				h.dropIfTimeout(c, err)
				return
			}
		}
	}
}

// errTokenExpired is the close reason of a connection whose token expired.
const errTokenExpired = "token expired"

// expired closes c because its token expired: 1008 with the reason, so the
// daemon knows to reconnect with its current token.
func (h *Hub) expired(c *conn) {
	h.log.Info("websocket: closing a connection whose token expired", "machine", c.machineID(), "conn", c.id)
	c.mu.Lock()
	c.closeCode, c.closeText = websocket.ClosePolicyViolation, errTokenExpired
	c.mu.Unlock()
	h.drop(c)
}

// jsonError answers in the API's error shape; these are server-side
// conditions, so the code is internal whatever the status.
func jsonError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"code": pumasi.EInternal, "message": msg}})
}
