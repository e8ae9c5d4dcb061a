package functions

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"pumasi"
	"pumasi/knowledge"
)

// healthCollector reads the readiness checks and the home's disk use at
// scrape time.
type healthCollector struct {
	a                  *API
	check, disk        *prometheus.Desc
	free, floor, ready *prometheus.Desc
}

// diskReporter is a store with a local home that says what it holds.
type diskReporter interface {
	DiskUsage(ctx context.Context) (pumasi.DiskUsage, error)
}

// watchHealth registers the health collector once, for a's checks.
func (m *Metrics) watchHealth(a *API) {
	m.healthOnce.Do(func() {
		m.reg.MustRegister(&healthCollector{a: a,
			check: prometheus.NewDesc("pumasi_health_check_ok",
				"Readiness checks of GET /healthz: 1 passing, 0 failing.", []string{"check"}, nil),
			ready: prometheus.NewDesc("pumasi_ready", "1 when every readiness check passes (GET /healthz answers 200).", nil, nil),
			disk: prometheus.NewDesc("pumasi_home_disk_bytes",
				"Bytes the home holds, by part: database, wal, blobs (room files), index (the saved vector index).", []string{"part"}, nil),
			free:  prometheus.NewDesc("pumasi_home_free_bytes", "Free bytes on the home's filesystem.", nil, nil),
			floor: prometheus.NewDesc("pumasi_home_free_floor_bytes", "The free space the home keeps (PUMASI_MIN_FREE).", nil, nil),
		})
	})
}

func (c *healthCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.check
	ch <- c.ready
	ch <- c.disk
	ch <- c.free
	ch <- c.floor
}

func (c *healthCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ready := 1.0
	for _, h := range c.a.healthChecks(ctx) {
		v := 0.0
		if h.OK {
			v = 1
		} else {
			ready = 0
		}
		ch <- prometheus.MustNewConstMetric(c.check, prometheus.GaugeValue, v, h.Name)
	}
	ch <- prometheus.MustNewConstMetric(c.ready, prometheus.GaugeValue, ready)
	var homes []diskReporter
	if d, ok := c.a.Store.(diskReporter); ok {
		homes = append(homes, d)
	} else if k, ok := c.a.Knowledge.(interface{ Driver() knowledge.Driver }); ok {
		// S3 file storage with knowledge in the home's database.
		if d, ok := k.Driver().(diskReporter); ok {
			homes = append(homes, d)
		}
	}
	for _, d := range homes {
		u, err := d.DiskUsage(ctx)
		if err != nil {
			ch <- prometheus.NewInvalidMetric(c.disk, err)
			continue
		}
		for part, v := range map[string]int64{"database": u.Database, "wal": u.WAL, "blobs": u.Blobs, "index": u.Index} {
			ch <- prometheus.MustNewConstMetric(c.disk, prometheus.GaugeValue, float64(v), part)
		}
		ch <- prometheus.MustNewConstMetric(c.free, prometheus.GaugeValue, float64(u.Free))
		ch <- prometheus.MustNewConstMetric(c.floor, prometheus.GaugeValue, float64(u.Floor))
	}
}
