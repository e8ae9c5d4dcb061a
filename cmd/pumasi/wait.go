package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"
)

func init() {
	register(command{name: "wait", summary: "wait until every agent in a room holds its current files: wait ROOM [--timeout 30s]", run: runWait})
}

// waitPoll is how often wait asks again.
const waitPoll = 200 * time.Millisecond

// roomDelivery is GET /rooms/{room}/agents's answer, as far as wait reads it.
type roomDelivery struct {
	RoomID string `json:"room_id"`
	Rev    int64  `json:"rev"`
	Agents []struct {
		AgentID   string     `json:"agent_id"`
		MachineID string     `json:"machine_id"`
		Synced    bool       `json:"synced"`
		Missing   []string   `json:"missing"`
		Extra     []string   `json:"extra,omitempty"`
		LastSeen  *time.Time `json:"last_seen"`
	} `json:"agents"`
}

// behind says, one phrase per agent, who does not yet hold the room's
// current files and what it lacks.
func (d roomDelivery) behind() []string {
	var out []string
	for _, a := range d.Agents {
		if a.Synced {
			continue
		}
		who := fmt.Sprintf("%s (machine %s)", a.AgentID, a.MachineID)
		switch {
		case a.LastSeen == nil:
			out = append(out, who+" has never reported: is its machine's daemon running?")
		case len(a.Missing) > 0:
			out = append(out, fmt.Sprintf("%s is missing %s", who, strings.Join(a.Missing, ", ")))
		default:
			out = append(out, fmt.Sprintf("%s still holds %s", who, strings.Join(a.Extra, ", ")))
		}
	}
	return out
}

// runWait polls the room's agents until every placed agent holds the
// room's current files (what a script needs before reading an agent's copy
// under <home>/agents/<agent>/memory/shared/), or the timeout passes.
func runWait(ctx context.Context, env *cliEnv, args []string) error {
	fs, room, mk := roomFlagSet(env, "wait")
	timeout := fs.Duration("timeout", 30*time.Second, "give up after this long: exit 1, naming the agents still behind")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	r, _, err := roomAndName(pos, *room, 0, 0, "wait ROOM [--timeout 30s]")
	if err != nil {
		return err
	}
	if *timeout <= 0 {
		return usagef("--timeout must be positive")
	}
	c, err := mk()
	if err != nil {
		return err
	}
	return waitSynced(ctx, c, r, *timeout, env.stdout)
}

// waitSynced is wait's loop.
func waitSynced(ctx context.Context, c *client, room string, timeout time.Duration, out io.Writer) error {
	deadline := time.Now().Add(timeout)
	tick := time.NewTicker(waitPoll)
	defer tick.Stop()
	for {
		var d roomDelivery
		if err := c.doJSON(ctx, "GET", roomPath(room, "agents"), nil, &d); err != nil {
			return err
		}
		lag := d.behind()
		if len(lag) == 0 {
			names := make([]string, len(d.Agents))
			for i, a := range d.Agents {
				names[i] = a.AgentID
			}
			if len(names) == 0 {
				fmt.Fprintf(out, "%s (rev %d): no agents are placed in it\n", room, d.Rev)
			} else {
				fmt.Fprintf(out, "%s (rev %d): %s the room's files: %s\n", room, d.Rev, holds(len(names)), strings.Join(names, ", "))
			}
			return nil
		}
		if !time.Now().Before(deadline) {
			return fmt.Errorf("wait %s: after %s, at rev %d: %s", room, timeout, d.Rev, strings.Join(lag, "; "))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// holds is "1 agent holds" or "N agents hold".
func holds(n int) string {
	if n == 1 {
		return "1 agent holds"
	}
	return fmt.Sprintf("%d agents hold", n)
}
