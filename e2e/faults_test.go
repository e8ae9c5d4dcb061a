package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// versions remembers every content ever uploaded under each name, so a
// reader can tell a complete file (any version) from a partial one.
type versions struct {
	mu   sync.Mutex
	sums map[string]map[string]bool
}

func (v *versions) add(name string, body []byte) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.sums[name] == nil {
		v.sums[name] = map[string]bool{}
	}
	v.sums[name][sum(body)] = true
}

func (v *versions) valid(name, s string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.sums[name][s]
}

func bigBody(name string, version, size int) []byte {
	line := fmt.Sprintf("%s version %d: the quick brown fox jumps over the lazy dog\n", name, version)
	return []byte(strings.Repeat(line, size/len(line)+1)[:size])
}

// reader polls agents' shared directories for the whole test and records
// any file whose bytes are not exactly one uploaded version.
type reader struct {
	reads atomic.Int64
	mu    sync.Mutex
	bad   []string
	stop  chan struct{}
	done  chan struct{}
}

func startReader(v *versions, home string, agents []string) *reader {
	r := &reader{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(r.done)
		for {
			select {
			case <-r.stop:
				return
			default:
			}
			for _, a := range agents {
				dir := sharedDir(home, a)
				ents, _ := os.ReadDir(dir)
				for _, e := range ents {
					if strings.HasPrefix(e.Name(), ".") {
						continue // temp files are not part of an agent's view
					}
					b, err := os.ReadFile(filepath.Join(dir, e.Name()))
					if err != nil {
						continue // deleted between listing and reading
					}
					r.reads.Add(1)
					if !v.valid(e.Name(), sum(b)) {
						r.mu.Lock()
						r.bad = append(r.bad, fmt.Sprintf("%s/%s (%d bytes)", a, e.Name(), len(b)))
						r.mu.Unlock()
					}
				}
			}
		}
	}()
	return r
}

func (r *reader) finish(t *testing.T) {
	t.Helper()
	close(r.stop)
	<-r.done
	if len(r.bad) > 0 {
		t.Fatalf("the reader saw %d partial or unknown files, e.g. %v", len(r.bad), r.bad[:min(5, len(r.bad))])
	}
	if r.reads.Load() < 100 {
		t.Fatalf("the reader made only %d reads; it proves nothing", r.reads.Load())
	}
	t.Logf("reader: %d complete reads, none partial", r.reads.Load())
}

func tempLeftovers(home string, agents []string) []string {
	var out []string
	for _, a := range agents {
		ents, _ := os.ReadDir(sharedDir(home, a))
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".pumasi-tmp-") {
				out = append(out, a+"/"+e.Name())
			}
		}
	}
	return out
}

// TestFaults is done-criterion 3 of issue 3: SIGKILL mid-sync, localdev
// down and back, and frames lost to a cut socket, with a reader that must
// never see a partial file.
func TestFaults(t *testing.T) {
	s := startLocaldev(t)
	px := startProxy(t, fmt.Sprintf("127.0.0.1:%d", s.port))
	home1, home2 := t.TempDir(), t.TempDir()
	var agents1 []string
	for i := 1; i <= 8; i++ {
		a := fmt.Sprintf("a%d", i)
		agents1 = append(agents1, a)
		s.place("r1", a, "m1")
	}
	s.place("r1", "b1", "m2")
	s.place("r1", "b2", "m2")

	v := &versions{sums: map[string]map[string]bool{}}
	want := map[string]string{}
	put := func(name string, version, size int) {
		b := bigBody(name, version, size)
		v.add(name, b)
		s.upload("r1", name, b)
		want[name] = string(b)
	}
	const nFiles, size = 40, 200 << 10
	for i := 0; i < nFiles; i++ {
		put(fmt.Sprintf("doc-%02d.txt", i), 1, size)
	}
	rd := startReader(v, home1, agents1)

	// SIGKILL mid-sync: 8 agents × 40 files × 200 KiB to write.
	m1 := startDaemon(t, "m1", home1, px.url, time.Second)
	total := len(agents1) * nFiles
	var atKill int
	waitFor(t, 30*time.Second, "the first files to land", func() bool {
		n := 0
		for _, a := range agents1 {
			ents, _ := os.ReadDir(sharedDir(home1, a))
			for _, e := range ents {
				if !strings.HasPrefix(e.Name(), ".") {
					n++
				}
			}
		}
		atKill = n
		return n >= total/10
	})
	m1.proc.kill(t)
	if atKill >= total {
		t.Fatalf("the daemon finished (%d files) before it could be killed mid-sync", atKill)
	}
	t.Logf("killed m1 with %d of %d files written; temp files left: %d", atKill, total, len(tempLeftovers(home1, agents1)))

	// More changes while it is down: updates, deletes, additions.
	for i := 0; i < 5; i++ {
		put(fmt.Sprintf("doc-%02d.txt", i), 2, size/2)
		n := fmt.Sprintf("doc-%02d.txt", 10+i)
		s.remove("r1", n)
		delete(want, n)
		put(fmt.Sprintf("new-%02d.txt", i), 1, 1000)
	}
	m1.start(t)
	m2 := startDaemon(t, "m2", home2, px.url, time.Second)
	for _, a := range agents1 {
		waitShared(t, 60*time.Second, home1, a, want)
	}
	waitShared(t, 30*time.Second, home2, "b1", want)
	if left := tempLeftovers(home1, agents1); len(left) > 0 {
		t.Fatalf("temp files left after convergence: %v", left)
	}

	// localdev stopped for a while and restarted: the daemons back off,
	// reconnect and converge.
	waitFor(t, 10*time.Second, "both daemons connected", func() bool { return px.wsCount() == 2 })
	s.proc.stop(t)
	time.Sleep(3 * time.Second)
	if m1.proc.exited() || m2.proc.exited() {
		t.Fatal("a daemon exited while the server was down")
	}
	s.start()
	put("after-restart.txt", 1, 5000)
	s.remove("r1", "new-00.txt")
	delete(want, "new-00.txt")
	for _, a := range agents1 {
		waitShared(t, 30*time.Second, home1, a, want)
	}
	waitShared(t, 30*time.Second, home2, "b2", want)
	waitFor(t, 30*time.Second, "the restarted localdev to see both daemons connect", func() bool {
		logb, _ := os.ReadFile(s.proc.log)
		return strings.Contains(string(logb), `msg="machine connected" machine=m1`) &&
			strings.Contains(string(logb), `msg="machine connected" machine=m2`) && px.wsCount() == 2
	})

	// Frames lost: cut the sockets and refuse new ones; the 1s poll makes
	// up for every lost frame.
	if n := px.cutWS(true); n != 2 {
		t.Fatalf("cut %d sockets, want 2", n)
	}
	put("during-cut.txt", 1, 3000)
	put("doc-00.txt", 3, 4000)
	s.remove("r1", "new-01.txt")
	delete(want, "new-01.txt")
	for _, a := range agents1 {
		waitShared(t, 15*time.Second, home1, a, want)
	}
	waitShared(t, 15*time.Second, home2, "b1", want)
	if n := px.wsCount(); n != 0 {
		t.Fatalf("%d sockets open while refused; the test did not cut frames", n)
	}
	px.cutWS(false)
	waitFor(t, 30*time.Second, "sockets back after the cut", func() bool { return px.wsCount() == 2 })
	put("after-cut.txt", 1, 100)
	waitShared(t, 10*time.Second, home2, "b2", want)

	rd.finish(t)
}
