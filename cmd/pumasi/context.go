package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"pumasi"
	"pumasi/prompt"
)

func init() {
	register(command{
		name:    "context",
		summary: "print an agent's <shared-context> block: context --agent A [--home DIR] [--budget 65536] [--hook: as a host's hook, within 9000]",
		run:     runContext,
	})
}

// runContext prints the <shared-context> block of DESIGN.md §8 for the files
// the daemon keeps in <home>/agents/<agent>/memory/shared/. It reads only
// the local disk, so it is fast and works offline, which is what a prompt
// hook needs.
func runContext(ctx context.Context, env *cliEnv, args []string) error {
	fs := newFlags("context")
	agent := fs.String("agent", "", "agent id (required)")
	home := fs.String("home", "", "folder holding agents/<agent>/memory (env PUMASI_HOME, default ~/.pumasi)")
	budget := fs.Int("budget", prompt.DefaultContextBudget, fmt.Sprintf("largest output in bytes; files past it are listed by path as omitted (0: no limit; with --hook the default is %d, under what hosts keep of a hook)", DefaultHookBudget))
	hook := fs.Bool("hook", false, "run as a host's session or prompt hook: read its JSON event from stdin, add the <referenced-files> hint for the $references in its \"prompt\", and print the JSON its host documents for added context")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if err := noArgs(pos); err != nil {
		return err
	}
	if *agent == "" {
		return usagef("--agent is required")
	}
	if err := pumasi.CheckID("agent", *agent); err != nil {
		return usagef("--agent: %s", pumasi.ErrorMessage(err))
	}
	if *budget < 0 {
		return usagef("--budget must be 0 or more")
	}
	if *hook && !fs.Changed("budget") {
		*budget = DefaultHookBudget
	}
	h, err := homeDir(env, *home)
	if err != nil {
		return err
	}
	dir := agentSharedDir(h, *agent)
	// A typo in --agent would print an empty block and look fine: say so on
	// stderr (the block on stdout stays what a prompt hook expects).
	if _, err := os.Stat(filepath.Join(h, "agents", *agent)); errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(env.stderr, "pumasi context: warning: %s does not exist; is agent %q placed (pumasi agents --room R), is its daemon running, and with this --home?\n", filepath.Join(h, "agents", *agent), *agent)
	}
	var ev hookEvent
	if *hook {
		if ev, err = readContextEvent(env.stdin); err != nil {
			return err
		}
	}
	// The hint of the prompt's $references comes first out of the budget:
	// it is short, and what the user asked for.
	hint := ""
	if ev.Prompt != "" {
		res, err := resolveShared(ctx, dir, ev.Prompt, nil)
		if err != nil {
			return fmt.Errorf("context: %w", err)
		}
		if res.Hint != "" {
			hint = res.Hint + "\n"
		}
	}
	blockBudget := *budget
	if blockBudget > 0 {
		blockBudget = max(1, blockBudget-len(hint))
	}
	block, err := sharedContextBlock(ctx, dir, blockBudget)
	if err != nil {
		return fmt.Errorf("context: %w", err)
	}
	if !*hook {
		_, err = io.WriteString(env.stdout, block)
		return err
	}
	return writeHookContext(env.stdout, ev, block+hint)
}

// maxHookEvent bounds what --hook reads from stdin.
const maxHookEvent = 4 << 20

// readContextEvent reads a hook event from stdin (hookout.go lists what
// each host sends); empty stdin is an event of no host, printed as text.
func readContextEvent(r io.Reader) (hookEvent, error) {
	var ev hookEvent
	b, err := io.ReadAll(io.LimitReader(r, maxHookEvent))
	if err != nil {
		return ev, fmt.Errorf("read hook event: %w", err)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return ev, nil
	}
	if err := json.Unmarshal(b, &ev); err != nil {
		return ev, fmt.Errorf("read hook event: stdin is not a JSON object: %w", err)
	}
	return ev, nil
}
