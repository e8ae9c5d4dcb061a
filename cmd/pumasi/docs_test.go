package main

import (
	"flag"
	"os"
	"sort"
	"strings"
	"testing"
)

var updateDocs = flag.Bool("update", false, "rewrite docs/cli.md from the commands' help")

// cliDoc renders docs/cli.md from the help every command prints, so the
// document is the CLI's own words.
func cliDoc(t *testing.T) string {
	var b strings.Builder
	b.WriteString("# CLI\n\nGenerated from `pumasi help` (cmd/pumasi/help.go); `TestDocsCLI` fails when it\n" +
		"differs from what the commands print. Regenerate with\n`go test ./cmd/pumasi -run TestDocsCLI -update`.\n\n" +
		"Every command prints its help on stdout and exits 0 with `pumasi help CMD` or\n`pumasi CMD --help`; " +
		"`pumasi version` (or `--version`) prints the module version and VCS revision.\n\n```\n")
	out, _, err := runCLI(t, nil, "help")
	if err != nil {
		t.Fatal(err)
	}
	b.WriteString(out + "```\n")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		out, _, err := runCLI(t, map[string]string{}, append([]string{"help"}, strings.Fields(n)...)...)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("\n## pumasi " + n + "\n\n```\n" + out + "```\n")
	}
	return b.String()
}

func TestDocsCLI(t *testing.T) {
	want := cliDoc(t)
	if *updateDocs {
		if err := os.WriteFile("../../docs/cli.md", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("docs/cli.md differs from the commands' help; run go test ./cmd/pumasi -run TestDocsCLI -update")
	}
}
