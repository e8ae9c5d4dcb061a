package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestKnowHookLeavesOutQuarantined: the hooks inject through the query
// route, so an entry two agents flagged is still injected, and one three
// distinct agents flagged (the default threshold) is not.
func TestKnowHookLeavesOutQuarantined(t *testing.T) {
	srv := knowServer(t)
	env := map[string]string{"PUMASI_SERVER": srv.URL, "PUMASI_AGENT": "hook-agent"}
	out, _, err := runCLI(t, env, "know", "contribute", "--json", "--title", "Postgres now() is frozen in a transaction", "--content", knowTestContent)
	if err != nil {
		t.Fatalf("contribute: %v", err)
	}
	var d struct {
		EntryID string `json:"entry_id"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil || d.EntryID == "" {
		t.Fatalf("contribute printed %q", out)
	}
	injected := func() bool {
		t.Helper()
		stdout, stderr, err, _ := runHook(t, srv.URL, userPromptSubmit)
		if err != nil || stderr != "" {
			t.Fatalf("hook = %v, stderr %q", err, stderr)
		}
		return strings.Contains(stdout, d.EntryID)
	}
	flag := func(agent string) {
		t.Helper()
		req, _ := http.NewRequest("POST", srv.URL+"/knowledge/"+d.EntryID+"/flag", strings.NewReader(`{"reason":"wrong"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Hive-Agent", agent)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("flag by %s = %d", agent, resp.StatusCode)
		}
	}
	if !injected() {
		t.Fatalf("the hook does not inject the entry before any flag")
	}
	flag("flagger-1")
	flag("flagger-2")
	flag("flagger-2") // a repeat does not count
	if !injected() {
		t.Fatalf("two distinct flaggers kept the entry out of the hook")
	}
	flag("flagger-3")
	if injected() {
		t.Fatalf("the hook injects an entry three distinct agents flagged")
	}
}
