// Command pumasi is the host-side CLI: the machine daemon, room file commands,
// prompt context, the MCP server, tokens and collective knowledge.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/pflag"
)

// command is one subcommand. run gets the arguments after the subcommand's
// name (after a nested name for grouped commands like "machine run").
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, env *cliEnv, args []string) error
}

// cliEnv is what a command may touch; tests swap the streams.
type cliEnv struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
}

var commands = map[string]command{}

// register adds a subcommand; each lives in its own file and registers in init.
func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("pumasi: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	env := &cliEnv{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}
	err := run(ctx, env, os.Args[1:])
	stop()
	if err != nil && !errors.Is(err, context.Canceled) {
		var shown *shownError
		if !errors.Is(err, pflag.ErrHelp) && !errors.As(err, &shown) {
			fmt.Fprintln(os.Stderr, "pumasi:", err)
		}
		os.Exit(exitCode(err))
	}
}

// exitCodeError carries a specific exit status.
type exitCodeError struct {
	code int
	err  error
}

func (e *exitCodeError) Error() string { return e.err.Error() }
func (e *exitCodeError) Unwrap() error { return e.err }

// exitCode is 2 for a usage error (a command line that cannot run as
// given; nothing was sent) and 1 for a failure.
func exitCode(err error) int {
	var ec *exitCodeError
	if errors.As(err, &ec) {
		return ec.code
	}
	var ue *usageError
	if errors.As(err, &ue) || errors.Is(err, pflag.ErrHelp) {
		return 2
	}
	return 1
}

// run dispatches to a subcommand; nested commands are looked up by their
// two-word name first ("machine run", "know query"). Asking for help (no
// command is not asking) prints to stdout and succeeds, so `| less` works.
func run(ctx context.Context, env *cliEnv, args []string) error {
	if len(args) == 0 {
		usage(env.stderr)
		return &exitCodeError{2, errors.New("no command given")}
	}
	switch args[0] {
	case "-h", "-help", "--help":
		usage(env.stdout)
		return nil
	case "--version", "-version":
		return runVersion(ctx, env, args[1:])
	}
	if c, n, ok := lookup(args); ok {
		if c.name != "help" && wantsHelp(args[n:]) {
			commandHelp(ctx, env, c)
			return nil
		}
		err := c.run(ctx, env, args[n:])
		var ue *usageError
		if errors.As(err, &ue) {
			// The command's usage and flags say what would have worked.
			fmt.Fprintf(env.stderr, "pumasi %s: %v\n\n", c.name, err)
			commandUsage(ctx, env, c, env.stderr)
			return &shownError{err}
		}
		return err
	}
	if names := group(args[0]); len(names) > 0 {
		if len(args) == 1 || wantsHelp(args[1:]) {
			return runHelp(ctx, env, args[:1])
		}
	}
	usage(env.stderr)
	return usagef("unknown command %q (pumasi help lists them)", strings.Join(args[:1], " "))
}
