package e2e

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"
)

// BenchmarkFanOut measures fan-out latency with real processes: localdev and
// 2 daemons × 25 agents in one room. Each op uploads a new file; latency is
// from the upload's 201 to the file being on disk at all 50 agents. The
// baseline, measured in the same run on the same host, is one HTTP round
// trip to localdev plus one fsync'd file write: the least any delivery can
// cost. Run it with:
//
//	go test -run '^$' -bench FanOut -benchtime 200x ./e2e/
func BenchmarkFanOut(b *testing.B) {
	const machines, perMachine = 2, 25
	s := startLocaldev(b)
	homes := make([]string, machines)
	var targets []string // agent shared dirs
	for m := 0; m < machines; m++ {
		homes[m] = b.TempDir()
		id := fmt.Sprintf("m%d", m+1)
		for a := 0; a < perMachine; a++ {
			agent := fmt.Sprintf("%s-a%02d", id, a)
			s.place("bench", agent, id)
			targets = append(targets, sharedDir(homes[m], agent))
		}
		startDaemon(b, id, homes[m], s.url, 30*time.Second)
	}
	// Warm up: every agent holds the first file before timing starts.
	s.upload("bench", "warm.md", []byte("warm\n"))
	waitFor(b, 60*time.Second, "warm-up file at every agent", func() bool { return allHave(targets, "warm.md") })

	baseline := measureBaseline(b, s, b.N)

	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i > 0 && i%500 == 0 {
			b.StopTimer()
			clearRoom(b, s, targets, i-500, i)
			b.StartTimer()
		}
		name := fmt.Sprintf("f-%06d.md", i)
		body := []byte(fmt.Sprintf("# fan-out %d\n%s\n", i, time.Now().Format(time.RFC3339Nano)))
		r := s.do("POST", "/rooms/bench/files?name="+name, body)
		t201 := time.Now()
		if r.status != http.StatusCreated {
			b.Fatalf("upload %s: %d %s", name, r.status, r.body)
		}
		deadline := t201.Add(30 * time.Second)
		for !allHave(targets, name) {
			if time.Now().After(deadline) {
				b.Fatalf("%s not at every agent within 30s", name)
			}
			time.Sleep(200 * time.Microsecond)
		}
		lat = append(lat, time.Since(t201))
	}
	b.StopTimer()

	p50, p99 := percentile(lat, 50), percentile(lat, 99)
	bp50, bp99 := percentile(baseline, 50), percentile(baseline, 99)
	b.ReportMetric(ms(p50), "fanout-p50-ms")
	b.ReportMetric(ms(p99), "fanout-p99-ms")
	b.ReportMetric(ms(bp50), "baseline-p50-ms")
	b.ReportMetric(ms(bp99), "baseline-p99-ms")
	if len(lat) >= 20 {
		fmt.Fprintf(os.Stdout, "fan-out, 201 → on disk at all %d agents (%d daemons × %d), n=%d: p50 %.2f ms, p99 %.2f ms\n",
			len(targets), machines, perMachine, len(lat), ms(p50), ms(p99))
		fmt.Fprintf(os.Stdout, "baseline, HTTP round trip + fsync'd file write, n=%d: p50 %.2f ms, p99 %.2f ms\n",
			len(baseline), ms(bp50), ms(bp99))
	}
}

// allHave reports whether name exists in every dir. The daemon renames a
// complete file into place, so existence means the whole file is there.
func allHave(dirs []string, name string) bool {
	for _, d := range dirs {
		if _, err := os.Lstat(filepath.Join(d, name)); err != nil {
			return false
		}
	}
	return true
}

// measureBaseline times n × (GET /healthz on localdev + write 1 KiB to a new
// file and fsync it).
func measureBaseline(b *testing.B, s *server, n int) []time.Duration {
	b.Helper()
	dir := b.TempDir()
	body := make([]byte, 1024)
	out := make([]time.Duration, 0, n)
	for i := 0; i < n; i++ {
		start := time.Now()
		resp, err := s.hc.Get(s.url + "/healthz")
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("b-%d", i)))
		if err != nil {
			b.Fatal(err)
		}
		f.Write(body)
		if err := f.Sync(); err != nil {
			b.Fatal(err)
		}
		f.Close()
		out = append(out, time.Since(start))
	}
	return out
}

// clearRoom deletes files [from, to) so a long run stays under the room's
// file quota, and waits for the deletes to land.
func clearRoom(b *testing.B, s *server, targets []string, from, to int) {
	for i := from; i < to; i++ {
		s.remove("bench", fmt.Sprintf("f-%06d.md", i))
	}
	last := fmt.Sprintf("f-%06d.md", to-1)
	waitFor(b, 60*time.Second, "deletes to land", func() bool {
		for _, d := range targets {
			if _, err := os.Lstat(filepath.Join(d, last)); err == nil {
				return false
			}
		}
		return true
	})
}

func percentile(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := (len(s)*p + 99) / 100
	return s[max(0, min(len(s)-1, i-1))]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
