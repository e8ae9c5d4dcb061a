package e2e

import (
	"bufio"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// proxy is a TCP proxy in front of localdev that can refuse WebSocket
// upgrades and cut live WebSocket connections, to lose frames on purpose.
type proxy struct {
	ln     net.Listener
	target string
	url    string

	mu      sync.Mutex
	blockWS bool
	ws      map[net.Conn]bool
	all     map[net.Conn]bool
}

func startProxy(t testing.TB, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target, url: "http://" + ln.Addr().String(), ws: map[net.Conn]bool{}, all: map[net.Conn]bool{}}
	go p.serve()
	t.Cleanup(p.close)
	return p
}

func (p *proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		go p.handle(c)
	}
}

func (p *proxy) track(cs ...net.Conn) {
	p.mu.Lock()
	for _, c := range cs {
		p.all[c] = true
	}
	p.mu.Unlock()
}

func (p *proxy) handle(c net.Conn) {
	p.track(c)
	br := bufio.NewReader(c)
	_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
	line, err := br.ReadString('\n')
	_ = c.SetReadDeadline(time.Time{})
	if err != nil {
		c.Close()
		return
	}
	isWS := strings.Contains(line, "/ws ")
	p.mu.Lock()
	blocked := isWS && p.blockWS
	p.mu.Unlock()
	if blocked {
		c.Close()
		return
	}
	b, err := net.DialTimeout("tcp", p.target, 5*time.Second)
	if err != nil {
		c.Close()
		return
	}
	p.track(b)
	if isWS {
		p.mu.Lock()
		p.ws[c], p.ws[b] = true, true
		p.mu.Unlock()
	}
	if _, err := io.WriteString(b, line); err != nil {
		c.Close()
		b.Close()
		return
	}
	go func() { io.Copy(b, br); b.Close() }()
	io.Copy(c, b)
	c.Close()
	p.mu.Lock()
	delete(p.ws, c)
	delete(p.ws, b)
	delete(p.all, c)
	delete(p.all, b)
	p.mu.Unlock()
}

// cutWS closes every live WebSocket connection through the proxy and, with
// block, refuses new ones.
func (p *proxy) cutWS(block bool) int {
	p.mu.Lock()
	p.blockWS = block
	n := 0
	for c := range p.ws {
		c.Close()
		n++
	}
	p.mu.Unlock()
	return n / 2
}

func (p *proxy) wsCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.ws) / 2
}

func (p *proxy) close() {
	p.ln.Close()
	p.mu.Lock()
	for c := range p.all {
		c.Close()
	}
	p.mu.Unlock()
}
