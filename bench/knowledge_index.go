package main

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"pumasi/adapters/embed"
	"pumasi/internal/ann"
	"pumasi/knowledge"
)

func init() {
	register(scenario{name: "knowledge-index", run: func(ctx context.Context, cfg config) ([]row, error) {
		sizes := []int{10_000, 100_000}
		if cfg.quick {
			sizes = []int{2_000}
		}
		return benchIndexSizes(ctx, cfg, sizes)
	}})
	register(scenario{name: "knowledge-index-1m", run: func(ctx context.Context, cfg config) ([]row, error) {
		sizes := []int{1_000_000}
		if cfg.quick {
			sizes = []int{50_000}
		}
		return benchIndexSizes(ctx, cfg, sizes)
	}})
}

// indexData is a set of vectors that can be made again by number, so a
// million of them need not be held to score the answers.
type indexData struct {
	name   string
	dim    int
	vector func(i int) []float32 // data vector i (i ≥ 0)
	query  func(i int) []float32 // query i, not in the data
}

// hashedData embeds the bench's findings with the offline embedder, the
// vectors the local backend indexes by default.
func hashedData() indexData {
	emb := embed.NewHashed(0)
	text := func(i int) []float32 {
		t, c := benchFinding(i)
		return emb.Vector(knowledge.EmbeddingText(t, c))
	}
	return indexData{name: "hashed", dim: emb.Dim(), vector: text,
		query: func(i int) []float32 { return text(1_000_000_000 + i) }}
}

// clusteredData is ann.Clustered's shape (each point a centre plus a move
// in its cluster's rank-16 subspace plus noise, as sentence embeddings
// cluster) with one cluster per thousand entries, each vector drawn from a
// generator seeded by its number.
func clusteredData(n, dim int) indexData {
	const rank = 16
	r := rand.New(rand.NewPCG(5, 1))
	clusters := max(n/1000, 1)
	centres := make([][]float32, clusters)
	bases := make([][]float32, clusters)
	for c := range centres {
		centres[c] = make([]float32, dim)
		for j := range centres[c] {
			centres[c][j] = float32(r.NormFloat64())
		}
		bases[c] = make([]float32, rank*dim)
		for j := range bases[c] {
			bases[c][j] = float32(r.NormFloat64() * 0.35)
		}
	}
	gen := func(seq uint64) []float32 {
		r := rand.New(rand.NewPCG(6, seq))
		c := r.IntN(clusters)
		v := slices.Clone(centres[c])
		for k := range rank {
			a := float32(r.NormFloat64())
			for j, b := range bases[c][k*dim : (k+1)*dim] {
				v[j] += a * b
			}
		}
		for j := range v {
			v[j] += float32(r.NormFloat64() * 0.3)
		}
		return v
	}
	return indexData{name: "clustered", dim: dim, vector: func(i int) []float32 { return gen(uint64(i)) },
		query: func(i int) []float32 { return gen(1<<40 + uint64(i)) }}
}

// sparseData is ann.Sparse's shape: each vector the normalised sum of
// 20–40 random ±1 buckets, each query two thirds of one data vector's terms
// and fresh ones. It is the hard case for a graph: no low-dimensional
// structure, neighbours at similarities a hair apart.
func sparseData(n, dim int) indexData {
	terms := func(r *rand.Rand, k int) []int {
		t := make([]int, k)
		for j := range t {
			t[j] = r.IntN(2 * dim)
		}
		return t
	}
	doc := func(i int) []int {
		r := rand.New(rand.NewPCG(7, uint64(i)))
		return terms(r, 20+r.IntN(21))
	}
	embedTerms := func(ts []int) []float32 {
		v := make([]float32, dim)
		for _, t := range ts {
			if t < dim {
				v[t]++
			} else {
				v[t-dim]--
			}
		}
		if vecNorm(v) == 0 {
			v[0] = 1
		}
		return v
	}
	return indexData{name: "sparse", dim: dim, vector: func(i int) []float32 { return embedTerms(doc(i)) },
		query: func(i int) []float32 {
			r := rand.New(rand.NewPCG(8, uint64(i)))
			d := doc(r.IntN(n))
			keep := d[:len(d)*2/3]
			return embedTerms(append(slices.Clone(keep), terms(r, len(d)-len(keep))...))
		}}
}

// goDocData embeds real technical English with the offline embedder: the
// doc comments of the Go tree this bench was built with (GOROOT/src, files
// in name order), cut into distinct passages of up to 24 words (at least
// 6 search words). Every (total/200)-th passage is a query, the others the data; false
// when the tree holds fewer than n + 200 passages.
func goDocData(n int) (indexData, bool) {
	passages := goDocPassages()
	nq := 200
	if len(passages) < n+nq {
		return indexData{}, false
	}
	step := len(passages) / nq
	var data, queries []string
	for i, p := range passages {
		if i%step == 0 && len(queries) < nq {
			queries = append(queries, p)
		} else {
			data = append(data, p)
		}
	}
	emb := embed.NewHashed(0)
	return indexData{name: "go-doc", dim: emb.Dim(),
		vector: func(i int) []float32 { return emb.Vector(data[i]) },
		query:  func(i int) []float32 { return emb.Vector(queries[i]) }}, true
}

var goDocCache []string

func goDocPassages() []string {
	if goDocCache != nil {
		return goDocCache
	}
	seen := map[string]bool{}
	var out []string
	flush := func(block []string) {
		words := strings.Fields(strings.Join(block, " "))
		for i := 0; i < len(words); i += 24 {
			w := words[i:min(i+24, len(words))]
			// At least 6 search words, so no passage embeds to zero.
			if t := strings.Join(w, " "); len(knowledge.SearchWords(t)) >= 6 && !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	root := filepath.Join(runtime.GOROOT(), "src")
	filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		var block []string
		for _, l := range strings.Split(string(b)+"\n", "\n") {
			s := strings.TrimSpace(l)
			if strings.HasPrefix(s, "//") && !strings.HasPrefix(s, "//go:") {
				block = append(block, strings.TrimSpace(s[2:]))
			} else if block != nil {
				flush(block)
				block = nil
			}
		}
		return nil
	})
	goDocCache = out
	return out
}

// indexEfs are the HNSW search list sizes compared; the local driver
// searched at 256.
var indexEfs = []int{64, 256, 1024}

// hnswOptions are the options the local driver built its graphs with.
var hnswOptions = ann.Options{M: 32, EfConstruction: 200, EfSearch: 256, Seed: 1}

// benchIndexSizes compares, for the offline embedder's vectors and for
// clustered synthetic ones, an exact scan over 8-bit codes (ann.Flat)
// with the HNSW graph the local driver used (ann.Index, M 32,
// efConstruction 200) at each size: query p50/p99 (k = 10), recall@10
// against the exact float32 cosine, build time and resident bytes per
// entry.
func benchIndexSizes(ctx context.Context, cfg config, sizes []int) ([]row, error) {
	var rows []row
	for _, n := range sizes {
		sets := []indexData{hashedData(), clusteredData(n, 512)}
		// The sparse graph takes ~8 minutes to build at 100k here, so it is
		// left out at a million; the Go tree has ~101k passages.
		if n < 1_000_000 {
			sets = append(sets, sparseData(n, 512))
		}
		if d, ok := goDocData(n); ok {
			sets = append(sets, d)
		}
		for _, d := range sets {
			r, err := benchIndexAt(ctx, d, n)
			if err != nil {
				return nil, fmt.Errorf("%s, %d entries: %w", d.name, n, err)
			}
			for _, x := range r { // progress: a million takes an hour
				fmt.Fprintf(os.Stderr, "bench: %s = %s %s (%s %s)\n", x.Metric, num(x.Value), x.Unit, x.Baseline, num(x.Base))
			}
			rows = append(rows, r...)
		}
	}
	return rows, nil
}

func benchIndexAt(ctx context.Context, d indexData, n int) ([]row, error) {
	const k, batch = 10, 4096
	nq := 200
	queries := make([][]float32, nq)
	for i := range queries {
		queries[i] = d.query(i)
	}
	// The exact answer, kept as each query's k best float32 cosines while
	// the vectors stream past, so no copy of all of them is held.
	exact := make([]floatTop, nq)
	qinv := make([]float64, nq)
	for i, q := range queries {
		exact[i] = floatTop{k: k}
		qinv[i] = 1 / vecNorm(q)
	}
	flat := ann.NewFlat(d.dim)
	flat.Reserve(n)
	graph := ann.New(d.dim, hnswOptions)
	var flatBuild, graphBuild time.Duration
	start := time.Now()
	for from := 0; from < n; from += batch {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		vs := make([][]float32, min(batch, n-from))
		for j := range vs {
			vs[j] = d.vector(from + j)
		}
		t := time.Now()
		for j, v := range vs {
			if err := flat.Add(uint64(from+j), v); err != nil {
				return nil, err
			}
		}
		flatBuild += time.Since(t)
		t = time.Now()
		for j, v := range vs {
			if err := graph.Add(uint64(from+j), v); err != nil {
				return nil, err
			}
		}
		graphBuild += time.Since(t)
		for j, v := range vs {
			vinv := 1 / vecNorm(v)
			for qi, q := range queries {
				exact[qi].offer(float32(dotF(q, v)*qinv[qi]*vinv), from+j)
			}
		}
		if done := from + len(vs); done%(100*batch) < batch && n >= 500_000 {
			fmt.Fprintf(os.Stderr, "bench: index %s: %d of %d vectors (%s)\n", d.name, done, n, time.Since(start).Round(time.Second))
		}
	}
	// cos is the exact cosine of query qi with data vector key.
	cache := map[int][]float32{}
	cos := func(qi, key int) float32 {
		v, ok := cache[key]
		if !ok {
			v = d.vector(key)
			cache[key] = v
		}
		return float32(dotF(queries[qi], v) * qinv[qi] / vecNorm(v))
	}
	recall := func(got [][]ann.Result) float64 {
		hits := 0
		for qi, rs := range got {
			kth := exact[qi].kth()
			for _, r := range rs[:min(k, len(rs))] {
				if cos(qi, int(r.Key)) >= kth-1e-5 {
					hits++
				}
			}
		}
		return float64(hits) / float64(k*nq)
	}
	measure := func(search func(q []float32) []ann.Result) ([]time.Duration, float64) {
		got := make([][]ann.Result, nq)
		lat := make([]time.Duration, nq)
		for i, q := range queries {
			t := time.Now()
			got[i] = search(q)
			lat[i] = time.Since(t)
		}
		sortDurations(lat)
		return lat, recall(got)
	}
	flatLat, flatRecall := measure(func(q []float32) []ann.Result { return flat.Search(q, k) })

	at := fmt.Sprintf("@%s %s", sizeLabel(n), d.name)
	rows := []row{
		{Metric: "exact 8-bit scan recall@10 " + at, Value: flatRecall, Baseline: "exact float32 cosine", Base: 1, HigherIsBetter: true},
		{Metric: "exact 8-bit scan bytes/entry " + at, Value: float64(flat.Bytes()) / float64(n), Unit: "B", Baseline: "float32 vector alone", Base: float64(4 * d.dim)},
		{Metric: "exact 8-bit scan build " + at, Value: ms(flatBuild), Unit: "ms", Baseline: "HNSW build", Base: ms(graphBuild)},
		{Metric: "HNSW bytes/entry " + at, Value: float64(graph.Bytes()) / float64(n), Unit: "B", Baseline: "exact 8-bit scan", Base: float64(flat.Bytes()) / float64(n)},
	}
	for _, ef := range indexEfs {
		lat, rec := measure(func(q []float32) []ann.Result { return graph.Search(q, k, ef) })
		e := fmt.Sprintf("HNSW ef %d ", ef)
		rows = append(rows,
			row{Metric: e + "query p50 " + at, Value: percentile(lat, 50), Unit: "ms", Baseline: "exact 8-bit scan p50", Base: percentile(flatLat, 50)},
			row{Metric: e + "query p99 " + at, Value: percentile(lat, 99), Unit: "ms", Baseline: "exact 8-bit scan p99", Base: percentile(flatLat, 99)},
			row{Metric: e + "recall@10 " + at, Value: rec, Baseline: "exact 8-bit scan", Base: flatRecall, HigherIsBetter: true})
	}
	return rows, nil
}

func sizeLabel(n int) string {
	if n >= 1_000_000 && n%1_000_000 == 0 {
		return fmt.Sprintf("%dM", n/1_000_000)
	}
	return fmt.Sprintf("%dk", n/1000)
}

func dotF(a, b []float32) float64 {
	var s float32
	for i, x := range a {
		s += x * b[i]
	}
	return float64(s)
}

func vecNorm(v []float32) float64 { return math.Sqrt(dotF(v, v)) }

// floatTop keeps the k best cosines offered.
type floatTop struct {
	k    int
	sims []float32 // ascending
}

func (t *floatTop) offer(sim float32, _ int) {
	if len(t.sims) == t.k && sim <= t.sims[0] {
		return
	}
	i, _ := slices.BinarySearch(t.sims, sim)
	t.sims = slices.Insert(t.sims, i, sim)
	if len(t.sims) > t.k {
		t.sims = t.sims[1:]
	}
}

// kth is the k-th best cosine (the worst kept).
func (t *floatTop) kth() float32 { return t.sims[0] }
