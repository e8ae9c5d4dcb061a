package browser_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestRebindingInChromium: a real browser that resolves evil.example to
// 127.0.0.1, as a DNS rebinding page makes it, gets 403 forbidden for
// localdev's dashboard and for a keyless contribute from that page; the
// real dashboard's same-origin contribute passes, and a cross-site form
// POST (Origin null) is refused before routing; nothing the attacker sent
// is stored.
func TestRebindingInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("starts localdev and chromium")
	}
	chromium, node, modules := browserTools(t)
	base, _ := startLocaldev(t, buildPumasi(t), t.TempDir())

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	script := exec.CommandContext(ctx, node, "rebinding.cjs")
	script.Env = append(os.Environ(), "NODE_PATH="+modules, "PUMASI_BASE="+base, "PUMASI_CHROMIUM="+chromium)
	script.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	script.Stdout, script.Stderr = &stdout, &stderr
	runErr := script.Run()
	type report struct {
		Step    string `json:"step"`
		Status  int    `json:"status"`
		Code    string `json:"code"`
		Body    string `json:"body"`
		Message string `json:"message"`
	}
	steps := map[string]report{}
	for _, l := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var r report
		if json.Unmarshal([]byte(l), &r) == nil && r.Step != "" {
			steps[r.Step] = r
			t.Logf("step %s", l)
		}
	}
	if runErr != nil || steps["done"].Step == "" {
		t.Fatalf("rebinding.cjs: %v; error: %s; stderr: %s", runErr, steps["error"].Message, tail(stderr.String(), 2000))
	}
	for _, c := range []struct {
		step   string
		status int
	}{
		{"rebinding-dashboard", 403},
		{"rebinding-contribute", 403},
		{"own-dashboard", 200},
		{"own-contribute", 201},
		{"cross-site-form", 403},
	} {
		if got := steps[c.step].Status; got != c.status {
			t.Errorf("%s = %d %+v, want %d", c.step, got, steps[c.step], c.status)
		}
	}
	if !strings.Contains(steps["rebinding-dashboard"].Body, `"forbidden"`) || steps["rebinding-contribute"].Code != "forbidden" ||
		!strings.Contains(steps["cross-site-form"].Body, `"forbidden"`) {
		t.Errorf("refusals do not say forbidden: %+v", steps)
	}
	var found struct {
		Data []struct {
			Title string `json:"title"`
		} `json:"data"`
	}
	getJSON(t, base+"/knowledge/query?limit=50&q="+url.QueryEscape("rebound sameorigin pgx pool_max_conns"), "", &found)
	var titles []string
	for _, h := range found.Data {
		titles = append(titles, h.Title)
	}
	if all := strings.Join(titles, "\n"); strings.Contains(all, "rebound") || !strings.Contains(all, "sameorigin") {
		t.Fatalf("stored entries %q: want the same-origin one and not the rebinding page's", titles)
	}
}
