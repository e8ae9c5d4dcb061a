package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// agentFilesCollector reports, at scrape time, what each agent's
// memory/shared/ folder under home holds: the daemon's own view of what it
// delivered, read from disk, so it needs nothing from the engine.
type agentFilesCollector struct {
	home         string
	files, bytes *prometheus.Desc
}

func newAgentFilesCollector(home string) *agentFilesCollector {
	return &agentFilesCollector{
		home:  home,
		files: prometheus.NewDesc("pumasi_daemon_agent_files", "Files in the agent's memory/shared/ on this host.", []string{"agent"}, nil),
		bytes: prometheus.NewDesc("pumasi_daemon_agent_bytes", "Bytes of the files in the agent's memory/shared/ on this host.", []string{"agent"}, nil),
	}
}

func (c *agentFilesCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.files; ch <- c.bytes }

func (c *agentFilesCollector) Collect(ch chan<- prometheus.Metric) {
	agents, err := os.ReadDir(filepath.Join(c.home, "agents"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		ch <- prometheus.NewInvalidMetric(c.files, err)
		return
	}
	for _, a := range agents {
		if !a.IsDir() {
			continue
		}
		entries, err := os.ReadDir(agentSharedDir(c.home, a.Name()))
		if err != nil {
			continue // an agent folder without memory/shared/ yet
		}
		var n, size int
		for _, e := range entries {
			info, err := e.Info()
			if err != nil || !info.Mode().IsRegular() || e.Name()[0] == '.' {
				continue // temp files (.pumasi-tmp-*) are not delivered yet
			}
			n++
			size += int(info.Size())
		}
		ch <- prometheus.MustNewConstMetric(c.files, prometheus.GaugeValue, float64(n), a.Name())
		ch <- prometheus.MustNewConstMetric(c.bytes, prometheus.GaugeValue, float64(size), a.Name())
	}
}

// serveDaemonMetrics serves the daemon's metrics on addr (no auth: bind it
// to loopback or a network only operators reach) until ctx ends. It returns
// the address it listens on.
func serveDaemonMetrics(ctx context.Context, addr, home string, log *slog.Logger) (string, error) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(newAgentFilesCollector(home), collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("--metrics: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics server", "err", err)
		}
	}()
	log.Info("daemon metrics", "url", "http://"+ln.Addr().String()+"/metrics")
	return ln.Addr().String(), nil
}
