package functions_test

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"pumasi"
)

// TestSocketPlainGETIsContractError checks that GET /machines/{machine}/ws
// without a WebSocket upgrade answers the contract's JSON error body (DESIGN
// §4), not the WebSocket library's text/plain one.
func TestSocketPlainGETIsContractError(t *testing.T) {
	e := newAuthzEnv(t, false)
	req, err := http.NewRequest("GET", e.srv.URL+"/machines/m1/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+e.tokens["machine:m1"])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var eb struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	if err := json.Unmarshal(body, &eb); err != nil || resp.StatusCode != 400 || eb.Error.Code != pumasi.EInvalidRequest {
		t.Fatalf("plain GET = %d %q, want 400 with error code %s", resp.StatusCode, body, pumasi.EInvalidRequest)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type = %q, want application/json", ct)
	}
	// The real handshake still works.
	e.dialWS("/machines/m1/ws", e.tokens["machine:m1"], 101).Close()
}
