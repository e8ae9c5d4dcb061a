package functions

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http/httptest"
	"net/textproto"
	"net/url"
	"strings"
	"testing"
	"time"

	"pumasi"
	"pumasi/adapters/embed"
	"pumasi/adapters/local"
	"pumasi/gate"
	"pumasi/knowledge"
)

// jsonOfSize returns {"<key>":"aaa..."} of exactly n bytes.
func jsonOfSize(t *testing.T, key string, n int) string {
	t.Helper()
	head := `{"` + key + `":"`
	pad := n - len(head) - len(`"}`)
	if pad < 0 {
		t.Fatalf("%d bytes is too small for a %s body", n, key)
	}
	s := head + strings.Repeat("a", pad) + `"}`
	if len(s) != n {
		t.Fatalf("built %d bytes, want %d", len(s), n)
	}
	return s
}

// TestJSONBodyLimit: every JSON endpoint takes a body of exactly
// MaxJSONBody bytes and answers 413 too_large one byte later, having
// changed nothing.
func TestJSONBodyLimit(t *testing.T) {
	e := newTestEnv(t)
	// Knowledge shares the store; the decoder runs before the gate.
	api := &API{Store: e.store, Secret: testSecret, Knowledge: local.NewKnowledge(e.store), Embedder: embed.NewHashed(0),
		RateLimits: RateLimits{Disabled: true}}
	srv := httptest.NewServer(api.Handler())
	t.Cleanup(srv.Close)
	e.srv = srv

	tests := []struct {
		name, method, path, key string
		okStatus                int
		header                  map[string]string
	}{
		// "text" is a known field; a body of only padding still decodes.
		{"resolve", "POST", "/rooms/r1/resolve", "text", 200, nil},
		// An unknown field decodes and the missing machine id is refused
		// after the size check: 400 proves the body was read whole.
		{"place", "PUT", "/rooms/r1/agents/a1", "padding", 400, nil},
		{"contribute", "POST", "/knowledge/contribute", "padding", 400, map[string]string{HeaderAgent: "limit-agent"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do(tt.method, tt.path, e.admin, strings.NewReader(jsonOfSize(t, tt.key, MaxJSONBody)), tt.header)
			if r.status != tt.okStatus {
				t.Fatalf("%d-byte body = %d %s, want %d", MaxJSONBody, r.status, r.body, tt.okStatus)
			}
			r = e.do(tt.method, tt.path, e.admin, strings.NewReader(jsonOfSize(t, tt.key, MaxJSONBody+1)), tt.header)
			if r.status != 413 || r.code() != pumasi.ETooLarge {
				t.Fatalf("%d-byte body = %d %s, want 413 too_large", MaxJSONBody+1, r.status, r.body)
			}
			r = e.do(tt.method, tt.path, e.admin, strings.NewReader(jsonOfSize(t, tt.key, 8<<20)), tt.header)
			if r.status != 413 || r.code() != pumasi.ETooLarge {
				t.Fatalf("8 MiB body = %d %s, want 413 too_large", r.status, r.body)
			}
		})
	}
	if l := e.listing("r1"); l.Rev != 0 {
		t.Fatalf("room r1 rev %d after refused requests, want 0", l.Rev)
	}
}

// multipartParts builds a multipart body from (field, filename, content)
// parts; an empty filename makes a plain form field.
func multipartParts(t *testing.T, parts ...[3]string) (*bytes.Buffer, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, p := range parts {
		h := textproto.MIMEHeader{}
		cd := `form-data; name="` + p[0] + `"`
		if p[1] != "" {
			cd += `; filename="` + p[1] + `"`
		}
		h.Set("Content-Disposition", cd)
		w, err := mw.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(p[2]))
	}
	mw.Close()
	return &buf, mw.FormDataContentType()
}

// TestMultipartLimits: a multipart upload is bounded as a whole (a huge
// non-file field is 413, not buffered) and in its number of parts; a few
// ordinary fields beside the file are fine.
func TestMultipartLimits(t *testing.T) {
	e := newTestEnv(t)
	post := func(body *bytes.Buffer, ctype string) response {
		t.Helper()
		return e.do("POST", "/rooms/r1/files", e.admin, body, map[string]string{"Content-Type": ctype})
	}

	body, ctype := multipartParts(t, [3]string{"note", "", "hello"}, [3]string{"room", "", "r1"}, [3]string{"file", "ok.md", "# ok\n"})
	if r := post(body, ctype); r.status != 201 {
		t.Fatalf("file beside two small fields = %d %s, want 201", r.status, r.body)
	}

	body, ctype = multipartParts(t, [3]string{"junk", "", strings.Repeat("j", 4<<20)}, [3]string{"file", "big-field.md", "x\n"})
	if r := post(body, ctype); r.status != 413 || r.code() != pumasi.ETooLarge {
		t.Fatalf("4 MiB non-file field = %d %s, want 413 too_large", r.status, r.body)
	}

	body, ctype = multipartParts(t, [3]string{"file", "big-file.md", strings.Repeat("f", pumasi.MaxFileSize+1)})
	if r := post(body, ctype); r.status != 413 || r.code() != pumasi.ETooLarge {
		t.Fatalf("file part one byte over the limit = %d %s, want 413 too_large", r.status, r.body)
	}

	var many [][3]string
	for i := 0; i < 2000; i++ {
		many = append(many, [3]string{fmt.Sprintf("f%d", i), "", "x"})
	}
	many = append(many, [3]string{"file", "many.md", "x\n"})
	body, ctype = multipartParts(t, many...)
	if r := post(body, ctype); r.status != 413 || r.code() != pumasi.ETooLarge {
		t.Fatalf("2000 parts = %d %s, want 413 too_large", r.status, r.body)
	}

	parts := make([][3]string, 0, maxUploadParts)
	for i := 0; i < maxUploadParts-1; i++ {
		parts = append(parts, [3]string{fmt.Sprintf("f%d", i), "", "x"})
	}
	parts = append(parts, [3]string{"file", "edge.md", "edge\n"})
	body, ctype = multipartParts(t, parts...)
	if r := post(body, ctype); r.status != 201 {
		t.Fatalf("exactly %d parts = %d %s, want 201", maxUploadParts, r.status, r.body)
	}

	got := strings.Join(func() []string {
		var n []string
		for _, f := range e.listing("r1").Files {
			n = append(n, f.Name)
		}
		return n
	}(), ",")
	if got != "edge.md,ok.md" {
		t.Fatalf("room r1 holds %q, want only the two accepted uploads", got)
	}

	// A raw body is bounded the same way.
	if r := e.do("POST", "/rooms/r1/files?name=raw.md", e.admin, strings.NewReader(strings.Repeat("r", pumasi.MaxFileSize+1)), nil); r.status != 413 {
		t.Fatalf("raw body over the limit = %d, want 413", r.status)
	}
}

// TestStatusBodyLimit: a status report may be larger than MaxJSONBody (a
// machine lists every file it holds) but not larger than MaxStatusBody.
func TestStatusBodyLimit(t *testing.T) {
	e, _ := newPushEnv(t)
	if r := e.place(e.admin, "r1", "a1", "m1"); r.status != 200 {
		t.Fatalf("place = %d", r.status)
	}
	m1 := e.token(pumasi.ScopeMachine + "m1")
	report := func(files int) string {
		rep := StatusReport{Agents: []AgentHolding{{AgentID: "a1"}}}
		for i := 0; i < files; i++ {
			rep.Agents[0].Files = append(rep.Agents[0].Files, pumasi.Holding{Name: fmt.Sprintf("file-%06d.md", i), SHA256: strings.Repeat("0", 64)})
		}
		b, _ := json.Marshal(rep)
		return string(b)
	}
	big := report(10000) // about 1 MiB
	if len(big) <= MaxJSONBody || len(big) >= MaxStatusBody {
		t.Fatalf("report of %d bytes does not sit between the limits", len(big))
	}
	if r := e.do("POST", "/machines/m1/status", m1, strings.NewReader(big), nil); r.status != 204 {
		t.Fatalf("%d-byte status = %d %s, want 204", len(big), r.status, r.body)
	}
	sts, err := e.store.AgentStatuses(context.Background(), []string{"a1"})
	if err != nil || len(sts["a1"].Files) != 10000 {
		t.Fatalf("recorded %d files (%v), want 10000", len(sts["a1"].Files), err)
	}
	over := `{"agents":[],"pad":"` + strings.Repeat("p", MaxStatusBody) + `"}`
	if r := e.do("POST", "/machines/m1/status", m1, strings.NewReader(over), nil); r.status != 413 || r.code() != pumasi.ETooLarge {
		t.Fatalf("%d-byte status = %d %s, want 413 too_large", len(over), r.status, r.body)
	}
}

// TestResolveReferenceLimit: resolve takes at most maxReferences explicit
// references.
func TestResolveReferenceLimit(t *testing.T) {
	e := newTestEnv(t)
	if r := e.upload("r1", "spec.md", []byte("# spec\n"), nil); r.status != 201 {
		t.Fatalf("upload = %d", r.status)
	}
	body := func(n int) string {
		refs := make([]string, n)
		for i := range refs {
			refs[i] = "spec.md"
		}
		b, _ := json.Marshal(resolveRequest{Text: "see", References: refs})
		return string(b)
	}
	r := e.do("POST", "/rooms/r1/resolve", e.admin, strings.NewReader(body(maxReferences)), nil)
	if r.status != 200 {
		t.Fatalf("%d references = %d %s, want 200", maxReferences, r.status, r.body)
	}
	r = e.do("POST", "/rooms/r1/resolve", e.admin, strings.NewReader(body(maxReferences+1)), nil)
	if r.status != 400 || r.code() != pumasi.EInvalidRequest {
		t.Fatalf("%d references = %d %s, want 400 invalid_request", maxReferences+1, r.status, r.body)
	}
}

// TestQueryLimitCap: /knowledge/query answers at most MaxQueryLimit hits
// however many are asked for and exist, and refuses limits that are not a
// positive integer.
func TestQueryLimitCap(t *testing.T) {
	ctx := context.Background()
	st, err := local.Open(ctx, t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	know := local.NewKnowledge(st)
	emb := embed.NewHashed(0)
	const entries = knowledge.MaxQueryLimit + 20
	for i := 0; i < entries; i++ {
		title := fmt.Sprintf("tool-%d setting", i)
		content := fmt.Sprintf("tool-%d v%d.%d: set `limit_%d=%d` in /etc/tool-%d.conf", i, i, i*7, i, i*13, i)
		vecs, err := emb.Embed(ctx, []string{knowledge.EmbeddingText(title, content)})
		if err != nil {
			t.Fatal(err)
		}
		res, err := know.Contribute(ctx, knowledge.ContributeInput{Hive: "academy", Agent: "seeder", Title: title, Content: content,
			NormHash: knowledge.Hash(title, content), Model: emb.Model(), Vector: vecs[0], Specificity: 0.9,
			Threshold: 2, At: time.Now()})
		if err != nil || res.Verdict != knowledge.VerdictAccepted {
			t.Fatalf("seed %d: %+v %v", i, res.Verdict, err)
		}
	}
	api := &API{Store: st, Secret: testSecret, Knowledge: know, Embedder: emb}
	srv := httptest.NewServer(api.Handler())
	t.Cleanup(srv.Close)
	e := &knowEnv{t: t, srv: srv, know: know}
	q := "/knowledge/query?q=" + url.QueryEscape("tool setting limit conf")
	for _, tt := range []struct {
		limit string
		want  int
	}{{"", knowledge.DefaultQueryLimit}, {"1", 1}, {"50", 50}, {"51", 50}, {"1000", 50}, {"2147483647", 50}} {
		path := q
		if tt.limit != "" {
			path += "&limit=" + tt.limit
		}
		r := e.do("GET", path, "", "")
		if r.status != 200 || len(r.list()) != tt.want {
			t.Fatalf("limit=%q: %d with %d hits, want 200 with %d", tt.limit, r.status, len(r.list()), tt.want)
		}
	}
	for _, bad := range []string{"0", "-1", "1e3", "99999999999999999999999", "ten"} {
		if r := e.do("GET", q+"&limit="+url.QueryEscape(bad), "", ""); r.status != 400 || r.errCode() != pumasi.EInvalidRequest {
			t.Fatalf("limit=%q = %d %s, want 400 invalid_request", bad, r.status, r.raw)
		}
	}
}

// TestContributionFieldLimits: tags are bounded after decoding; title and
// content sizes are The Hive's, judged by the gate.
func TestContributionFieldLimits(t *testing.T) {
	e := newKnowEnv(t)
	content := "pgx v5: set `pool_max_conns=10` in the DSN; the default is max(4, GOMAXPROCS)."
	tags := make([]string, knowledge.MaxTags+1)
	for i := range tags {
		tags[i] = fmt.Sprintf("t%d", i)
	}
	for name, body := range map[string]string{
		"many tags": contributeBody("pgx pool", content, "", tags...),
		"long tag":  contributeBody("pgx pool", content, "", strings.Repeat("g", knowledge.MaxTagRunes+1)),
	} {
		if r := e.do("POST", "/knowledge/contribute", "limit-agent", body); r.status != 400 || r.errCode() != pumasi.EInvalidRequest {
			t.Errorf("%s = %d %s, want 400 invalid_request", name, r.status, r.raw)
		}
	}
	// The Hive's limits (title 3-200, content up to 12,000 characters) are a
	// gate stage: a 422 verdict with a reason. Only the body cap answers 413.
	long := strings.Repeat(content+" ", gate.HiveMaxContentRunes/len(content)+1)
	for name, c := range map[string]struct {
		title, content string
		status         int
	}{
		"short title":  {"pg", content, 422},
		"long title":   {strings.Repeat("t", gate.HiveMaxTitleRunes+1), content, 422},
		"long content": {"pgx pool", long[:gate.HiveMaxContentRunes+1], 422},
		"at limits":    {strings.Repeat("p", gate.HiveMaxTitleRunes), strings.TrimSpace(long[:gate.HiveMaxContentRunes]), 201},
		"past body":    {"pgx pool", strings.Repeat("c", knowledge.MaxContentRunes+1), 413},
	} {
		r := e.do("POST", "/knowledge/contribute", "limit-agent", contributeBody(c.title, c.content, ""))
		if r.status != c.status || c.status == 422 && (r.data()["stage"] != gate.StageLimits || r.data()["reason"] == "") {
			t.Errorf("%s = %d %.300s, want %d", name, r.status, r.raw, c.status)
		}
	}
	// In a hive of its own: in academy it would merge into the entry at limits.
	if r := e.do("POST", "/knowledge/contribute", "limit-agent", contributeBody("pgx pool", content, "tags", tags[:knowledge.MaxTags]...)); r.status != 201 {
		t.Fatalf("%d tags = %d %s, want 201", knowledge.MaxTags, r.status, r.raw)
	}
}
