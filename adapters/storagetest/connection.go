package storagetest

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"

	"pumasi"
)

// RunConnections is the conformance suite of pumasi.ConnectionStore. newStore
// returns a fresh, empty store and closes it with t.Cleanup. A backend runs
// it with one line beside Run.
func RunConnections(t *testing.T, newStore func(t *testing.T) pumasi.ConnectionStore) {
	t.Run("SaveListDrop", func(t *testing.T) {
		ctx := context.Background()
		s := newStore(t)
		// Ids as API Gateway and localdev mint them: base64 with `=`, `+`
		// and `/`, and UUIDs.
		ids := []string{"L0SM9cOFvHcCIhw=", "a+b/c==", "3f2b8c1e-9a7d-4c3b-8e21-5d6f7a8b9c0d"}
		for _, id := range ids {
			if err := s.SaveConnection(ctx, "m1", id); err != nil {
				t.Fatalf("SaveConnection(m1, %q) error: %v", id, err)
			}
		}
		if err := s.SaveConnection(ctx, "m2", "other"); err != nil {
			t.Fatalf("SaveConnection(m2) error: %v", err)
		}
		want := append([]string(nil), ids...)
		sort.Strings(want)
		if got := connIDs(t, s, "m1"); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("MachineConnections(m1) = %v, want %v", got, want)
		}
		if got := connIDs(t, s, "m2"); fmt.Sprint(got) != "[other]" {
			t.Fatalf("MachineConnections(m2) = %v, want [other]", got)
		}
		if got := connIDs(t, s, "m3"); len(got) != 0 {
			t.Fatalf("MachineConnections(m3) = %v, want none", got)
		}
		c, err := s.LookupConnection(ctx, "a+b/c==")
		if err != nil {
			t.Fatalf("LookupConnection error: %v", err)
		}
		if c.ID != "a+b/c==" || c.MachineID != "m1" || c.ConnectedAt.IsZero() {
			t.Fatalf("LookupConnection = %+v, want id a+b/c== on m1 with a time", c)
		}
		dropped, err := s.DropConnection(ctx, "a+b/c==")
		if err != nil {
			t.Fatalf("DropConnection error: %v", err)
		}
		if dropped.MachineID != "m1" {
			t.Fatalf("DropConnection machine = %q, want m1", dropped.MachineID)
		}
		if _, err := s.DropConnection(ctx, "a+b/c=="); pumasi.ErrorCode(err) != pumasi.ENotFound {
			t.Fatalf("second DropConnection code = %q, want not_found", pumasi.ErrorCode(err))
		}
		if _, err := s.LookupConnection(ctx, "a+b/c=="); pumasi.ErrorCode(err) != pumasi.ENotFound {
			t.Fatalf("LookupConnection after drop code = %q, want not_found", pumasi.ErrorCode(err))
		}
		if got := connIDs(t, s, "m1"); len(got) != 2 {
			t.Fatalf("MachineConnections(m1) after drop = %v, want 2 ids", got)
		}
	})

	t.Run("SaveAgainMoves", func(t *testing.T) {
		ctx := context.Background()
		s := newStore(t)
		if err := s.SaveConnection(ctx, "m1", "c1"); err != nil {
			t.Fatal(err)
		}
		if err := s.SaveConnection(ctx, "m1", "c1"); err != nil {
			t.Fatalf("SaveConnection again error: %v", err)
		}
		if got := connIDs(t, s, "m1"); fmt.Sprint(got) != "[c1]" {
			t.Fatalf("after saving twice MachineConnections(m1) = %v, want [c1]", got)
		}
		if err := s.SaveConnection(ctx, "m2", "c1"); err != nil {
			t.Fatal(err)
		}
		if got := connIDs(t, s, "m1"); len(got) != 0 {
			t.Fatalf("after move MachineConnections(m1) = %v, want none", got)
		}
		if got := connIDs(t, s, "m2"); fmt.Sprint(got) != "[c1]" {
			t.Fatalf("after move MachineConnections(m2) = %v, want [c1]", got)
		}
	})

	t.Run("InvalidIDs", func(t *testing.T) {
		ctx := context.Background()
		s := newStore(t)
		for _, tc := range []struct{ machine, id string }{
			{"M1", "c1"}, {"../m", "c1"}, {"", "c1"},
			{"m1", ""}, {"m1", "c 1"}, {"m1", "c\x00"}, {"m1", "bad;id"},
			{"m1", string(make([]byte, pumasi.MaxConnectionIDBytes+1))},
		} {
			if err := s.SaveConnection(ctx, tc.machine, tc.id); pumasi.ErrorCode(err) != pumasi.EInvalidRequest && pumasi.ErrorCode(err) != pumasi.EInvalidName {
				t.Errorf("SaveConnection(%q, %q) code = %q, want invalid_request", tc.machine, tc.id, pumasi.ErrorCode(err))
			}
		}
		if _, err := s.MachineConnections(ctx, "../m"); err == nil {
			t.Errorf("MachineConnections(../m) error = nil, want invalid_request")
		}
		if _, err := s.DropConnection(ctx, "never saved"); pumasi.ErrorCode(err) != pumasi.ENotFound {
			t.Errorf("DropConnection(unknown) code = %q, want not_found", pumasi.ErrorCode(err))
		}
	})

	t.Run("ConcurrentSaves", func(t *testing.T) {
		ctx := context.Background()
		s := newStore(t)
		const n = 24
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- s.SaveConnection(ctx, "m1", fmt.Sprintf("conn-%02d", i))
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("concurrent SaveConnection error: %v", err)
			}
		}
		if got := connIDs(t, s, "m1"); len(got) != n || got[0] != "conn-00" || got[n-1] != fmt.Sprintf("conn-%02d", n-1) {
			t.Fatalf("MachineConnections(m1) = %v, want conn-00..conn-%02d", got, n-1)
		}
	})
}

func connIDs(t *testing.T, s pumasi.ConnectionStore, machine string) []string {
	t.Helper()
	cs, err := s.MachineConnections(context.Background(), machine)
	if err != nil {
		t.Fatalf("MachineConnections(%s) error: %v", machine, err)
	}
	ids := make([]string, 0, len(cs))
	for _, c := range cs {
		if c.MachineID != machine {
			t.Fatalf("MachineConnections(%s) holds %+v of another machine", machine, c)
		}
		ids = append(ids, c.ID)
	}
	return ids
}
