package main

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// cpuMeter measures where a phase's CPU went on a machine the bench shares
// with its database: this process (the HTTP clients, the handlers, the gate,
// the embedder and the engine all run in it) against the PostgreSQL server
// processes that serve it (its backends and the cluster's background
// processes, as pg_stat_activity lists them). On 2 cores, a phase whose two
// shares add up to about 2 CPU-seconds per second is bounded by CPU, and the
// larger share says by whose.
type cpuMeter struct {
	pool  *pgxpool.Pool
	start time.Time
	self  time.Duration
	pg    map[int]serverProc
}

// serverProc is one server process's kind and CPU time so far.
type serverProc struct {
	kind string
	cpu  time.Duration
}

// clockTicks is the unit of /proc/<pid>/stat's times (USER_HZ, 100 on
// Linux everywhere).
const clockTicks = 100

func newCPUMeter(ctx context.Context, pool *pgxpool.Pool) *cpuMeter {
	m := &cpuMeter{pool: pool, start: time.Now(), self: selfCPU()}
	m.pg = m.serverCPU(ctx)
	return m
}

// selfCPU is this process's user and system time so far.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// serverCPU reads the user and system time of the server's processes. A
// backend that ended during the phase is missed; the pool keeps its
// connections, so few do.
func (m *cpuMeter) serverCPU(ctx context.Context) map[int]serverProc {
	out := map[int]serverProc{}
	rows, err := m.pool.Query(ctx, `SELECT pid, coalesce(backend_type, '') FROM pg_stat_activity`)
	if err != nil {
		return out
	}
	defer rows.Close()
	for rows.Next() {
		var pid int
		var kind string
		if rows.Scan(&pid, &kind) != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		// The fields after the command's closing parenthesis; utime and
		// stime are the 14th and 15th fields of the whole line.
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) < 13 {
			continue
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		out[pid] = serverProc{kind, time.Duration(u+st) * time.Second / clockTicks}
	}
	return out
}

// rows reports the phase's CPU per request, in ms, for this process and
// the server, and both as cores busy over the phase's wall time.
func (m *cpuMeter) rows(ctx context.Context, phase, k string, requests int) []row {
	wall := time.Since(m.start)
	self := selfCPU() - m.self
	var pg time.Duration
	kinds := map[string]time.Duration{}
	for pid, p := range m.serverCPU(ctx) {
		d := p.cpu - m.pg[pid].cpu // a process new in the phase spent all its time in it
		pg += d
		kinds[p.kind] += d
	}
	var by []string
	for kind, d := range kinds {
		by = append(by, fmt.Sprintf("%s %.0f ms", kind, ms(d)))
	}
	sort.Strings(by)
	fmt.Fprintf(os.Stderr, "bench: server CPU in %s @%s by process kind: %s\n", phase, k, strings.Join(by, ", "))
	per := func(d time.Duration) float64 { return ms(d) / float64(max(requests, 1)) }
	cores := func(d time.Duration) float64 { return d.Seconds() / wall.Seconds() }
	return []row{
		{Metric: fmt.Sprintf("  CPU per request in %s: bench process (HTTP clients, handlers, gate, embedder, engine) @%s", phase, k),
			Value: per(self), Unit: "ms", Baseline: "PostgreSQL server processes", Base: per(pg)},
		{Metric: fmt.Sprintf("  cores busy in %s: bench process + PostgreSQL @%s", phase, k),
			Value: cores(self) + cores(pg), Unit: "cores", Baseline: "PostgreSQL alone", Base: cores(pg)},
	}
}
