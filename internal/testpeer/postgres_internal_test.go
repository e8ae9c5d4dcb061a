package testpeer

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestPostgresDiesWithTestBinary starts a cluster in a child test binary,
// SIGKILLs the child (no cleanup runs) and checks that the postmaster, which
// runs as another user, still dies with it (Pdeathsig survives the switch
// of credentials) instead of living on as an orphan.
func TestPostgresDiesWithTestBinary(t *testing.T) {
	if os.Getenv("TESTPEER_PG_ORPHAN") == "1" {
		srv := PostgresCluster(t)
		fmt.Printf("CLUSTER %d %s\n", srv.Port, srv.dir)
		time.Sleep(time.Minute)
		return
	}
	if _, err := postgresBinaries(); err != nil {
		if Required() {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestPostgresDiesWithTestBinary$")
	cmd.Env = append(os.Environ(), "TESTPEER_PG_ORPHAN=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "CLUSTER ") {
				lines <- sc.Text()
				return
			}
		}
		close(lines)
	}()
	var port int
	var dir string
	select {
	case line, ok := <-lines:
		if !ok {
			t.Fatal("child ended without starting a cluster")
		}
		if _, err := fmt.Sscanf(line, "CLUSTER %d %s", &port, &dir); err != nil {
			t.Fatalf("child said %q: %v", line, err)
		}
	case <-time.After(startTimeout):
		t.Fatal("child did not start a cluster in time")
	}
	defer os.RemoveAll(dir)
	url := fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
	if err := ping(url); err != nil {
		t.Fatalf("cluster of the child does not answer: %v", err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for ping(url) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("postgres on port %d still answers 10 s after its test binary was killed", port)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func ping(url string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer c.Close(context.Background())
	return c.Ping(ctx)
}
