package s3

import (
	"context"
	"fmt"
	"sync"

	"pumasi"
)

// statusParallel bounds the concurrent requests of one status call.
const statusParallel = 8

// ReportStatus writes one status object per agent, replacing that agent's
// earlier report; the last report wins, so no compare-and-swap is needed.
func (s *Store) ReportStatus(ctx context.Context, machine string, agents []pumasi.AgentStatus) error {
	if err := pumasi.CheckStatusReport(machine, agents); err != nil {
		return err
	}
	now := s.now().UTC()
	return forEach(ctx, len(agents), func(ctx context.Context, i int) error {
		st := agents[i]
		st.MachineID = machine
		st.ReportedAt = now
		if st.Files == nil {
			st.Files = []pumasi.Holding{}
		}
		body, err := jsonMarshal(st)
		if err != nil {
			return err
		}
		_, err = s.putObject(ctx, s.statusKey(st.AgentID), body, "application/json", "", false)
		noteWrite(ctx, err)
		if err != nil {
			return fmt.Errorf("report status %s: %w", st.AgentID, err)
		}
		return nil
	})
}

// AgentStatuses reads the status objects of the given agents.
func (s *Store) AgentStatuses(ctx context.Context, agents []string) (map[string]pumasi.AgentStatus, error) {
	out := make(map[string]pumasi.AgentStatus, len(agents))
	var mu sync.Mutex
	ids := uniq(agents)
	err := forEach(ctx, len(ids), func(ctx context.Context, i int) error {
		if !pumasi.ValidID(ids[i]) {
			return nil // never reported: no object can have that name
		}
		var st pumasi.AgentStatus
		_, exists, err := s.getJSON(ctx, s.statusKey(ids[i]), &st)
		if err != nil {
			return fmt.Errorf("agent status %s: %w", ids[i], err)
		}
		if exists {
			mu.Lock()
			out[ids[i]] = st
			mu.Unlock()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// forEach runs fn for 0..n-1 with at most statusParallel at once and returns
// the first error.
func forEach(ctx context.Context, n int, fn func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sem := make(chan struct{}, statusParallel)
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for i := 0; i < n; i++ {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := fn(ctx, i); err != nil {
				once.Do(func() { first = err; cancel() })
			}
		}()
	}
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}
