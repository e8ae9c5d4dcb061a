package s3

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"pumasi"
)

// repairPlacements finds agents whose room manifests or machine indexes
// disagree with their record, as a crash between the two writes leaves them,
// and reconciles each. It reads every manifest, machine index and agent
// record once, so it belongs in the sweep, not on a request path. It returns
// how many agents it repaired.
func (s *Store) repairPlacements(ctx context.Context, rooms []string, cutoff time.Time) (int, error) {
	type seen struct {
		rooms, machines []string
		gens            []string
	}
	by := map[string]*seen{}
	note := func(p placement, room, machine string) {
		e := by[p.AgentID]
		if e == nil {
			e = &seen{}
			by[p.AgentID] = e
		}
		if room != "" {
			e.rooms = append(e.rooms, room)
		}
		if machine != "" {
			e.machines = append(e.machines, machine)
		}
		e.gens = append(e.gens, p.Gen)
	}
	for _, room := range rooms {
		m, err := s.readManifest(ctx, room)
		if err != nil {
			return 0, err
		}
		for _, p := range m.Placements {
			note(p, room, "")
		}
	}
	machines, err := s.listIDs(ctx, "machines/")
	if err != nil {
		return 0, err
	}
	for _, machine := range machines {
		var ix machineIndex
		if _, _, err := s.getJSON(ctx, s.machineKey(machine), &ix); err != nil {
			return 0, err
		}
		for _, p := range ix.Placements {
			note(p, "", machine)
		}
	}
	agents, err := s.listIDs(ctx, "agents/")
	if err != nil {
		return 0, err
	}
	for _, agent := range agents {
		if by[agent] == nil {
			by[agent] = &seen{}
		}
	}
	repaired := 0
	for _, agent := range slices.Sorted(maps.Keys(by)) {
		e := by[agent]
		var truth placement
		if _, _, err := s.getJSON(ctx, s.agentKey(agent), &truth); err != nil {
			return repaired, err
		}
		if truth.ChangedAt.After(cutoff) {
			continue // its placement call may still be reconciling it
		}
		// Consistent: every entry is a copy of the record, a placed record
		// has exactly its room entry and its machine entry, and an empty
		// one has none.
		ok := len(e.rooms) == 0 && len(e.machines) == 0
		if truth.placed() {
			ok = len(e.rooms) == 1 && e.rooms[0] == truth.RoomID &&
				len(e.machines) == 1 && e.machines[0] == truth.MachineID
		}
		for _, g := range e.gens {
			ok = ok && g == truth.Gen
		}
		if ok {
			continue
		}
		if _, err := s.reconcile(ctx, agent, e.rooms, e.machines); err != nil {
			return repaired, err
		}
		repaired++
	}
	return repaired, nil
}

// listIDs returns the ids of the <dir><id>.json objects under the prefix.
func (s *Store) listIDs(ctx context.Context, dir string) ([]string, error) {
	base := s.prefix + dir
	var ids []string
	p := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{Bucket: aws.String(s.bucket), Prefix: aws.String(base)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", base, err)
		}
		for _, o := range page.Contents {
			id, ok := strings.CutSuffix(strings.TrimPrefix(aws.ToString(o.Key), base), ".json")
			if ok && pumasi.ValidID(id) {
				ids = append(ids, id)
			}
		}
	}
	return ids, nil
}
