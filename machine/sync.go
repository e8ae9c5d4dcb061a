package machine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"sync"

	"pumasi"
)

// maxAssignmentsBody bounds the assignments answer a daemon will read.
const maxAssignmentsBody = 128 << 20

// maxStatusChunk keeps each status POST well under the server's cap.
const maxStatusChunk = 1 << 20

// reconcileWorkers is how many agents are reconciled at once.
const reconcileWorkers = 4

type assignedFile struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}

type assignment struct {
	AgentID string         `json:"agent_id"`
	RoomID  string         `json:"room_id"`
	Rev     int64          `json:"rev"`
	Files   []assignedFile `json:"files"`
}

type assignmentsDoc struct {
	MachineID string       `json:"machine_id"`
	ETag      string       `json:"etag"`
	Agents    []assignment `json:"agents"`
}

// plan is one agent's validated desired state.
type plan struct {
	agent, room string
	files       map[string]string // name -> sha256
}

// httpError is a non-success answer from the server.
type httpError struct {
	op     string
	status int
}

func (e *httpError) Error() string { return fmt.Sprintf("%s: server answered %d", e.op, e.status) }

func (d *daemon) newRequest(ctx context.Context, method, path string, body io.Reader) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, d.server+path, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+d.token())
	req.Header.Set("User-Agent", "pumasi-machine")
	return req, nil
}

// fetchAssignments GETs the machine's assignments with If-None-Match and
// returns the cached answer on 304.
func (d *daemon) fetchAssignments(ctx context.Context) (*assignmentsDoc, error) {
	req, err := d.newRequest(ctx, "GET", "/machines/"+url.PathEscape(d.cfg.Machine)+"/assignments", nil)
	if err != nil {
		return nil, fmt.Errorf("get assignments: %w", err)
	}
	d.mu.Lock()
	cached, etag := d.cached, d.etag
	d.mu.Unlock()
	if cached != nil && etag != "" {
		req.Header.Set("If-None-Match", `"`+etag+`"`)
	}
	resp, err := d.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("get assignments: %w", err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotModified:
		if cached != nil {
			return cached, nil
		}
		return nil, &httpError{"get assignments", resp.StatusCode}
	case http.StatusUnauthorized, http.StatusForbidden:
		return nil, fmt.Errorf("get assignments: %w (%d)", errAuth, resp.StatusCode)
	default:
		return nil, &httpError{"get assignments", resp.StatusCode}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAssignmentsBody+1))
	if err != nil {
		return nil, fmt.Errorf("get assignments: %w", err)
	}
	if len(body) > maxAssignmentsBody {
		return nil, errors.New("get assignments: answer is too large")
	}
	var doc assignmentsDoc
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("get assignments: decode: %w", err)
	}
	if doc.MachineID != d.cfg.Machine {
		return nil, fmt.Errorf("get assignments: answer is for machine %q", doc.MachineID)
	}
	d.mu.Lock()
	d.cached, d.etag = &doc, doc.ETag
	d.mu.Unlock()
	return &doc, nil
}

// plans validates assignments. Anything a hostile or broken server could
// use to write outside memory/shared/ is refused here: bad agent or room
// ids, names that break the name rules, malformed sums, duplicates.
func (d *daemon) plans(doc *assignmentsDoc) []plan {
	var out []plan
	seen := map[string]bool{}
	for _, a := range doc.Agents {
		if !pumasi.ValidID(a.AgentID) || !pumasi.ValidID(a.RoomID) {
			d.log.Warn("refusing assignment with an invalid id", "agent", a.AgentID, "room", a.RoomID)
			continue
		}
		if seen[a.AgentID] {
			d.log.Warn("refusing duplicate assignment", "agent", a.AgentID)
			continue
		}
		seen[a.AgentID] = true
		p := plan{agent: a.AgentID, room: a.RoomID, files: map[string]string{}}
		folds := map[string]bool{}
		for _, f := range a.Files {
			if !validName(f.Name) || !validSHA(f.SHA256) {
				d.log.Warn("refusing file with an invalid name or sha256", "agent", a.AgentID, "name", f.Name)
				continue
			}
			fold := pumasi.FoldName(f.Name)
			if folds[fold] {
				d.log.Warn("refusing file whose name clashes with another", "agent", a.AgentID, "name", f.Name)
				continue
			}
			folds[fold] = true
			p.files[f.Name] = f.SHA256
		}
		out = append(out, p)
	}
	return out
}

// validName reports whether name passes the name rules exactly as given
// (already NFC), so it names one entry directly inside memory/shared/.
func validName(name string) bool {
	n, err := pumasi.NormalizeName(name)
	return err == nil && n == name
}

func validSHA(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// sync runs one full reconcile: assignments against disk for every agent,
// then empties agents no longer assigned here, then reports status.
func (d *daemon) sync(ctx context.Context) error {
	snap := d.frameSeqs()
	doc, err := d.fetchAssignments(ctx)
	if err != nil {
		return err
	}
	plans := d.plans(doc)

	d.mu.Lock()
	assigned := make(map[string]string, len(plans))
	stateChanged := false
	for _, p := range plans {
		assigned[p.agent] = p.room
		if d.agents[p.agent] == nil {
			d.agents[p.agent] = newAgentState()
		}
		if d.managed[p.agent] != p.room {
			d.managed[p.agent] = p.room
			stateChanged = true
		}
	}
	d.assigned = assigned
	d.mu.Unlock()
	// The state is saved before any file is written, so a crash never
	// leaves a copy the daemon does not know it owns.
	if stateChanged {
		if err := d.saveState(); err != nil {
			return err
		}
	}

	var (
		wg      sync.WaitGroup
		emu     sync.Mutex
		firstEr error
		retry   bool
	)
	sem := make(chan struct{}, reconcileWorkers)
	for _, p := range plans {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			skipped, err := d.reconcileAgent(ctx, p, snap[p.agent])
			emu.Lock()
			defer emu.Unlock()
			if skipped {
				retry = true
			}
			if err != nil && firstEr == nil {
				firstEr = err
			}
		}()
	}
	wg.Wait()

	if err := d.releaseUnassigned(); err != nil && firstEr == nil {
		firstEr = err
	}
	if err := d.postStatus(ctx); err != nil && firstEr == nil {
		firstEr = err
	}
	if firstEr != nil {
		return firstEr
	}
	if retry {
		return errRetry
	}
	return nil
}

// frameSeqs snapshots each agent's frame counter.
func (d *daemon) frameSeqs() map[string]uint64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make(map[string]uint64, len(d.agents))
	for a, st := range d.agents {
		out[a] = st.seq.Load()
	}
	return out
}

// reconcileAgent brings one agent's shared directory to its plan. It skips
// the agent (reporting skipped) when frames were applied since seq.
func (d *daemon) reconcileAgent(ctx context.Context, p plan, seq uint64) (skipped bool, err error) {
	d.mu.Lock()
	st := d.agents[p.agent]
	d.mu.Unlock()
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.seq.Load() != seq {
		return true, nil
	}
	dir := d.sharedDir(p.agent)
	held, err := reconcileDir(ctx, dir, p.files, st.sums, func(ctx context.Context, name, sum string) ([]byte, error) {
		return d.fetchFile(ctx, p.room, name, sum)
	})
	st.setHeld(held)
	if err != nil {
		return false, fmt.Errorf("reconcile agent %s: %w", p.agent, err)
	}
	return false, nil
}

// releaseUnassigned empties the shared directory of every agent this daemon
// served that is no longer assigned to this machine, then forgets it.
func (d *daemon) releaseUnassigned() error {
	d.mu.Lock()
	var gone []string
	for a := range d.managed {
		if _, ok := d.assigned[a]; !ok {
			gone = append(gone, a)
		}
	}
	d.mu.Unlock()
	if len(gone) == 0 {
		return nil
	}
	sort.Strings(gone)
	var firstErr error
	for _, a := range gone {
		d.mu.Lock()
		st := d.agents[a]
		if st == nil {
			st = newAgentState()
		}
		d.mu.Unlock()
		st.mu.Lock()
		err := emptyDir(d.sharedDir(a))
		st.mu.Unlock()
		if err != nil {
			if firstErr == nil {
				firstErr = fmt.Errorf("release agent %s: %w", a, err)
			}
			continue
		}
		d.log.Info("agent no longer assigned here; emptied its shared files", "agent", a)
		d.mu.Lock()
		if _, back := d.assigned[a]; !back {
			delete(d.managed, a)
			delete(d.agents, a)
		}
		d.mu.Unlock()
	}
	if err := d.saveState(); err != nil && firstErr == nil {
		firstErr = err
	}
	return firstErr
}

// fetchFile returns the content of one room file with sha256 want, from the
// blob cache or by GET; it returns bytes only when they hash to want, so
// nothing unverified is ever written.
func (d *daemon) fetchFile(ctx context.Context, room, name, want string) ([]byte, error) {
	return d.blobs.fetch(want, func() ([]byte, error) { return d.getFile(ctx, room, name, want) })
}

// getFile GETs one room file and verifies its sha256.
func (d *daemon) getFile(ctx context.Context, room, name, want string) ([]byte, error) {
	req, err := d.newRequest(ctx, "GET", "/rooms/"+url.PathEscape(room)+"/files/"+url.PathEscape(name), nil)
	if err != nil {
		return nil, fmt.Errorf("get file %s/%s: %w", room, name, err)
	}
	resp, err := d.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("get file %s/%s: %w", room, name, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return nil, &httpError{"get file " + room + "/" + name, resp.StatusCode}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, pumasi.MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("get file %s/%s: %w", room, name, err)
	}
	if len(body) > pumasi.MaxFileSize {
		return nil, fmt.Errorf("get file %s/%s: larger than %d bytes", room, name, pumasi.MaxFileSize)
	}
	if got := sumHex(body); got != want {
		return nil, fmt.Errorf("get file %s/%s: sha256 %s, want %s", room, name, got, want)
	}
	return body, nil
}

type statusAgent struct {
	AgentID string           `json:"agent_id"`
	Files   []pumasi.Holding `json:"files"`
}

// postStatus reports what every assigned agent holds, in chunks that stay
// under the server's body cap.
func (d *daemon) postStatus(ctx context.Context) error {
	d.mu.Lock()
	ids := make([]string, 0, len(d.assigned))
	for a := range d.assigned {
		ids = append(ids, a)
	}
	states := make(map[string]*agentState, len(ids))
	for _, a := range ids {
		states[a] = d.agents[a]
	}
	d.mu.Unlock()
	if len(ids) == 0 {
		return nil
	}
	sort.Strings(ids)
	var chunk []statusAgent
	size := 0
	for i, a := range ids {
		sa := statusAgent{AgentID: a, Files: states[a].holdings()}
		n := 64
		for _, h := range sa.Files {
			n += len(h.Name) + len(h.SHA256) + 32
		}
		if len(chunk) > 0 && size+n > maxStatusChunk {
			if err := d.sendStatus(ctx, chunk); err != nil {
				return err
			}
			chunk, size = nil, 0
		}
		chunk = append(chunk, sa)
		size += n
		if i == len(ids)-1 {
			return d.sendStatus(ctx, chunk)
		}
	}
	return nil
}

func (d *daemon) sendStatus(ctx context.Context, agents []statusAgent) error {
	b, err := json.Marshal(map[string]any{"agents": agents})
	if err != nil {
		return fmt.Errorf("post status: %w", err)
	}
	req, err := d.newRequest(ctx, "POST", "/machines/"+url.PathEscape(d.cfg.Machine)+"/status", bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("post status: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := d.hc.Do(req)
	if err != nil {
		return fmt.Errorf("post status: %w", err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return &httpError{"post status", resp.StatusCode}
	}
	return nil
}
