package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDaemonMetrics serves the daemon's metrics on a loopback port over a
// home with two agents and scrapes them: delivered files count, temp files
// do not.
func TestDaemonMetrics(t *testing.T) {
	home := t.TempDir()
	write := func(agent, name, body string) {
		dir := agentSharedDir(home, agent)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a1", "spec.md", "12345")
	write("a1", "plan.md", "123")
	write("a1", ".pumasi-tmp-99", "half written")
	write("a2", "notes.md", "1")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr, err := serveDaemonMetrics(ctx, "127.0.0.1:0", home, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	text := string(b)
	for _, line := range []string{
		`pumasi_daemon_agent_files{agent="a1"} 2`, `pumasi_daemon_agent_bytes{agent="a1"} 8`,
		`pumasi_daemon_agent_files{agent="a2"} 1`, `pumasi_daemon_agent_bytes{agent="a2"} 1`,
	} {
		if !strings.Contains(text, line+"\n") {
			t.Errorf("daemon metrics lack %q", line)
		}
	}
	if !strings.Contains(text, "go_goroutines ") {
		t.Error("no Go runtime metrics")
	}
	if _, err := serveDaemonMetrics(ctx, addr, home, slog.Default()); err == nil {
		t.Error("a second server on the same address did not fail")
	}
}
