package main

import (
	"context"
	"strings"
	"testing"
)

// TestMachineRunWSFlags shows --ws and PUMASI_WS_URL reach the daemon's
// config (a non-WebSocket URL from either is refused before anything runs)
// and --ws-ping must be positive.
func TestMachineRunWSFlags(t *testing.T) {
	ctx := context.Background()
	base := []string{"machine", "run", "--machine", "m1", "--token", "x", "--home", t.TempDir()}
	if _, err := runMachineCLI(ctx, nil, append(base, "--ws", "ftp://gw/prod")...); err == nil || !strings.Contains(err.Error(), "ftp://gw/prod") {
		t.Fatalf("--ws ftp://: %v, want an error naming the URL", err)
	}
	if _, err := runMachineCLI(ctx, map[string]string{"PUMASI_WS_URL": "ftp://env/prod"}, base...); err == nil || !strings.Contains(err.Error(), "ftp://env/prod") {
		t.Fatalf("PUMASI_WS_URL=ftp://: %v, want an error naming the URL", err)
	}
	if _, err := runMachineCLI(ctx, nil, append(base, "--ws", "wss://gw/prod", "--ws-ping", "0s")...); exitCode(err) != 2 {
		t.Fatalf("--ws-ping 0s: %v, want exit 2", err)
	}
}

// TestEnvBool shows how PUMASI_GATEWAY_PUSH is read.
func TestEnvBool(t *testing.T) {
	for _, tc := range []struct {
		v       string
		want    bool
		wantErr bool
	}{{"", false, false}, {"1", true, false}, {"true", true, false}, {"0", false, false}, {"false", false, false}, {"yes", false, true}} {
		env := &cliEnv{getenv: func(string) string { return tc.v }}
		got, err := envBool(env, "PUMASI_GATEWAY_PUSH")
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("envBool(%q) = %v, %v; want %v, error %v", tc.v, got, err, tc.want, tc.wantErr)
		}
	}
}
