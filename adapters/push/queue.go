package push

import (
	"errors"
	"net"
)

// The send budget: what a connection and the whole hub may hold for
// daemons that do not read, and how a connection past it is dropped and
// counted.

// enqueue queues one message without blocking; a full queue, by count or
// by bytes, drops the connection so that one slow daemon never stalls an
// upload nor holds more than SendBytes of memory. Past MaxQueuedBytes for
// the whole hub, the connections holding the most are dropped.
func (h *Hub) enqueue(c *conn, msg []byte) bool {
	n := int64(len(msg))
	c.qmu.Lock()
	if c.gone {
		c.qmu.Unlock()
		return false
	}
	why := ""
	if h.SendBytes > 0 && c.queued+n > h.SendBytes {
		why = "byte budget"
	} else {
		select {
		case c.send <- msg:
			c.queued += n
			h.queued.Add(n)
		default:
			why = "message queue"
		}
	}
	queued := c.queued
	c.qmu.Unlock()
	if why != "" {
		if h.drop(c) {
			h.slowDrop(c, why, "queued_bytes", queued)
		}
		return false
	}
	if h.MaxQueuedBytes > 0 && h.queued.Load() > h.MaxQueuedBytes {
		h.shed()
	}
	return true
}

// shed drops the connections holding the most queued bytes until the hub
// holds at most MaxQueuedBytes: those are the daemons that stopped reading.
func (h *Hub) shed() {
	for h.queued.Load() > h.MaxQueuedBytes {
		h.mu.Lock()
		var worst *conn
		var most int64
		for _, c := range h.byID {
			c.qmu.Lock()
			q := c.queued
			c.qmu.Unlock()
			if q > most {
				worst, most = c, q
			}
		}
		h.mu.Unlock()
		if worst == nil {
			return
		}
		if h.drop(worst) {
			h.slowDrop(worst, "hub byte budget", "queued_bytes", most)
		}
	}
}

// dropIfTimeout drops a connection whose write (a frame or a ping) timed
// out: its daemon stopped reading for WriteWait, and reconciles when it
// reconnects. Other write errors are a socket already closing.
func (h *Hub) dropIfTimeout(c *conn, err error) {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() && h.drop(c) {
		h.slowDrop(c, "write timeout")
	}
}

// slowDrop logs and reports a connection this caller dropped (drop
// answered true) for not keeping up, so each is counted once.
func (h *Hub) slowDrop(c *conn, reason string, attrs ...any) {
	h.log.Warn("push: connection too slow, dropping it", append([]any{"machine", c.machineID(), "conn", c.id, "full", reason}, attrs...)...)
	if h.OnSlowDrop != nil {
		h.OnSlowDrop(reason)
	}
}

// written settles the bytes of a message the writer is done with.
func (h *Hub) written(c *conn, n int64) {
	c.qmu.Lock()
	if !c.gone {
		c.queued -= n
		h.queued.Add(-n)
	}
	c.qmu.Unlock()
}

// QueuedBytes returns the bytes of messages waiting for every connection,
// the memory slow daemons hold.
func (h *Hub) QueuedBytes() int64 { return h.queued.Load() }

// drop unregisters and closes a connection; safe to call more than once,
// it reports whether this call was the one that dropped it. What it still
// had queued leaves the hub's total at once.
func (h *Hub) drop(c *conn) (dropped bool) {
	c.qmu.Lock()
	if !c.gone {
		dropped = true
		c.gone = true
		h.queued.Add(-c.queued)
		c.queued = 0
		// Free the unsent messages now, not when the writer, perhaps
		// blocked on the stuck socket, gets to exit.
		for drained := false; !drained; {
			select {
			case <-c.send:
			default:
				drained = true
			}
		}
	}
	c.qmu.Unlock()
	h.mu.Lock()
	if h.byID[c.id] == c {
		delete(h.byID, c.id)
		m := c.machineID()
		if m != "" {
			delete(h.machine[m], c.id)
			if len(h.machine[m]) == 0 {
				delete(h.machine, m)
			}
		}
	}
	h.mu.Unlock()
	c.close()
	return dropped
}
