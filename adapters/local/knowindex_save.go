package local

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"pumasi/internal/ann"
)

// saveAfter is how many entries the index may move on from its last save
// before it is saved again in the background; staleGraph is how old an unreferenced graph
// file must be before a save removes it.
const (
	saveAfter  = 20000
	staleGraph = 10 * time.Minute
)

// savedIndex is <home>/knowledge-index/state.json: which database and which
// state the graph files beside it reflect. It is written last, atomically,
// so a crash mid-save leaves the previous state or none.
type savedIndex struct {
	Instance int64        `json:"instance"`
	MaxSeq   int64        `json:"max_seq"`
	TombSeq  int64        `json:"tomb_seq"`
	Graphs   []savedGraph `json:"graphs"`
}

type savedGraph struct {
	Hive  string `json:"hive"`
	Model string `json:"model"`
	File  string `json:"file"`
}

func (x *knowIndex) dir() string { return filepath.Join(x.s.home, "knowledge-index") }

// instance is the database's identity, so an index saved for another
// database (a restored or replaced pumasi.db) is never adopted.
func (x *knowIndex) instance(ctx context.Context) (int64, error) {
	var id int64
	err := x.s.db.QueryRowContext(ctx, `SELECT value FROM knowledge_meta WHERE key = 'instance'`).Scan(&id)
	return id, err
}

// loadSaved adopts the saved index when it belongs to this database and is
// not ahead of it, and reports whether it did; x.mu is held. Anything wrong
// means a rebuild, never an error: the database is the truth.
func (x *knowIndex) loadSaved(ctx context.Context, maxSeq, tombSeq int64) bool {
	b, err := os.ReadFile(filepath.Join(x.dir(), "state.json"))
	if err != nil {
		return false
	}
	var st savedIndex
	inst, err := x.instance(ctx)
	if err != nil || json.Unmarshal(b, &st) != nil || st.Instance != inst || st.MaxSeq > maxSeq || st.TombSeq > tombSeq {
		return false
	}
	graphs := map[graphKey]vecGraph{}
	for _, g := range st.Graphs {
		f, err := os.Open(filepath.Join(x.dir(), filepath.Base(g.File)))
		if err != nil {
			return false
		}
		idx, err := ann.Load(f)
		f.Close()
		if err != nil {
			x.s.log.Warn("knowledge index unreadable; rebuilding from the database", "file", g.File, "err", err)
			return false
		}
		graphs[graphKey{g.Hive, g.Model}] = annGraph{idx}
	}
	x.graphs, x.maxSeq, x.tombSeq = graphs, st.MaxSeq, st.TombSeq
	x.savedSeq, x.savedTomb = st.MaxSeq, st.TombSeq
	return true
}

// saveIfChanged saves the index unless it is unchanged since it was
// loaded or last saved.
func (x *knowIndex) saveIfChanged(ctx context.Context) error {
	x.mu.RLock()
	changed := x.loaded && (x.maxSeq != x.savedSeq || x.tombSeq != x.savedTomb)
	x.mu.RUnlock()
	if !changed {
		return nil
	}
	return x.trySave(ctx)
}

// save writes the index to <home>/knowledge-index. Searches go on while it
// runs; a failure is logged and costs only a rebuild at the next start.
func (x *knowIndex) save(ctx context.Context) {
	if err := x.trySave(ctx); err != nil {
		x.s.log.Warn("save knowledge index", "err", err)
	}
}

func (x *knowIndex) trySave(ctx context.Context) error {
	x.saveMu.Lock()
	defer x.saveMu.Unlock()
	inst, err := x.instance(ctx)
	if err != nil {
		return fmt.Errorf("read instance: %w", err)
	}
	x.mu.RLock()
	st := savedIndex{Instance: inst, MaxSeq: x.maxSeq, TombSeq: x.tombSeq}
	graphs := make(map[graphKey]annGraph, len(x.graphs))
	for k, g := range x.graphs {
		if a, ok := g.(annGraph); ok {
			graphs[k] = a
		}
	}
	x.mu.RUnlock()
	if err := os.MkdirAll(x.dir(), 0o755); err != nil {
		return err
	}
	// Graphs may have moved on since the state was read: they then hold
	// more than state.json says, and the catch-up re-adds what it already
	// has (an Add of a present key replaces it), so nothing is lost.
	n := 0
	for k, g := range graphs {
		// A name of its own per save: never overwrite a file another
		// state.json (this process's last, or another process's) names.
		name := fmt.Sprintf("graph-%d-%d-%s-%d.ann", st.MaxSeq, st.TombSeq, randHex(4), n)
		n++
		if err := writeAtomic(filepath.Join(x.dir(), name), func(f *os.File) error { return g.Save(f) }); err != nil {
			return err
		}
		st.Graphs = append(st.Graphs, savedGraph{Hive: k.hive, Model: k.model, File: name})
	}
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	if err := writeAtomic(filepath.Join(x.dir(), "state.json"), func(f *os.File) error { _, err := f.Write(b); return err }); err != nil {
		return err
	}
	x.mu.Lock()
	x.savedSeq, x.savedTomb = st.MaxSeq, st.TombSeq
	x.mu.Unlock()
	// Graph files of earlier saves are no longer referenced. Another
	// process may be saving at the same time: leave its temp files and any
	// graph younger than staleGraph alone.
	keep := map[string]bool{}
	for _, g := range st.Graphs {
		keep[g.File] = true
	}
	ents, _ := os.ReadDir(x.dir())
	for _, e := range ents {
		name := e.Name()
		if keep[name] || !strings.HasPrefix(name, "graph-") || !strings.HasSuffix(name, ".ann") {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleGraph {
			os.Remove(filepath.Join(x.dir(), name))
		}
	}
	return nil
}

// writeAtomic writes a file through a temp file in the same folder, synced
// and renamed into place, then syncs the folder.
func writeAtomic(path string, write func(*os.File) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
