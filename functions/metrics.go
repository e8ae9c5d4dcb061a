package functions

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"pumasi"
	"pumasi/knowledge"
)

// Metrics are the API's Prometheus metrics. A nil *Metrics records nothing,
// so an API without one (Lambda, most tests) pays nothing. Counters are
// per process: localdev is one process; in Lambda each instance would count
// alone, which is why /metrics is not deployed there (docs/configuration.md).
type Metrics struct {
	reg *prometheus.Registry

	requests  *prometheus.CounterVec
	latency   *prometheus.HistogramVec
	uploads   *prometheus.CounterVec
	upBytes   prometheus.Counter
	pushed    prometheus.Counter
	dropped   prometheus.Counter
	slowDrops *prometheus.CounterVec
	machines  prometheus.Gauge
	verdicts  *prometheus.CounterVec
	entries   *prometheus.CounterVec
	sweeps    *prometheus.CounterVec
	pruned    prometheus.Counter
	syncLag   *prometheus.Desc
	missing   *prometheus.Desc
	lagSource func(ctx context.Context) ([]agentLag, error)
	// healthOnce registers the readiness and disk collector (health_metrics.go).
	healthOnce sync.Once
}

// agentLag is one placed agent's delivery as its last status report says.
type agentLag struct {
	agent, room string
	lag         float64
	missing     int
}

// NewMetrics builds the metric families, with the Go runtime's and the
// process's beside them.
func NewMetrics() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "pumasi_http_requests_total",
		Help: "HTTP requests by route pattern, method and status."}, []string{"route", "method", "status"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "pumasi_http_request_duration_seconds",
		Help: "HTTP request latency by route pattern and method.", Buckets: prometheus.ExponentialBuckets(0.0005, 2.5, 12)}, []string{"route", "method"})
	m.uploads = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "pumasi_uploads_total",
		Help: "Successful uploads; changed=false for identical content already there."}, []string{"changed"})
	m.upBytes = prometheus.NewCounter(prometheus.CounterOpts{Name: "pumasi_upload_bytes_total",
		Help: "Bytes of the files uploaded with changed content."})
	m.pushed = prometheus.NewCounter(prometheus.CounterOpts{Name: "pumasi_frames_pushed_total",
		Help: "Frames handed to the push channel without error."})
	m.dropped = prometheus.NewCounter(prometheus.CounterOpts{Name: "pumasi_frames_dropped_total",
		Help: "Frames the push channel refused (daemons catch up from their assignments)."})
	m.slowDrops = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "pumasi_push_connections_dropped_total",
		Help: "Machine connections the push hub dropped for not keeping up, by reason (their frames are lost; the daemon reconciles when it reconnects)."}, []string{"reason"})
	m.machines = prometheus.NewGauge(prometheus.GaugeOpts{Name: "pumasi_connected_machines",
		Help: "Machine daemon WebSocket connections open on this process."})
	m.verdicts = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "pumasi_gate_verdicts_total",
		Help: "Knowledge contributions by verdict and, for rejections, the gate stage."}, []string{"verdict", "stage"})
	m.entries = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "pumasi_knowledge_entries_created_total",
		Help: "Knowledge entries created (accepted contributions) per hive."}, []string{"hive"})
	m.sweeps = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "pumasi_sweep_runs_total",
		Help: "Sweep runs by result."}, []string{"result"})
	m.pruned = prometheus.NewCounter(prometheus.CounterOpts{Name: "pumasi_sweep_cites_pruned_total",
		Help: "Per-day citation rows the sweep pruned past their window (the report's cites_pruned)."})
	m.syncLag = prometheus.NewDesc("pumasi_agent_sync_lag_seconds",
		"Per placed agent: seconds since the oldest room change its machine's last status report does not hold (0 when synced).", []string{"room", "agent"}, nil)
	m.missing = prometheus.NewDesc("pumasi_agent_missing_files",
		"Per placed agent: room files its machine's last status report lacks or holds at another sha256.", []string{"room", "agent"}, nil)
	m.reg.MustRegister(m.requests, m.latency, m.uploads, m.upBytes, m.pushed, m.dropped, m.slowDrops, m.machines,
		m.verdicts, m.entries, m.sweeps, m.pruned, lagCollector{m},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// lagCollector reads the agents' sync lag from the store at scrape time.
type lagCollector struct{ m *Metrics }

func (c lagCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.m.syncLag; ch <- c.m.missing }

func (c lagCollector) Collect(ch chan<- prometheus.Metric) {
	if c.m.lagSource == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	lags, err := c.m.lagSource(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.m.syncLag, err)
		return
	}
	for _, l := range lags {
		ch <- prometheus.MustNewConstMetric(c.m.syncLag, prometheus.GaugeValue, l.lag, l.room, l.agent)
		ch <- prometheus.MustNewConstMetric(c.m.missing, prometheus.GaugeValue, float64(l.missing), l.room, l.agent)
	}
}

// maxLagAgents bounds the agents a scrape reads, so a big deployment's
// scrape stays a few store reads per room.
const maxLagAgents = 1000

// agentLags computes each reported agent's lag from the rooms' listings and
// the daemons' last reports (what GET /rooms/{room}/agents shows).
func (a *API) agentLags(ctx context.Context) ([]agentLag, error) {
	rooms, err := a.Store.ListRooms(ctx)
	if err != nil {
		return nil, err
	}
	now := a.now()
	var out []agentLag
	for _, room := range rooms {
		if len(room.Agents) == 0 {
			continue
		}
		if len(out)+len(room.Agents) > maxLagAgents {
			break
		}
		l, err := a.Store.ListFiles(ctx, room.RoomID)
		if err != nil {
			return nil, err
		}
		pls, err := a.Store.RoomAgents(ctx, room.RoomID)
		if err != nil {
			return nil, err
		}
		ids := make([]string, len(pls))
		for i, pl := range pls {
			ids[i] = pl.AgentID
		}
		sts, err := a.Store.AgentStatuses(ctx, ids)
		if err != nil {
			return nil, err
		}
		updated := map[string]time.Time{}
		for _, f := range l.Files {
			updated[f.Name] = f.UpdatedAt
		}
		for _, pl := range pls {
			st, ok := sts[pl.AgentID]
			if !ok || st.MachineID != pl.MachineID {
				continue // never reported from this machine: no lag to speak of yet
			}
			d := delivery(pl, l.Files, st, true, now.Add(-a.offlineAfter()))
			lag := agentLag{agent: pl.AgentID, room: room.RoomID, missing: len(d.Missing)}
			for _, name := range d.Missing {
				if s := now.Sub(updated[name]).Seconds(); s > lag.lag {
					lag.lag = s
				}
			}
			if len(d.Missing) == 0 && len(d.Extra) > 0 {
				// Deletes not applied yet: the report's age bounds the lag.
				lag.lag = now.Sub(st.ReportedAt).Seconds()
			}
			out = append(out, lag)
		}
	}
	return out, nil
}

// metricsRecorder keeps the status and, for the few routes whose answer
// carries a counted fact, the body.
type metricsRecorder struct {
	http.ResponseWriter
	status int
	keep   bool
	body   bytes.Buffer
}

func (r *metricsRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *metricsRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	if r.keep && r.body.Len() < 64<<10 {
		r.body.Write(b)
	}
	return r.ResponseWriter.Write(b)
}

func (r *metricsRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// routeOf names the route pattern a request matches, "unmatched" else, so
// the label's values are bounded by the route table.
func routeOf(r *http.Request) string {
	segs, ok := splitPath(r.URL.EscapedPath())
	if ok {
		if p := bestPattern(segs); p != "" {
			return p
		}
	}
	return "unmatched"
}

// SlowDrop counts a machine connection the push hub dropped for not keeping
// up (push.Hub's OnSlowDrop).
func (m *Metrics) SlowDrop(reason string) {
	if m != nil {
		m.slowDrops.WithLabelValues(reason).Inc()
	}
}

// instrument counts requests and latencies, and reads the counted facts
// (upload size, gate verdict) from the few answers that carry them.
func (m *Metrics) instrument(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		route := routeOf(r)
		ws := route == "/machines/{machine}/ws"
		if ws {
			// ServeMachine returns when the connection ends.
			m.machines.Inc()
			defer m.machines.Dec()
		}
		rec := &metricsRecorder{ResponseWriter: w, keep: r.Method == http.MethodPost &&
			(route == "/rooms/{room}/files" || route == "/knowledge/contribute")}
		start := time.Now()
		// The WebSocket upgrade needs the original writer's Hijack.
		if ws {
			next.ServeHTTP(w, r)
			rec.status = http.StatusSwitchingProtocols
		} else {
			next.ServeHTTP(rec, r)
		}
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		method := r.Method
		m.requests.WithLabelValues(route, method, strconv.Itoa(rec.status)).Inc()
		if !ws {
			m.latency.WithLabelValues(route, method).Observe(time.Since(start).Seconds())
		}
		if rec.keep {
			m.countAnswer(route, rec)
		}
	})
}

func (m *Metrics) countAnswer(route string, rec *metricsRecorder) {
	switch route {
	case "/rooms/{room}/files":
		var f struct {
			Size    int64 `json:"size"`
			Changed bool  `json:"changed"`
		}
		if rec.status/100 != 2 || json.Unmarshal(rec.body.Bytes(), &f) != nil {
			return
		}
		m.uploads.WithLabelValues(strconv.FormatBool(f.Changed)).Inc()
		if f.Changed {
			m.upBytes.Add(float64(f.Size))
		}
	case "/knowledge/contribute":
		var b struct {
			Data struct {
				Verdict string `json:"verdict"`
				Stage   string `json:"stage"`
				Entry   *struct {
					Hive string `json:"hive"`
				} `json:"entry"`
			} `json:"data"`
		}
		if json.Unmarshal(rec.body.Bytes(), &b) != nil || b.Data.Verdict == "" {
			return
		}
		m.verdicts.WithLabelValues(b.Data.Verdict, b.Data.Stage).Inc()
		if b.Data.Verdict == knowledge.VerdictAccepted && b.Data.Entry != nil {
			m.entries.WithLabelValues(b.Data.Entry.Hive).Inc()
		}
	}
}

// countingPusher counts the frames a Pusher takes and refuses.
type countingPusher struct {
	Pusher
	m *Metrics
}

func (p countingPusher) Push(ctx context.Context, machine string, frames []pumasi.Frame) error {
	err := p.Pusher.Push(ctx, machine, frames)
	if err != nil {
		p.m.dropped.Add(float64(len(frames)))
	} else {
		p.m.pushed.Add(float64(len(frames)))
	}
	return err
}

// Sweep runs the sweep (see sweep) and counts the run.
func (a *API) Sweep(ctx context.Context, grace time.Duration) (SweepReport, error) {
	rep, err := a.sweep(ctx, grace)
	if m := a.Metrics; m != nil {
		result := "ok"
		if err != nil {
			result = "error"
		}
		m.sweeps.WithLabelValues(result).Inc()
		if rep.Knowledge != nil {
			m.pruned.Add(float64(rep.Knowledge.CitesPruned))
		}
	}
	return rep, err
}

// MetricsHandler serves GET /metrics in the Prometheus text format to admin
// tokens (401/403 otherwise, as every route) and passes everything else to
// next. localdev mounts it in front of the API.
func (a *API) MetricsHandler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/metrics" {
			next.ServeHTTP(w, r)
			return
		}
		allow := []string{http.MethodGet, http.MethodHead, http.MethodOptions}
		if r.Method == http.MethodOptions {
			w.Header().Set("Allow", strings.Join(allow, ", "))
			w.WriteHeader(http.StatusNoContent)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			writeMethodNotAllowed(w, r.Method, allow)
			return
		}
		p, err := a.authenticate(r)
		if err != nil {
			a.fail(w, r, err)
			return
		}
		if !p.Admin {
			a.fail(w, r, pumasi.Errorf(pumasi.EForbidden, "metrics need an admin token"))
			return
		}
		if a.Metrics == nil {
			a.fail(w, r, pumasi.Errorf(pumasi.ENotFound, "metrics are not enabled"))
			return
		}
		a.Metrics.Handler().ServeHTTP(w, r)
	})
}

// Handler serves the metrics without any auth, for a separate listen
// address that only operators reach.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}
