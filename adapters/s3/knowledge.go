package s3

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/google/uuid"

	"pumasi"
)

// Collective knowledge on S3 (DESIGN.md §6) lives in three kinds of object:
//
//	knowledge/entries/<id>.json                   one entry: its write-once fields, counters,
//	                                              contributions (attribution) and endorsers
//	knowledge/hives/<hive>/index.json             the hive's index head: seq, sweep mark,
//	                                              segment list, tail, removed ids
//	knowledge/hives/<hive>/segments/<name>.json   an immutable block of index records
//
// An index record is what a dedup decision needs of an entry: id, normalised
// hash, model, seq, created_at and the vector, stored as float16 scaled to a
// maximum magnitude of 1 (cosine ignores scale; the error on a cosine stays
// below 1e-3). Counters are not in the index, so merges and counter bumps
// never rewrite it.
//
// Every decision is one conditional write:
//   - a new entry: its object is written first (If-None-Match: *) under a
//     fresh id, then the index head is rewritten with If-Match on the ETag of
//     the very head the exact and near-duplicate checks read. A writer that
//     loses re-reads the head and decides again (now usually a merge) and
//     deletes its unindexed object. So exact and near duplicates are both
//     race-free, across processes, without locks;
//   - a merge, a citation, an endorsement: If-Match on the entry object
//     (count + 1 and the attribution together, or the endorser added to the
//     set once);
//   - the sweep: the absorbed entry is first frozen by a conditional write
//     that points it at the keeper (writers that reach it follow the
//     pointer), the keeper takes its counts, contributions and endorsers
//     once (it records what it absorbed), then the index drops the id and the
//     object goes. Each step is idempotent, so a sweep that crashes midway is
//     finished by the next one.
//
// Sizes: the head holds at most knowTailMax records plus a 60-byte
// reference per segment and the ids removed by sweeps; when the tail is full,
// the next insert seals it into a segment. A record of a 512-dimension vector
// takes about 1.55 KB of JSON (1 KB of float16, base64), so a segment is
// about 200 KB and the head at most about 200 KB plus its segment list. At
// 100,000 entries of 512 dimensions that is 782 segments (about 155 MB in
// all) and a head of about 250 KB rewritten per new entry (never per merge
// or counter). Every process reads each segment once and keeps the vectors
// in memory as float32 (about 200 MB at that size, the same as the local
// backend's cache), so a cold process pays those 155 MB of reads once. New
// entries of one hive are serialised on its head: about 60-130 per second on
// a local MinIO, which is the price of race-free near-duplicate merging on
// plain S3; merges and counters contend only per entry. An entry object
// grows with every merge by the size of the contribution (its title and
// content), so a finding merged thousands of times makes an object of
// megabytes.

// knowTailMax is how many records the index head holds before the next
// insert seals them into an immutable segment.
const knowTailMax = 128

// knowHops bounds how many merged_into pointers one write follows.
const knowHops = 16

// errEntryGone reports an entry object that is absent: never indexed, or
// swept away.
var errEntryGone = errors.New("knowledge entry is gone")

var _ pumasi.KnowledgeStore = (*Store)(nil)

func (s *Store) knowEntryKey(id string) string {
	return s.prefix + "knowledge/entries/" + id + ".json"
}

func (s *Store) knowHivesPrefix() string { return s.prefix + "knowledge/hives/" }

func (s *Store) knowIndexKey(hive string) string {
	return s.knowHivesPrefix() + hive + "/index.json"
}

func (s *Store) knowSegmentKey(hive, name string) string {
	return s.knowHivesPrefix() + hive + "/segments/" + name + ".json"
}

// knowObject is the body of an entry object.
type knowObject struct {
	// Entry holds the write-once fields and the counters; its Contributions
	// and Quality are filled on read.
	Entry         pumasi.Entry          `json:"entry"`
	Model         string                `json:"model"`
	NormHash      string                `json:"norm_hash"`
	Contributions []pumasi.Contribution `json:"contributions"`
	// Endorsers are the handles that endorsed, each once; endorsement_count
	// is their number.
	Endorsers []string `json:"endorsers,omitempty"`
	// Absorbed are the entries a sweep folded into this one, so that a
	// repeated or resumed sweep never adds them twice.
	Absorbed []string `json:"absorbed,omitempty"`
	// MergedInto, once set by a sweep, freezes the entry: writers follow it
	// to the keeper and readers see not_found.
	MergedInto string `json:"merged_into,omitempty"`
}

func (o *knowObject) entry() pumasi.Entry {
	e := o.Entry
	e.Contributions = nil
	if e.Tags == nil {
		e.Tags = []string{}
	}
	e.Quality = pumasi.Quality(e.Specificity, e.ContributionCount, e.CitationCount, e.EndorsementCount)
	return e
}

// knowHead is the body of a hive's index head.
type knowHead struct {
	// Seq is the highest seq handed out in the hive.
	Seq int64 `json:"seq"`
	// SweptSeq is the highest seq an earlier sweep compared: pairs of
	// entries at or below it are known to be apart.
	SweptSeq int64        `json:"swept_seq"`
	Segments []knowSegRef `json:"segments,omitempty"`
	Tail     []knowRec    `json:"tail,omitempty"`
	// Removed are ids in segments that a sweep absorbed.
	Removed []string `json:"removed,omitempty"`
}

type knowSegRef struct {
	Name string `json:"name"`
	N    int    `json:"n"`
}

// knowRec is one entry in the index.
type knowRec struct {
	ID      string    `json:"id"`
	Hash    string    `json:"h"`
	Model   string    `json:"m"`
	Seq     int64     `json:"s"`
	Created time.Time `json:"c"`
	// Vec is the vector as little-endian float16, scaled to max |x| = 1.
	Vec []byte `json:"v"`
}

type knowSegment struct {
	Recs []knowRec `json:"recs"`
}

// knowItem is a decoded index record.
type knowItem struct {
	id      string
	hash    string
	model   string
	seq     int64
	created time.Time
	vec     []float32
	norm    float64
}

// knowSeg is a decoded block of records: a sealed segment or a head's tail.
type knowSeg struct {
	items  []knowItem
	byHash map[string]int
}

// hiveView is one decoded version of a hive's index, immutable once built.
type hiveView struct {
	etag    string
	exists  bool
	head    knowHead
	segs    []*knowSeg // sealed segments, then the tail
	removed map[string]bool
}

// knowState is the per-Store cache of decoded segments (immutable, so kept
// for good) and of each hive's latest decoded index.
type knowState struct {
	mu    sync.Mutex
	segs  map[string]*knowSeg
	views map[string]*hiveView
}

func (v *hiveView) each(fn func(it *knowItem)) {
	for _, sg := range v.segs {
		for i := range sg.items {
			if it := &sg.items[i]; !v.removed[it.id] {
				fn(it)
			}
		}
	}
}

// has reports whether id is indexed and not removed.
func (v *hiveView) has(id string) bool {
	found := false
	v.each(func(it *knowItem) { found = found || it.id == id })
	return found
}

// byHash returns the indexed entry with normalised hash h, skipping ids in
// skip.
func (v *hiveView) byHash(h string, skip map[string]bool) (string, bool) {
	for _, sg := range v.segs {
		if i, ok := sg.byHash[h]; ok {
			if id := sg.items[i].id; !v.removed[id] && !skip[id] {
				return id, true
			}
		}
	}
	return "", false
}

// nearest returns the most similar indexed entry of model, skipping ids in
// skip.
func (v *hiveView) nearest(model string, vec []float32, skip map[string]bool) (string, float64) {
	qn := pumasi.Norm(vec)
	best, bestSim := "", math.Inf(-1)
	if qn == 0 {
		return "", bestSim
	}
	v.each(func(it *knowItem) {
		if it.model != model || len(it.vec) != len(vec) || it.norm == 0 || skip[it.id] {
			return
		}
		if sim := float64(pumasi.Dot(vec, it.vec)) / (qn * it.norm); sim > bestSim {
			best, bestSim = it.id, sim
		}
	})
	return best, bestSim
}

// hiveView returns the current index of hive: a conditional GET against the
// last decoded version, so an unchanged index costs one 304.
func (s *Store) hiveView(ctx context.Context, hive string) (*hiveView, error) {
	s.know.mu.Lock()
	cur := s.know.views[hive]
	s.know.mu.Unlock()
	etag := ""
	if cur != nil && cur.exists {
		etag = cur.etag
	}
	key := s.knowIndexKey(hive)
	body, newETag, exists, err := s.get(ctx, key, etag)
	if err != nil {
		if etag != "" && statusOf(err) == 304 {
			return cur, nil
		}
		return nil, err
	}
	if !exists {
		v := &hiveView{}
		s.setView(hive, v)
		return v, nil
	}
	var h knowHead
	if err := json.Unmarshal(body, &h); err != nil {
		return nil, fmt.Errorf("decode %s: %w", key, err)
	}
	v, err := s.buildView(ctx, hive, newETag, h)
	if err != nil {
		return nil, err
	}
	s.setView(hive, v)
	return v, nil
}

func (s *Store) setView(hive string, v *hiveView) {
	s.know.mu.Lock()
	defer s.know.mu.Unlock()
	if s.know.views == nil {
		s.know.views = map[string]*hiveView{}
	}
	s.know.views[hive] = v
}

// buildView decodes head, reading the segments this process has not seen
// yet (in parallel: a cold start at 100,000 entries reads hundreds).
func (s *Store) buildView(ctx context.Context, hive, etag string, h knowHead) (*hiveView, error) {
	segs := make([]*knowSeg, len(h.Segments))
	var missing []int
	s.know.mu.Lock()
	for i, ref := range h.Segments {
		if sg, ok := s.know.segs[s.knowSegmentKey(hive, ref.Name)]; ok {
			segs[i] = sg
		} else {
			missing = append(missing, i)
		}
	}
	s.know.mu.Unlock()
	err := forEach(ctx, len(missing), func(ctx context.Context, j int) error {
		i := missing[j]
		key := s.knowSegmentKey(hive, h.Segments[i].Name)
		body, _, exists, err := s.getObject(ctx, key)
		if err != nil {
			return err
		}
		if !exists {
			return fmt.Errorf("knowledge segment %s is missing", key)
		}
		var seg knowSegment
		if err := json.Unmarshal(body, &seg); err != nil {
			return fmt.Errorf("decode %s: %w", key, err)
		}
		sg, err := decodeSeg(seg.Recs)
		if err != nil {
			return fmt.Errorf("decode %s: %w", key, err)
		}
		segs[i] = sg
		s.know.mu.Lock()
		if s.know.segs == nil {
			s.know.segs = map[string]*knowSeg{}
		}
		s.know.segs[key] = sg
		s.know.mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load knowledge index of %s: %w", hive, err)
	}
	tail, err := decodeSeg(h.Tail)
	if err != nil {
		return nil, fmt.Errorf("decode knowledge index of %s: %w", hive, err)
	}
	v := &hiveView{etag: etag, exists: true, head: h, segs: append(segs, tail), removed: map[string]bool{}}
	for _, id := range h.Removed {
		v.removed[id] = true
	}
	return v, nil
}

func decodeSeg(recs []knowRec) (*knowSeg, error) {
	sg := &knowSeg{items: make([]knowItem, len(recs)), byHash: make(map[string]int, len(recs))}
	for i, r := range recs {
		vec, err := decodeHalfs(r.Vec)
		if err != nil {
			return nil, fmt.Errorf("vector of %s: %w", r.ID, err)
		}
		sg.items[i] = knowItem{id: r.ID, hash: r.Hash, model: r.Model, seq: r.Seq, created: r.Created, vec: vec, norm: pumasi.Norm(vec)}
		sg.byHash[r.Hash] = i
	}
	return sg, nil
}

// Contribute merges in into an exact or near duplicate of its hive, or writes
// a new entry (see the layout comment above for why each outcome is one
// conditional write and race-free across processes).
func (s *Store) Contribute(ctx context.Context, in pumasi.ContributeInput) (pumasi.ContributeResult, error) {
	if err := in.Validate(); err != nil {
		return pumasi.ContributeResult{}, err
	}
	at := in.At
	if at.IsZero() {
		at = s.now()
	}
	var (
		pending string // our entry object, written but not indexed yet
		created knowObject
		skip    = map[string]bool{}
		losses  int64
	)
	defer func() {
		if pending != "" {
			s.deleteQuietly(context.WithoutCancel(ctx), s.knowEntryKey(pending))
		}
	}()
	for attempt := 0; attempt < casAttempts; attempt++ {
		v, err := s.hiveView(ctx, in.Hive)
		if err != nil {
			return pumasi.ContributeResult{}, fmt.Errorf("contribute: %w", err)
		}
		target, sim := "", 0.0
		if id, ok := v.byHash(in.NormHash, skip); ok {
			target, sim = id, 1
		} else if in.Threshold <= 1 {
			if id, ns := v.nearest(in.Model, in.Vector, skip); id != "" && ns > in.Threshold {
				target, sim = id, ns
			}
		}
		if target != "" {
			c := pumasi.Contribution{Agent: in.Agent, Title: in.Title, Content: in.Content, At: at, Similarity: sim}
			o, err := s.knowChange(ctx, target, func(o *knowObject) bool {
				o.Entry.ContributionCount++
				o.Contributions = append(o.Contributions, c)
				return true
			})
			if errors.Is(err, errEntryGone) {
				// Swept away since the index was read: ids are never reused,
				// so skip it and decide again on a fresh index.
				skip[target] = true
				continue
			}
			if err != nil {
				return pumasi.ContributeResult{}, fmt.Errorf("contribute: %w", err)
			}
			s.noteLosses(losses)
			return pumasi.ContributeResult{Verdict: pumasi.VerdictMerged, Entry: o.entry(), Similarity: sim}, nil
		}
		if pending == "" {
			created = knowObject{
				Entry: pumasi.Entry{ID: uuid.NewString(), Hive: in.Hive, Title: in.Title, Content: in.Content,
					Tags: nonNilTags(in.Tags), ContributionCount: 1, Specificity: in.Specificity, CreatedAt: at},
				Model: in.Model, NormHash: in.NormHash,
				Contributions: []pumasi.Contribution{{Agent: in.Agent, Title: in.Title, Content: in.Content, At: at, Similarity: 1}},
			}
			body, err := json.Marshal(created)
			if err != nil {
				return pumasi.ContributeResult{}, fmt.Errorf("contribute: %w", err)
			}
			if _, err := s.putObject(ctx, s.knowEntryKey(created.Entry.ID), body, "application/json", "", true); err != nil {
				return pumasi.ContributeResult{}, fmt.Errorf("contribute: put entry: %w", err)
			}
			pending = created.Entry.ID
		}
		rec := knowRec{ID: pending, Hash: in.NormHash, Model: in.Model, Created: at, Vec: encodeHalfs(in.Vector)}
		won, err := s.knowInsert(ctx, in.Hive, v, rec)
		if err != nil {
			return pumasi.ContributeResult{}, fmt.Errorf("contribute: %w", err)
		}
		if won {
			pending = ""
			s.noteLosses(losses)
			return pumasi.ContributeResult{Verdict: pumasi.VerdictAccepted, Entry: created.entry(), Similarity: 1}, nil
		}
		losses++
		s.conflicts.Add(1)
		s.log.Debug("s3 knowledge index conflict", "hive", in.Hive, "attempt", attempt+1)
		if err := sleep(ctx, backoff(attempt)); err != nil {
			return pumasi.ContributeResult{}, err
		}
	}
	return pumasi.ContributeResult{}, fmt.Errorf("contribute: %w", errTooBusy)
}

// knowInsert appends rec to the index head that v was decoded from, sealing
// a full tail into a segment first. It reports false, with no error, when
// another writer changed the head since v was read.
func (s *Store) knowInsert(ctx context.Context, hive string, v *hiveView, rec knowRec) (bool, error) {
	h := v.head
	h.Seq++
	rec.Seq = h.Seq
	segKey := ""
	if len(h.Tail) >= knowTailMax {
		name := fmt.Sprintf("%016d-%016d-%s", h.Tail[0].Seq, h.Tail[len(h.Tail)-1].Seq, uuid.NewString()[:8])
		segKey = s.knowSegmentKey(hive, name)
		body, err := json.Marshal(knowSegment{Recs: h.Tail})
		if err != nil {
			return false, fmt.Errorf("encode segment: %w", err)
		}
		if _, err := s.putObject(ctx, segKey, body, "application/json", "", false); err != nil {
			return false, fmt.Errorf("put %s: %w", segKey, err)
		}
		h.Segments = append(slices.Clip(h.Segments), knowSegRef{Name: name, N: len(h.Tail)})
		h.Tail = nil
	}
	h.Tail = append(slices.Clip(h.Tail), rec)
	body, err := json.Marshal(h)
	if err != nil {
		return false, fmt.Errorf("encode index: %w", err)
	}
	key := s.knowIndexKey(hive)
	etag, err := s.putObject(ctx, key, body, "application/json", v.etag, !v.exists)
	if err != nil {
		// S3 may apply a write and still fail the answer; the SDK then
		// retries it, and a conditional retry meets 412 against our own
		// write. rec.ID is a fresh uuid, so finding it in the index proves
		// the write landed (and the sealed segment is referenced).
		nv, verr := s.hiveView(ctx, hive)
		if verr == nil && nv.has(rec.ID) {
			return true, nil
		}
		if segKey != "" && verr == nil {
			// The write did not land, so nothing references the segment.
			// When the index could not be read the segment is kept: an
			// orphan costs a little space, a referenced one deleted would
			// break the hive.
			s.deleteQuietly(context.WithoutCancel(ctx), segKey)
		}
		if isCASConflict(err) {
			return false, nil
		}
		return false, fmt.Errorf("put %s: %w", key, err)
	}
	if segKey != "" {
		// The sealed segment is the tail v already decoded.
		s.know.mu.Lock()
		if s.know.segs == nil {
			s.know.segs = map[string]*knowSeg{}
		}
		s.know.segs[segKey] = v.segs[len(v.segs)-1]
		s.know.mu.Unlock()
	}
	if etag != "" {
		// The next call starts from what we wrote: a 304 if nobody else did.
		if nv, err := s.buildView(ctx, hive, etag, h); err == nil {
			s.setView(hive, nv)
		}
	}
	return true, nil
}

// knowChange applies fn to entry id with a conditional write, following
// merged_into pointers left by a sweep. fn returns false to leave the entry
// alone. Returns errEntryGone when the entry does not exist.
func (s *Store) knowChange(ctx context.Context, id string, fn func(o *knowObject) bool) (knowObject, error) {
	for hop := 0; hop < knowHops; hop++ {
		if !pumasi.ValidID(id) {
			return knowObject{}, errEntryGone
		}
		var out knowObject
		var redirect string
		var gone bool
		_, err := update(ctx, s, s.knowEntryKey(id), func(o *knowObject, exists bool) (bool, error) {
			out, redirect, gone = knowObject{}, "", false
			switch {
			case !exists:
				gone = true
				return false, nil
			case o.MergedInto != "":
				redirect = o.MergedInto
				return false, nil
			}
			write := fn(o)
			out = *o
			return write, nil
		})
		switch {
		case err != nil:
			return knowObject{}, err
		case gone:
			return knowObject{}, errEntryGone
		case redirect != "":
			id = redirect
			continue
		}
		return out, nil
	}
	return knowObject{}, fmt.Errorf("entry %s: more than %d merged_into hops", id, knowHops)
}

// Query ranks the entries of q.Hive (every hive when empty) embedded by
// q.Model by similarity × quality. Candidates are scored in order of
// similarity, their counters read in parallel batches, and the scan stops
// once no remaining candidate can beat the current last place (quality is
// at most 1, so a score never exceeds its similarity).
func (s *Store) Query(ctx context.Context, q pumasi.QueryInput) ([]pumasi.Hit, error) {
	if q.Hive != "" && !pumasi.ValidID(q.Hive) {
		return nil, pumasi.Errorf(pumasi.EInvalidRequest, "hive id must match ^[a-z0-9][a-z0-9._-]{0,62}$")
	}
	limit := q.Limit
	if limit <= 0 {
		limit = pumasi.DefaultQueryLimit
	}
	hives := []string{q.Hive}
	if q.Hive == "" {
		var err error
		if hives, err = s.knowHives(ctx); err != nil {
			return nil, fmt.Errorf("query knowledge: %w", err)
		}
	}
	type cand struct {
		id  string
		sim float64
	}
	var cands []cand
	qn := pumasi.Norm(q.Vector)
	for _, hive := range hives {
		if qn == 0 {
			break
		}
		v, err := s.hiveView(ctx, hive)
		if err != nil {
			return nil, fmt.Errorf("query knowledge: %w", err)
		}
		v.each(func(it *knowItem) {
			if it.model != q.Model || len(it.vec) != len(q.Vector) || it.norm == 0 {
				return
			}
			if sim := float64(pumasi.Dot(q.Vector, it.vec)) / (qn * it.norm); sim > 0 {
				cands = append(cands, cand{it.id, sim})
			}
		})
	}
	slices.SortFunc(cands, func(a, b cand) int {
		if a.sim != b.sim {
			if a.sim > b.sim {
				return -1
			}
			return 1
		}
		return strings.Compare(a.id, b.id)
	})
	batchSize := max(4*limit, 32)
	hits := []pumasi.Hit{}
	for lo := 0; lo < len(cands); {
		hi := min(len(cands), lo+batchSize)
		batch := cands[lo:hi]
		objs := make([]*knowObject, len(batch))
		err := forEach(ctx, len(batch), func(ctx context.Context, i int) error {
			var o knowObject
			_, exists, err := s.getJSON(ctx, s.knowEntryKey(batch[i].id), &o)
			if err != nil {
				return err
			}
			if exists && o.MergedInto == "" {
				objs[i] = &o
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("query knowledge: %w", err)
		}
		for i, c := range batch {
			if objs[i] == nil {
				continue // swept away since the index was read
			}
			e := objs[i].entry()
			hits = append(hits, pumasi.Hit{Entry: e, Similarity: c.sim, Score: c.sim * e.Quality})
		}
		hits = pumasi.RankHits(hits, limit)
		lo = hi
		if len(hits) == limit && lo < len(cands) && cands[lo].sim < hits[limit-1].Score {
			break
		}
	}
	return hits, nil
}

// GetEntry returns an entry with its contributions, oldest first.
func (s *Store) GetEntry(ctx context.Context, id string) (pumasi.Entry, error) {
	if !pumasi.ValidID(id) {
		return pumasi.Entry{}, pumasi.Errorf(pumasi.ENotFound, "no knowledge entry %q", id)
	}
	var o knowObject
	_, exists, err := s.getJSON(ctx, s.knowEntryKey(id), &o)
	if err != nil {
		return pumasi.Entry{}, fmt.Errorf("get entry: %w", err)
	}
	if !exists || o.MergedInto != "" {
		return pumasi.Entry{}, pumasi.Errorf(pumasi.ENotFound, "no knowledge entry %q", id)
	}
	// An entry object whose writer lost the index race is deleted at once
	// (or, after a crash, left unindexed); its id was never handed out, so
	// reading by id needs no look at the index.
	e := o.entry()
	e.Contributions = o.Contributions
	if e.Contributions == nil {
		e.Contributions = []pumasi.Contribution{}
	}
	return e, nil
}

// Cite bumps citation_count with one conditional write.
func (s *Store) Cite(ctx context.Context, id, agent string) (pumasi.Entry, error) {
	o, err := s.knowChange(ctx, id, func(o *knowObject) bool {
		o.Entry.CitationCount++
		return true
	})
	return knowCounterResult("cite", id, o, err)
}

// Endorse adds agent to the entry's endorsers with one conditional write;
// endorsing again changes nothing.
func (s *Store) Endorse(ctx context.Context, id, agent string) (pumasi.Entry, error) {
	if err := pumasi.CheckHandle(agent); err != nil {
		return pumasi.Entry{}, err
	}
	o, err := s.knowChange(ctx, id, func(o *knowObject) bool {
		if slices.Contains(o.Endorsers, agent) {
			return false
		}
		o.Endorsers = append(o.Endorsers, agent)
		o.Entry.EndorsementCount = int64(len(o.Endorsers))
		return true
	})
	return knowCounterResult("endorse", id, o, err)
}

func knowCounterResult(op, id string, o knowObject, err error) (pumasi.Entry, error) {
	if errors.Is(err, errEntryGone) {
		return pumasi.Entry{}, pumasi.Errorf(pumasi.ENotFound, "no knowledge entry %q", id)
	}
	if err != nil {
		return pumasi.Entry{}, fmt.Errorf("%s: %w", op, err)
	}
	return o.entry(), nil
}

// SweepKnowledge collapses near-duplicates hive by hive: for each cluster
// pumasi.PlanSweep finds, the oldest entry absorbs the others (counts
// summed, contributions moved, endorsers united), then the index drops them
// and records how far it compared, so a repeated sweep compares only what is
// new.
func (s *Store) SweepKnowledge(ctx context.Context, threshold float64) (pumasi.KnowledgeSweepReport, error) {
	if threshold <= 0 {
		threshold = pumasi.DefaultMergeThreshold
	}
	var rep pumasi.KnowledgeSweepReport
	hives, err := s.knowHives(ctx)
	if err != nil {
		return rep, fmt.Errorf("sweep knowledge: %w", err)
	}
	for _, hive := range hives {
		v, err := s.hiveView(ctx, hive)
		if err != nil {
			return rep, fmt.Errorf("sweep knowledge: %w", err)
		}
		if !v.exists {
			continue
		}
		var cands []pumasi.SweepCandidate
		v.each(func(it *knowItem) {
			cands = append(cands, pumasi.SweepCandidate{ID: it.id, Hive: hive, Model: it.model, CreatedAt: it.created,
				Seq: it.seq, Vector: it.vec, New: it.seq > v.head.SweptSeq})
		})
		rep.Scanned += len(cands)
		var gone []string
		for _, m := range pumasi.PlanSweep(cands, threshold) {
			for _, g := range m.Absorbed {
				if err := s.knowAbsorb(ctx, m.Keep, g); err != nil {
					return rep, fmt.Errorf("sweep knowledge: %w", err)
				}
				gone = append(gone, g)
				rep.Merged++
			}
		}
		top := v.head.Seq
		_, err = update(ctx, s, s.knowIndexKey(hive), func(h *knowHead, exists bool) (bool, error) {
			if !exists {
				return false, nil
			}
			changed := false
			for _, g := range gone {
				if i := slices.IndexFunc(h.Tail, func(r knowRec) bool { return r.ID == g }); i >= 0 {
					h.Tail = slices.Delete(h.Tail, i, i+1)
					changed = true
				} else if !slices.Contains(h.Removed, g) {
					h.Removed = append(h.Removed, g)
					changed = true
				}
			}
			if top > h.SweptSeq {
				h.SweptSeq = top
				changed = true
			}
			return changed, nil
		})
		if err != nil {
			return rep, fmt.Errorf("sweep knowledge: %w", err)
		}
		for _, g := range gone {
			if err := s.deleteObject(ctx, s.knowEntryKey(g)); err != nil {
				return rep, fmt.Errorf("sweep knowledge: %w", err)
			}
		}
	}
	if err := s.knowCollectOrphans(ctx, hives); err != nil {
		return rep, fmt.Errorf("sweep knowledge: %w", err)
	}
	return rep, nil
}

// knowOrphanGrace is how old an entry object that no index lists must be
// before the sweep removes it: a contribution in flight writes its object a
// moment before its index record, so only a writer that died in between (or
// a sweep that died before deleting what it absorbed) leaves one this old.
const knowOrphanGrace = time.Hour

// knowCollectOrphans deletes entry objects that no hive's index lists and
// that are older than knowOrphanGrace. Such objects are unreachable (their
// ids were never handed out, or were absorbed), so this only reclaims space.
func (s *Store) knowCollectOrphans(ctx context.Context, hives []string) error {
	indexed := map[string]bool{}
	for _, hive := range hives {
		v, err := s.hiveView(ctx, hive)
		if err != nil {
			return err
		}
		v.each(func(it *knowItem) { indexed[it.id] = true })
	}
	cutoff := s.now().Add(-knowOrphanGrace)
	base := s.prefix + "knowledge/entries/"
	var orphans []string
	p := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{Bucket: aws.String(s.bucket), Prefix: aws.String(base)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("list %s: %w", base, err)
		}
		for _, o := range page.Contents {
			id, ok := strings.CutSuffix(strings.TrimPrefix(aws.ToString(o.Key), base), ".json")
			if ok && !indexed[id] && o.LastModified != nil && o.LastModified.Before(cutoff) {
				orphans = append(orphans, aws.ToString(o.Key))
			}
		}
	}
	for _, key := range orphans {
		if err := s.deleteObject(ctx, key); err != nil {
			return err
		}
	}
	if len(orphans) > 0 {
		s.log.Info("s3 knowledge sweep removed unindexed entry objects", "count", len(orphans))
	}
	return nil
}

// knowAbsorb folds entry gone into keep. First gone is frozen (pointed at
// keep, or left pointing where an earlier sweep pointed it), so that no
// write lands on it afterwards; then the keeper takes its frozen counts,
// contributions and endorsers unless it already absorbed gone.
func (s *Store) knowAbsorb(ctx context.Context, keep, gone string) error {
	var frozen knowObject
	var found bool
	_, err := update(ctx, s, s.knowEntryKey(gone), func(o *knowObject, exists bool) (bool, error) {
		found = exists
		if !exists {
			return false, nil
		}
		write := false
		if o.MergedInto == "" {
			o.MergedInto = keep
			write = true
		}
		frozen = *o
		return write, nil
	})
	if err != nil {
		return fmt.Errorf("freeze %s: %w", gone, err)
	}
	if !found {
		return nil // absorbed and deleted by an earlier sweep
	}
	target := frozen.MergedInto
	for hop := 0; ; hop++ {
		if hop == knowHops || target == gone {
			return fmt.Errorf("absorb %s: no keeper after %d hops", gone, hop)
		}
		var redirect string
		var exists bool
		_, err := update(ctx, s, s.knowEntryKey(target), func(o *knowObject, ok bool) (bool, error) {
			exists, redirect = ok, ""
			switch {
			case !ok:
				return false, nil
			case o.MergedInto != "":
				redirect = o.MergedInto
				return false, nil
			case slices.Contains(o.Absorbed, gone):
				return false, nil
			}
			o.Entry.ContributionCount += frozen.Entry.ContributionCount
			o.Entry.CitationCount += frozen.Entry.CitationCount
			o.Contributions = append(o.Contributions, frozen.Contributions...)
			slices.SortStableFunc(o.Contributions, func(a, b pumasi.Contribution) int { return a.At.Compare(b.At) })
			for _, e := range frozen.Endorsers {
				if !slices.Contains(o.Endorsers, e) {
					o.Endorsers = append(o.Endorsers, e)
				}
			}
			o.Entry.EndorsementCount = int64(len(o.Endorsers))
			o.Absorbed = append(o.Absorbed, gone)
			return true, nil
		})
		if err != nil {
			return fmt.Errorf("absorb %s into %s: %w", gone, target, err)
		}
		if !exists {
			return fmt.Errorf("absorb %s: keeper %s is missing", gone, target)
		}
		if redirect == "" {
			return nil
		}
		target = redirect
	}
}

// knowHives lists the hives that have an index.
func (s *Store) knowHives(ctx context.Context) ([]string, error) {
	base := s.knowHivesPrefix()
	var hives []string
	p := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{
		Bucket: aws.String(s.bucket), Prefix: aws.String(base), Delimiter: aws.String("/"),
	})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", base, err)
		}
		for _, cp := range page.CommonPrefixes {
			h := strings.TrimSuffix(strings.TrimPrefix(aws.ToString(cp.Prefix), base), "/")
			if pumasi.ValidID(h) {
				hives = append(hives, h)
			}
		}
	}
	return hives, nil
}

func (s *Store) deleteObject(ctx context.Context, key string) error {
	if _, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(key)}); err != nil && !isNotFound(err) {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	s.cache.drop(key)
	return nil
}

// deleteQuietly removes an object nobody references; a failure only leaves
// garbage that no listing, query or dedup decision reads.
func (s *Store) deleteQuietly(ctx context.Context, key string) {
	if err := s.deleteObject(ctx, key); err != nil {
		s.log.Warn("s3 knowledge: leftover object", "key", key, "err", err)
	}
}

func nonNilTags(t []string) []string {
	if t == nil {
		return []string{}
	}
	return t
}

// encodeHalfs stores v as little-endian float16 after scaling it to a
// largest magnitude of 1, which keeps every component in float16's range and
// at its best relative precision (2^-11); cosines do not see the scale.
func encodeHalfs(v []float32) []byte {
	var m float32
	for _, x := range v {
		m = max(m, float32(math.Abs(float64(x))))
	}
	scale := float32(1)
	if m > 0 {
		scale = 1 / m
	}
	b := make([]byte, 2*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint16(b[2*i:], toHalf(x*scale))
	}
	return b
}

func decodeHalfs(b []byte) ([]float32, error) {
	if len(b)%2 != 0 {
		return nil, fmt.Errorf("float16 vector of %d bytes", len(b))
	}
	v := make([]float32, len(b)/2)
	for i := range v {
		v[i] = fromHalf(binary.LittleEndian.Uint16(b[2*i:]))
	}
	return v, nil
}

// toHalf converts a float32 to IEEE 754 binary16, rounding to nearest even.
func toHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23) & 0xff
	mant := b & 0x7fffff
	if exp == 0xff { // Inf or NaN
		if mant != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	}
	e := exp - 127 + 15
	switch {
	case e >= 0x1f:
		return sign | 0x7c00
	case e <= 0:
		if e < -10 {
			return sign
		}
		mant |= 0x800000
		shift := uint32(14 - e)
		h := mant >> shift
		rem, half := mant&(1<<shift-1), uint32(1)<<(shift-1)
		if rem > half || (rem == half && h&1 == 1) {
			h++
		}
		return sign | uint16(h)
	}
	h := uint32(e)<<10 | mant>>13
	rem := mant & 0x1fff
	if rem > 0x1000 || (rem == 0x1000 && h&1 == 1) {
		h++ // a carry into the exponent is the correct rounding
	}
	return sign | uint16(h)
}

// fromHalf converts IEEE 754 binary16 to float32 exactly.
func fromHalf(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h & 0x3ff)
	switch exp {
	case 0:
		f := float32(mant) / (1 << 24)
		if sign != 0 {
			f = -f
		}
		return f
	case 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}
