package ann

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// Clustered returns n vectors of dim components drawn around clusters
// centres, each point being its centre plus a move inside a rank-16 subspace
// of its own cluster plus small isotropic noise, so neighbours are defined by
// a few directions the way sentence embeddings are. It also returns nq
// queries drawn the same way (not in the set). The same seed gives the same
// vectors.
func Clustered(n, nq, dim, clusters int, seed int64) (data, queries [][]float32) {
	r := rand.New(rand.NewPCG(uint64(seed), 1))
	const rank = 16
	type cluster struct{ centre, basis []float32 }
	cs := make([]cluster, max(clusters, 1))
	for i := range cs {
		c := cluster{make([]float32, dim), make([]float32, rank*dim)}
		for j := range c.centre {
			c.centre[j] = float32(r.NormFloat64())
		}
		for j := range c.basis {
			c.basis[j] = float32(r.NormFloat64() * 0.35)
		}
		cs[i] = c
	}
	gen := func() []float32 {
		c := cs[r.IntN(len(cs))]
		v := slices.Clone(c.centre)
		for k := range rank {
			a := float32(r.NormFloat64())
			for j, b := range c.basis[k*dim : (k+1)*dim] {
				v[j] += a * b
			}
		}
		for j := range v {
			v[j] += float32(r.NormFloat64() * 0.3)
		}
		return v
	}
	data = make([][]float32, n)
	for i := range data {
		data[i] = gen()
	}
	queries = make([][]float32, nq)
	for i := range queries {
		queries[i] = gen()
	}
	return data, queries
}

// Sparse returns n vectors like a hashed n-gram embedder makes: each the
// normalised sum of about 30 (20–40) random ±1 buckets out of dim. Each of the
// nq queries keeps two thirds of one data vector's terms and adds fresh ones,
// as a query shares some n-grams with the text it is after; src[i] is the
// data index query i was made from.
func Sparse(n, nq, dim int, seed int64) (data, queries [][]float32, src []int) {
	r := rand.New(rand.NewPCG(uint64(seed), 2))
	term := func() int32 {
		b := int32(r.IntN(dim))
		if r.IntN(2) == 0 {
			return -b - 1
		}
		return b + 1
	}
	embed := func(terms []int32) []float32 {
		v := make([]float32, dim)
		for _, t := range terms {
			if t > 0 {
				v[t-1]++
			} else {
				v[-t-1]--
			}
		}
		normalize(v)
		return v
	}
	docs := make([][]int32, n)
	data = make([][]float32, n)
	for i := range data {
		terms := make([]int32, 20+r.IntN(21))
		for j := range terms {
			terms[j] = term()
		}
		docs[i], data[i] = terms, embed(terms)
	}
	queries = make([][]float32, nq)
	src = make([]int, nq)
	for i := range queries {
		src[i] = r.IntN(n)
		doc := docs[src[i]]
		keep := doc[:len(doc)*2/3]
		terms := slices.Clone(keep)
		for range len(doc) - len(keep) {
			terms = append(terms, term())
		}
		queries[i] = embed(terms)
	}
	// Zero sums (every term cancelled) are possible in principle; nudge them
	// so Add accepts every vector.
	for _, v := range append(data, queries...) {
		if norm(v) == 0 {
			v[0] = 1
		}
	}
	return data, queries, src
}

func norm(v []float32) float64 {
	var s float64
	for _, f := range v {
		s += float64(f) * float64(f)
	}
	return math.Sqrt(s)
}

func normalize(v []float32) {
	if n := norm(v); n > 0 {
		for i := range v {
			v[i] = float32(float64(v[i]) / n)
		}
	}
}

// Exact returns, for each query, the float32 cosine of its k-th most similar
// data vector by brute force, and the cosine function used, so a caller can
// score an approximate answer with ties counted fairly.
func Exact(data, queries [][]float32, k int) (kth []float32, cos func(q, d []float32) float32) {
	inv := make([]float32, len(data))
	for i, d := range data {
		inv[i] = float32(1 / norm(d))
	}
	cos = func(q, d []float32) float32 {
		var s float32
		for i := range q {
			s += q[i] * d[i]
		}
		return s / float32(norm(q)*norm(d))
	}
	kth = make([]float32, len(queries))
	sims := make([]float32, len(data))
	for qi, q := range queries {
		qn := float32(1 / norm(q))
		for i, d := range data {
			var s float32
			for j := range q {
				s += q[j] * d[j]
			}
			sims[i] = s * qn * inv[i]
		}
		slices.Sort(sims)
		kth[qi] = sims[len(sims)-min(k, len(sims))]
	}
	return kth, cos
}

// Recall scores approximate answers against exact cosine: a returned key
// counts as a hit when its exact similarity reaches the k-th best exact one
// (less 1e-5 for float rounding), so equally similar entries are
// interchangeable; the result is hits / (k × queries). Keys index data.
func Recall(data, queries [][]float32, got [][]Result, k int) float64 {
	kth, cos := Exact(data, queries, k)
	return recallKth(data, queries, got, k, kth, cos)
}

// recallKth is Recall with the exact scan done once by the caller.
func recallKth(data, queries [][]float32, got [][]Result, k int, kth []float32, cos func(q, d []float32) float32) float64 {
	hits := 0
	for qi, rs := range got {
		for _, r := range rs[:min(k, len(rs))] {
			if cos(queries[qi], data[r.Key]) >= kth[qi]-1e-5 {
				hits++
			}
		}
	}
	return float64(hits) / float64(k*len(queries))
}

// BuildRecall builds an index of n clustered vectors (sparse hashed n-gram
// vectors when clusters ≤ 0) with default options, then runs 200 queries (100
// above 200k entries, as the exact scan dominates) at k = 10 and the default
// ef. It returns recall@10 against the exact float32 scan, inserts per second,
// search latency percentiles and the index's bytes per entry.
func BuildRecall(n, dim, clusters int, seed int64) (recall, addPerSec float64, searchP50, searchP99 time.Duration, bytesPerEntry float64) {
	nq := 200
	if n > 200_000 {
		nq = 100
	}
	var data, queries [][]float32
	if clusters > 0 {
		data, queries = Clustered(n, nq, dim, clusters, seed)
	} else {
		data, queries, _ = Sparse(n, nq, dim, seed)
	}
	x := New(dim, Options{Seed: seed})
	start := time.Now()
	for i, v := range data {
		if err := x.Add(uint64(i), v); err != nil {
			panic(err) // generated vectors are never zero or NaN
		}
	}
	addPerSec = float64(n) / time.Since(start).Seconds()
	got := make([][]Result, nq)
	lat := make([]time.Duration, nq)
	for i, q := range queries {
		t := time.Now()
		got[i] = x.Search(q, 10, 0)
		lat[i] = time.Since(t)
	}
	slices.Sort(lat)
	return Recall(data, queries, got, 10), addPerSec, lat[nq/2], lat[nq*99/100],
		float64(x.Bytes()) / float64(n)
}
