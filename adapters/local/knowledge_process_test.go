package local

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"pumasi/knowledge"
)

// init lets the test binary double as a knowledge contributor on a shared
// home: with PUMASI_KNOW_HELPER set it contributes and exits before any test
// (or TestMain) runs.
func init() {
	if os.Getenv("PUMASI_KNOW_HELPER") == "" {
		return
	}
	os.Exit(knowHelper(os.Getenv("PUMASI_KNOW_HOME"), os.Getenv("PUMASI_KNOW_TAG")))
}

// knowSameFinding is the one finding every racer contributes.
func knowSameFinding(agent string) knowledge.ContributeInput {
	title := "SQLite WAL and NFS do not mix"
	content := "`journal_mode=WAL` needs shared memory; on NFS you get 'database is locked'. Keep pumasi.db on a local disk."
	v := make([]float32, 8)
	v[3] = 1
	return knowledge.ContributeInput{Hive: "academy", Agent: agent, Title: title, Content: content,
		NormHash: knowledge.Hash(title, content), Model: "test-model", Vector: v, Specificity: 0.9,
		Threshold: knowledge.DefaultMergeThreshold}
}

// knowHelper opens the home, waits for the start file so that both helper
// processes contribute at once, and contributes 25 times concurrently.
func knowHelper(home, tag string) int {
	ctx := context.Background()
	s, err := Open(ctx, home, Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		return 2
	}
	defer s.Close()
	k := NewKnowledge(s)
	// Ready: the home is open; the parent lets both go once both are.
	if err := os.WriteFile(filepath.Join(home, "ready-"+tag), nil, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "ready:", err)
		return 2
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(home, "go")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			fmt.Fprintln(os.Stderr, "no start signal")
			return 3
		}
		time.Sleep(5 * time.Millisecond)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	failed := 0
	for i := 0; i < 25; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := k.Contribute(ctx, knowSameFinding(fmt.Sprintf("%s-agent-%02d", tag, i))); err != nil {
				mu.Lock()
				failed++
				mu.Unlock()
				fmt.Fprintln(os.Stderr, "contribute:", err)
			}
		}()
	}
	wg.Wait()
	if failed > 0 {
		return 1
	}
	return 0
}

// TestKnowledgeTwoProcessesOneHome: two real processes, 25 goroutines each,
// contribute the same finding into one SQLite home at once → exactly one
// entry with contribution_count 50 and 50 attributions.
func TestKnowledgeTwoProcessesOneHome(t *testing.T) {
	home := t.TempDir()
	s, err := Open(context.Background(), home, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var cmds []*exec.Cmd
	for _, tag := range []string{"pa", "pb"} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "PUMASI_KNOW_HELPER=1", "PUMASI_KNOW_HOME="+home, "PUMASI_KNOW_TAG="+tag)
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	// Both helpers have the home open before either starts: a real
	// readiness signal, not a guess at how long opening takes.
	for _, tag := range []string{"pa", "pb"} {
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			if _, err := os.Stat(filepath.Join(home, "ready-"+tag)); err == nil {
				break
			}
			if time.Now().After(deadline) {
				for _, c := range cmds {
					c.Process.Kill()
				}
				t.Fatalf("helper %s did not open the home within 30 s", tag)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(home, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("helper failed: %v", err)
		}
	}
	k := NewKnowledge(s)
	hits, err := k.Query(context.Background(), knowledge.QueryInput{Hive: "academy", Model: "test-model", Vector: knowSameFinding("x").Vector, Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 {
		t.Fatalf("%d entries, want 1", len(hits))
	}
	e, err := k.GetEntry(context.Background(), hits[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	agents := map[string]bool{}
	for _, c := range e.Contributions {
		agents[c.Agent] = true
	}
	if e.ContributionCount != 50 || len(e.Contributions) != 50 || len(agents) != 50 {
		t.Fatalf("contribution_count %d, %d attributions from %d agents; want 50, 50, 50",
			e.ContributionCount, len(e.Contributions), len(agents))
	}
}
