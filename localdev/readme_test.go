package localdev_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// readmeBlock returns the sh block after the README marker <!-- name.
func readmeBlock(t *testing.T, name string) string {
	t.Helper()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "<!-- "+name)
	if !ok {
		t.Fatalf("README has no %q marker", name)
	}
	_, block, _ := strings.Cut(after, "```sh\n")
	block, _, _ = strings.Cut(block, "```")
	if !strings.Contains(block, "127.0.0.1:8787") {
		t.Fatalf("README block %q does not use localdev's default address:\n%s", name, block)
	}
	return block
}

// runBlock runs README blocks, as written, with bash against base, in work,
// with $HOME set to fakeHome; only the port differs from the README.
func runBlock(t *testing.T, base, fakeHome, work string, blocks ...string) string {
	t.Helper()
	return runBlockEnv(t, base, fakeHome, work, nil, blocks...)
}

// runBlockEnv is runBlock with more environment, such as a PATH holding
// the pumasi binary.
func runBlockEnv(t *testing.T, base, fakeHome, work string, env []string, blocks ...string) string {
	t.Helper()
	script := strings.ReplaceAll(strings.Join(blocks, "\n"), "http://127.0.0.1:8787", base)
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", script)
	cmd.Dir = work
	cmd.Env = append(append(os.Environ(), "HOME="+fakeHome, "PUMASI_HOME="), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("README block failed: %v\n%s", err, out)
	}
	return string(out)
}

func assertContains(t *testing.T, got string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, `"error"`) {
		t.Errorf("output holds an error:\n%s", got)
	}
}

// TestReadmeQuickStart runs the README's quick-start curl block, as written,
// against a real localdev whose home is ~/.pumasi of a temporary $HOME. Only
// the port differs, so a developer's own localdev on 8787 is left alone.
func TestReadmeQuickStart(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed")
	}
	block := readmeBlock(t, "quickstart")
	if !strings.Contains(block, "~/.pumasi/admin.token") {
		t.Fatalf("quick start block does not read localdev's admin token:\n%s", block)
	}
	fakeHome := t.TempDir()
	p := startLocaldev(t, filepath.Join(fakeHome, ".pumasi"))
	got := runBlock(t, p.base, fakeHome, t.TempDir(), block)
	assertContains(t, got,
		`"name":"spec.md"`, `"changed":true`, // upload
		`"rev":1`, // list
		"Use OAuth device flow; tokens expire after 1h.",                            // get
		`<referenced-files>\n- spec.md: memory/shared/spec.md\n</referenced-files>`, // resolve
	)
	// The delete took effect: the room lists nothing at rev 2.
	token := strings.TrimSpace(readFile(t, filepath.Join(fakeHome, ".pumasi", "admin.token")))
	out, err := exec.Command("curl", "-sS", "-H", "Authorization: Bearer "+token, p.base+"/rooms/r1/files").CombinedOutput()
	if err != nil || !strings.Contains(string(out), `"rev":2,"files":[]`) {
		t.Fatalf("after the quick start the room lists %s (%v), want rev 2 and no files", out, err)
	}
}

// TestReadmeAgentsAndKnowledge runs the README's daemon and knowledge blocks,
// as written, against a localdev with its in-process daemon for machine
// "local", with a pumasi built from this tree on PATH (the block's `pumasi
// wait`) and PUMASI_SERVER pointing it at the test's port. Its `cat` of the
// agent's copy runs right after `pumasi wait`, as a person's paste does, and
// the block's last line must already report the agent synced.
func TestReadmeAgentsAndKnowledge(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed")
	}
	quick := readmeBlock(t, "quickstart")
	setup, _, _ := strings.Cut(quick, "\n\n") // TOKEN=... and spec.md
	agents := readmeBlock(t, "agents")
	knowledge := readmeBlock(t, "knowledge")

	if !strings.Contains(agents, "pumasi wait r1") || strings.Index(agents, "pumasi wait r1") > strings.Index(agents, "cat ~/.pumasi") {
		t.Fatalf("the agents block does not wait for the daemon before its cat:\n%s", agents)
	}
	// The CLI the package's tests share (installPumasi, in binDir): a go
	// build here relinked the same program.
	if _, err := buildPumasi(); err != nil {
		t.Fatal(err)
	}
	gobin := binDir

	fakeHome := t.TempDir()
	p := startLocaldevArgs(t, filepath.Join(fakeHome, ".pumasi"), []string{"--poll", "1s"})
	env := []string{"PUMASI_SERVER=" + p.base, "PUMASI_TOKEN=", "PATH=" + gobin + string(os.PathListSeparator) + os.Getenv("PATH")}
	got := runBlockEnv(t, p.base, fakeHome, t.TempDir(), env, setup, agents)
	assertContains(t, got, `"agent_id":"my-agent"`, "r1 (rev ", "1 agent holds the room's files: my-agent",
		"Use OAuth device flow; tokens expire after 1h.", `"synced":true`)

	got = runBlock(t, p.base, fakeHome, t.TempDir(), knowledge)
	assertContains(t, got, `"verdict":"accepted"`, `"contribution_count":1`, "modernc sqlite needs busy_timeout per connection")
}

// readmeCLIBlock returns the sh block after the README marker <!-- name,
// for blocks that reach the server through the CLI's default address.
func readmeCLIBlock(t *testing.T, name string) string {
	t.Helper()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "<!-- "+name)
	if !ok {
		t.Fatalf("README has no %q marker", name)
	}
	_, block, _ := strings.Cut(after, "```sh\n")
	block, _, _ = strings.Cut(block, "```")
	return block
}

// TestReadmeInstallAndCLI runs `make install` as the README's Install
// section says (into a temporary GOBIN), puts that folder on PATH, and runs
// the README's CLI and rooms blocks, as written, with the installed binary
// against a real localdev with its in-process daemon. PUMASI_SERVER points
// the CLI at the test's port; everything else is the README's.
func TestReadmeInstallAndCLI(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	// The package's tests run the binary make install made (installPumasi):
	// one build, with the README's flags.
	inst, err := installPumasi()
	if err != nil {
		t.Fatal(err)
	}
	gobin, bin, out := binDir, inst.bin, inst.out
	if !strings.Contains(out, "installed "+bin+"\n") {
		t.Fatalf("make install does not say where it installed:\n%s", out)
	}
	version, err := exec.Command(bin, "version").Output()
	if err != nil || !strings.HasPrefix(string(version), "pumasi ") {
		t.Fatalf("pumasi version: %v %q", err, version)
	}
	if _, err := os.Stat("../.git"); err == nil && !strings.Contains(string(version), "(revision ") {
		t.Errorf("make install in a git checkout did not stamp the revision: %q", version)
	}

	fakeHome := t.TempDir()
	p := startLocaldevArgs(t, filepath.Join(fakeHome, ".pumasi"), []string{"--poll", "1s"})
	quick := readmeBlock(t, "quickstart")
	setup, _, _ := strings.Cut(quick, "\n\n") // TOKEN=... and spec.md
	work := t.TempDir()
	run := func(blocks ...string) string {
		t.Helper()
		cmd := exec.Command("bash", "-euo", "pipefail", "-c", strings.Join(blocks, "\n"))
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "HOME="+fakeHome, "PUMASI_HOME=", "PUMASI_TOKEN=", "PUMASI_SECRET=",
			"PUMASI_SERVER="+p.base, "PATH="+gobin+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("README block failed: %v\n%s", err, out)
		}
		return string(out)
	}
	got := run(setup, "command -v pumasi", readmeCLIBlock(t, "cli"))
	assertContains(t, got, bin+"\n",
		"spec.md", "(1 file, rev 1)", "Use OAuth device flow; tokens expire after 1h.",
		"<referenced-files>\n- spec.md: memory/shared/spec.md\n</referenced-files>", "eyJ")

	got = run(readmeCLIBlock(t, "rooms"))
	assertContains(t, got,
		"placed my-agent in r1 on local\n",
		"ROOM  REV  FILES  BYTES  AGENTS\n", " my-agent\n", "(1 room)\n",
		"AGENT     MACHINE  STATE", "(1 agent in r1, rev ",
		"unplaced my-agent from r1",
	)
	// The last line placed it again: the room lists it, and its daemon
	// reports it (the room is empty after the CLI block's rm).
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(got, "synced") && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
		got = run("pumasi agents --room r1")
	}
	if !strings.Contains(got, "my-agent  local    synced") {
		t.Fatalf("my-agent never synced after the rooms block:\n%s", got)
	}
}
