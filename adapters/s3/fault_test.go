package s3_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pumasi"
	s3store "pumasi/adapters/s3"
)

// Bounds of the fault run: workers × opsPerWorker operations in all.
const (
	faultWorkers      = 8
	faultOpsPerWorker = 45
	faultRate         = 0.20
)

var (
	faultRooms    = []string{"fr0", "fr1", "fr2"}
	faultMachines = []string{"fm0", "fm1", "fm2"}
)

// isCASPath reports the objects that are written by compare-and-swap or
// that record connections: manifests, agent records, machine indexes and
// connection records.
func isCASPath(path string) bool {
	return strings.HasSuffix(path, "/manifest.json") || strings.Contains(path, "/agents/") ||
		strings.Contains(path, "/machines/") || strings.Contains(path, "/connections/")
}

// fileModel is what one worker knows a name holds; only that worker writes it.
type fileModel struct {
	exists  bool
	sha     string
	id      string
	version int
	// hist is every version acknowledged, oldest first; sha "" for a delete.
	hist []histEntry
}

type histEntry struct {
	version int
	sha     string
}

// faultKeep is the sweeping store's retention: only the newest versions of
// each name are sure to be kept, older ones may be reaped at any moment.
const faultKeep = 3

// sureKept reports whether hist[i] is among the versions retention keeps.
func (m *fileModel) sureKept(i int) bool { return len(m.hist)-i <= faultKeep }

type placeModel struct {
	room, machine string
}

// faultRun is the state of one fault run, shared by its workers.
type faultRun struct {
	mu         sync.Mutex
	ops        map[string]int
	violations map[string][]string
	revs       map[string]int64 // acknowledged effective changes per room
}

func (r *faultRun) count(kind string) {
	r.mu.Lock()
	r.ops[kind]++
	r.mu.Unlock()
}

func (r *faultRun) violate(kind, format string, args ...any) {
	r.mu.Lock()
	r.violations[kind] = append(r.violations[kind], fmt.Sprintf(format, args...))
	r.mu.Unlock()
}

func (r *faultRun) bump(room string, n int64) {
	r.mu.Lock()
	r.revs[room] += n
	r.mu.Unlock()
}

// faultWorker owns a few names, one agent and one connection id, so that it
// knows the exact truth of each and can judge every answer it gets.
type faultWorker struct {
	run   *faultRun
	st    *s3store.Store
	rnd   *rand.Rand
	names map[string]*fileModel // "room/name"
	agent string
	place placeModel
	conn  string
	connM string // machine of the connection, "" when dropped
}

func body(name string, v int) []byte { return []byte(fmt.Sprintf("# %s\nvariant %d\n", name, v)) }

// TestFaultProxy runs uploads, deletes, conditional creates and updates,
// placements, moves, unplacements and connection saves concurrently through
// a proxy that makes 20 % of the PUTs to manifests, agent records, machine
// indexes and connection records lose their answer: most land first (then
// 500, reset or timeout), some are dropped before they reach MinIO. Every answer must be true, and the state, read straight
// from MinIO, must be exactly what the acknowledged answers imply.
func TestFaultProxy(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	proxy := newFaultProxy(t, e.srv.Endpoint, 15, faultRate, 600*time.Millisecond, isCASPath)
	behind := *e.srv
	behind.Endpoint = proxy.URL
	rawURL := behind.URL(e.bucket, e.prefix)
	// Two stores behind the proxy, as two processes with their own caches.
	var stores [2]*s3store.Store
	for i := range stores {
		opts := s3store.Options{Credentials: e.srv.Credentials()}
		if i == 1 { // The sweeper reaps all but the newest versions.
			opts.History = pumasi.Retention{Versions: faultKeep}
		}
		st, err := s3store.Open(ctx, rawURL, opts)
		if err != nil {
			t.Fatal(err)
		}
		s3store.SetWriteTimeout(st, 250*time.Millisecond)
		stores[i] = st
	}
	direct := e.open(t, s3store.Options{})

	run := &faultRun{ops: map[string]int{}, violations: map[string][]string{}, revs: map[string]int64{}}
	workers := make([]*faultWorker, faultWorkers)
	for w := range workers {
		fw := &faultWorker{run: run, st: stores[w%2], rnd: rand.New(rand.NewPCG(uint64(w), 42)), names: map[string]*fileModel{},
			agent: fmt.Sprintf("fa-%d", w), conn: fmt.Sprintf("fc-%d", w)}
		for i := 0; i < 3; i++ {
			room := faultRooms[(w+i)%len(faultRooms)]
			fw.names[room+"/"+fmt.Sprintf("w%d-%d.md", w, i)] = &fileModel{}
		}
		workers[w] = fw
	}

	proxy.Enable(true)
	began := time.Now()
	// A sweep runs all along: it collects the blobs of deleted and replaced
	// files, races identical re-uploads and repairs placements in flight,
	// and must never leave a referenced blob missing. Its grace (2 s) is
	// above the longest upload here, as Sweep requires.
	stopSweep := make(chan struct{})
	sweeps, reaped := 0, 0
	var swept atomic.Int64
	var sweepErr error
	var sweepWG sync.WaitGroup
	sweepWG.Add(1)
	go func() {
		defer sweepWG.Done()
		for {
			select {
			case <-stopSweep:
				return
			case <-time.After(200 * time.Millisecond):
			}
			rep, err := stores[1].Sweep(ctx, 2*time.Second)
			if err != nil && sweepErr == nil {
				sweepErr = err
			}
			sweeps++
			swept.Add(int64(rep.Blobs))
			reaped += rep.Versions
		}
	}()
	var wg sync.WaitGroup
	for _, fw := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The sweep collects only blobs unreferenced for its grace
			// (2 s): on a fast machine the ops were done in 2.2 s and it
			// had raced nothing, so the workers go on (up to 15 s in all)
			// until it has collected something.
			for i := 0; i < faultOpsPerWorker || (swept.Load() == 0 && time.Since(began) < 15*time.Second); i++ {
				fw.step(ctx)
			}
		}()
	}
	wg.Wait()
	close(stopSweep)
	sweepWG.Wait()
	proxy.Enable(false)
	elapsed := time.Since(began)
	if sweepErr != nil {
		run.violate("sweep", "%v", sweepErr)
	}

	checkFaultState(t, ctx, direct, run, workers)

	total := 0
	var kinds []string
	for k, n := range run.ops {
		total += n
		kinds = append(kinds, fmt.Sprintf("%s=%d", k, n))
	}
	sort.Strings(kinds)
	nv := 0
	var vkinds []string
	for k, vs := range run.violations {
		nv += len(vs)
		vkinds = append(vkinds, fmt.Sprintf("%s=%d", k, len(vs)))
	}
	sort.Strings(vkinds)
	t.Logf("fault run: %d operations in %s (%s)", total, elapsed.Round(time.Millisecond), strings.Join(kinds, ", "))
	landed := s3store.Landed(stores[0]) + s3store.Landed(stores[1])
	t.Logf("faults: %s; the stores found %d lost-answer writes applied on reading back", proxy.Summary(), landed)
	t.Logf("sweeps during the run: %d, blobs collected: %d, versions reaped: %d", sweeps, swept.Load(), reaped)
	t.Logf("violations: %d (%s)", nv, strings.Join(vkinds, ", "))
	inj := proxy.Injected()
	for k, n := range inj {
		if n == 0 {
			t.Errorf("no %s fault was injected; the run proves nothing about it", faultNames[k])
		}
	}
	// Every write that landed and lost its answer must have been recognised
	// as landed (a slow answer past the write timeout may add a few more).
	if applied := inj[faultStatus500] + inj[faultReset] + inj[faultTimeout]; landed < applied {
		t.Errorf("the stores recognised %d writes as landed, fewer than the %d applied ones whose answer was lost", landed, applied)
	}
	if swept.Load() == 0 {
		t.Errorf("the sweep collected nothing during the run; it raced nothing")
	}
	if reaped == 0 || run.ops["restore"] == 0 {
		t.Errorf("%d versions reaped and %d restores during the run; history was not exercised", reaped, run.ops["restore"])
	}
	if nv > 0 {
		for k, vs := range run.violations {
			for i, v := range vs {
				if i < 5 {
					t.Errorf("%s: %s", k, v)
				}
			}
		}
		t.Fatalf("%d answers or effects were not true under faults", nv)
	}
}
