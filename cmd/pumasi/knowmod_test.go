package main

import (
	"strings"
	"testing"

	"pumasi"
)

// TestKnowModeration drives know flag, restore and rm against the real
// API: a contributor's flag counts once, an admin's quarantines at once
// (query leaves the entry out), restore lifts it, rm redacts, and the
// redacted id then says so; the admin commands refuse a token that is not
// an admin's.
func TestKnowModeration(t *testing.T) {
	w := newCLIWorld(t)
	cli := func(env map[string]string, args ...string) string {
		t.Helper()
		out, errOut, err := runCLI(t, env, args...)
		if err != nil {
			t.Fatalf("pumasi %s: %v (stderr %s)", strings.Join(args, " "), err, errOut)
		}
		return out
	}
	out := cli(w.env, "know", "contribute", "--agent", "agent-a", "--title", "Postgres now() is frozen in a transaction", "--content", knowTestContent)
	id := strings.Fields(strings.TrimPrefix(out, "accepted: new entry "))[0]

	if out := cli(w.env, "know", "flag", id, "--agent", "agent-b", "--reason", "wrong", "--note", "clock_timestamp is not it"); !strings.HasPrefix(out, "flagged "+id) || !strings.Contains(out, "1 flag") || strings.Contains(out, "quarantined") {
		t.Fatalf("first flag: %q", out)
	}
	if out := cli(w.env, "know", "flag", "--reason", "wrong", "--agent", "agent-b", id); !strings.Contains(out, "already flagged by agent-b") || !strings.Contains(out, "1 flag") {
		t.Fatalf("the same contributor again: %q", out)
	}
	if out := cli(w.env, "know", "flag", id, "--agent", "agent-c", "--reason", "harmful", "--admin"); !strings.Contains(out, "2 flags") || !strings.Contains(out, "quarantined") {
		t.Fatalf("an admin's flag: %q", out)
	}
	if out := cli(w.env, "know", "query", "postgres now transaction"); strings.Contains(out, id) {
		t.Fatalf("query shows the quarantined entry:\n%s", out)
	}
	room := map[string]string{"PUMASI_SERVER": w.srv.URL, "PUMASI_TOKEN": w.sign(pumasi.ScopeRoom + "r1"), "PUMASI_HOME": t.TempDir()}
	if _, _, err := runCLI(t, room, "know", "restore", id); exitCode(err) != 1 || !strings.Contains(err.Error(), "forbidden") {
		t.Fatalf("restore with a room token: %v (exit %d), want forbidden, exit 1", err, exitCode(err))
	}
	if out := cli(w.env, "know", "restore", id); !strings.HasPrefix(out, "restored "+id) || strings.Contains(out, "quarantined") {
		t.Fatalf("restore: %q", out)
	}
	if out := cli(w.env, "know", "query", "postgres now transaction"); !strings.Contains(out, id) {
		t.Fatalf("query after restore lacks the entry:\n%s", out)
	}
	if out := cli(w.env, "know", "rm", id, "--reason", "not a finding"); !strings.HasPrefix(out, "redacted "+id) {
		t.Fatalf("rm: %q", out)
	}
	for _, argv := range [][]string{{"know", "flag", id, "--agent", "agent-d", "--reason", "pii"}, {"know", "restore", id}} {
		if _, _, err := runCLI(t, w.env, argv...); exitCode(err) != 1 || !strings.Contains(err.Error(), "was redacted") {
			t.Errorf("%q after rm: %v (exit %d), want exit 1 saying it was redacted", argv, err, exitCode(err))
		}
	}
}

// TestKnowHistory: know history lists an entry's flags, quarantine and
// restore, and its redaction after rm.
func TestKnowHistory(t *testing.T) {
	w := newCLIWorld(t)
	cli := func(args ...string) string {
		t.Helper()
		out, errOut, err := runCLI(t, w.env, args...)
		if err != nil {
			t.Fatalf("pumasi %s: %v (stderr %s)", strings.Join(args, " "), err, errOut)
		}
		return out
	}
	out := cli("know", "contribute", "--agent", "agent-a", "--title", "Postgres now() is frozen in a transaction", "--content", knowTestContent)
	id := strings.Fields(strings.TrimPrefix(out, "accepted: new entry "))[0]
	cli("know", "flag", id, "--agent", "agent-b", "--reason", "wrong", "--note", "clock_timestamp is not it")
	cli("know", "flag", id, "--agent", "agent-c", "--reason", "harmful", "--admin")
	cli("know", "restore", id)
	out = cli("know", "history", id)
	for _, want := range []string{"WHEN", "flagged", "agent-b", "reason wrong", `note "clock_timestamp is not it"`, "quarantined", "restored", "events of " + id + ")"} {
		if !strings.Contains(out, want) {
			t.Errorf("history lacks %q:\n%s", want, out)
		}
	}
	cli("know", "rm", id, "--reason", "not a finding")
	if out := cli("know", "history", "--json", id); !strings.Contains(out, `"kind": "redacted"`) {
		t.Errorf("history after rm lacks the redaction:\n%s", out)
	}
}
