package browser_test

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"time"
)

// TestDashboardHistory: two people's tokens (subjects alice and bob) make
// three versions of plan.md and delete notes.md; in Chromium, alice reads
// the room log, opens plan.md's history, compares versions line by line,
// restores version 1 and brings notes.md back. The server then holds what
// the page did, recorded under alice.
func TestDashboardHistory(t *testing.T) {
	l := startLocaldev(t)
	alice, bob := l.Token("--room", room, "--subject", "alice"), l.Token("--room", room, "--subject", "bob")
	send := func(method, path, token, body string) {
		t.Helper()
		l.Must(method, path, token, body, "Content-Type", "text/markdown")
	}
	v1 := "# plan\n- step one\n"
	send("POST", "/rooms/"+room+"/files?name=plan.md", alice, v1)
	send("POST", "/rooms/"+room+"/files?name=plan.md", bob, "# plan\n- step one\n- step two by bob\n")
	send("POST", "/rooms/"+room+"/files?name=plan.md", alice, "# plan\n- step one\n- step two, done\n- step three\n")
	send("POST", "/rooms/"+room+"/files?name=notes.md", bob, "notes\n")
	send("DELETE", "/rooms/"+room+"/files/notes.md", bob, "")

	r := l.Drive("history.cjs", 2*time.Minute, map[string]any{"token": alice, "room": room})
	checkShots(t, r.Artifacts, shot{"history-1280.png", 1280}, shot{"room-log-1280.png", 1280}, shot{"history-375.png", 750})

	// The server holds what the page did, under alice.
	var vl struct {
		Versions []struct {
			Version      int    `json:"version"`
			SHA256       string `json:"sha256"`
			UploadedBy   string `json:"uploaded_by"`
			RestoredFrom int    `json:"restored_from"`
			Current      bool   `json:"current"`
		} `json:"versions"`
	}
	if code := l.JSON("GET", "/rooms/"+room+"/files/plan.md/versions", alice, nil, &vl); code != 200 || len(vl.Versions) != 4 {
		t.Fatalf("versions after the page = %d %+v", code, vl.Versions)
	}
	sum := sha256.Sum256([]byte(v1))
	if v := vl.Versions[0]; v.Version != 4 || v.SHA256 != hex.EncodeToString(sum[:]) || v.UploadedBy != "alice" || v.RestoredFrom != 1 || !v.Current {
		t.Fatalf("newest version = %+v, want v4 restored from v1 by alice", v)
	}
	var listing struct {
		Files []struct {
			Name       string `json:"name"`
			UploadedBy string `json:"uploaded_by"`
		} `json:"files"`
	}
	l.JSON("GET", "/rooms/"+room+"/files", alice, nil, &listing)
	if len(listing.Files) != 2 || listing.Files[0].Name != "notes.md" || listing.Files[0].UploadedBy != "alice" {
		t.Fatalf("listing after the page = %+v, want notes.md back (restored by alice) and plan.md", listing.Files)
	}
}
