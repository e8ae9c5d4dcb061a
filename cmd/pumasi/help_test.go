package main

import (
	"errors"
	"strings"
	"testing"
)

// TestHelpEveryCommand: every registered command answers `help CMD` and
// `CMD --help` on stdout, exit 0, with its description, an example that
// starts with its own name and (for commands with flags) the flags.
func TestHelpEveryCommand(t *testing.T) {
	for name := range commands {
		h, ok := helpTexts[name]
		if !ok {
			t.Errorf("%s: no helpTexts entry (description, usage, example)", name)
			continue
		}
		if !strings.Contains(h.example, "pumasi "+name) {
			t.Errorf("%s: example %q does not run pumasi %s", name, h.example, name)
		}
		args := append(strings.Fields(name), "--help")
		for _, argv := range [][]string{append([]string{"help"}, strings.Fields(name)...), args} {
			out, errOut, err := runCLI(t, nil, argv...)
			if err != nil {
				t.Errorf("%v: %v (stderr %q)", argv, err, errOut)
			}
			if !strings.HasPrefix(out, "pumasi "+name+": "+h.desc+"\n") || !strings.Contains(out, "example:\n  "+h.example) {
				t.Errorf("%v: stdout lacks the description or example:\n%s", argv, out)
			}
			if name != "version" && name != "help" && !strings.Contains(out, "flags:\n") {
				t.Errorf("%v: no flags listed:\n%s", argv, out)
			}
		}
	}
}

func TestTopLevelHelp(t *testing.T) {
	for _, argv := range [][]string{{"--help"}, {"-h"}, {"help"}} {
		out, errOut, err := runCLI(t, nil, argv...)
		if err != nil || errOut != "" {
			t.Fatalf("%v: err %v, stderr %q", argv, err, errOut)
		}
		for _, want := range []string{"usage: pumasi", "  put ", "upload files to a room", "  machine run "} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: stdout lacks %q:\n%s", argv, want, out)
			}
		}
	}
	// No command at all is a usage error: stderr and exit 2.
	out, errOut, err := runCLI(t, nil)
	var ec *exitCodeError
	if !errors.As(err, &ec) || ec.code != 2 || out != "" || !strings.Contains(errOut, "usage: pumasi") {
		t.Fatalf("no command: err %v, stdout %q", err, out)
	}
	// An unknown command and an unknown help topic exit 2 too.
	for _, argv := range [][]string{{"frobnicate"}, {"help", "frobnicate"}} {
		if _, _, err := runCLI(t, nil, argv...); exitCode(err) != 2 {
			t.Errorf("%v: want exit 2, got %v", argv, err)
		}
	}
	// A group word lists its commands.
	out, _, err = runCLI(t, nil, "know")
	if err != nil || !strings.Contains(out, "know query") || !strings.Contains(out, "know contribute") {
		t.Errorf("know: %v\n%s", err, out)
	}
}

func TestVersion(t *testing.T) {
	for _, argv := range [][]string{{"version"}, {"--version"}} {
		out, _, err := runCLI(t, nil, argv...)
		if err != nil || !strings.HasPrefix(out, "pumasi ") || !strings.Contains(out, "go1.") {
			t.Errorf("%v: %v %q", argv, err, out)
		}
	}
	// A test binary carries build info without VCS stamping.
	if !strings.Contains(versionLine(), "(devel)") {
		t.Errorf("versionLine() = %q, want the main module's (devel) version", versionLine())
	}
}
