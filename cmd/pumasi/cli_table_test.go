package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"pumasi"
	"pumasi/adapters/embed"
	"pumasi/adapters/local"
	"pumasi/functions"
)

// cliWorld is a real API over a real local store and knowledge base, with
// an admin token, for the command-line tests.
type cliWorld struct {
	t      *testing.T
	st     *local.Store
	srv    *httptest.Server
	secret []byte
	admin  string
	env    map[string]string
	dir    string // files to upload
}

func newCLIWorld(t *testing.T) *cliWorld {
	t.Helper()
	st, err := local.Open(context.Background(), t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	w := &cliWorld{t: t, st: st, secret: []byte("cli-table-secret-0123456789abcdef-0123"), dir: t.TempDir()}
	api := &functions.API{Store: st, Secret: w.secret, Knowledge: local.NewKnowledge(st), Embedder: embed.NewHashed(0)}
	w.srv = httptest.NewServer(api.Handler())
	t.Cleanup(w.srv.Close)
	w.admin = w.sign(pumasi.ScopeAdmin)
	w.env = map[string]string{"PUMASI_SERVER": w.srv.URL, "PUMASI_TOKEN": w.admin, "PUMASI_HOME": t.TempDir()}
	return w
}

func (w *cliWorld) sign(scope string) string {
	w.t.Helper()
	tok, err := pumasi.SignToken(w.secret, "tester", []string{scope}, time.Hour, time.Now())
	if err != nil {
		w.t.Fatal(err)
	}
	return tok
}

// file writes a file to upload and returns its path.
func (w *cliWorld) file(name, content string) string {
	w.t.Helper()
	p := filepath.Join(w.dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
	return p
}

// state is everything a command could have changed on the server: each
// room's rev (every upload, delete, restore and placement moves it), its
// files and the knowledge entries with their counts.
func (w *cliWorld) state() string {
	w.t.Helper()
	ctx := context.Background()
	var b strings.Builder
	for _, room := range []string{"r1", "r2"} {
		l, err := w.st.ListFiles(ctx, room)
		if err != nil {
			w.t.Fatal(err)
		}
		b.WriteString(room + " rev " + itoa(l.Rev) + ":")
		for _, f := range l.Files {
			b.WriteString(" " + f.Name + "@" + f.SHA256[:8])
		}
		pls, err := w.st.RoomAgents(ctx, room)
		if err != nil {
			w.t.Fatal(err)
		}
		for _, pl := range pls {
			b.WriteString(" agent " + pl.AgentID + " on " + pl.MachineID)
		}
		b.WriteString("\n")
	}
	resp, err := http.Get(w.srv.URL + "/knowledge/query?q=postgres+transaction+now&limit=50")
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	var q struct {
		Data []struct {
			ID            string `json:"id"`
			Contributions int64  `json:"contribution_count"`
			Citations     int64  `json:"citation_count"`
			Endorsements  int64  `json:"endorsement_count"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&q); err != nil {
		w.t.Fatal(err)
	}
	for _, h := range q.Data {
		b.WriteString("entry " + h.ID + " " + itoa(h.Contributions) + "/" + itoa(h.Citations) + "/" + itoa(h.Endorsements) + "\n")
	}
	return b.String()
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestCLICommandLines runs every command with half, wrong and misspelt
// command lines: each is a usage error (exit 2) that prints the command's
// usage and flags (never Go's "Usage of"), and the server's rooms, files,
// placements and knowledge are exactly as before.
func TestCLICommandLines(t *testing.T) {
	w := newCLIWorld(t)
	spec := w.file("spec.md", "# spec\n")
	other := w.file("notes.md", "notes\n")
	png := w.file("logo.png", "not really a png\n")
	if _, _, err := runCLI(t, w.env, "put", "--room", "r1", spec); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, w.env, "know", "contribute", "--agent", "cli-agent", "--title", "Postgres now() is frozen in a transaction", "--content", knowTestContent)
	if err != nil {
		t.Fatalf("contribute: %v", err)
	}
	id := strings.Fields(strings.TrimPrefix(out, "accepted: new entry "))[0]
	missing := filepath.Join(w.dir, "missing.md")

	for _, tc := range []struct {
		args []string
		code int
		// usage is the command whose usage a usage error prints.
		usage string
		want  string // in stderr
		env   map[string]string
	}{
		{[]string{"frobnicate"}, 2, "", "unknown command", nil},
		{[]string{"help", "frobnicate"}, 2, "", "no command", nil},
		{[]string{"put", spec}, 2, "put", "--room is required", nil},
		{[]string{"put", "--room", "r1"}, 2, "put", "FILE", nil},
		{[]string{"put", "--room", "r1", spec, "--bogus"}, 2, "put", "unknown flag: --bogus", nil},
		{[]string{"put", "-room", "r1", spec}, 2, "put", "two dashes: --room", nil},
		{[]string{"put", "--room", "R1", spec}, 2, "put", "room id", nil},
		{[]string{"put", "--room", "r1", spec, other, "--name", "x.md"}, 2, "put", "--name works with one file only", nil},
		{[]string{"put", "--room", "r1", spec, "--name", "../x"}, 2, "put", "name may not", nil},
		{[]string{"put", "--room", "r1", other, "--name", ".hidden"}, 2, "put", "may not start with a dot", nil},
		{[]string{"put", "--room", "r1", other, spec, "--if-match", "abc"}, 2, "put", "--if-match works with one file only", nil},
		{[]string{"put", "--room", "r1", other, missing}, 1, "", "missing.md", nil},
		{[]string{"put", "--room", "r1", other, png}, 1, "", "binary", nil},
		{[]string{"put", "--room", "r1", "-"}, 2, "put", "needs --name", nil},
		{[]string{"ls"}, 2, "ls", "--room is required", nil},
		{[]string{"ls", "--room", "r1", "extra"}, 2, "ls", `unexpected argument "extra"`, nil},
		{[]string{"get", "--room", "r1"}, 2, "get", "exactly one NAME", nil},
		{[]string{"get", "--room", "r1", "a.md", "b.md"}, 2, "get", "exactly one NAME", nil},
		{[]string{"get", "spec.md", "--room", "r1", "--version", "-1"}, 2, "get", "--version", nil},
		{[]string{"get", "--room", "r1", "../etc/passwd"}, 2, "get", "name may not", nil},
		{[]string{"rm", "--room", "r1"}, 2, "rm", "NAME", nil},
		{[]string{"rm", "--room", "r1", "spec.md", "../x"}, 2, "rm", "name may not", nil},
		{[]string{"resolve", "$spec.md"}, 2, "resolve", "--room is required", nil},
		{[]string{"rooms", "extra"}, 2, "rooms", "unexpected argument", nil},
		{[]string{"place", "--room", "r1", "--agent", "a1"}, 2, "place", "--machine is required", nil},
		{[]string{"place", "--room", "r1", "--machine", "m1"}, 2, "place", "--agent is required", nil},
		{[]string{"place", "--room", "r1", "--agent", "A1", "--machine", "m1"}, 2, "place", "agent id", nil},
		{[]string{"place", "--room", "r1", "--agent", "a1", "--machine", "m1", "now"}, 2, "place", "unexpected argument", nil},
		{[]string{"unplace", "--room", "r1"}, 2, "unplace", "--agent is required", nil},
		{[]string{"agents"}, 2, "agents", "--room is required", nil},
		{[]string{"agents", "--room", "r1", "x"}, 2, "agents", "unexpected argument", nil},
		{[]string{"versions", "r1"}, 2, "versions", "want versions ROOM NAME", nil},
		{[]string{"versions", "r1", "../x"}, 2, "versions", "name may not", nil},
		{[]string{"log"}, 2, "log", "want log ROOM", nil},
		{[]string{"log", "r1", "--since", "-1"}, 2, "log", "--since", nil},
		{[]string{"diff", "r1", "spec.md", "1"}, 2, "diff", "want diff ROOM NAME A B", nil},
		{[]string{"diff", "r1", "spec.md", "one", "current"}, 2, "diff", `version "one"`, nil},
		{[]string{"restore", "r1", "spec.md"}, 2, "restore", "--version N is required", nil},
		{[]string{"restore", "r1", "spec.md", "--version"}, 2, "restore", "needs an argument", nil},
		{[]string{"wait"}, 2, "wait", "want wait ROOM", nil},
		{[]string{"wait", "r1", "--timeout", "0s"}, 2, "wait", "--timeout must be positive", nil},
		{[]string{"wait", "r1", "--timeout", "soon"}, 2, "wait", "invalid argument", nil},
		{[]string{"context"}, 2, "context", "--agent is required", nil},
		{[]string{"context", "--agent", "a1", "extra"}, 2, "context", "unexpected argument", nil},
		{[]string{"machine", "run"}, 2, "machine run", "--machine is required", nil},
		{[]string{"machine", "run", "--machine", "m1", "extra"}, 2, "machine run", "unexpected argument", nil},
		{[]string{"machine", "run", "--machine", "m1", "--poll", "0s"}, 2, "machine run", "--poll must be positive", nil},
		{[]string{"mcp"}, 2, "mcp", "--agent", nil},
		{[]string{"mcp", "--agent", "a1", "extra"}, 2, "mcp", "unexpected argument", nil},
		{[]string{"init"}, 2, "init", "name the host", nil},
		{[]string{"init", "vim", "--agent", "a1"}, 2, "init", `unknown host "vim"`, nil},
		{[]string{"init", "claude-code"}, 2, "init", "--agent is required", nil},
		{[]string{"init", "--agent", "a1", "claude-code", "extra"}, 2, "init", "unexpected argument", nil},
		{[]string{"know", "query"}, 2, "know query", "give the text", nil},
		{[]string{"know", "query", "postgres", "--limit", "0"}, 2, "know query", "--limit", nil},
		{[]string{"know", "query", "postgres", "--bogus"}, 2, "know query", "unknown flag", nil},
		{[]string{"know", "contribute", "--title", "t", "--content", "c"}, 2, "know contribute", "no agent: pass --agent A or set PUMASI_AGENT", nil},
		{[]string{"know", "contribute", "--agent", "cli-agent", "--title", "t"}, 2, "know contribute", "--title and --content are required", nil},
		{[]string{"know", "cite", id}, 2, "know cite", "no agent: pass --agent A or set PUMASI_AGENT", nil},
		{[]string{"know", "cite", id, "--agent", "x"}, 2, "know cite", "3-64 characters", nil},
		{[]string{"know", "cite"}, 2, "know cite", "give one entry id", nil},
		{[]string{"know", "endorse", "--agent", "cli-agent", "../contribute"}, 2, "know endorse", "not an entry id", nil},
		{[]string{"know", "flag", id, "--agent", "cli-agent"}, 2, "know flag", "--reason is required", nil},
		{[]string{"know", "flag", id, "--agent", "cli-agent", "--reason", "boring"}, 2, "know flag", `--reason "boring" is not one of`, nil},
		{[]string{"know", "flag", id, "--reason", "wrong"}, 2, "know flag", "no agent: pass --agent A or set PUMASI_AGENT", nil},
		{[]string{"know", "flag", "--reason", "wrong", "--agent", "cli-agent"}, 2, "know flag", "give one entry id", nil},
		{[]string{"know", "rm"}, 2, "know rm", "give one entry id", nil},
		{[]string{"know", "rm", "../x", "--reason", "r"}, 2, "know rm", "not an entry id", nil},
		{[]string{"know", "restore", id, id}, 2, "know restore", "give one entry id", nil},
		{[]string{"know", "unmerge"}, 2, "know unmerge", "give one entry id", nil},
		{[]string{"know", "history", "a/b"}, 2, "know history", "not an entry id", nil},
		{[]string{"know", "export", "extra"}, 2, "know export", "unexpected argument", nil},
		{[]string{"know", "export", "--hive", "Not A Hive"}, 2, "know export", "not a hive id", nil},
		{[]string{"know", "import", "corpus.jsonl"}, 2, "know import", "unexpected argument", nil},
		{[]string{"know", "hook", "--bogus"}, 2, "know hook", "unknown flag", nil},
		{[]string{"know", "hook", "extra"}, 2, "know hook", "want no arguments", nil},
		{[]string{"token"}, 2, "token", "say what the token grants", nil},
		{[]string{"token", "--room", "R1"}, 2, "token", "room id", nil},
		{[]string{"token", "--admin", "--ttl", "0s"}, 2, "token", "--ttl must be positive", nil},
		{[]string{"token", "--admin", "extra"}, 2, "token", "unexpected argument", nil},
		{[]string{"sweep", "extra"}, 2, "sweep", "unexpected argument", nil},
		{[]string{"sweep", "--grace"}, 2, "sweep", "needs an argument", nil},
		{[]string{"localdev", "--bogus"}, 2, "localdev", "unknown flag", nil},
		{[]string{"localdev", "extra"}, 2, "localdev", "unexpected argument", nil},
		{[]string{"version", "extra"}, 2, "", "no arguments", nil},
	} {
		before := w.state()
		env := w.env
		if tc.env != nil {
			env = tc.env
		}
		_, errOut, err := runCLI(t, env, tc.args...)
		if got := exitCode(err); err == nil || got != tc.code {
			t.Errorf("pumasi %s: exit %d (%v), want %d", strings.Join(tc.args, " "), got, err, tc.code)
			continue
		}
		msg := errOut + err.Error()
		if !strings.Contains(msg, tc.want) {
			t.Errorf("pumasi %s: %q; stderr %q; want it to say %q", strings.Join(tc.args, " "), err, errOut, tc.want)
		}
		if tc.usage != "" && !strings.Contains(errOut, "usage:\n  pumasi "+tc.usage) {
			t.Errorf("pumasi %s: stderr does not show %s's usage:\n%s", strings.Join(tc.args, " "), tc.usage, errOut)
		}
		if tc.usage != "" && !strings.Contains(errOut, "flags:\n") {
			t.Errorf("pumasi %s: stderr does not list the flags:\n%s", strings.Join(tc.args, " "), errOut)
		}
		if strings.Contains(errOut, "Usage of") {
			t.Errorf("pumasi %s: Go's flag dump:\n%s", strings.Join(tc.args, " "), errOut)
		}
		if after := w.state(); after != before {
			t.Errorf("pumasi %s changed the server:\nbefore %s\nafter  %s", strings.Join(tc.args, " "), before, after)
		}
	}
}

// TestCLIFlagsAnywhere: flags before or after the arguments mean the same,
// for every command that takes arguments; `--` ends the flags.
func TestCLIFlagsAnywhere(t *testing.T) {
	w := newCLIWorld(t)
	spec := w.file("spec.md", "# spec\n")
	// The half-command: --name after the file is the name, not a
	// second file.
	out, _, err := runCLI(t, w.env, "put", "--room", "r1", spec, "--name", "other.md")
	if err != nil || !strings.HasPrefix(out, "other.md\t") {
		t.Fatalf("put FILE --name other.md = %q, %v", out, err)
	}
	if got := w.state(); !strings.Contains(got, "r1 rev 1: other.md@") || strings.Contains(got, "spec.md") {
		t.Fatalf("after put spec.md --name other.md the server holds:\n%s", got)
	}
	for _, argv := range [][]string{
		{"get", "other.md", "--room", "r1"},
		{"get", "--room", "r1", "other.md"},
		{"get", "--room=r1", "--", "other.md"},
	} {
		if out, _, err := runCLI(t, w.env, argv...); err != nil || out != "# spec\n" {
			t.Errorf("%q = %q, %v", argv, out, err)
		}
	}
	for _, argv := range [][]string{{"ls", "--json", "--room", "r1"}, {"ls", "--room", "r1", "--json"}} {
		if out, _, err := runCLI(t, w.env, argv...); err != nil || !strings.Contains(out, `"name": "other.md"`) {
			t.Errorf("%q = %q, %v", argv, out, err)
		}
	}
	if out, _, err := runCLI(t, w.env, "versions", "--json", "r1", "other.md"); err != nil || !strings.Contains(out, `"version": 1`) {
		t.Errorf("versions --json r1 other.md = %q, %v", out, err)
	}
	// Plurals: one contribution, one citation.
	if _, _, err := runCLI(t, w.env, "know", "contribute", "--agent", "cli-agent", "--title", "Postgres now() is frozen in a transaction", "--content", knowTestContent); err != nil {
		t.Fatal(err)
	}
	out, _, err = runCLI(t, w.env, "know", "query", "postgres", "now", "--limit", "1", "transaction")
	if err != nil || !strings.Contains(out, "1 contribution · 0 citations · 0 endorsements") {
		t.Errorf("know query with --limit between the words = %q, %v", out, err)
	}
}

// TestCLIServerErrors: failures exit 1 and say what to do: a refused
// connection names the server and how to start localdev; a refused token
// names where it came from.
func TestCLIServerErrors(t *testing.T) {
	w := newCLIWorld(t)
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	for _, argv := range [][]string{{"ls", "--room", "r1"}, {"know", "query", "sqlite"}, {"wait", "r1"}} {
		_, _, err := runCLI(t, map[string]string{"PUMASI_SERVER": down.URL, "PUMASI_TOKEN": w.admin}, argv...)
		if exitCode(err) != 1 || err == nil || !strings.Contains(err.Error(), down.URL) || !strings.Contains(err.Error(), "make localdev") || !strings.Contains(err.Error(), "pumasi localdev") {
			t.Errorf("%q against a closed port: %v (exit %d), want exit 1 naming %s and how to start localdev", argv, err, exitCode(err), down.URL)
		}
	}
	other, err := pumasi.SignToken([]byte("another-secret-0123456789abcdef-0123"), "x", []string{pumasi.ScopeAdmin}, time.Hour, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "admin.token"), []byte(other+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		env  map[string]string
		args []string
		from string
	}{
		{map[string]string{"PUMASI_SERVER": w.srv.URL, "PUMASI_TOKEN": other}, []string{"rooms"}, "PUMASI_TOKEN"},
		{map[string]string{"PUMASI_SERVER": w.srv.URL, "PUMASI_TOKEN": w.admin}, []string{"rooms", "--token", other}, "--token"},
		{map[string]string{"PUMASI_SERVER": w.srv.URL, "PUMASI_HOME": home}, []string{"rooms"}, filepath.Join(home, "admin.token")},
		{map[string]string{"PUMASI_SERVER": w.srv.URL}, []string{"ls", "--room", "r1", "--home", home}, filepath.Join(home, "admin.token")},
	} {
		_, _, err := runCLI(t, tc.env, tc.args...)
		if exitCode(err) != 1 || err == nil || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "came from "+tc.from) {
			t.Errorf("%q with a foreign token: %v (exit %d), want a 401 saying it came from %s", tc.args, err, exitCode(err), tc.from)
		}
	}
}
