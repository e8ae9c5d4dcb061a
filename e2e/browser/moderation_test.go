package browser_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Findings of hive e2e the moderation view lists: two an agent flags, three
// an admin's flag quarantines.
var modFindings = []map[string]any{
	{"title": "modernc sqlite: set busy_timeout in the DSN", "content": "With modernc.org/sqlite v1.62.0, pass _pragma=busy_timeout(5000) and _txlock=immediate in the DSN so every pooled connection gets them; otherwise concurrent writers fail with SQLITE_BUSY (database is locked)."},
	{"title": "Postgres now() is frozen in a transaction", "content": "Postgres 15 `now()` returns the transaction start time; inside a long BEGIN block use `clock_timestamp()` to measure elapsed time."},
	{"title": "gorilla/websocket allows one concurrent writer", "content": "With github.com/gorilla/websocket v1.5.3, Conn.WriteMessage is not safe for concurrent use: serialise writes through one goroutine or a mutex, or it panics with \"concurrent write to websocket connection\"."},
	{"title": "npm ci needs a lockfile in sync with package.json", "content": "npm ci (npm 9 and later) exits with EUSAGE when package-lock.json does not match package.json; run npm install once and commit the lockfile instead of deleting it in CI."},
	{"title": "GitHub Actions cache keys are immutable", "content": "actions/cache@v4 never overwrites an existing key: put hashFiles('**/go.sum') in the key, or a cache saved once is restored forever and new modules are downloaded on every run."},
}

// Twins of hive e2e-merge: each pair is accepted as two entries (localdev
// runs with PUMASI_MERGE_THRESHOLD=1.01, as two racing contributions would
// be) and `pumasi sweep` at the default threshold folds the second into the
// first.
var modTwins = [][2]map[string]any{
	{
		{"title": "pgx v5 pool_max_conns default is too small", "content": "pgx v5 pgxpool defaults pool_max_conns to max(4, GOMAXPROCS); under 64 concurrent requests set pool_max_conns=32 in the DSN or requests queue on the pool."},
		{"title": "pgx v5 pool_max_conns default is too small", "content": "pgx v5 pgxpool defaults pool_max_conns to max(4, GOMAXPROCS); under 64 concurrent requests set pool_max_conns=32 in the DSN or requests queue on the pool. Confirmed on v5.7.1."},
	},
	{
		{"title": "Go 1.22 gives each loop iteration its own variable", "content": "Since Go 1.22 every iteration of a for loop has its own loop variable, so closures started in the loop no longer need `v := v`; a module whose go.mod says go 1.21 or older keeps the shared variable."},
		{"title": "Go 1.22 gives each loop iteration its own variable", "content": "Since Go 1.22 every iteration of a for loop has its own loop variable, so closures started in the loop no longer need `v := v`; a module whose go.mod says go 1.21 or older keeps the shared variable. Checked with go1.26.8."},
	},
}

// knowEntry is what GET /knowledge/{id} says of an entry.
type knowEntry struct {
	ID            string `json:"id"`
	MergedInto    string `json:"merged_into"`
	Quarantined   bool   `json:"quarantined"`
	Contributions []struct {
		Agent string `json:"agent"`
	} `json:"contributions"`
	ContributionCount int `json:"contribution_count"`
	EndorsementCount  int `json:"endorsement_count"`
	CitationCount     int `json:"citation_count"`
}

func (l *localdev) entry(id string) (int, knowEntry) {
	l.t.Helper()
	var ans struct{ Data knowEntry }
	status := l.JSON("GET", "/knowledge/"+id, "", nil, &ans)
	return status, ans.Data
}

// TestDashboardModeration: five entries, two flagged by an agent and three
// quarantined by an admin's flag, and two pairs of twins the sweep merged;
// in Chromium at 1280 and 375 px the admin's Moderation view lists them all
// with their histories (who flagged and why, the merge), restores one,
// reports an entry redacted behind its back as gone, redacts another after a
// confirmation, quarantines a flagged one with a reason, and undoes one merge
// at each width after a confirmation, without console errors; a room token
// sees no Moderation tab. The server then serves the restored entry to
// queries again, answers 410 for the redacted ones, and holds each absorbed
// entry live again with its own contributor and counts, its survivor back to
// its own, and the merge marked undone by the page's admin in the entry's
// history.
func TestDashboardModeration(t *testing.T) {
	l := startLocaldev(t, "PUMASI_MERGE_THRESHOLD=1.01")
	roomToken := l.Token("--room", room)
	// The page's admin has a name, which the merge's history must record.
	moderator := l.Token("--admin", "--subject", "moderator-jo")
	ids := make([]string, len(modFindings))
	for i, f := range modFindings {
		f["hive"] = "e2e"
		ids[i] = l.Contribute("e2e-moderation", f)
	}
	flagged, restored, redacted, stale, toQuarantine := ids[0], ids[1], ids[2], ids[3], ids[4]
	const flagNote = "v1.63 changed this"

	// Twins, the absorbed one with endorsements and a citation of its own.
	type merge struct {
		ID   string `json:"id"`
		Into string `json:"into"`
	}
	merges := make([]merge, len(modTwins))
	for i, pair := range modTwins {
		pair[0]["hive"], pair[1]["hive"] = "e2e-merge", "e2e-merge"
		merges[i].Into = l.Contribute("twin-first", pair[0])
		merges[i].ID = l.Contribute("twin-second", pair[1])
		l.Must("POST", "/knowledge/"+merges[i].ID+"/endorse", "", nil, "X-Hive-Agent", "reader-1")
		l.Must("POST", "/knowledge/"+merges[i].ID+"/endorse", "", nil, "X-Hive-Agent", "reader-2")
		l.Must("POST", "/knowledge/"+merges[i].ID+"/cite", "", nil, "X-Hive-Agent", "reader-1")
	}
	var rep struct {
		Knowledge struct {
			Merged int `json:"merged"`
		} `json:"knowledge"`
	}
	out := l.CLI([]string{"PUMASI_MERGE_THRESHOLD="}, "sweep", "--home", l.Home)
	if err := json.Unmarshal(out, &rep); err != nil || rep.Knowledge.Merged != len(merges) {
		t.Fatalf("pumasi sweep = %s (%v), want %d merged", out, err, len(merges))
	}
	for _, m := range merges {
		if status, e := l.entry(m.ID); status != 200 || e.ID != m.Into || e.MergedInto != m.Into || e.ContributionCount != 2 || e.EndorsementCount != 2 {
			t.Fatalf("absorbed %s after the sweep = %d %+v, want its survivor %s with both contributors and the endorsements", m.ID, status, e, m.Into)
		}
	}

	if status, body := l.Do("POST", "/knowledge/"+flagged+"/flag", "", map[string]string{"reason": "outdated", "note": flagNote}, "X-Hive-Agent", "agent-flagger"); status != 200 {
		t.Fatalf("agent flag = %d %s", status, body)
	}
	if status, body := l.Do("POST", "/knowledge/"+toQuarantine+"/flag", "", map[string]string{"reason": "outdated"}, "X-Hive-Agent", "agent-flagger"); status != 200 {
		t.Fatalf("agent flag = %d %s", status, body)
	}
	for _, id := range []string{restored, redacted, stale} {
		if status, body := l.Do("POST", "/knowledge/"+id+"/flag", l.Admin, map[string]string{"reason": "harmful"}); status != 200 {
			t.Fatalf("admin flag = %d %s", status, body)
		}
	}

	r := l.Drive("moderation.cjs", 3*time.Minute, map[string]any{
		"token": moderator, "room_token": roomToken,
		"flagged": flagged, "restored": restored, "redacted": redacted, "quarantine": toQuarantine, "stale": stale, "flag_note": flagNote,
		"merges": merges,
	})
	checkShots(t, r.Artifacts, shot{"moderation-1280.png", 1280}, shot{"moderation-375.png", 750})

	// What the page did is what the server holds.
	if status, e := l.entry(restored); status != 200 || e.Quarantined {
		t.Fatalf("restored entry = %d %+v, want 200 and not quarantined", status, e)
	}
	for _, id := range []string{redacted, stale} {
		if status, body := l.Do("GET", "/knowledge/"+id, "", nil); status != http.StatusGone {
			t.Fatalf("redacted entry = %d %s, want 410", status, body)
		}
	}
	if status, e := l.entry(toQuarantine); status != 200 || !e.Quarantined {
		t.Fatalf("entry quarantined through the page = %d %+v, want quarantined", status, e)
	}
	_, body := l.Do("GET", "/knowledge/query?hive=e2e&q=postgres+now+transaction+clock_timestamp", "", nil)
	if !strings.Contains(string(body), restored) {
		t.Fatalf("the restored entry is not found again: %s", body)
	}

	for _, m := range merges {
		status, e := l.entry(m.ID)
		if status != 200 || e.ID != m.ID || e.MergedInto != "" || e.ContributionCount != 1 || len(e.Contributions) != 1 ||
			e.Contributions[0].Agent != "twin-second" || e.EndorsementCount != 2 || e.CitationCount != 1 {
			t.Fatalf("unmerged %s = %d %+v, want it live with its own contributor twin-second, 2 endorsements and 1 citation", m.ID, status, e)
		}
		if status, s := l.entry(m.Into); status != 200 || s.ID != m.Into || s.ContributionCount != 1 || s.Contributions[0].Agent != "twin-first" ||
			s.EndorsementCount != 0 || s.CitationCount != 0 {
			t.Fatalf("survivor %s after the undo = %d %+v, want its own contributor and no counts", m.Into, status, s)
		}
		var hist struct {
			Data struct {
				Events []struct {
					Kind    string `json:"kind"`
					OtherID string `json:"other_id"`
					Via     string `json:"via"`
					By      string `json:"by"`
				} `json:"events"`
			} `json:"data"`
		}
		l.JSON("GET", "/knowledge/"+m.ID+"/history", "", nil, &hist)
		ev := hist.Data.Events
		if len(ev) != 2 || ev[0].Kind != "merged_into" || ev[1].Kind != "unmerged" || ev[1].OtherID != m.Into || ev[1].Via != "sweep" || ev[1].By != "moderator-jo" {
			t.Fatalf("history of %s = %+v, want merged_into then unmerged by moderator-jo", m.ID, ev)
		}
	}
	var view struct {
		Data struct {
			Merges []json.RawMessage `json:"merges"`
		} `json:"data"`
	}
	if status := l.JSON("GET", "/knowledge/moderation", l.Admin, nil, &view); status != 200 || len(view.Data.Merges) != 0 {
		t.Fatalf("moderation after the undos = %d, %d merges in effect, want none", status, len(view.Data.Merges))
	}
}
