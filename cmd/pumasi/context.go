package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
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
		summary: "print an agent's <shared-context> block: context --agent A [--home DIR] [--budget 65536] [--hook]",
		run:     runContext,
	})
}

// runContext prints the <shared-context> block of DESIGN.md §8 for the files
// the daemon keeps in <home>/agents/<agent>/memory/shared/. It reads only
// the local disk, so it is fast and works offline, which is what a prompt
// hook needs.
func runContext(ctx context.Context, env *cliEnv, args []string) error {
	fs := flag.NewFlagSet("context", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	agent := fs.String("agent", "", "agent id (required)")
	home := fs.String("home", "", "folder holding agents/<agent>/memory (env PUMASI_HOME, default ~/.pumasi)")
	budget := fs.Int("budget", prompt.DefaultContextBudget, "largest output in bytes; files past it are listed as omitted (0: no limit)")
	hook := fs.Bool("hook", false, "read a prompt hook's JSON event from stdin and add the <referenced-files> hint for the $references in its \"prompt\"")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err := pumasi.CheckID("agent", *agent); err != nil {
		return fmt.Errorf("--agent: %s", pumasi.ErrorMessage(err))
	}
	if *budget < 0 {
		return fmt.Errorf("--budget must be 0 or more")
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
	var prompt string
	if *hook {
		if prompt, err = hookPrompt(env.stdin); err != nil {
			return err
		}
	}
	block, err := sharedContextBlock(ctx, dir, *budget)
	if err != nil {
		return fmt.Errorf("context: %w", err)
	}
	if prompt != "" {
		res, err := resolveShared(ctx, dir, prompt, nil)
		if err != nil {
			return fmt.Errorf("context: %w", err)
		}
		if res.Hint != "" {
			block += res.Hint + "\n"
		}
	}
	_, err = io.WriteString(env.stdout, block)
	return err
}

// maxHookEvent bounds what --hook reads from stdin.
const maxHookEvent = 4 << 20

// hookPrompt reads a prompt hook event (Claude Code's UserPromptSubmit
// sends {"prompt": "...", ...}; SessionStart sends no prompt) and returns
// its prompt, "" when there is none.
func hookPrompt(r io.Reader) (string, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxHookEvent))
	if err != nil {
		return "", fmt.Errorf("read hook event: %w", err)
	}
	var ev struct {
		Prompt string `json:"prompt"`
	}
	if len(b) == 0 {
		return "", nil
	}
	if err := json.Unmarshal(b, &ev); err != nil {
		return "", fmt.Errorf("read hook event: stdin is not a JSON object: %w", err)
	}
	return ev.Prompt, nil
}
