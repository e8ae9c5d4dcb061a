// Command pumasi is the host-side CLI: the machine daemon, room file commands,
// prompt context, the MCP server, tokens and collective knowledge.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
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
		if !errors.Is(err, flag.ErrHelp) {
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

func exitCode(err error) int {
	var ec *exitCodeError
	if errors.As(err, &ec) {
		return ec.code
	}
	if errors.Is(err, flag.ErrHelp) {
		return 2
	}
	return 1
}

// run dispatches to a subcommand; nested commands are looked up by their
// two-word name first ("machine run", "know query").
func run(ctx context.Context, env *cliEnv, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(env.stderr)
		if len(args) == 0 {
			return &exitCodeError{2, errors.New("no command given")}
		}
		return nil
	}
	if len(args) >= 2 {
		if c, ok := commands[args[0]+" "+args[1]]; ok {
			return c.run(ctx, env, args[2:])
		}
	}
	if c, ok := commands[args[0]]; ok {
		return c.run(ctx, env, args[1:])
	}
	usage(env.stderr)
	return &exitCodeError{2, fmt.Errorf("unknown command %q", strings.Join(args[:1], " "))}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: pumasi <command> [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-16s %s\n", n, commands[n].summary)
	}
}
