package s3_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"pumasi"
	s3store "pumasi/adapters/s3"
)

// checkFaultState compares what MinIO holds, read without the proxy, with
// what the acknowledged answers imply.
func checkFaultState(t *testing.T, ctx context.Context, direct *s3store.Store, run *faultRun, workers []*faultWorker) {
	t.Helper()
	violate := run.violate
	for _, room := range faultRooms {
		l, err := direct.ListFiles(ctx, room)
		if err != nil {
			t.Fatal(err)
		}
		if want := run.revs[room]; l.Rev != want {
			violate("rev", "room %s: rev %d, want %d effective changes acknowledged", room, l.Rev, want)
		}
		got := map[string]pumasi.File{}
		for _, f := range l.Files {
			got[f.Name] = f
		}
		for _, fw := range workers {
			for key, m := range fw.names {
				r, name, _ := strings.Cut(key, "/")
				if r != room {
					continue
				}
				f, ok := got[name]
				switch {
				case ok != m.exists:
					violate("state-file", "%s: present=%v, want %v", key, ok, m.exists)
				case ok && (f.SHA256 != m.sha || f.Version != m.version || f.ID != m.id):
					violate("state-file", "%s: %s v%d, want %s v%d", key, f.SHA256[:8], f.Version, m.sha[:8], m.version)
				case ok:
					if _, b, err := direct.ReadFile(ctx, room, name); err != nil || sum(b) != m.sha {
						violate("state-blob", "%s: read %v", key, err)
					}
				}
				checkFaultHistory(ctx, direct, run, key, room, name, m)
				delete(got, name)
			}
		}
		for name := range got {
			violate("state-file", "%s/%s: present, acknowledged by nobody", room, name)
		}
	}

	inRooms := map[string][]string{}
	for _, room := range faultRooms {
		ps, err := direct.RoomAgents(ctx, room)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			inRooms[p.AgentID] = append(inRooms[p.AgentID], room+"/"+p.MachineID)
		}
	}
	onMachines := map[string][]string{}
	conns := map[string]string{}
	for _, m := range faultMachines {
		ps, err := direct.MachineAgents(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			onMachines[p.AgentID] = append(onMachines[p.AgentID], p.RoomID+"/"+m)
		}
		cs, err := direct.MachineConnections(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			conns[c.ID] = m
		}
	}
	for _, fw := range workers {
		want := []string{}
		if fw.place.room != "" {
			want = []string{fw.place.room + "/" + fw.place.machine}
		}
		if got := inRooms[fw.agent]; fmt.Sprint(got) != fmt.Sprint(want) && !(len(got) == 0 && len(want) == 0) {
			violate("state-rooms", "%s listed in rooms %v, want %v", fw.agent, got, want)
		}
		if got := onMachines[fw.agent]; fmt.Sprint(got) != fmt.Sprint(want) && !(len(got) == 0 && len(want) == 0) {
			violate("state-assignments", "%s assigned on %v, want %v", fw.agent, got, want)
		}
		p, err := direct.AgentPlacement(ctx, fw.agent)
		if got := (placeModel{p.RoomID, p.MachineID}); got != fw.place || (err != nil && fw.place.room != "") {
			violate("state-agent", "%s record %+v (%v), want %+v", fw.agent, got, err, fw.place)
		}
		if conns[fw.conn] != fw.connM {
			violate("state-conn", "%s listed on %q, want %q", fw.conn, conns[fw.conn], fw.connM)
		}
	}
}

// checkFaultHistory: every version retention is sure to keep is listed with
// the content acknowledged for it and reads back byte-exact (0 lost), and
// no version is listed that nobody acknowledged (0 false).
func checkFaultHistory(ctx context.Context, direct *s3store.Store, run *faultRun, key, room, name string, m *fileModel) {
	if len(m.hist) == 0 {
		return
	}
	vs, err := direct.FileVersions(ctx, room, name)
	if err != nil {
		run.violate("state-history", "%s: FileVersions: %v", key, err)
		return
	}
	listed := map[int]pumasi.FileVersion{}
	for _, v := range vs {
		listed[v.Version] = v
	}
	acked := map[int]string{}
	for i, h := range m.hist {
		acked[h.version] = h.sha
		v, ok := listed[h.version]
		switch {
		case !ok && m.sureKept(i):
			run.violate("state-history", "%s: version %d was lost", key, h.version)
		case ok && (v.SHA256 != h.sha || v.Deleted != (h.sha == "")):
			run.violate("state-history", "%s: version %d lists %q, want %q", key, h.version, v.SHA256, h.sha)
		case ok && h.sha != "":
			if _, b, err := direct.ReadVersion(ctx, room, name, h.version); err != nil || sum(b) != h.sha {
				run.violate("state-history", "%s: ReadVersion(%d): %v", key, h.version, err)
			}
		}
	}
	for v := range listed {
		if _, ok := acked[v]; !ok {
			run.violate("state-history", "%s: version %d listed, acknowledged by nobody", key, v)
		}
	}
}
