package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"pumasi"
)

func init() {
	register(command{name: "rooms", summary: "list the rooms the token reaches: rooms [--json]", run: runRooms})
	register(command{name: "place", summary: "place (or move) an agent: place --room R --agent A --machine M", run: runPlace})
	register(command{name: "unplace", summary: "take an agent out of a room: unplace --room R --agent A", run: runUnplace})
	register(command{name: "agents", summary: "a room's agents and their sync state: agents --room R [--json]", run: runAgents})
}

// plural writes n with noun, plural when n is not 1: "1 file", "2 files".
func plural[N ~int | ~int64](n N, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(noun, "y"))
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func runRooms(ctx context.Context, env *cliEnv, args []string) error {
	fs := newFlags("rooms")
	mk := clientFlags(env, fs)
	asJSON := fs.Bool("json", false, "print the answer as JSON")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if err := noArgs(pos); err != nil {
		return err
	}
	c, err := mk()
	if err != nil {
		return err
	}
	var res struct {
		Rooms []pumasi.RoomSummary `json:"rooms"`
	}
	if err := c.doJSON(ctx, "GET", "/rooms", nil, &res); err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env.stdout, res)
	}
	tw := newTable(env.stdout)
	fmt.Fprintf(tw, "ROOM\tREV\tFILES\tBYTES\tAGENTS\n")
	for _, r := range res.Rooms {
		var names []string
		for _, a := range r.Agents {
			if slices.Contains(r.Offline, a) {
				a += " (offline)"
			}
			names = append(names, a)
		}
		agents := strings.Join(names, ",")
		if agents == "" {
			agents = "-"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\n", r.RoomID, r.Rev, r.Files, r.Bytes, agents)
	}
	fmt.Fprintf(tw, "(%s)\n", plural(len(res.Rooms), "room"))
	return tw.Flush()
}

// agentFlagSet is a room flag set with --agent.
func agentFlagSet(env *cliEnv, name string) (*pflag.FlagSet, *string, *string, func() (*client, error)) {
	fs, room, mk := roomFlagSet(env, name)
	agent := fs.String("agent", envOr(env, "PUMASI_AGENT", ""), "agent id (env PUMASI_AGENT)")
	return fs, room, agent, mk
}

// needAgent checks place's and unplace's command line: --room, --agent
// and no arguments.
func needAgent(room, agent string, pos []string) error {
	if err := needRoom(room); err != nil {
		return err
	}
	if agent == "" {
		return usagef("--agent is required (or set PUMASI_AGENT)")
	}
	if err := noArgs(pos); err != nil {
		return err
	}
	return asUsage(pumasi.CheckID("agent", agent))
}

func runPlace(ctx context.Context, env *cliEnv, args []string) error {
	fs, room, agent, mk := agentFlagSet(env, "place")
	machine := fs.String("machine", "", "machine whose daemon mirrors the room for the agent (required)")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if err := needAgent(*room, *agent, pos); err != nil {
		return err
	}
	if *machine == "" {
		return usagef("--machine is required (the local daemon of `pumasi localdev` is \"local\")")
	}
	if err := pumasi.CheckID("machine", *machine); err != nil {
		return asUsage(err)
	}
	c, err := mk()
	if err != nil {
		return err
	}
	var res struct {
		pumasi.Placement
		Changed  bool              `json:"changed"`
		Previous *pumasi.Placement `json:"previous"`
	}
	if err := c.doJSON(ctx, "PUT", roomPath(*room, "agents", *agent), map[string]string{"machine_id": *machine}, &res); err != nil {
		return err
	}
	switch {
	case !res.Changed:
		fmt.Fprintf(env.stdout, "%s is already in %s on %s\n", *agent, *room, *machine)
	case res.Previous != nil:
		fmt.Fprintf(env.stdout, "moved %s from %s on %s to %s on %s\n", *agent, res.Previous.RoomID, res.Previous.MachineID, *room, *machine)
	default:
		fmt.Fprintf(env.stdout, "placed %s in %s on %s\n", *agent, *room, *machine)
	}
	return nil
}

func runUnplace(ctx context.Context, env *cliEnv, args []string) error {
	fs, room, agent, mk := agentFlagSet(env, "unplace")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if err := needAgent(*room, *agent, pos); err != nil {
		return err
	}
	c, err := mk()
	if err != nil {
		return err
	}
	if err := c.doJSON(ctx, "DELETE", roomPath(*room, "agents", *agent), nil, nil); err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "unplaced %s from %s; its machine empties its copy\n", *agent, *room)
	return nil
}

func runAgents(ctx context.Context, env *cliEnv, args []string) error {
	fs, room, mk := roomFlagSet(env, "agents")
	asJSON := fs.Bool("json", false, "print the answer as JSON")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if err := needRoom(*room); err != nil {
		return err
	}
	if err := noArgs(pos); err != nil {
		return err
	}
	c, err := mk()
	if err != nil {
		return err
	}
	var res struct {
		RoomID string `json:"room_id"`
		Rev    int64  `json:"rev"`
		Agents []struct {
			AgentID   string     `json:"agent_id"`
			MachineID string     `json:"machine_id"`
			Synced    bool       `json:"synced"`
			Missing   []string   `json:"missing"`
			Extra     []string   `json:"extra,omitempty"`
			State     string     `json:"state"`
			LastSeen  *time.Time `json:"last_seen"`
			// OfflineSince is set when State is "offline".
			OfflineSince *time.Time `json:"offline_since,omitempty"`
		} `json:"agents"`
	}
	if err := c.doJSON(ctx, "GET", roomPath(*room, "agents"), nil, &res); err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env.stdout, res)
	}
	tw := newTable(env.stdout)
	fmt.Fprintf(tw, "AGENT\tMACHINE\tSTATE\tLAST SEEN\n")
	for _, a := range res.Agents {
		state := "synced"
		switch {
		case a.State == "offline":
			state = "offline"
		case a.LastSeen == nil:
			state = "never reported"
		case !a.Synced && len(a.Missing) > 0:
			state = "missing " + plural(len(a.Missing), "file")
		case !a.Synced:
			state = "holds " + plural(len(a.Extra), "extra file")
		}
		seen := "-"
		if a.LastSeen != nil {
			seen = a.LastSeen.Format(time.RFC3339)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", a.AgentID, a.MachineID, state, seen)
	}
	fmt.Fprintf(tw, "(%s in %s, rev %d)\n", plural(len(res.Agents), "agent"), res.RoomID, res.Rev)
	return tw.Flush()
}
