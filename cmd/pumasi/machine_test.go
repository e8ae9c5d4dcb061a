package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pumasi"
	"pumasi/adapters/local"
	"pumasi/adapters/push"
	"pumasi/functions"
)

func runMachineCLI(ctx context.Context, vars map[string]string, args ...string) (string, error) {
	var stdout, stderr bytes.Buffer
	env := &cliEnv{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(k string) string { return vars[k] }}
	err := run(ctx, env, args)
	return stderr.String(), err
}

func TestMachineRunFlags(t *testing.T) {
	ctx := context.Background()
	if _, err := runMachineCLI(ctx, nil, "machine", "run", "--home", t.TempDir()); exitCode(err) != 2 {
		t.Fatalf("without --machine: %v (exit %d), want exit 2", err, exitCode(err))
	}
	if _, err := runMachineCLI(ctx, nil, "machine", "run", "--machine", "m1", "--home", t.TempDir()); err == nil || !strings.Contains(err.Error(), "no token") {
		t.Fatalf("without a token: %v, want a no-token error", err)
	}
	if _, err := runMachineCLI(ctx, nil, "machine", "run", "--machine", "M1", "--token", "x", "--home", t.TempDir()); err == nil {
		t.Fatal("an invalid machine id was accepted")
	}
	if _, err := runMachineCLI(ctx, nil, "machine", "run", "--machine", "m1", "--token", "x", "--poll", "0s", "--home", t.TempDir()); exitCode(err) != 2 {
		t.Fatalf("--poll 0s: %v, want exit 2", err)
	}
}

// TestMachineRunFromEnv runs the daemon command with its settings from
// PUMASI_SERVER, PUMASI_TOKEN and PUMASI_HOME against a real API.
func TestMachineRunFromEnv(t *testing.T) {
	secret := []byte("cli-machine-secret-0123456789abcdef")
	st, err := local.Open(context.Background(), t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	hub := push.NewHub(nil)
	srv := httptest.NewServer((&functions.API{Store: st, Secret: secret, Pusher: hub, Socket: hub}).Handler())
	defer srv.Close()
	defer hub.Close()
	admin, _ := pumasi.SignToken(secret, "t", []string{"admin"}, time.Hour, time.Now())
	machineTok, _ := pumasi.SignToken(secret, "t", []string{"machine:m1"}, time.Hour, time.Now())
	do := func(method, path, body string) {
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+admin)
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode/100 != 2 {
			t.Fatalf("%s %s: %v %v", method, path, err, resp)
		}
		resp.Body.Close()
	}
	do("PUT", "/rooms/r1/agents/a1", `{"machine_id":"m1"}`)
	do("POST", "/rooms/r1/files?name=hi.md", "hi\n")

	home := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := runMachineCLI(ctx, map[string]string{"PUMASI_SERVER": srv.URL, "PUMASI_TOKEN": machineTok, "PUMASI_HOME": home},
			"machine", "run", "--machine", "m1")
		done <- err
	}()
	path := filepath.Join(home, "agents", "a1", "memory", "shared", "hi.md")
	deadline := time.Now().Add(10 * time.Second)
	for {
		if b, err := os.ReadFile(path); err == nil && string(b) == "hi\n" {
			break
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("%s never appeared", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("machine run after cancel: %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("machine run did not stop")
	}
}
