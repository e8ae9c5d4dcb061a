package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
)

// helpText is what `pumasi help CMD` and `CMD --help` print beside the
// command's flags. It lives here, not in each command's register call, so one
// table shows every command the way a newcomer meets them; TestHelpEveryCommand
// fails when a registered command has no entry.
type helpText struct {
	// desc is one line: what the command does.
	desc string
	// usage is the synopsis after "pumasi ".
	usage string
	// example is a line that works as pasted against `make localdev`.
	example string
	// flagArgs, when set, are the arguments before -h that reach the flags
	// (init needs its host first).
	flagArgs []string
}

var helpTexts = map[string]helpText{
	"put":             {"upload files to a room", "put --room R [--name N] [--if-match SHA] FILE...", "pumasi put --room r1 spec.md", nil},
	"ls":              {"list a room's files with their rev", "ls --room R [--json]", "pumasi ls --room r1", nil},
	"get":             {"print a room file's bytes", "get --room R NAME [--version N]", "pumasi get --room r1 spec.md", nil},
	"versions":        {"list a room file's kept versions, newest first, with who made each", "versions ROOM NAME [--json]", "pumasi versions r1 spec.md", nil},
	"log":             {"list a room's changes in rev order: who uploaded, deleted, restored, placed or moved what", "log ROOM [--since REV] [--limit N] [--json]", "pumasi log r1 --since 0", nil},
	"diff":            {"print a line diff between two versions of a room file", "diff ROOM NAME A B (version numbers, or current)", "pumasi diff r1 spec.md 1 current", nil},
	"restore":         {"make a kept version current again as a new version; brings back a deleted name", "restore ROOM NAME --version N [--if-match SHA]", "pumasi restore r1 spec.md --version 1", nil},
	"rm":              {"delete a room file", "rm --room R NAME", "pumasi rm --room r1 spec.md", nil},
	"resolve":         {"resolve $references in a text into the <referenced-files> hint", "resolve --room R TEXT", "pumasi resolve --room r1 'please review $spec.md'", nil},
	"rooms":           {"list the rooms your token reaches, with rev, files, bytes and agents", "rooms [--json]", "pumasi rooms", nil},
	"place":           {"place (or move) an agent in a room on a machine", "place --room R --agent A --machine M", "pumasi place --room r1 --agent my-agent --machine local", nil},
	"unplace":         {"take an agent out of its room; its machine empties the copy", "unplace --room R --agent A", "pumasi unplace --room r1 --agent my-agent", nil},
	"wait":            {"wait until every agent placed in a room holds the room's current files (exit 1 on timeout, naming who is behind)", "wait ROOM [--timeout 30s]", "pumasi wait r1 --timeout 30s", nil},
	"agents":          {"list a room's agents with their sync state", "agents --room R [--json]", "pumasi agents --room r1", nil},
	"context":         {"print an agent's <shared-context> block from its local copy", "context --agent A [--home DIR] [--budget 65536] [--hook]", "pumasi context --agent my-agent", nil},
	"machine run":     {"run the machine daemon that mirrors each agent's room", "machine run --server URL --machine ID [--token T | --token-file F] [--home DIR] [--poll 30s] [--ws URL] [--metrics ADDR]", "pumasi machine run --server http://127.0.0.1:8787 --machine m1 --token \"$(pumasi token --machine m1)\"", nil},
	"mcp":             {"serve the shared files and knowledge tools over MCP (stdio)", "mcp --agent A [--home DIR] [--server URL] [--token T] [--room R]", "claude mcp add pumasi -- pumasi mcp --agent my-agent", nil},
	"init":            {"write an agent host's hooks and MCP configuration", "init claude-code|codex|cursor --agent A [--server URL] [--dry-run]", "pumasi init claude-code --agent my-agent --dry-run", []string{"claude-code"}},
	"know query":      {"search collective knowledge", "know query TEXT [--limit 5] [--hive H]", "pumasi know query 'sqlite busy'", nil},
	"know contribute": {"share a finding with collective knowledge", "know contribute --agent A --title T --content C [--hive H] [--tags a,b]", "pumasi know contribute --agent my-agent --title 'pgx pool size' --content 'pgx v5: set pool_max_conns=10 in the DSN'", nil},
	"know cite":       {"count a use of a knowledge entry (keeps it fresh in the ranking)", "know cite ID [--agent A]", "pumasi know cite --agent my-agent 0b7e9c52-4f7d-4d8e-9a39-3c1f0e6b2a11", nil},
	"know endorse":    {"endorse a knowledge entry that proved right, once per handle", "know endorse ID [--agent A]", "pumasi know endorse --agent my-agent 0b7e9c52-4f7d-4d8e-9a39-3c1f0e6b2a11", nil},
	"know flag":       {"flag a knowledge entry (wrong, outdated, harmful, duplicate, pii); enough distinct flaggers, or one admin, quarantine it", "know flag ID --reason R [--note N] [--agent A] [--admin]", "pumasi know flag --agent my-agent --reason outdated --note 'fixed in v2' 0b7e9c52-4f7d-4d8e-9a39-3c1f0e6b2a11", nil},
	"know rm":         {"redact a knowledge entry (admin): its text, tags and vectors are removed everywhere, a tombstone stays", "know rm ID [--reason R]", "pumasi know rm --reason 'leaked secret' 0b7e9c52-4f7d-4d8e-9a39-3c1f0e6b2a11", nil},
	"know restore":    {"lift a knowledge entry's quarantine (admin)", "know restore ID", "pumasi know restore 0b7e9c52-4f7d-4d8e-9a39-3c1f0e6b2a11", nil},
	"know unmerge":    {"undo the merge that absorbed a knowledge entry (admin): it comes back with its own contributions and counts", "know unmerge ID", "pumasi know unmerge 0b7e9c52-4f7d-4d8e-9a39-3c1f0e6b2a11", nil},
	"know history":    {"list a knowledge entry's merges, flags, supersessions and redaction, oldest first", "know history ID [--json]", "pumasi know history 0b7e9c52-4f7d-4d8e-9a39-3c1f0e6b2a11", nil},
	"know export":     {"write every knowledge entry (contributions, counts, endorsements, cites, flags, moderation, history), merge record (so unmerge works after a move) and tombstone as JSONL (docs/export.md), from this home's SQLite or PUMASI_KNOWLEDGE's Postgres", "know export [--hive H] [--home DIR | --knowledge URL] > corpus.jsonl", "pumasi know export > corpus.jsonl", nil},
	"know import":     {"load a know export into this store (SQLite or Postgres) with ids, counts and times kept; entries already there are left as they are, so a second import changes nothing", "know import [--home DIR | --knowledge URL] < corpus.jsonl", "pumasi know import --knowledge 'postgres://postgres@127.0.0.1:5433/postgres?sslmode=disable' < corpus.jsonl", nil},
	"know hook":       {"a prompt hook that adds relevant knowledge to an agent's prompt", "know hook [flags] < event.json", "echo '{\"prompt\":\"sqlite busy\"}' | pumasi know hook", nil},
	"localdev":        {"run the whole product offline (disk + SQLite) on 127.0.0.1:8787", "localdev [--addr A] [--home DIR] [--storage URL] [--no-machine]", "pumasi localdev", nil},
	"sweep":           {"run the sweep now: orphan blobs, temp files, near-duplicate knowledge", "sweep [--grace 10m]", "pumasi sweep --grace 10m", nil},
	"token":           {"mint a token signed with the secret", "token --admin | --room R | --machine M [--subject NAME] [--ttl 720h] [--new-secret]", "pumasi token --room r1 --ttl 24h", nil},
	"version":         {"print the module version and VCS revision", "version", "pumasi version", nil},
	"help":            {"print the commands, or one command's description, example and flags", "help [COMMAND]", "pumasi help put", nil},
}

// describe returns a command's one-line description: its help entry's, else
// the part of its summary before the usage.
func describe(name string) string {
	if h, ok := helpTexts[name]; ok {
		return h.desc
	}
	s := commands[name].summary
	if i := strings.Index(s, ": "+strings.Fields(name)[0]); i > 0 {
		return s[:i]
	}
	return s
}

// usage lists every command with its description.
func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: pumasi <command> [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-16s %s\n", n, describe(n))
	}
	fmt.Fprintln(w, "\n`pumasi help COMMAND` (or `pumasi COMMAND --help`) shows its flags and an example.")
}

// lookup finds the command named by the first one or two words of args and
// returns it with the words it used.
func lookup(args []string) (command, int, bool) {
	if len(args) >= 2 {
		if c, ok := commands[args[0]+" "+args[1]]; ok {
			return c, 2, true
		}
	}
	if len(args) >= 1 {
		if c, ok := commands[args[0]]; ok {
			return c, 1, true
		}
	}
	return command{}, 0, false
}

// group lists the commands under a group word ("know", "machine").
func group(word string) []string {
	var out []string
	for n := range commands {
		if strings.HasPrefix(n, word+" ") {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// runHelp serves `pumasi help [CMD]`: to stdout, exit 0, like --help.
func runHelp(ctx context.Context, env *cliEnv, args []string) error {
	if len(args) == 0 {
		usage(env.stdout)
		return nil
	}
	if wantsHelp(args) {
		commandHelp(ctx, env, commands["help"])
		return nil
	}
	if c, n, ok := lookup(args); ok && n == len(args) {
		commandHelp(ctx, env, c)
		return nil
	}
	if names := group(args[0]); len(names) > 0 && len(args) == 1 {
		fmt.Fprintf(env.stdout, "pumasi %s has these commands:\n\n", args[0])
		for _, n := range names {
			fmt.Fprintf(env.stdout, "  %-16s %s\n", n, describe(n))
		}
		return nil
	}
	usage(env.stderr)
	return &exitCodeError{2, fmt.Errorf("no command %q", strings.Join(args, " "))}
}

// commandHelp prints a command's description, usage, example and flags.
func commandHelp(ctx context.Context, env *cliEnv, c command) {
	h := commandHelpText(c)
	fmt.Fprintf(env.stdout, "pumasi %s: %s\n\n", c.name, h.desc)
	commandUsage(ctx, env, c, env.stdout)
}

// commandHelpText is c's help entry, or one made from its summary.
func commandHelpText(c command) helpText {
	if h, ok := helpTexts[c.name]; ok {
		return h
	}
	return helpText{desc: describe(c.name), usage: c.summary}
}

// commandUsage writes a command's usage, example and flags to w. The flags
// come from the command itself: it is run with -h and its flag set's
// output captured, so they never go stale. Every command parses its flags
// before it does anything else, so -h has no side effect.
func commandUsage(ctx context.Context, env *cliEnv, c command, w io.Writer) {
	h := commandHelpText(c)
	fmt.Fprintf(w, "usage:\n  pumasi %s\n", h.usage)
	if h.example != "" {
		fmt.Fprintf(w, "\nexample:\n  %s\n", h.example)
	}
	if c.name == "help" || c.name == "version" {
		return // no flags, and help -h would come back here
	}
	var flags bytes.Buffer
	quiet := &cliEnv{stdin: strings.NewReader(""), stdout: io.Discard, stderr: &flags, getenv: env.getenv}
	c.run(ctx, quiet, append(append([]string{}, h.flagArgs...), "-h"))
	if out := flags.String(); strings.TrimSpace(out) != "" {
		fmt.Fprintf(w, "\nflags:\n%s", out)
	}
}

// wantsHelp reports whether args ask for help before any "--".
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}
