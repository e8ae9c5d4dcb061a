package functions_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"pumasi"
	"pumasi/functions"
)

var (
	authzSecret  = []byte("authz-matrix-secret-0123456789abcdef")
	forgedSecret = []byte("someone-elses-secret-0123456789abcd")
)

// creds are the credential columns of the matrix, in the order of every
// row's want. Knowledge writes are keyless by design (DESIGN.md §7): the
// X-Hive-Agent handle names the writer, else any bearer does (a keyed Hive
// client, attributed to a handle derived from the key), so those routes have
// a row with a handle and a row without.
var creds = []string{"none", "forged", "expired", "admin", "room:r1", "room:r2", "machine:m1", "machine:m2"}

// connectionsRoute names localdev's @connections management endpoint, which
// is not one of functions.Routes() but guards the same daemons.
const connectionsRoute = "localdev /@connections/{id}"

// metricsRoute is GET /metrics, served by API.MetricsHandler in front of the
// route table (localdev mounts it; Lambda does not).
const metricsRoute = "GET /metrics"

// authzRow is one request of the matrix and the status each credential gets.
type authzRow struct {
	// route is "METHOD PATTERN" of the functions.Routes() entry the request
	// exercises, or connectionsRoute.
	route  string
	name   string
	method string
	// path may hold {entry} (the seeded knowledge entry) and {conn} (the
	// live WebSocket connection of m1).
	path   string
	body   string
	header map[string]string
	ws     bool
	// want is indexed like creds.
	want [8]int
	// denyCode is the error code of a 401, when not unauthorized, or of a
	// 400.
	denyCode string
}

// Shorthands for the common columns: none, forged, expired answer 401;
// the rest as given.
func room1Write(ok int) [8]int { return [8]int{401, 401, 401, ok, ok, 403, 403, 403} }
func room2Write(ok int) [8]int { return [8]int{401, 401, 401, ok, 403, ok, 403, 403} }
func machine1(ok int) [8]int   { return [8]int{401, 401, 401, ok, 403, 403, ok, 403} }
func machine2(ok int) [8]int   { return [8]int{401, 401, 401, ok, 403, 403, 403, ok} }
func everyone(status int) [8]int {
	return [8]int{status, status, status, status, status, status, status, status}
}

const (
	findingA = `{"title":"Redis lock reply","content":"Redis 7: ` + "`SET key val NX PX 30000`" + ` returns nil when the lock is held; check the reply, not the error."}`
	findingB = `{"title":"pgx pool size","content":"pgx v5: set ` + "`pool_max_conns=10`" + ` in the DSN; the default is max(4, GOMAXPROCS) and Supabase caps at 60 connections."}`
)

var handle = map[string]string{functions.HeaderAgent: "matrix-agent"}

// authzRows: room r1 holds spec.md and agent a1 on machine m1; room r2 holds
// plan.md and agent a2 on machine m2 (see newAuthzEnv).
var authzRows = []authzRow{
	{route: "GET /healthz", name: "health", method: "GET", path: "/healthz", want: everyone(200)},
	{route: "GET /livez", name: "liveness", method: "GET", path: "/livez", want: everyone(200)},

	{route: "POST /rooms/{room}/files", name: "upload r1", method: "POST", path: "/rooms/r1/files?name=new.md", body: "new\n", want: room1Write(201)},
	{route: "POST /rooms/{room}/files", name: "upload r2", method: "POST", path: "/rooms/r2/files?name=new.md", body: "new\n", want: room2Write(201)},
	// Machine tokens read the rooms their agents are in, and no others.
	{route: "GET /rooms/{room}/files", name: "list r1", method: "GET", path: "/rooms/r1/files", want: [8]int{401, 401, 401, 200, 200, 403, 200, 403}},
	{route: "GET /rooms/{room}/files", name: "list r2", method: "GET", path: "/rooms/r2/files", want: [8]int{401, 401, 401, 200, 403, 200, 403, 200}},
	{route: "GET /rooms/{room}/files/{name}", name: "get r1", method: "GET", path: "/rooms/r1/files/spec.md", want: [8]int{401, 401, 401, 200, 200, 403, 200, 403}},
	{route: "GET /rooms/{room}/files/{name}", name: "get r2", method: "GET", path: "/rooms/r2/files/plan.md", want: [8]int{401, 401, 401, 200, 403, 200, 403, 200}},
	{route: "GET /rooms/{room}/files/{name}", name: "get r1 meta", method: "GET", path: "/rooms/r1/files/spec.md?meta=1", want: [8]int{401, 401, 401, 200, 200, 403, 200, 403}},
	// A room's names never resolve through another room.
	{route: "GET /rooms/{room}/files/{name}", name: "get r2's name in r1", method: "GET", path: "/rooms/r1/files/plan.md", want: [8]int{401, 401, 401, 404, 404, 403, 404, 403}},
	{route: "DELETE /rooms/{room}/files/{name}", name: "delete r1", method: "DELETE", path: "/rooms/r1/files/spec.md", want: room1Write(204)},
	{route: "DELETE /rooms/{room}/files/{name}", name: "delete r2", method: "DELETE", path: "/rooms/r2/files/plan.md", want: room2Write(204)},
	// History is for people and agents of the room; a daemon mirrors only the present.
	{route: "GET /rooms/{room}/files/{name}/versions", name: "versions r1", method: "GET", path: "/rooms/r1/files/spec.md/versions", want: room1Write(200)},
	{route: "GET /rooms/{room}/files/{name}/versions", name: "versions r2", method: "GET", path: "/rooms/r2/files/plan.md/versions", want: room2Write(200)},
	{route: "GET /rooms/{room}/files/{name}", name: "get r1 version 1", method: "GET", path: "/rooms/r1/files/spec.md?version=1", want: room1Write(200)},
	{route: "GET /rooms/{room}/files", name: "deleted names r1", method: "GET", path: "/rooms/r1/files?deleted=1", want: room1Write(200)},
	{route: "POST /rooms/{room}/files/{name}/restore", name: "restore r1", method: "POST", path: "/rooms/r1/files/spec.md/restore", body: `{"version":1}`, want: room1Write(200)},
	{route: "POST /rooms/{room}/files/{name}/restore", name: "restore r2", method: "POST", path: "/rooms/r2/files/plan.md/restore", body: `{"version":1}`, want: room2Write(200)},
	{route: "GET /rooms/{room}/log", name: "log r1", method: "GET", path: "/rooms/r1/log?since=0", want: room1Write(200)},
	{route: "GET /rooms/{room}/log", name: "log r2", method: "GET", path: "/rooms/r2/log", want: room2Write(200)},
	{route: "POST /rooms/{room}/resolve", name: "resolve r1", method: "POST", path: "/rooms/r1/resolve", body: `{"text":"see $spec.md"}`, want: room1Write(200)},
	{route: "POST /rooms/{room}/resolve", name: "resolve r2", method: "POST", path: "/rooms/r2/resolve", body: `{"text":"see $plan.md"}`, want: room2Write(200)},

	{route: "PUT /rooms/{room}/agents/{agent}", name: "place new agent in r1", method: "PUT", path: "/rooms/r1/agents/a9", body: `{"machine_id":"m1"}`, want: room1Write(200)},
	{route: "PUT /rooms/{room}/agents/{agent}", name: "re-place a1 in r1", method: "PUT", path: "/rooms/r1/agents/a1", body: `{"machine_id":"m2"}`, want: room1Write(200)},
	// Moving a1 out of r1 needs r1 as well as r2: room:r2 alone must not
	// pull an agent out of a room it does not reach.
	{route: "PUT /rooms/{room}/agents/{agent}", name: "move a1 from r1 to r2", method: "PUT", path: "/rooms/r2/agents/a1", body: `{"machine_id":"m2"}`, want: [8]int{401, 401, 401, 200, 403, 403, 403, 403}},
	{route: "PUT /rooms/{room}/agents/{agent}", name: "move a2 from r2 to r1", method: "PUT", path: "/rooms/r1/agents/a2", body: `{"machine_id":"m1"}`, want: [8]int{401, 401, 401, 200, 403, 403, 403, 403}},
	{route: "DELETE /rooms/{room}/agents/{agent}", name: "unplace a1 from r1", method: "DELETE", path: "/rooms/r1/agents/a1", want: room1Write(204)},
	// a2 is not in r1: the room token learns nothing more than not_found.
	{route: "DELETE /rooms/{room}/agents/{agent}", name: "unplace a2 from r1", method: "DELETE", path: "/rooms/r1/agents/a2", want: room1Write(404)},
	{route: "GET /rooms/{room}/agents", name: "placements of r1", method: "GET", path: "/rooms/r1/agents", want: room1Write(200)},
	{route: "GET /rooms/{room}/agents", name: "placements of r2", method: "GET", path: "/rooms/r2/agents", want: room2Write(200)},
	// Metrics show every room's traffic: admin only.
	{route: metricsRoute, name: "metrics", method: "GET", path: "/metrics", want: [8]int{401, 401, 401, 200, 403, 403, 403, 403}},
	// Every valid credential lists rooms, each only those it reaches
	// (functions/rooms_test.go checks which).
	{route: "GET /rooms", name: "list rooms", method: "GET", path: "/rooms", want: [8]int{401, 401, 401, 200, 200, 200, 200, 200}},

	{route: "GET /machines/{machine}/assignments", name: "assignments m1", method: "GET", path: "/machines/m1/assignments", want: machine1(200)},
	{route: "GET /machines/{machine}/assignments", name: "assignments m2", method: "GET", path: "/machines/m2/assignments", want: machine2(200)},
	{route: "POST /machines/{machine}/status", name: "status m1", method: "POST", path: "/machines/m1/status", body: `{"agents":[{"agent_id":"a1","files":[]}]}`, want: machine1(204)},
	{route: "POST /machines/{machine}/status", name: "status m2", method: "POST", path: "/machines/m2/status", body: `{"agents":[{"agent_id":"a2","files":[]}]}`, want: machine2(204)},
	{route: "GET /machines/{machine}/ws", name: "websocket m1", method: "GET", path: "/machines/m1/ws", ws: true, want: machine1(101)},
	{route: "GET /machines/{machine}/ws", name: "websocket m2", method: "GET", path: "/machines/m2/ws", ws: true, want: machine2(101)},

	{route: "POST /knowledge/contribute", name: "contribute with handle", method: "POST", path: "/knowledge/contribute", body: findingA, header: handle, want: everyone(201)},
	// Without X-Hive-Agent a bearer names the writer (functions/hive.go).
	{route: "POST /knowledge/contribute", name: "contribute without handle", method: "POST", path: "/knowledge/contribute", body: findingA, want: [8]int{401, 201, 201, 201, 201, 201, 201, 201}, denyCode: pumasi.EAgentRequired},
	{route: "POST /knowledge/contribute", name: "contribute with a malformed handle", method: "POST", path: "/knowledge/contribute", body: findingA,
		header: map[string]string{functions.HeaderAgent: "a b"}, want: everyone(400), denyCode: pumasi.EInvalidRequest},
	{route: "GET /knowledge/query", name: "query", method: "GET", path: "/knowledge/query?q=pgx+pool_max_conns", want: everyone(200)},
	{route: "GET /knowledge/{id}", name: "entry", method: "GET", path: "/knowledge/{entry}", want: everyone(200)},
	{route: "GET /knowledge/{id}/history", name: "history", method: "GET", path: "/knowledge/{entry}/history", want: everyone(200)},
	// Unmerge is an admin's: a handle or a room or machine token is not enough.
	{route: "POST /knowledge/{id}/unmerge", name: "unmerge", method: "POST", path: "/knowledge/{entry}/unmerge", header: handle, want: [8]int{401, 401, 401, 200, 403, 403, 403, 403}},
	{route: "POST /knowledge/{id}/cite", name: "cite with handle", method: "POST", path: "/knowledge/{entry}/cite", header: handle, want: everyone(200)},
	{route: "POST /knowledge/{id}/cite", name: "cite without handle", method: "POST", path: "/knowledge/{entry}/cite", want: [8]int{401, 200, 200, 200, 200, 200, 200, 200}, denyCode: pumasi.EAgentRequired},
	{route: "POST /knowledge/{id}/endorse", name: "endorse with handle", method: "POST", path: "/knowledge/{entry}/endorse", header: handle, want: everyone(200)},
	{route: "POST /knowledge/{id}/endorse", name: "endorse without handle", method: "POST", path: "/knowledge/{entry}/endorse", want: [8]int{401, 200, 200, 200, 200, 200, 200, 200}, denyCode: pumasi.EAgentRequired},
	// Flagging is a knowledge write like cite; deciding about a flag
	// (restore), redacting and the moderation view are an admin's, and so
	// is a query that keeps quarantined entries.
	{route: "POST /knowledge/{id}/flag", name: "flag with handle", method: "POST", path: "/knowledge/{entry}/flag", body: `{"reason":"wrong"}`, header: handle, want: everyone(200)},
	{route: "POST /knowledge/{id}/flag", name: "flag without handle", method: "POST", path: "/knowledge/{entry}/flag", body: `{"reason":"wrong"}`, want: [8]int{401, 200, 200, 200, 200, 200, 200, 200}, denyCode: pumasi.EAgentRequired},
	{route: "POST /knowledge/{id}/restore", name: "restore entry", method: "POST", path: "/knowledge/{entry}/restore", header: handle, want: [8]int{401, 401, 401, 200, 403, 403, 403, 403}},
	{route: "DELETE /knowledge/{id}", name: "redact entry", method: "DELETE", path: "/knowledge/{entry}", header: handle, want: [8]int{401, 401, 401, 204, 403, 403, 403, 403}},
	{route: "GET /knowledge/{id}/history", name: "history", method: "GET", path: "/knowledge/{entry}/history", want: everyone(200)},
	{route: "GET /knowledge/moderation", name: "moderation view", method: "GET", path: "/knowledge/moderation", header: handle, want: [8]int{401, 401, 401, 200, 403, 403, 403, 403}},
	{route: "GET /knowledge/query", name: "query with quarantined", method: "GET", path: "/knowledge/query?q=pgx+pool_max_conns&include=quarantined", want: [8]int{401, 401, 401, 200, 403, 403, 403, 403}},

	// Whoever may post to @connections may put words in a daemon's mouth:
	// admin only, not even the machine whose connection it is.
	{route: connectionsRoute, name: "describe connection", method: "GET", path: "/@connections/{conn}", want: [8]int{403, 403, 403, 200, 403, 403, 403, 403}},
	{route: connectionsRoute, name: "post to connection", method: "POST", path: "/@connections/{conn}", body: `{"type":"machine.assignments.changed","machine_id":"m1"}`, want: [8]int{403, 403, 403, 200, 403, 403, 403, 403}},
	{route: connectionsRoute, name: "close connection", method: "DELETE", path: "/@connections/{conn}", want: [8]int{403, 403, 403, 204, 403, 403, 403, 403}},
}

// patternMatches reports whether a concrete path (no query) matches a route
// pattern, segment by segment, braces matching any one segment.
func patternMatches(pattern, path string) bool {
	ps := strings.Split(strings.TrimPrefix(pattern, "/"), "/")
	ss := strings.Split(strings.TrimPrefix(path, "/"), "/")
	if len(ps) != len(ss) {
		return false
	}
	for i, p := range ps {
		if strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") {
			continue
		}
		if p != ss[i] {
			return false
		}
	}
	return true
}

// TestAuthorizationMatrix runs every row with every credential, each cell
// against a freshly seeded environment, and checks the status, the error
// code, and that a refused request changed nothing. It fails first if a
// route of functions.Routes() has no row, so a new endpoint cannot ship
// without its access decided here.
func TestAuthorizationMatrix(t *testing.T) {
	known := map[string]string{connectionsRoute: "/@connections/{id}", metricsRoute: "/metrics"}
	for _, rt := range functions.Routes() {
		known[rt.Method+" "+rt.Pattern] = rt.Pattern
	}
	covered := map[string]bool{}
	for _, row := range authzRows {
		pattern, ok := known[row.route]
		if !ok {
			t.Errorf("row %q names route %q, which functions.Routes() does not have", row.name, row.route)
			continue
		}
		covered[row.route] = true
		method, _, _ := strings.Cut(row.route, " ")
		path, _, _ := strings.Cut(row.path, "?")
		if (row.route != connectionsRoute && method != row.method) || !patternMatches(pattern, path) {
			t.Errorf("row %q sends %s %s, which is not route %s", row.name, row.method, row.path, row.route)
		}
	}
	for _, rt := range functions.Routes() {
		if !covered[rt.Method+" "+rt.Pattern] {
			t.Errorf("route %s %s has no row in the authorization matrix (functions/authz_test.go): decide who may call it", rt.Method, rt.Pattern)
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	for _, row := range authzRows {
		t.Run(row.name, func(t *testing.T) {
			t.Parallel() // each cell has a home, a server and a hub of its own
			for i, cred := range creds {
				e := newAuthzEnv(t, row.route == connectionsRoute)
				want := row.want[i]
				path := strings.NewReplacer("{entry}", url.PathEscape(e.entry), "{conn}", url.PathEscape(e.conn)).Replace(row.path)
				before := e.fingerprint()
				var status int
				var body []byte
				var header http.Header
				if row.ws {
					var ws *websocket.Conn
					status, ws, body = e.tryWS(path, e.tokens[cred])
					if ws != nil {
						ws.Close()
					}
				} else {
					status, body, header = e.do(row.method, path, cred, row.body, row.header)
				}
				if status != want {
					t.Errorf("%s with %s = %d, want %d (%s)", row.name, cred, status, want, body)
					continue
				}
				if want < 400 {
					continue
				}
				if row.route == connectionsRoute {
					if got := header.Get("X-Amzn-ErrorType"); got != "ForbiddenException" {
						t.Errorf("%s with %s: X-Amzn-ErrorType %q, want ForbiddenException", row.name, cred, got)
					}
				} else {
					var eb struct {
						Error struct{ Code string } `json:"error"`
					}
					_ = json.Unmarshal(body, &eb)
					wantCode := map[int]string{401: pumasi.EUnauthorized, 403: pumasi.EForbidden, 404: pumasi.ENotFound}[want]
					if (want == 401 || want == 400) && row.denyCode != "" {
						wantCode = row.denyCode
					}
					if eb.Error.Code != wantCode {
						t.Errorf("%s with %s: error code %q, want %q (%s)", row.name, cred, eb.Error.Code, wantCode, body)
					}
				}
				if after := e.fingerprint(); after != before {
					t.Errorf("%s with %s was refused (%d) but changed the store:\nbefore:\n%safter:\n%s", row.name, cred, status, before, after)
				}
				if row.route == connectionsRoute && len(e.hub.Connections("m1")) != 1 {
					t.Errorf("%s with %s was refused but m1's connection is gone", row.name, cred)
				}
			}
		})
	}
}
