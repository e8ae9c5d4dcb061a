package browser_test

import (
	"encoding/json"
	"net/url"
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
	l := startLocaldev(t)
	r := l.Drive("rebinding.cjs", 2*time.Minute, nil)
	type report struct {
		Step    string `json:"step"`
		Status  int    `json:"status"`
		Code    string `json:"code"`
		Body    string `json:"body"`
		Message string `json:"message"`
	}
	steps := map[string]report{}
	for name, raw := range r.Steps {
		var s report
		json.Unmarshal(raw, &s)
		steps[name] = s
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
	l.JSON("GET", "/knowledge/query?limit=50&q="+url.QueryEscape("rebound sameorigin pgx pool_max_conns"), "", nil, &found)
	var titles []string
	for _, h := range found.Data {
		titles = append(titles, h.Title)
	}
	if all := strings.Join(titles, "\n"); strings.Contains(all, "rebound") || !strings.Contains(all, "sameorigin") {
		t.Fatalf("stored entries %q: want the same-origin one and not the rebinding page's", titles)
	}
}
