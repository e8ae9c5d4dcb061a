package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestContextWarnsOnUnknownAgent: a typo in --agent still prints the empty
// block a hook expects, and says on stderr that the folder does not exist.
func TestContextWarnsOnUnknownAgent(t *testing.T) {
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "agents", "my-agent", "memory", "shared"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"PUMASI_HOME": home}
	out, errOut, err := runCLI(t, env, "context", "--agent", "my-agnet")
	if err != nil || out != "<shared-context>\n</shared-context>\n" {
		t.Fatalf("typo: err %v, stdout %q", err, out)
	}
	if !strings.Contains(errOut, "warning") || !strings.Contains(errOut, filepath.Join(home, "agents", "my-agnet")) {
		t.Errorf("typo: stderr %q, want a warning naming the missing folder", errOut)
	}
	if _, errOut, err := runCLI(t, env, "context", "--agent", "my-agent"); err != nil || errOut != "" {
		t.Errorf("known agent: err %v, stderr %q, want silence", err, errOut)
	}
}
