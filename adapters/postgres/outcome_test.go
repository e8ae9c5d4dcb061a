package postgres

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"net"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pumasi"
	"pumasi/internal/testpeer"
	"pumasi/knowledge"
)

// faultProxy stands between the driver and PostgreSQL and breaks
// connections on cue: after the server applied a statement, before its
// answer reaches the client (the answer is lost), or before a statement
// reaches the server (nothing applied). It reads the protocol's message
// framing only.
type faultProxy struct {
	ln     net.Listener
	target string
	// The armed fault: when the client sends a message holding pattern
	// (simple Query, or Parse, of the statement), lose is set to break the
	// connection once the server answers it; drop breaks it at once,
	// before the message is forwarded. Each fires once.
	mu      sync.Mutex
	pattern string
	lose    bool
	fired   atomic.Int32
}

func newFaultProxy(t *testing.T, target string) *faultProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &faultProxy{ln: ln, target: target}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.serve(c)
		}
	}()
	return p
}

// arm sets the next fault: lose the answer to, or drop before, the next
// statement holding pattern.
func (p *faultProxy) arm(pattern string, lose bool) {
	p.mu.Lock()
	p.pattern, p.lose = pattern, lose
	p.mu.Unlock()
	p.fired.Store(0)
}

func (p *faultProxy) take(msg []byte) (hit, lose bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pattern == "" || !bytes.Contains(bytes.ToLower(msg), []byte(strings.ToLower(p.pattern))) {
		return false, false
	}
	lose = p.lose
	p.pattern = ""
	p.fired.Add(1)
	return true, lose
}

func (p *faultProxy) serve(client net.Conn) {
	server, err := net.Dial("tcp", p.target)
	if err != nil {
		client.Close()
		return
	}
	var doomed atomic.Bool
	kill := func() { client.Close(); server.Close() }
	go func() { // server → client
		buf := make([]byte, 32<<10)
		for {
			n, err := server.Read(buf)
			if n > 0 && doomed.Load() {
				kill() // the answer to the doomed statement is lost
				return
			}
			if n > 0 {
				if _, err := client.Write(buf[:n]); err != nil {
					kill()
					return
				}
			}
			if err != nil {
				kill()
				return
			}
		}
	}()
	// client → server, message by message: the startup message has no
	// type byte, every later one has.
	first := true
	for {
		var msg []byte
		if first {
			var hdr [4]byte
			if _, err := io.ReadFull(client, hdr[:]); err != nil {
				kill()
				return
			}
			n := int(binary.BigEndian.Uint32(hdr[:]))
			msg = make([]byte, n)
			copy(msg, hdr[:])
			if _, err := io.ReadFull(client, msg[4:]); err != nil {
				kill()
				return
			}
			first = false
		} else {
			var hdr [5]byte
			if _, err := io.ReadFull(client, hdr[:]); err != nil {
				kill()
				return
			}
			n := int(binary.BigEndian.Uint32(hdr[1:]))
			msg = make([]byte, 1+n)
			copy(msg, hdr[:])
			if _, err := io.ReadFull(client, msg[5:]); err != nil {
				kill()
				return
			}
			if t := msg[0]; t == 'Q' || t == 'P' {
				hit, lose := p.take(msg)
				switch {
				case hit && !lose:
					kill() // dropped before the server saw it
					return
				case hit:
					if _, err := server.Write(msg); err != nil {
						kill()
						return
					}
					if t == 'Q' {
						doomed.Store(true)
						continue
					}
					// Extended protocol: the statement runs at the Execute
					// that follows; doom then.
					p.doomAtExecute(client, server, &doomed)
					return
				}
			}
		}
		if _, err := server.Write(msg); err != nil {
			kill()
			return
		}
	}
}

// doomAtExecute forwards the rest of an extended-protocol exchange and
// dooms the connection once an Execute message has gone to the server.
func (p *faultProxy) doomAtExecute(client, server net.Conn, doomed *atomic.Bool) {
	for {
		var hdr [5]byte
		if _, err := io.ReadFull(client, hdr[:]); err != nil {
			client.Close()
			server.Close()
			return
		}
		n := int(binary.BigEndian.Uint32(hdr[1:]))
		msg := make([]byte, 1+n)
		copy(msg, hdr[:])
		if _, err := io.ReadFull(client, msg[5:]); err != nil {
			client.Close()
			server.Close()
			return
		}
		if _, err := server.Write(msg); err != nil {
			return
		}
		if hdr[0] == 'E' {
			doomed.Store(true)
		}
	}
}

// proxiedEngine opens the engine NewKnowledge builds over a pool that
// reaches PostgreSQL through a fault proxy.
func proxiedEngine(t *testing.T) (*knowledge.Engine, *faultProxy, *Knowledge, string) {
	t.Helper()
	dbURL := testpeer.Postgres(t)
	direct := migratedAt(t, dbURL)
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := newFaultProxy(t, u.Host)
	u.Host = proxy.ln.Addr().String()
	q := u.Query()
	q.Set("pool_max_conns", "1") // one connection: the fault hits the call under test
	u.RawQuery = q.Encode()
	pool := openTest(t, u.String())
	return NewKnowledge(pool, knowledge.Options{}), proxy, direct, u.String()
}

func migratedAt(t *testing.T, url string) *Knowledge {
	t.Helper()
	pool := openTest(t, url)
	if err := Migrate(context.Background(), pool); err != nil {
		t.Fatal(err)
	}
	return NewKnowledgeDriver(pool)
}

func contribution(title, content, agent string) knowledge.ContributeInput {
	v := make([]float32, 8)
	for i, c := range title {
		v[i%8] += float32(c % 7)
	}
	return knowledge.ContributeInput{Hive: "academy", Agent: agent, Title: title, Content: content,
		NormHash: knowledge.Hash(title, content), Model: "test-8", Vector: v, Specificity: 0.9, Threshold: 2}
}

// TestLostAnswers: a write whose commit the server applied but whose
// answer was lost is never answered as a failure. An insert (idempotent by
// its exact key and the entry's own id) is retried and answers accepted,
// once; a contribution to an existing entry and a citation answer "outcome
// unknown" and are applied once; a write broken before it reached the
// server is retried and applied once; a read broken mid-way is retried.
func TestLostAnswers(t *testing.T) {
	ctx := context.Background()
	eng, proxy, direct, _ := proxiedEngine(t)
	// The vector index exists before, so the insert is the first statement
	// of its kind on the proxied connection (later ones are prepared and
	// carry no text to match). An insert is one statement, its own
	// transaction: losing its answer is losing a commit's.
	if err := direct.ensureIndex(ctx, 8); err != nil {
		t.Fatal(err)
	}
	in := contribution("pgx pool restarts", "pgx v5: a pool of `pool_max_conns=4` reconnects after 57P01.", "agent-a")

	proxy.arm("INSERT INTO knowledge_entries", true)
	res, err := eng.Contribute(ctx, in)
	if err != nil || res.Verdict != knowledge.VerdictAccepted {
		t.Fatalf("insert whose commit answer was lost = %+v, %v; want accepted", res.Verdict, err)
	}
	fired := func(what string) {
		t.Helper()
		if proxy.fired.Load() != 1 {
			t.Fatalf("%s: the fault did not fire", what)
		}
	}
	fired("insert")
	id := res.Entry.ID
	cs, err := direct.Contributions(ctx, id)
	if err != nil || len(cs) != 1 {
		t.Fatalf("contributions after the retried insert = %d, %v; want 1", len(cs), err)
	}

	in2 := in
	in2.Agent = "agent-b"
	proxy.arm("commit", true)
	_, err = eng.Contribute(ctx, in2)
	fired("merge")
	if !pumasi.IsOutcomeUnknown(err) {
		t.Fatalf("contribution to an entry whose commit answer was lost = %v, want outcome unknown", err)
	}
	if cs, _ := direct.Contributions(ctx, id); len(cs) != 2 {
		t.Fatalf("contributions after the lost answer = %d, want 2 (applied once)", len(cs))
	}

	// A cite is idempotent (one row per agent and day): a lost answer is
	// retried, and counts once.
	proxy.arm("citation_count = citation_count + 1", true)
	if b, err := eng.Cite(ctx, id, "agent-c"); err != nil || b.CitationCount != 1 {
		t.Fatalf("cite whose answer was lost = %d, %v; want it retried, counted once", b.CitationCount, err)
	}
	fired("cite")
	if es, _ := direct.Entries(ctx, []string{id}); es[id].CitationCount != 1 {
		t.Fatalf("citations after the lost answer = %d, want 1", es[id].CitationCount)
	}

	in3 := in
	in3.Agent = "agent-d"
	proxy.arm("INSERT INTO knowledge_contributions", false)
	if res, err := eng.Contribute(ctx, in3); err != nil || res.Verdict != knowledge.VerdictMerged {
		t.Fatalf("contribution broken before it reached the server = %+v, %v; want merged after a retry", res.Verdict, err)
	}
	fired("dropped write")
	if cs, _ := direct.Contributions(ctx, id); len(cs) != 3 {
		t.Fatalf("contributions after the retried write = %d, want 3", len(cs))
	}

	proxy.arm("FROM knowledge_entries", false)
	if e, err := eng.GetEntry(ctx, id); err != nil || e.ID != id {
		t.Fatalf("read broken mid-way = %v, want it retried", err)
	}
	fired("read")
}

// TestDatabaseDown: with the database gone, reads and writes answer
// unavailable (nothing applied), and the health check fails; when it is
// back the same engine serves again.
func TestDatabaseDown(t *testing.T) {
	ctx := context.Background()
	pg, dbURL := testpeer.PrivatePostgres(t)
	pool := openTest(t, dbURL)
	if err := Migrate(ctx, pool); err != nil {
		t.Fatal(err)
	}
	eng := NewKnowledge(pool, knowledge.Options{})
	in := contribution("pgbouncer idle", "pgbouncer 1.21: `server_idle_timeout=600` closes idle server connections.", "agent-a")
	if _, err := eng.Contribute(ctx, in); err != nil {
		t.Fatal(err)
	}
	pg.Halt()
	in.Title, in.NormHash = "pgbouncer idle 2", knowledge.Hash("pgbouncer idle 2", in.Content)
	if _, err := eng.Contribute(ctx, in); pumasi.ErrorCode(err) != pumasi.EUnavailable {
		t.Fatalf("contribute with the database down = %v, want unavailable", err)
	}
	if _, err := eng.Query(ctx, knowledge.QueryInput{Text: "pgbouncer", Limit: 5}); pumasi.ErrorCode(err) != pumasi.EUnavailable {
		t.Fatalf("query with the database down = %v, want unavailable", err)
	}
	if c := NewKnowledgeDriver(pool).HealthChecks(ctx); c[0].OK {
		t.Fatal("health check passes with the database down")
	}
	if err := pg.Resume(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := eng.Contribute(ctx, in)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("contribute after the database came back: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if c := NewKnowledgeDriver(pool).HealthChecks(ctx); !c[0].OK {
		t.Fatalf("health check fails once the database is back: %+v", c)
	}
}
