package main

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pumasi"
	"pumasi/adapters/local"
	"pumasi/functions"
)

// TestHistoryCommands drives put --if-match, versions, diff, get --version,
// restore and log against a real API over a real local store, with two
// subjects, so the table and the log name who did what.
func TestHistoryCommands(t *testing.T) {
	secret := []byte("history-secret-0123456789abcdef-0123456789")
	st, err := local.Open(context.Background(), t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := httptest.NewServer((&functions.API{Store: st, Secret: secret}).Handler())
	defer srv.Close()
	as := func(subject string) map[string]string {
		tok, err := pumasi.SignToken(secret, subject, []string{pumasi.ScopeRoom + "r1"}, time.Hour, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return map[string]string{"PUMASI_SERVER": srv.URL, "PUMASI_TOKEN": tok, "PUMASI_HOME": t.TempDir()}
	}
	alice, bob := as("alice"), as("bob")
	cli := func(env map[string]string, args ...string) string {
		t.Helper()
		out, errOut, err := runCLI(t, env, args...)
		if err != nil {
			t.Fatalf("pumasi %s: %v (stderr %s)", strings.Join(args, " "), err, errOut)
		}
		return out
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "plan.md")
	write := func(body string) {
		if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("# plan\none\ntwo\nthree\n")
	cli(alice, "put", "--room", "r1", file)
	v1, _ := st.StatFile(context.Background(), "r1", "plan.md")
	write("# plan\none\n2\nthree\nfour\n")
	cli(bob, "put", "--room", "r1", "--if-match", v1.SHA256, file)
	v2, _ := st.StatFile(context.Background(), "r1", "plan.md")

	// A stale edit is refused and told the current sha256.
	write("# plan\nalice's edit on version 1\n")
	_, errOut, err := runCLI(t, alice, "put", "--room", "r1", "--if-match", v1.SHA256, file)
	if err == nil || !strings.Contains(err.Error(), "precondition_failed") || !strings.Contains(err.Error(), v2.SHA256) {
		t.Fatalf("stale put: err %v (stderr %s), want precondition_failed naming %s", err, errOut, v2.SHA256)
	}

	out := cli(alice, "versions", "r1", "plan.md")
	for _, want := range []string{"VERSION", "2        24    " + v2.SHA256[:12] + "  bob", "current", "1        21    " + v1.SHA256[:12] + "  alice"} {
		if !strings.Contains(out, want) {
			t.Fatalf("versions lacks %q:\n%s", want, out)
		}
	}
	out = cli(alice, "diff", "r1", "plan.md", "1", "2")
	want := "--- plan.md@1\n+++ plan.md@2\n@@ -1,4 +1,5 @@\n # plan\n one\n-two\n+2\n three\n+four\n"
	if out != want {
		t.Fatalf("diff 1 2 =\n%s\nwant\n%s", out, want)
	}
	if out := cli(alice, "diff", "r1", "plan.md", "2", "current"); out != "" {
		t.Fatalf("diff of the current version with itself = %q, want nothing", out)
	}
	if out := cli(alice, "get", "--room", "r1", "plan.md", "--version", "1"); out != "# plan\none\ntwo\nthree\n" {
		t.Fatalf("get --version 1 = %q", out)
	}
	if out := cli(alice, "restore", "r1", "plan.md", "--version", "1"); !strings.Contains(out, "restored as v3") {
		t.Fatalf("restore: %q", out)
	}
	if out := cli(alice, "restore", "r1", "plan.md", "--version", "1"); !strings.Contains(out, "unchanged") {
		t.Fatalf("restore again: %q", out)
	}
	if _, _, err := runCLI(t, alice, "restore", "r1", "plan.md"); err == nil || !strings.Contains(err.Error(), "--version") {
		t.Fatalf("restore without --version: %v", err)
	}
	cli(bob, "rm", "--room", "r1", "plan.md")
	out = cli(alice, "log", "r1")
	for _, want := range []string{
		"alice  upload plan.md v1 (new) -> " + v1.SHA256[:12],
		"bob    upload plan.md v2 " + v1.SHA256[:12] + " -> " + v2.SHA256[:12],
		"alice  restore plan.md v3 from v1 " + v2.SHA256[:12] + " -> " + v1.SHA256[:12],
		"bob    delete plan.md v4 " + v1.SHA256[:12] + " -> (gone)",
	} {
		if !strings.Contains(out, want) {
			t.Fatalf("log lacks %q:\n%s", want, out)
		}
	}
	if out := cli(alice, "log", "r1", "--since", "3"); strings.Count(out, "\n") != 2 || !strings.Contains(out, "delete") {
		t.Fatalf("log --since 3 = %q, want the header and the delete", out)
	}
	// The deleted name comes back.
	if out := cli(alice, "restore", "--room", "r1", "plan.md", "--version", "2"); !strings.Contains(out, "restored as v5") {
		t.Fatalf("restore of the deleted name: %q", out)
	}
}

// TestVersionDiff pins the line diff on edits at the ends, a file without
// a final newline, and far-apart hunks.
func TestVersionDiff(t *testing.T) {
	tests := []struct{ a, b, want string }{
		{"a\nb\n", "a\nb\n", ""},
		{"", "x\n", "--- A\n+++ B\n@@ -0,0 +1 @@\n+x\n"},
		{"x\n", "", "--- A\n+++ B\n@@ -1 +0,0 @@\n-x\n"},
		{"a\nb", "a\nc", "--- A\n+++ B\n@@ -2 +2 @@\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"},
		{"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n", "--- A\n+++ B\n@@ -0,0 +1 @@\n+0\n@@ -10 +10,0 @@\n-10\n"},
	}
	for _, tt := range tests {
		if got := versionDiff("A", "B", tt.a, tt.b, 0); got != tt.want {
			t.Errorf("versionDiff(%q, %q) =\n%s\nwant\n%s", tt.a, tt.b, got, tt.want)
		}
	}
	// A large file with one change diffs fast and small (Myers is O(ND)).
	var big strings.Builder
	for i := 0; i < 20000; i++ {
		big.WriteString("line\n")
	}
	edited := strings.Replace(big.String(), "line\n", "changed\n", 1)
	if got := versionDiff("A", "B", big.String(), edited, 1); got != "--- A\n+++ B\n@@ -1,2 +1,2 @@\n-line\n+changed\n line\n" {
		t.Errorf("one change in 20000 lines:\n%s", got)
	}
}
