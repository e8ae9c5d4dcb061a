package functions

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"

	"pumasi"
	"pumasi/adapters/embed"
	"pumasi/adapters/local"
)

// TestKnowledgeAbsorbedIDModeration: the id of an entry the sweep absorbed
// answers every moderation route the way GET answers it. Restore restores
// its survivor (it answered 404), supersedes names its survivor (404), and
// DELETE redacts it inside its survivor (404), after which every route on
// it answers 410 while the survivor lives on with its own contribution.
func TestKnowledgeAbsorbedIDModeration(t *testing.T) {
	st, err := local.Open(context.Background(), t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	k := local.NewKnowledge(st)
	racy := &API{Store: st, Knowledge: k, Embedder: embed.NewHashed(0), MergeThreshold: 1.01, Secret: testSecret}
	srv := httptest.NewServer(racy.Handler())
	defer srv.Close()
	e := &knowEnv{t: t, srv: srv, know: k}
	admin := modToken(t, pumasi.ScopeAdmin)
	a := e.do("POST", "/knowledge/contribute", "agent-a", contributeBody(findingTitle, findingContent, ""))
	b := e.do("POST", "/knowledge/contribute", "agent-b", contributeBody(findingTitle, findingContent+" Confirmed on 0.7.", ""))
	if a.status != 201 || b.status != 201 {
		t.Fatalf("forced race = %d, %d, want two 201", a.status, b.status)
	}
	if rep, err := (&API{Knowledge: k}).SweepKnowledge(context.Background()); err != nil || rep.Merged != 1 {
		t.Fatalf("sweep = %+v, %v; want 1 merged", rep, err)
	}
	keep := a.data()["entry"].(map[string]any)["id"].(string)
	gone := b.data()["entry"].(map[string]any)["id"].(string)

	if r := e.doAs("POST", "/knowledge/"+gone+"/flag", "the-admin", admin, `{"reason":"harmful"}`); r.status != 200 || r.data()["id"] != keep || r.data()["quarantined"] != true {
		t.Fatalf("admin flag on the absorbed id = %d %s, want the survivor quarantined", r.status, r.raw)
	}
	r := e.doAs("POST", "/knowledge/"+gone+"/restore", "", admin, "")
	if r.status != 200 || r.data()["id"] != keep || r.data()["merged_into"] != keep || r.data()["quarantined"] != false {
		t.Fatalf("restore on the absorbed id = %d %s, want 200 with the survivor %s lifted, merged_into set", r.status, r.raw, keep)
	}

	body, _ := json.Marshal(map[string]any{"title": "Newer finding about the same flag",
		"content": "From 0.8 on the option is spelled --keep-ttl, and --keepttl warns.", "supersedes": gone})
	r = e.do("POST", "/knowledge/contribute", "agent-c", string(body))
	if r.status != 201 || r.data()["entry"].(map[string]any)["supersedes"] != keep {
		t.Fatalf("supersedes the absorbed id = %d %s, want 201 superseding its survivor %s", r.status, r.raw, keep)
	}

	for i := range 2 {
		if status, m := e.modReq("DELETE", "/knowledge/"+gone+"?reason=leak", "", admin, ""); status != 204 {
			t.Fatalf("DELETE of the absorbed id (%d) = %d %v, want 204", i+1, status, m)
		}
	}
	for _, c := range []struct{ method, path, agent, token, body string }{
		{"GET", "/knowledge/" + gone, "", "", ""},
		{"POST", "/knowledge/" + gone + "/cite", "reader-1", "", ""},
		{"POST", "/knowledge/" + gone + "/flag", "reader-1", "", `{"reason":"pii"}`},
		{"POST", "/knowledge/" + gone + "/restore", "", admin, ""},
		{"POST", "/knowledge/" + gone + "/unmerge", "", admin, ""},
	} {
		if r := e.doAs(c.method, c.path, c.agent, c.token, c.body); r.status != 410 || r.errCode() != "gone" {
			t.Errorf("%s %s after the redaction = %d %s, want 410 gone", c.method, c.path, r.status, r.raw)
		}
	}
	r = e.do("GET", "/knowledge/"+gone+"/history", "", "")
	events, _ := r.data()["events"].([]any)
	if r.status != 200 || len(events) == 0 || events[len(events)-1].(map[string]any)["kind"] != "redacted" {
		t.Fatalf("history of the redacted absorbed id = %d %s, want its redaction last", r.status, r.raw)
	}
	r = e.do("GET", "/knowledge/"+keep, "", "")
	contribs, _ := r.data()["contributions"].([]any)
	if r.status != 200 || r.data()["contribution_count"] != 1.0 || len(contribs) != 1 || contribs[0].(map[string]any)["agent"] != "agent-a" {
		t.Fatalf("survivor after the redaction = %d %s, want live with agent-a's contribution only", r.status, r.raw)
	}
}
