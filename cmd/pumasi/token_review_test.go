package main

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"pumasi"
	"pumasi/adapters/local"
	"pumasi/functions"
)

func runReviewCLI(t *testing.T, env map[string]string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &cliEnv{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(k string) string { return env[k] }}
	err = run(context.Background(), e, args)
	return out.String(), errb.String(), err
}

// TestTokenPrintsTokenAlone checks DESIGN §7: `pumasi token` signs with
// PUMASI_SECRET, else <home>/secret (created in a fresh home), and prints the
// token alone on stdout.
func TestTokenPrintsTokenAlone(t *testing.T) {
	home := filepath.Join(t.TempDir(), "fresh", "home")
	// Without a secret it refuses: a new one would sign a token every server rejects.
	if _, _, err := runReviewCLI(t, map[string]string{"PUMASI_HOME": home}, "token", "--room", "r1"); err == nil || !strings.Contains(err.Error(), "--new-secret") {
		t.Fatalf("token without a secret: %v, want a refusal naming --new-secret", err)
	}
	out, errOut, err := runReviewCLI(t, map[string]string{"PUMASI_HOME": home}, "token", "--room", "r1", "--ttl", "1h", "--new-secret")
	if err != nil {
		t.Fatalf("token in a fresh home: %v (%s)", err, errOut)
	}
	if errOut != "" || strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
		t.Fatalf("stdout %q stderr %q, want the token alone on one line", out, errOut)
	}
	secret, err := os.ReadFile(filepath.Join(home, "secret"))
	if err != nil {
		t.Fatalf("secret not created: %v", err)
	}
	p, err := pumasi.ParseToken([]byte(strings.TrimSpace(string(secret))), strings.TrimSpace(out), time.Now())
	if err != nil {
		t.Fatalf("token does not verify with <home>/secret: %v", err)
	}
	if !p.CanRoom("r1") || p.CanRoom("r2") || p.Admin {
		t.Fatalf("token grants %+v, want room r1 only", p)
	}

	envSecret := "env-secret-0123456789abcdef-0123456789"
	out, _, err = runReviewCLI(t, map[string]string{"PUMASI_HOME": home, "PUMASI_SECRET": envSecret}, "token", "--admin")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pumasi.ParseToken([]byte(envSecret), strings.TrimSpace(out), time.Now()); err != nil {
		t.Fatalf("with PUMASI_SECRET set, token does not verify with it: %v", err)
	}
}

// TestCLITokenLookupOrder checks DESIGN §7: the CLI uses --token, else
// PUMASI_TOKEN, else <home>/admin.token, against a real API.
func TestCLITokenLookupOrder(t *testing.T) {
	secret := []byte("cli-secret-0123456789abcdef-0123456789")
	storeHome := t.TempDir()
	st, err := local.Open(context.Background(), storeHome, local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := httptest.NewServer((&functions.API{Store: st, Secret: secret}).Handler())
	defer srv.Close()
	sign := func(scope string) string {
		tok, err := pumasi.SignToken(secret, "tester", []string{scope}, time.Hour, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "admin.token"), []byte(sign(pumasi.ScopeRoom+"r3")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"PUMASI_SERVER": srv.URL, "PUMASI_HOME": home, "PUMASI_TOKEN": sign(pumasi.ScopeRoom + "r2")}
	flagTok := sign(pumasi.ScopeRoom + "r1")

	// reaches lists which of r1, r2, r3 the CLI can list with env and args.
	reaches := func(env map[string]string, extra ...string) []string {
		var ok []string
		for _, room := range []string{"r1", "r2", "r3"} {
			if _, _, err := runReviewCLI(t, env, append([]string{"ls", "--room", room}, extra...)...); err == nil {
				ok = append(ok, room)
			} else if !strings.Contains(err.Error(), "forbidden") {
				t.Fatalf("ls --room %s: %v, want success or forbidden", room, err)
			}
		}
		return ok
	}
	if got := reaches(env, "--token", flagTok); !slices.Equal(got, []string{"r1"}) {
		t.Fatalf("with --token: reaches %v, want [r1]", got)
	}
	if got := reaches(env); !slices.Equal(got, []string{"r2"}) {
		t.Fatalf("with PUMASI_TOKEN: reaches %v, want [r2]", got)
	}
	delete(env, "PUMASI_TOKEN")
	if got := reaches(env); !slices.Equal(got, []string{"r3"}) {
		t.Fatalf("with <home>/admin.token: reaches %v, want [r3]", got)
	}
}
