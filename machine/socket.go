package machine

import (
	"context"
	"encoding/json"
	"errors"
	"hash/fnv"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"pumasi"
)

// WebSocket timing. The server pings too; either side's ping keeps the
// connection alive, and API Gateway's 10-minute idle close never fires.
const (
	pingInterval = 25 * time.Second
	readTimeout  = 75 * time.Second
	writeTimeout = 10 * time.Second
	// maxFrame caps one incoming message: frames carry at most 128 KiB
	// inline, a little more once JSON-escaped.
	maxFrame = 1 << 20
	// stableConn is how long a connection must live before the reconnect
	// backoff resets, so a server that accepts and drops at once is not
	// hammered.
	stableConn = 10 * time.Second
)

// pingMessage is the data ping a WebSocket API's $default route answers
// with {"type":"pong"}.
var pingMessage = []byte(`{"action":"ping"}`)

// frameWorkers apply frames in parallel across agents; one agent's frames
// always go to the same worker, in order. An upload reaches every agent of a
// room at once, and the disk syncs concurrent writes together (one journal
// commit serves many fsyncs), so the workers are many: with few, an agent's
// copy waits behind others that share its worker.
const (
	frameWorkers = 64
	frameQueue   = 512
)

// wsPongWait is how long a daemon on a separate WebSocket API waits past
// its ping interval for any message (the pong included) before it calls the
// connection dead: API Gateway itself never pings.
const wsPongWait = time.Minute

// socketURL is where the daemon subscribes: Config.WS with ?machine=<id>
// when set (API Gateway's WebSocket API is its own endpoint), else the
// server's /machines/{id}/ws.
func (d *daemon) socketURL() string {
	if d.cfg.WS != "" {
		u, _ := url.Parse(d.cfg.WS) // validated in newDaemon
		switch u.Scheme {
		case "https":
			u.Scheme = "wss"
		case "http":
			u.Scheme = "ws"
		}
		q := u.Query()
		q.Set("machine", d.cfg.Machine)
		u.RawQuery = q.Encode()
		return u.String()
	}
	u := d.server
	switch {
	case strings.HasPrefix(u, "https://"):
		u = "wss://" + strings.TrimPrefix(u, "https://")
	case strings.HasPrefix(u, "http://"):
		u = "ws://" + strings.TrimPrefix(u, "http://")
	}
	return u + "/machines/" + url.PathEscape(d.cfg.Machine) + "/ws"
}

// socketLoop keeps one WebSocket open, reconnecting with jittered backoff.
// Every connect asks for a full reconcile: frames sent while it was away
// are lost, the assignments are not.
func (d *daemon) socketLoop(ctx context.Context, queues []chan pumasi.Frame) {
	dialer := websocket.Dialer{
		Proxy:            http.ProxyFromEnvironment,
		HandshakeTimeout: 10 * time.Second,
	}
	bo := newBackoff()
	down := false
	for ctx.Err() == nil {
		// The current token, every time: the server closes a connection
		// whose token expired, and a replaced token file must be used.
		hdr := http.Header{}
		hdr.Set("Authorization", "Bearer "+d.token())
		hdr.Set("User-Agent", "pumasi-machine")
		ws, resp, err := dialer.DialContext(ctx, d.socketURL(), hdr)
		if resp != nil && resp.Body != nil {
			resp.Body.Close()
		}
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			wait := bo.next()
			if resp != nil {
				switch resp.StatusCode {
				case http.StatusUnauthorized, http.StatusForbidden:
					select {
					case d.fatal <- errors.New("open websocket: " + errAuth.Error()):
					default:
					}
					return
				case http.StatusNotFound:
					// No gateway at this server: polling alone keeps us in sync.
					wait = time.Minute
				}
			}
			if !down {
				d.log.Warn("websocket unavailable; polling meanwhile", "err", err)
				down = true
			}
			if !sleep(ctx, wait) {
				return
			}
			continue
		}
		if down {
			d.log.Info("websocket reconnected")
		}
		down = false
		start := time.Now()
		d.requestSync()
		closeErr := d.readFrames(ctx, ws, queues)
		if ctx.Err() != nil {
			return
		}
		if time.Since(start) > stableConn {
			bo.reset()
		}
		var ce *websocket.CloseError
		if errors.As(closeErr, &ce) && ce.Code == websocket.ClosePolicyViolation && ce.Text == "token expired" {
			d.log.Info("websocket closed: the token expired; reconnecting with the current token")
			bo.reset() // not the server's trouble: come back at once
		} else {
			d.log.Info("websocket closed; reconnecting")
		}
		if !sleep(ctx, bo.next()) {
			return
		}
	}
}

// token returns the token to send now: Config.TokenFile's content when
// set (the last one read if the file cannot be read), else Config.Token.
func (d *daemon) token() string {
	if d.cfg.TokenFile == "" {
		return d.cfg.Token
	}
	b, err := os.ReadFile(d.cfg.TokenFile)
	if t := strings.TrimSpace(string(b)); err == nil && t != "" {
		d.tokMu.Lock()
		d.tok = t
		d.tokMu.Unlock()
		return t
	}
	d.log.Warn("read the token file (keeping the last token)", "file", d.cfg.TokenFile, "err", err)
	d.tokMu.Lock()
	defer d.tokMu.Unlock()
	if d.tok == "" {
		return d.cfg.Token
	}
	return d.tok
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// readFrames reads until the connection fails or ctx ends, pinging the
// server meanwhile, and hands frames to the workers. On a separate
// WebSocket API (Config.WS) it also sends {"action":"ping"} data messages,
// which reset API Gateway's idle timer where control pings may not, and
// waits for traffic up to one ping interval plus wsPongWait.
func (d *daemon) readFrames(ctx context.Context, ws *websocket.Conn, queues []chan pumasi.Frame) error {
	done := make(chan struct{})
	var wg sync.WaitGroup
	defer func() {
		close(done)
		_ = ws.Close()
		wg.Wait()
	}()
	ws.SetReadLimit(maxFrame)
	wait := readTimeout
	var dataPing <-chan time.Time
	if d.cfg.WS != "" {
		wait = max(wait, d.cfg.WSPing+wsPongWait)
		t := time.NewTicker(d.cfg.WSPing)
		defer t.Stop()
		dataPing = t.C
	}
	alive := func() { _ = ws.SetReadDeadline(time.Now().Add(wait)) }
	alive()
	ws.SetPongHandler(func(string) error { alive(); return nil })
	ws.SetPingHandler(func(data string) error {
		alive()
		err := ws.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(writeTimeout))
		if errors.Is(err, websocket.ErrCloseSent) {
			return nil
		}
		return err
	})
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(pingInterval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				_ = ws.Close()
				return
			case <-t.C:
				if err := ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(writeTimeout)); err != nil {
					_ = ws.Close()
					return
				}
			case <-dataPing:
				// This goroutine is the connection's only writer of data
				// messages, as gorilla requires.
				_ = ws.SetWriteDeadline(time.Now().Add(writeTimeout))
				if err := ws.WriteMessage(websocket.TextMessage, pingMessage); err != nil {
					_ = ws.Close()
					return
				}
			}
		}
	}()
	for {
		typ, msg, err := ws.ReadMessage()
		if err != nil {
			return err
		}
		alive()
		if typ != websocket.TextMessage {
			continue
		}
		var f pumasi.Frame
		if err := json.Unmarshal(msg, &f); err != nil {
			d.log.Warn("ignoring a frame that is not JSON")
			continue
		}
		d.dispatch(f, queues)
	}
}

// dispatch routes a frame: an assignments change asks for a reconcile, file
// frames go to their agent's worker. A full queue drops the frame and asks
// for a reconcile instead, which covers it.
func (d *daemon) dispatch(f pumasi.Frame, queues []chan pumasi.Frame) {
	switch f.Type {
	case pumasi.FrameAssignmentsChanged:
		if f.MachineID != "" && f.MachineID != d.cfg.Machine {
			d.log.Warn("ignoring an assignments frame for another machine", "frame_machine", f.MachineID)
			return
		}
		d.requestSync()
	case pumasi.FrameWrite, pumasi.FrameDelete:
		h := fnv.New32a()
		_, _ = h.Write([]byte(f.AgentID))
		select {
		case queues[h.Sum32()%uint32(len(queues))] <- f:
		default:
			d.requestSync()
		}
	case "pong":
		// The answer to our {"action":"ping"}: it proved the connection
		// alive on arrival, nothing more to do.
	case "error":
		d.log.Debug("the WebSocket API answered an error")
	default:
		d.log.Debug("ignoring a frame of unknown type", "type", f.Type)
	}
}

func (d *daemon) startWorkers(ctx context.Context, wg *sync.WaitGroup) []chan pumasi.Frame {
	queues := make([]chan pumasi.Frame, frameWorkers)
	for i := range queues {
		q := make(chan pumasi.Frame, frameQueue)
		queues[i] = q
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-ctx.Done():
					return
				case f := <-q:
					d.applyFrame(ctx, f)
				}
			}
		}()
	}
	return queues
}

// applyFrame applies one write or delete frame. Anything that does not pass
// the id and name rules is refused before any path is built; a frame for an
// agent or room this machine does not (yet) serve asks for a reconcile.
func (d *daemon) applyFrame(ctx context.Context, f pumasi.Frame) {
	if !pumasi.ValidID(f.AgentID) || !pumasi.ValidID(f.RoomID) {
		d.log.Warn("refusing a frame with an invalid id", "agent", f.AgentID, "room", f.RoomID)
		return
	}
	if !validName(f.StorageName) {
		d.log.Warn("refusing a frame with an invalid storage_name", "agent", f.AgentID, "name", f.StorageName)
		return
	}
	if f.Type == pumasi.FrameWrite && !validSHA(f.ContentSHA256) {
		d.log.Warn("refusing a write frame with an invalid sha256", "agent", f.AgentID, "name", f.StorageName)
		return
	}
	d.mu.Lock()
	st := d.agents[f.AgentID]
	room, ok := d.assigned[f.AgentID]
	d.mu.Unlock()
	if !ok || st == nil || room != f.RoomID {
		d.requestSync()
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	d.mu.Lock()
	room, ok = d.assigned[f.AgentID]
	d.mu.Unlock()
	if !ok || room != f.RoomID {
		d.requestSync()
		return
	}
	defer d.requestConfirm()
	defer d.requestStatus()
	defer st.seq.Add(1)
	dir := d.sharedDir(f.AgentID)
	name := f.StorageName
	if err := checkRealDirs(dir); err != nil {
		d.log.Warn("apply frame", "agent", f.AgentID, "err", err)
		return
	}
	if f.Type == pumasi.FrameDelete {
		// A delete names the version it removes. If disk holds another one, a
		// newer upload may have raced this frame: let the assignments decide
		// rather than delete a file the room may still have.
		if validSHA(f.ContentSHA256) {
			if cur, err := st.sums.hash(dir, name); err == nil && cur != "" && cur != f.ContentSHA256 {
				d.requestSync()
				return
			}
		}
		delete(st.sums, name)
		if err := removeFile(dir, name); err != nil {
			d.log.Warn("apply delete frame", "agent", f.AgentID, "name", name, "err", err)
			d.requestSync()
			return
		}
		st.hold(name, "")
		return
	}
	if cur, _ := st.sums.hash(dir, name); cur == f.ContentSHA256 {
		st.hold(name, cur)
		return
	}
	var body []byte
	if f.Content != nil && sumHex([]byte(*f.Content)) == f.ContentSHA256 {
		body = []byte(*f.Content)
	} else {
		b, err := d.fetchFile(ctx, f.RoomID, name, f.ContentSHA256)
		if err != nil {
			d.log.Info("could not fetch a file a frame announced; reconciling", "agent", f.AgentID, "name", name, "err", err)
			d.requestSync()
			return
		}
		body = b
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		d.log.Warn("apply write frame", "agent", f.AgentID, "err", err)
		d.requestSync()
		return
	}
	if err := writeAtomic(dir, name, body); err != nil {
		d.log.Warn("apply write frame", "agent", f.AgentID, "name", name, "err", err)
		d.requestSync()
		return
	}
	st.sums.record(dir, name, f.ContentSHA256)
	st.hold(name, f.ContentSHA256)
}

// statusLoop reports status shortly after frames were applied; bursts of
// frames coalesce into one report.
func (d *daemon) statusLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-d.statusCh:
		}
		if !sleep(ctx, 150*time.Millisecond) {
			return
		}
		select {
		case <-d.statusCh:
		default:
		}
		if err := d.postStatus(ctx); err != nil && ctx.Err() == nil {
			d.log.Debug("post status", "err", err)
		}
	}
}
