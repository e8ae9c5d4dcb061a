package main

import (
	"context"
	"fmt"
	"runtime/debug"
)

func init() {
	register(command{name: "version", summary: "print the module version and VCS revision", run: runVersion})
	register(command{name: "help", summary: "print the commands, or one command's flags and example: help [COMMAND]", run: runHelp})
}

// versionLine is what `pumasi version` prints: the module version, the VCS
// revision and time when the binary was built with VCS stamping (`make
// install` and plain `go build` stamp it; `make build` and `make lambda` use
// -buildvcs=false for reproducible bytes and say "revision unknown").
func versionLine() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "pumasi (no build information)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, when, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", modified"
			}
		}
	}
	line := fmt.Sprintf("pumasi %s %s", v, bi.GoVersion)
	if rev == "" {
		return line + " (revision unknown: built with -buildvcs=false)"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	return fmt.Sprintf("%s (revision %s, %s%s)", line, rev, when, modified)
}

func runVersion(ctx context.Context, env *cliEnv, args []string) error {
	if len(args) > 0 {
		return usagef("version takes no arguments")
	}
	fmt.Fprintln(env.stdout, versionLine())
	return nil
}
