package s3_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"pumasi"
	s3store "pumasi/adapters/s3"
	"pumasi/internal/testpeer"
)

// TestMinIOScript drives scripts/minio.sh the way a developer does
// (eval "$(scripts/minio.sh start)"), opens a Store from the PUMASI_STORAGE
// it exports with credentials from the standard AWS chain (env), round-trips
// a file, and checks that stop kills the server and removes its data.
func TestMinIOScript(t *testing.T) {
	testpeer.Tool(t, "minio", "minio")
	script, err := filepath.Abs("../../scripts/minio.sh")
	if err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(t.TempDir(), "minio.state")
	run := func(arg string, shell string) string {
		t.Helper()
		cmd := exec.Command("bash", "-c", shell, "minio-test", script, arg)
		cmd.Env = append(os.Environ(), "PUMASI_MINIO_STATE="+state, "PUMASI_MINIO_BUCKET=scripted", "PUMASI_MINIO_PREFIX=dev")
		out, err := cmd.Output()
		if err != nil {
			var stderr string
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = string(ee.Stderr)
			}
			t.Fatalf("minio.sh %s: %v\n%s", arg, err, stderr)
		}
		return string(out)
	}
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			cmd := exec.Command(script, "stop")
			cmd.Env = append(os.Environ(), "PUMASI_MINIO_STATE="+state)
			cmd.Run()
		}
	})
	out := run("start", `eval "$("$1" "$2")" && printf '%s\n' "$AWS_ACCESS_KEY_ID" "$AWS_SECRET_ACCESS_KEY" "$AWS_REGION" "$PUMASI_STORAGE"`)
	vals := strings.Split(strings.TrimSpace(out), "\n")
	if len(vals) != 4 || vals[0] == "" || vals[1] == "" || vals[2] != "us-east-1" {
		t.Fatalf("exports = %q", vals)
	}
	loc, err := s3store.ParseURL(vals[3])
	if err != nil || loc.Bucket != "scripted" || loc.Prefix != "dev" || !loc.PathStyle || loc.Region != "us-east-1" ||
		!strings.HasPrefix(loc.Endpoint, "http://127.0.0.1:") {
		t.Fatalf("PUMASI_STORAGE %q parses to %+v, %v", vals[3], loc, err)
	}

	t.Setenv("AWS_ACCESS_KEY_ID", vals[0])
	t.Setenv("AWS_SECRET_ACCESS_KEY", vals[1])
	t.Setenv("AWS_REGION", vals[2])
	ctx := context.Background()
	st, err := s3store.Open(ctx, vals[3], s3store.Options{})
	if err != nil {
		t.Fatalf("Open(%s) with env credentials: %v", vals[3], err)
	}
	if _, err := st.PutFile(ctx, pumasi.PutFileInput{Room: "r1", Name: "hello.md", Body: []byte("# hi\n")}); err != nil {
		t.Fatal(err)
	}
	if _, b, err := st.ReadFile(ctx, "r1", "hello.md"); err != nil || string(b) != "# hi\n" {
		t.Fatalf("ReadFile = %q, %v", b, err)
	}

	// A second start reuses the running server and prints the same env.
	if again := run("start", `"$1" "$2" | tail -1`); !strings.Contains(again, loc.Endpoint[len("http://"):]) {
		t.Fatalf("second start printed %q, want the same endpoint %s", again, loc.Endpoint)
	}

	stateText, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	var dir string
	for _, line := range strings.Split(string(stateText), "\n") {
		if v, ok := strings.CutPrefix(line, "PID="); ok {
			pid, _ = strconv.Atoi(v)
		}
		if v, ok := strings.CutPrefix(line, "DIR="); ok {
			dir = v
		}
	}
	if pid == 0 || dir == "" {
		t.Fatalf("state file lacks PID or DIR:\n%s", stateText)
	}
	run("stop", `"$1" "$2"`)
	stopped = true
	if err := syscall.Kill(pid, 0); err == nil {
		t.Fatalf("minio pid %d still alive after stop", pid)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("data dir %s still there after stop: %v", dir, err)
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Fatalf("state file still there after stop: %v", err)
	}
}
