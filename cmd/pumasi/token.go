package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"pumasi"
	"pumasi/localdev"
)

func init() {
	register(command{name: "token", summary: "mint a token: token --admin | --room R | --machine M [--subject NAME] [--ttl 720h] [--new-secret]", run: runToken})
}

func runToken(ctx context.Context, env *cliEnv, args []string) error {
	fs := newFlags("token")
	admin := fs.Bool("admin", false, "full access")
	rooms := fs.StringArray("room", nil, "access to this room (repeatable)")
	machines := fs.StringArray("machine", nil, "act as this machine daemon (repeatable)")
	ttl := fs.Duration("ttl", 720*time.Hour, "lifetime")
	sub := fs.String("subject", "", "who the token is for, a person or an agent: the room log and uploaded_by name it (default: the first scope)")
	home := fs.String("home", "", "data folder holding the secret (env PUMASI_HOME, default ~/.pumasi)")
	newSecret := fs.Bool("new-secret", false, "create <home>/secret when it does not exist (servers using another secret reject the token)")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if err := noArgs(pos); err != nil {
		return err
	}
	var scopes []string
	if *admin {
		scopes = append(scopes, pumasi.ScopeAdmin)
	}
	for _, r := range *rooms {
		if err := pumasi.CheckID("room", r); err != nil {
			return asUsage(err)
		}
		scopes = append(scopes, pumasi.ScopeRoom+r)
	}
	for _, m := range *machines {
		if err := pumasi.CheckID("machine", m); err != nil {
			return asUsage(err)
		}
		scopes = append(scopes, pumasi.ScopeMachine+m)
	}
	if len(scopes) == 0 {
		return usagef("say what the token grants: --admin, --room R or --machine M")
	}
	if *ttl <= 0 {
		return usagef("--ttl must be positive")
	}
	secret := []byte(env.getenv("PUMASI_SECRET"))
	if len(secret) == 0 {
		h, err := homeDir(env, *home)
		if err != nil {
			return err
		}
		// A token signed with a secret no server has is rejected by every
		// server: refuse to create one unless asked.
		if _, err := os.Stat(filepath.Join(h, "secret")); errors.Is(err, os.ErrNotExist) && !*newSecret {
			return fmt.Errorf("no signing secret: PUMASI_SECRET is unset and %s does not exist; run this on the server's host (the one localdev created it on), set PUMASI_SECRET, pass --home, or --new-secret to create one", filepath.Join(h, "secret"))
		}
		if secret, err = localdev.LoadOrCreateSecret(h); err != nil {
			return err
		}
	}
	subject := *sub
	if subject == "" {
		// The room log and uploaded_by show the subject: without one they
		// can only name the scope.
		subject = scopes[0]
	}
	tok, err := pumasi.SignToken(secret, subject, scopes, *ttl, time.Now())
	if err != nil {
		return err
	}
	fmt.Fprintln(env.stdout, tok)
	return nil
}
