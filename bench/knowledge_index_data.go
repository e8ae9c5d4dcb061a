package main

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"pumasi/adapters/embed"
	"pumasi/knowledge"
)

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
