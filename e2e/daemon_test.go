package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"pumasi"
)

// daemon is a running `pumasi machine run`.
type daemon struct {
	id, home, server string
	poll             time.Duration
	proc             *proc
}

func startDaemon(t testing.TB, id, home, server string, poll time.Duration) *daemon {
	t.Helper()
	d := &daemon{id: id, home: home, server: server, poll: poll}
	d.start(t)
	return d
}

func (d *daemon) start(t testing.TB) {
	t.Helper()
	d.proc = startProc(t, fmt.Sprintf("machine-%s-%d", d.id, time.Now().UnixNano()), nil,
		"machine", "run", "--server", d.server, "--machine", d.id,
		"--token", signToken(t, pumasi.ScopeMachine+d.id), "--home", d.home, "--poll", d.poll.String())
}

func sharedDir(home, agent string) string {
	return filepath.Join(home, "agents", agent, "memory", "shared")
}

// readShared reads an agent's shared directory as name -> content,
// skipping dot files (temp files are not part of an agent's view).
func readShared(home, agent string) map[string]string {
	out := map[string]string{}
	dir := sharedDir(home, agent)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return out
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil {
			out[e.Name()] = string(b)
		}
	}
	return out
}

func describe(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		v := m[k]
		if len(v) > 24 {
			v = v[:24] + "…"
		}
		fmt.Fprintf(&b, "%s=%q ", k, v)
	}
	return "{" + b.String() + "}"
}

func equalFiles(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// waitShared waits until agent's shared directory holds exactly want.
func waitShared(t testing.TB, within time.Duration, home, agent string, want map[string]string) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		got := readShared(home, agent)
		if equalFiles(got, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v agent %s holds %s, want %s", within, agent, describe(got), describe(want))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitFor polls cond until it holds or within passes.
func waitFor(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", within, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
