package localdev_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeQuickStart runs the README's quick-start curl block, as written,
// against a real localdev whose home is ~/.pumasi of a temporary $HOME. Only
// the port differs, so a developer's own localdev on 8787 is left alone.
func TestReadmeQuickStart(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed")
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "<!-- quickstart")
	if !ok {
		t.Fatal("README has no quickstart marker")
	}
	_, block, _ := strings.Cut(after, "```sh\n")
	block, _, _ = strings.Cut(block, "```")
	if !strings.Contains(block, "127.0.0.1:8787") || !strings.Contains(block, "~/.pumasi/admin.token") {
		t.Fatalf("quick start block does not use localdev's defaults:\n%s", block)
	}

	fakeHome := t.TempDir()
	p := startLocaldev(t, filepath.Join(fakeHome, ".pumasi"))
	script := strings.ReplaceAll(block, "http://127.0.0.1:8787", p.base)

	work := t.TempDir()
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", script)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "HOME="+fakeHome, "PUMASI_HOME=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("quick start failed: %v\n%s", err, out)
	}
	got := string(out)
	for _, want := range []string{
		`"name":"spec.md"`, `"changed":true`, // upload
		`"rev":1`, // list
		"Use OAuth device flow; tokens expire after 1h.",                            // get
		`<referenced-files>\n- spec.md: memory/shared/spec.md\n</referenced-files>`, // resolve
	} {
		if !strings.Contains(got, want) {
			t.Errorf("quick start output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, `"error"`) {
		t.Errorf("quick start printed an error:\n%s", got)
	}
	// The delete took effect: the room lists nothing at rev 2.
	token := strings.TrimSpace(readFile(t, filepath.Join(fakeHome, ".pumasi", "admin.token")))
	out, err = exec.Command("curl", "-sS", "-H", "Authorization: Bearer "+token, p.base+"/rooms/r1/files").CombinedOutput()
	if err != nil || !strings.Contains(string(out), `"rev":2,"files":[]`) {
		t.Fatalf("after the quick start the room lists %s (%v), want rev 2 and no files", out, err)
	}
}
