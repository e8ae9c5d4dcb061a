package s3_test

import (
	"context"
	"maps"
	"slices"
	"strings"

	"pumasi"
)

// The operations of one fault-run worker, each judged against its model.

// step runs one random operation and judges its answer against the model.
func (fw *faultWorker) step(ctx context.Context) {
	keys := slices.Sorted(maps.Keys(fw.names))
	key := keys[fw.rnd.IntN(len(keys))]
	room, name, _ := strings.Cut(key, "/")
	m := fw.names[key]
	content := body(name, fw.rnd.IntN(3))
	switch x := fw.rnd.IntN(100); {
	case x < 25:
		fw.upload(ctx, "upload", room, name, m, pumasi.PutFileInput{Body: content})
	case x < 35:
		fw.upload(ctx, "create", room, name, m, pumasi.PutFileInput{Body: content, IfNoneMatch: true})
	case x < 45:
		tag := `"` + sum(content) + `"` // wrong unless the content is already there
		if m.exists && fw.rnd.IntN(4) > 0 {
			tag = `"` + m.sha + `"`
		}
		fw.upload(ctx, "if-match", room, name, m, pumasi.PutFileInput{Body: content, IfMatch: tag})
	case x < 50:
		fw.upload(ctx, "if-match-star", room, name, m, pumasi.PutFileInput{Body: content, IfMatch: "*"})
	case x < 57:
		fw.delete(ctx, room, name, m)
	case x < 64:
		fw.restore(ctx, room, name, m)
	case x < 82:
		fw.placeAgent(ctx)
	case x < 92:
		fw.unplaceAgent(ctx)
	default:
		fw.connection(ctx)
	}
}

func (fw *faultWorker) upload(ctx context.Context, kind, room, name string, m *fileModel, in pumasi.PutFileInput) {
	r := fw.run
	r.count(kind)
	in.Room, in.Name, in.ContentType = room, name, "text/markdown; charset=utf-8"
	sha := sum(in.Body)
	res, err := fw.st.PutFile(ctx, in)
	var wantCode string
	switch {
	case in.IfNoneMatch && m.exists:
		wantCode = pumasi.EPreconditionFailed
	case in.IfMatch == "*" && !m.exists:
		wantCode = pumasi.EPreconditionFailed
	case in.IfMatch != "" && in.IfMatch != "*" && (!m.exists || `"`+m.sha+`"` != in.IfMatch):
		wantCode = pumasi.EPreconditionFailed
	}
	if got := pumasi.ErrorCode(err); got != wantCode {
		r.violate(kind, "%s/%s: error %v, want code %q (model %+v)", room, name, err, wantCode, *m)
		fw.resync(ctx, room, name, m)
		return
	}
	if err != nil {
		return
	}
	wantChanged := !m.exists || m.sha != sha
	wantVersion := m.version // Versions go on across deletes.
	if wantChanged {
		wantVersion++
	}
	if res.Changed != wantChanged || res.File.Version != wantVersion || res.File.SHA256 != sha || (m.exists && res.File.ID != m.id) {
		r.violate(kind, "%s/%s: changed=%v version=%d id=%s, want changed=%v version=%d (model %+v)",
			room, name, res.Changed, res.File.Version, res.File.ID, wantChanged, wantVersion, *m)
	}
	if wantChanged {
		r.bump(room, 1)
		m.hist = append(m.hist, histEntry{res.File.Version, sha})
	}
	*m = fileModel{exists: true, sha: sha, id: res.File.ID, version: res.File.Version, hist: m.hist}
}

// restore brings back a version the worker made: one retention is sure to
// keep must come back; an older one may answer not_found, never anything
// untrue.
func (fw *faultWorker) restore(ctx context.Context, room, name string, m *fileModel) {
	r := fw.run
	var content []int
	for i, h := range m.hist {
		if h.sha != "" {
			content = append(content, i)
		}
	}
	if len(content) == 0 {
		return
	}
	r.count("restore")
	i := content[fw.rnd.IntN(len(content))]
	h := m.hist[i]
	in := pumasi.RestoreInput{Room: room, Name: name, Version: h.version, By: "fault"}
	if m.exists && fw.rnd.IntN(2) == 0 {
		in.IfMatch = `"` + m.sha + `"`
	}
	res, body, err := fw.st.RestoreFile(ctx, in)
	if err != nil {
		if pumasi.ErrorCode(err) == pumasi.ENotFound && !m.sureKept(i) {
			return // Reaped: a true answer.
		}
		r.violate("restore", "%s/%s version %d: %v (model %+v)", room, name, h.version, err, *m)
		fw.resync(ctx, room, name, m)
		return
	}
	wantChanged := !m.exists || m.sha != h.sha
	wantVersion := m.version
	if wantChanged {
		wantVersion++
	}
	if res.Changed != wantChanged || res.File.Version != wantVersion || res.File.SHA256 != h.sha || sum(body) != h.sha {
		r.violate("restore", "%s/%s version %d: changed=%v version=%d sha=%s, want changed=%v version=%d sha=%s",
			room, name, h.version, res.Changed, res.File.Version, res.File.SHA256[:8], wantChanged, wantVersion, h.sha[:8])
	}
	if wantChanged {
		r.bump(room, 1)
		m.hist = append(m.hist, histEntry{res.File.Version, h.sha})
	}
	*m = fileModel{exists: true, sha: h.sha, id: res.File.ID, version: res.File.Version, hist: m.hist}
}

func (fw *faultWorker) delete(ctx context.Context, room, name string, m *fileModel) {
	r := fw.run
	r.count("delete")
	ifMatch, wantCode := "", ""
	if m.exists && fw.rnd.IntN(3) == 0 {
		ifMatch = `"` + m.sha + `"`
	}
	if !m.exists {
		wantCode = pumasi.ENotFound
	}
	f, _, err := fw.st.DeleteFile(ctx, room, name, ifMatch)
	if got := pumasi.ErrorCode(err); got != wantCode {
		r.violate("delete", "%s/%s: error %v, want code %q (model %+v)", room, name, err, wantCode, *m)
		fw.resync(ctx, room, name, m)
		return
	}
	if err != nil {
		return
	}
	if f.SHA256 != m.sha || f.ID != m.id {
		r.violate("delete", "%s/%s: removed %s (%s), want %s (%s)", room, name, f.SHA256, f.ID, m.sha, m.id)
	}
	r.bump(room, 1)
	*m = fileModel{version: m.version + 1, hist: append(m.hist, histEntry{m.version + 1, ""})}
}

// resync replaces the model of a name after an untrue answer with the truth.
func (fw *faultWorker) resync(ctx context.Context, room, name string, m *fileModel) {
	f, err := fw.st.StatFile(ctx, room, name)
	*m = fileModel{}
	if err == nil {
		*m = fileModel{exists: true, sha: f.SHA256, id: f.ID, version: f.Version}
	}
	// The history too: every version listed is taken as acknowledged.
	if vs, err := fw.st.FileVersions(ctx, room, name); err == nil {
		m.version = max(m.version, vs[0].Version)
		for i := len(vs) - 1; i >= 0; i-- {
			m.hist = append(m.hist, histEntry{vs[i].Version, vs[i].SHA256})
		}
	}
	fw.run.mu.Lock()
	fw.run.revs[room] = -1 << 40 // no longer known: the rev check reports it
	fw.run.mu.Unlock()
}

func (fw *faultWorker) placeAgent(ctx context.Context) {
	r := fw.run
	room := faultRooms[fw.rnd.IntN(len(faultRooms))]
	machine := faultMachines[fw.rnd.IntN(len(faultMachines))]
	kind := "place"
	if fw.place.room != "" && fw.place.room != room {
		kind = "move"
	}
	r.count(kind)
	prev, changed, err := fw.st.PlaceAgent(ctx, room, fw.agent, machine)
	if err != nil {
		r.violate(kind, "%s to %s/%s: %v", fw.agent, room, machine, err)
		fw.resyncAgent(ctx)
		return
	}
	old := fw.place
	wantChanged := old != placeModel{room, machine}
	gotPrev := placeModel{}
	if prev != nil {
		gotPrev = placeModel{prev.RoomID, prev.MachineID}
	}
	if changed != wantChanged || gotPrev != old {
		r.violate(kind, "%s to %s/%s: changed=%v previous=%+v, want changed=%v previous=%+v", fw.agent, room, machine, changed, gotPrev, wantChanged, old)
	}
	switch {
	case !wantChanged:
	case old.room == "":
		r.bump(room, 1)
	case old.room != room:
		r.bump(room, 1)
		r.bump(old.room, 1)
	default:
		r.bump(room, 1) // same room, another machine
	}
	fw.place = placeModel{room, machine}
}

func (fw *faultWorker) unplaceAgent(ctx context.Context) {
	r := fw.run
	r.count("unplace")
	room := faultRooms[fw.rnd.IntN(len(faultRooms))]
	if fw.place.room != "" && fw.rnd.IntN(4) > 0 {
		room = fw.place.room
	}
	p, err := fw.st.UnplaceAgent(ctx, room, fw.agent)
	wantCode := ""
	if fw.place.room != room {
		wantCode = pumasi.ENotFound
	}
	if got := pumasi.ErrorCode(err); got != wantCode {
		r.violate("unplace", "%s from %s: error %v, want code %q (model %+v)", fw.agent, room, err, wantCode, fw.place)
		fw.resyncAgent(ctx)
		return
	}
	if err != nil {
		return
	}
	if p.MachineID != fw.place.machine {
		r.violate("unplace", "%s from %s: was on %s, want %s", fw.agent, room, p.MachineID, fw.place.machine)
	}
	r.bump(room, 1)
	fw.place = placeModel{}
}

func (fw *faultWorker) resyncAgent(ctx context.Context) {
	for _, room := range append([]string{fw.place.room}, faultRooms...) {
		if room != "" {
			fw.run.mu.Lock()
			fw.run.revs[room] = -1 << 40
			fw.run.mu.Unlock()
		}
	}
	fw.place = placeModel{}
	if p, err := fw.st.AgentPlacement(ctx, fw.agent); err == nil {
		fw.place = placeModel{p.RoomID, p.MachineID}
	}
}

func (fw *faultWorker) connection(ctx context.Context) {
	r := fw.run
	if fw.connM != "" && fw.rnd.IntN(2) == 0 {
		r.count("conn-drop")
		c, err := fw.st.DropConnection(ctx, fw.conn)
		if err != nil || c.MachineID != fw.connM {
			r.violate("conn-drop", "%s: %+v, %v; want machine %s", fw.conn, c, err, fw.connM)
		}
		fw.connM = ""
		if err != nil {
			if c, err := fw.st.LookupConnection(ctx, fw.conn); err == nil {
				fw.connM = c.MachineID
			}
		}
		return
	}
	r.count("conn-save")
	machine := faultMachines[fw.rnd.IntN(len(faultMachines))]
	if err := fw.st.SaveConnection(ctx, machine, fw.conn); err != nil {
		r.violate("conn-save", "%s on %s: %v", fw.conn, machine, err)
		if c, err := fw.st.LookupConnection(ctx, fw.conn); err == nil {
			fw.connM = c.MachineID
		}
		return
	}
	fw.connM = machine
}
