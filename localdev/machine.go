package localdev

import (
	"context"
	"errors"
	"fmt"
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
//
// When another process already runs the daemon for "local" on this home (a
// first localdev, or `pumasi machine run --machine local`), this localdev
// serves without one and says so: two daemons would each empty the agents
// the other mirrors. A distinct identity would not help, because the shared
// folders are keyed by agent, not by machine, under the one home.
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
	waitRun, err := machine.Start(ctx, machine.Config{
		Server:     base,
		Machine:    LocalMachine,
		Token:      tok,
		Home:       cfg.Home,
		Poll:       cfg.Poll,
		Log:        log,
		HTTPClient: &http.Client{Timeout: 30 * time.Second},
	})
	var held *machine.HeldError
	if errors.As(err, &held) {
		log.Error("in-process daemon not started; serving without it", "holder_pid", held.PID, "err", err)
		fmt.Fprintf(cfg.Out, "in-process daemon not started: %v\n", err)
		return func() {}
	}
	if err != nil {
		log.Error("in-process daemon not started", "err", err)
		return func() {}
	}
	return func() {
		if err := waitRun(); err != nil && !errors.Is(err, context.Canceled) {
			log.Error("in-process daemon stopped", "err", err)
		}
	}
}
