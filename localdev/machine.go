package localdev

import (
	"context"
	"errors"
	"net/http"
	"time"

	"pumasi"
	"pumasi/machine"
)

// LocalMachine is the machine id of localdev's in-process daemon.
const LocalMachine = "local"

// localMachineTTL is the lifetime of the in-process daemon's token; it is
// minted at every start and never leaves the process.
const localMachineTTL = 365 * 24 * time.Hour

// startMachine runs the in-process daemon for machine "local" against base,
// so that placing an agent on "local" fills <home>/agents/<agent>/memory/shared/.
// It returns a function that waits for the daemon to stop after ctx ends.
func startMachine(ctx context.Context, cfg Config, secret []byte, base string) (wait func()) {
	if cfg.NoMachine {
		return func() {}
	}
	log := cfg.Log.With("component", "machine")
	tok, err := pumasi.SignToken(secret, "localdev", []string{pumasi.ScopeMachine + LocalMachine}, localMachineTTL, time.Now())
	if err != nil {
		log.Error("in-process daemon not started: mint token", "err", err)
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		err := machine.Run(ctx, machine.Config{
			Server:     base,
			Machine:    LocalMachine,
			Token:      tok,
			Home:       cfg.Home,
			Poll:       cfg.Poll,
			Log:        log,
			HTTPClient: &http.Client{Timeout: 30 * time.Second},
		})
		if err != nil && !errors.Is(err, context.Canceled) {
			log.Error("in-process daemon stopped", "err", err)
		}
	}()
	return func() { <-done }
}
