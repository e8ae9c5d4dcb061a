package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
)

// newFlags returns a command's flag set. Every command parses the same way
// (github.com/spf13/pflag): --long flags, before or after the arguments,
// `--` ending them; -h or --help asks for help. The set prints nothing
// itself: parseFlags turns its errors into usage errors, and run prints the
// command's own help beside them.
func newFlags(name string) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseFlags parses args into fs and returns the positional arguments. -h
// writes the flags to env.stderr (commandHelp reads them from there) and
// returns pflag.ErrHelp; a flag that does not parse is a usage error.
func parseFlags(env *cliEnv, fs *pflag.FlagSet, args []string) ([]string, error) {
	err := fs.Parse(args)
	if errors.Is(err, pflag.ErrHelp) {
		fmt.Fprint(env.stderr, flagUsages(fs))
		return nil, err
	}
	if err != nil {
		return nil, &usageError{singleDashHint(fs, args, err)}
	}
	return fs.Args(), nil
}

// flagUsages lists fs's flags, one a line, as pflag does but with a bool
// flag shown bare (--json, not --json[=true|false]).
func flagUsages(fs *pflag.FlagSet) string {
	type row struct{ head, usage string }
	var rows []row
	width := 0
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		head := "      --" + f.Name
		if f.Shorthand != "" {
			head = "  -" + f.Shorthand + ", --" + f.Name
		}
		varname, usage := pflag.UnquoteUsage(f)
		switch f.Value.Type() {
		case "bool":
		case "stringArray":
			head += " string"
		default:
			head += " " + varname
		}
		switch f.DefValue {
		case "", "false", "0", "0s", "[]":
		default:
			if f.Value.Type() == "string" {
				usage += fmt.Sprintf(" (default %q)", f.DefValue)
			} else {
				usage += fmt.Sprintf(" (default %s)", f.DefValue)
			}
		}
		rows = append(rows, row{head, usage})
		width = max(width, len(head))
	})
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%-*s   %s\n", width, r.head, r.usage)
	}
	return b.String()
}

// singleDashHint adds to a parse error caused by a Go-style -flag (one
// dash, a long name this command has) how to spell it.
func singleDashHint(fs *pflag.FlagSet, args []string, err error) error {
	for _, a := range args {
		if a == "--" {
			break
		}
		if len(a) > 2 && a[0] == '-' && a[1] != '-' {
			name, _, _ := strings.Cut(a[1:], "=")
			if fs.Lookup(name) != nil {
				return fmt.Errorf("%w (long flags take two dashes: --%s)", err, name)
			}
		}
	}
	return err
}

// usageError is a command line that cannot run as given: a bad or missing
// flag, a missing or extra argument, an argument that is not valid. It exits
// 2, and run prints the command's usage and flags after it. A command checks
// its whole command line before it sends anything, so a usage error has
// changed nothing.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// usagef returns a usage error.
func usagef(format string, a ...any) error {
	return &usageError{fmt.Errorf(format, a...)}
}

// asUsage marks err (an invalid id or name, say) as a usage error.
func asUsage(err error) error {
	if err == nil {
		return nil
	}
	return &usageError{err}
}

// noArgs is a usage error when a command that takes no arguments got some.
func noArgs(pos []string) error {
	if len(pos) > 0 {
		return usagef("unexpected argument %q", pos[0])
	}
	return nil
}

// shownError is an error run has already printed; main only exits with
// its code.
type shownError struct{ err error }

func (e *shownError) Error() string { return e.err.Error() }
func (e *shownError) Unwrap() error { return e.err }
