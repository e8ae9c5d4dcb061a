package ann

import (
	"math"
	"slices"
)

// cand is a node with its distance (1 − cosine) to the current target.
type cand struct {
	d  float32
	id uint32
}

func (x *Index) code(id uint32) []int8 {
	o := int(id) * x.dim
	return x.codes[o : o+x.dim : o+x.dim]
}

// dist is 1 − approximate cosine between a code and node id.
func (x *Index) dist(q []int8, qinv float32, id uint32) float32 {
	return 1 - float32(dot(q, x.code(id)))*qinv*x.inv[id]
}

// block returns node id's link block on layer l: [0] is the count, the rest
// is capacity.
func (x *Index) block(id uint32, l int) []uint32 {
	if l == 0 {
		o := int(id) * (x.m0 + 1)
		return x.links0[o : o+x.m0+1 : o+x.m0+1]
	}
	o := int(x.upperOff[id]) + (l-1)*(x.opt.M+1)
	return x.upper[o : o+x.opt.M+1 : o+x.opt.M+1]
}

func (x *Index) neighbours(id uint32, l int) []uint32 {
	b := x.block(id, l)
	return b[1 : 1+b[0]]
}

// visited marks nodes seen by one search with a generation number, so reuse
// costs nothing until the generation wraps.
type visited struct {
	gen   uint16
	marks []uint16
}

func (x *Index) getVisited() *visited {
	v, _ := x.visits.Get().(*visited)
	if v == nil {
		v = &visited{}
	}
	if n := len(x.keys); len(v.marks) < n {
		v.marks = make([]uint16, n+n/4+64)
		v.gen = 0
	}
	v.gen++
	if v.gen == 0 {
		clear(v.marks)
		v.gen = 1
	}
	return v
}

// seen marks id and reports whether it was already marked.
func (v *visited) seen(id uint32) bool {
	if v.marks[id] == v.gen {
		return true
	}
	v.marks[id] = v.gen
	return false
}

// insert links a new node holding code into the graph (Malkov & Yashunin,
// algorithm 1, with the heuristic neighbour selection of algorithm 4).
// The caller holds the write lock.
func (x *Index) insert(key uint64, code []int8, inv float32) {
	id := uint32(len(x.keys))
	level := min(int(-math.Log(1-x.rng.Float64())*x.ml), maxLevels-1)

	x.keys = append(x.keys, key)
	x.inv = append(x.inv, inv)
	x.levels = append(x.levels, uint8(level))
	if int(id)/64 >= len(x.deleted) {
		x.deleted = append(x.deleted, 0)
	}
	x.codes = append(x.codes, code...)
	x.links0 = append(x.links0, make([]uint32, x.m0+1)...)
	x.upperOff = append(x.upperOff, uint32(len(x.upper)))
	if level > 0 {
		x.upper = append(x.upper, make([]uint32, level*(x.opt.M+1))...)
	}
	x.byKey[key] = id
	q := x.code(id)

	if x.empty {
		x.entry, x.maxLevel, x.empty = id, level, false
		return
	}

	ep := []cand{{x.dist(q, inv, x.entry), x.entry}}
	for l := x.maxLevel; l > level; l-- {
		ep[0] = x.greedy(q, inv, ep[0], l)
	}
	vis := x.getVisited()
	defer x.visits.Put(vis)
	for l := min(level, x.maxLevel); l >= 0; l-- {
		w := x.searchLayer(q, inv, ep, x.opt.EfConstruction, l, vis, false)
		slices.SortFunc(w, cmpCand)
		capL := x.capAt(l)
		sel := x.selectHeuristic(w, x.opt.M)
		b := x.block(id, l)
		b[0] = uint32(len(sel))
		for i, c := range sel {
			b[1+i] = c.id
		}
		for _, c := range sel {
			x.link(c.id, id, c.d, l, capL)
		}
		ep = w
		if l > 0 {
			vis = x.nextVisited(vis)
		}
	}
	if level > x.maxLevel {
		x.entry, x.maxLevel = id, level
	}
}

func (x *Index) nextVisited(v *visited) *visited {
	v.gen++
	if v.gen == 0 {
		clear(v.marks)
		v.gen = 1
	}
	return v
}

func (x *Index) capAt(l int) int {
	if l == 0 {
		return x.m0
	}
	return x.opt.M
}

// link adds the back-link from → to (distance d) on layer l, re-selecting
// from's neighbours with the heuristic when its block is full.
func (x *Index) link(from, to uint32, d float32, l, capL int) {
	b := x.block(from, l)
	n := int(b[0])
	if n < capL {
		b[1+n] = to
		b[0]++
		return
	}
	fq, finv := x.code(from), x.inv[from]
	cs := make([]cand, 0, n+1)
	cs = append(cs, cand{d, to})
	for _, nb := range b[1 : 1+n] {
		cs = append(cs, cand{x.dist(fq, finv, nb), nb})
	}
	slices.SortFunc(cs, cmpCand)
	sel := x.selectHeuristic(cs, capL)
	b[0] = uint32(len(sel))
	for i, c := range sel {
		b[1+i] = c.id
	}
}

func cmpCand(a, b cand) int {
	switch {
	case a.d < b.d:
		return -1
	case a.d > b.d:
		return 1
	}
	return int(a.id) - int(b.id)
}

// selectHeuristic keeps, from candidates sorted nearest first, each one that
// is closer to the target than to every neighbour already kept, up to m
// (algorithm 4 without keepPrunedConnections, as hnswlib does). It spreads
// links across directions instead of spending them all inside one cluster.
func (x *Index) selectHeuristic(cs []cand, m int) []cand {
	if len(cs) <= m {
		return cs
	}
	out := make([]cand, 0, m)
	for _, c := range cs {
		if len(out) >= m {
			break
		}
		cq, cinv := x.code(c.id), x.inv[c.id]
		good := true
		for _, r := range out {
			if x.dist(cq, cinv, r.id) < c.d {
				good = false
				break
			}
		}
		if good {
			out = append(out, c)
		}
	}
	return out
}

// greedy walks layer l from ep to a local minimum (ef = 1).
func (x *Index) greedy(q []int8, qinv float32, ep cand, l int) cand {
	for changed := true; changed; {
		changed = false
		for _, nb := range x.neighbours(ep.id, l) {
			if d := x.dist(q, qinv, nb); d < ep.d {
				ep, changed = cand{d, nb}, true
			}
		}
	}
	return ep
}

// searchLayer is algorithm 2: a best-first expansion from eps that stops when
// the nearest unexpanded candidate is farther than the worst of the ef best
// found. With live set, tombstones route the walk but never enter the
// results. The returned slice is unordered.
func (x *Index) searchLayer(q []int8, qinv float32, eps []cand, ef, l int, vis *visited, live bool) []cand {
	var cands minHeap
	var res maxHeap
	for _, e := range eps {
		if vis.seen(e.id) {
			continue
		}
		cands.push(e)
		if !live || !x.isDeleted(e.id) {
			res.push(e)
		}
	}
	for len(cands) > 0 {
		c := cands.pop()
		if len(res) >= ef && c.d > res[0].d {
			break
		}
		for _, nb := range x.neighbours(c.id, l) {
			if vis.seen(nb) {
				continue
			}
			d := x.dist(q, qinv, nb)
			if len(res) < ef || d < res[0].d {
				cands.push(cand{d, nb})
				if !live || !x.isDeleted(nb) {
					res.push(cand{d, nb})
					if len(res) > ef {
						res.pop()
					}
				}
			}
		}
	}
	return res
}

// Search returns up to k live entries most similar to v, best first. ef is the
// candidate list size (ef ≤ 0 uses Options.EfSearch; it is raised to k);
// larger ef trades speed for recall. A vector of the wrong dimension, zero
// or holding NaN/Inf finds nothing.
func (x *Index) Search(v []float32, k int, ef int) []Result {
	if k <= 0 || checkDim(v, x.dim) != nil {
		return nil
	}
	q := make([]int8, x.dim)
	qinv, err := quantize(v, q)
	if err != nil {
		return nil
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.empty || len(x.byKey) == 0 {
		return nil
	}
	if ef <= 0 {
		ef = x.opt.EfSearch
	}
	ef = max(ef, k)
	ep := cand{x.dist(q, qinv, x.entry), x.entry}
	for l := x.maxLevel; l > 0; l-- {
		ep = x.greedy(q, qinv, ep, l)
	}
	vis := x.getVisited()
	w := x.searchLayer(q, qinv, []cand{ep}, ef, 0, vis, true)
	x.visits.Put(vis)
	slices.SortFunc(w, cmpCand)
	if len(w) > k {
		w = w[:k]
	}
	out := make([]Result, len(w))
	for i, c := range w {
		out[i] = Result{Key: x.keys[c.id], Similarity: 1 - c.d}
	}
	return out
}

// minHeap orders candidates nearest first.
type minHeap []cand

func (h *minHeap) push(c cand) {
	*h = append(*h, c)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if s[p].d <= s[i].d {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func (h *minHeap) pop() cand {
	s := *h
	top := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s = s[:n]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < n && s[l].d < s[m].d {
			m = l
		}
		if r < n && s[r].d < s[m].d {
			m = r
		}
		if m == i {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}

// maxHeap orders candidates farthest first, so [0] is the worst kept.
type maxHeap []cand

func (h *maxHeap) push(c cand) {
	*h = append(*h, c)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if s[p].d >= s[i].d {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func (h *maxHeap) pop() cand {
	s := *h
	top := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s = s[:n]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < n && s[l].d > s[m].d {
			m = l
		}
		if r < n && s[r].d > s[m].d {
			m = r
		}
		if m == i {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}
