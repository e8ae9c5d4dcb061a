// Package embed turns text into vectors for knowledge dedup and query: an
// offline, deterministic hashed n-gram embedder (the default) and a client for
// OpenAI-compatible /v1/embeddings endpoints.
package embed

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// DefaultDim is the hashed embedder's default dimension.
const DefaultDim = 512

// Feature weights of the hashed embedder. Words carry the meaning; word
// bigrams keep some order; character trigrams make inflections and typos
// ("timeout"/"timeouts", "설정"/"설정을") land near each other.
const (
	wordWeight    = 1.0
	bigramWeight  = 0.7
	trigramWeight = 0.3
)

// Hashed is the offline embedder: word unigrams and bigrams plus character
// trigrams, feature-hashed with random signs into Dim buckets and
// L2-normalised. The same text always yields the same vector, on any machine.
type Hashed struct {
	dim int
}

// NewHashed returns a hashed embedder of dimension dim (DefaultDim when
// dim <= 0).
func NewHashed(dim int) *Hashed {
	if dim <= 0 {
		dim = DefaultDim
	}
	return &Hashed{dim: dim}
}

// Model names the embedder and its dimension; vectors are comparable only
// within one model name.
func (h *Hashed) Model() string { return fmt.Sprintf("hashed-ngram-v1-%d", h.dim) }

// Dim is the vector length.
func (h *Hashed) Dim() int { return h.dim }

// Embed returns one vector per text. It never fails except on a cancelled
// context.
func (h *Hashed) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		out[i] = h.Vector(t)
	}
	return out, nil
}

// Vector embeds one text. Text without letters or digits maps to the zero
// vector, which is similar to nothing.
func (h *Hashed) Vector(text string) []float32 {
	acc := make([]float64, h.dim)
	words := Tokens(text)
	for i, w := range words {
		h.add(acc, "w\x00"+w, wordWeight)
		if i > 0 {
			h.add(acc, "b\x00"+words[i-1]+"\x00"+w, bigramWeight)
		}
		r := []rune("<" + w + ">")
		for j := 0; j+3 <= len(r); j++ {
			h.add(acc, "c\x00"+string(r[j:j+3]), trigramWeight)
		}
	}
	var sum float64
	for _, v := range acc {
		sum += v * v
	}
	vec := make([]float32, h.dim)
	if sum == 0 {
		return vec
	}
	n := math.Sqrt(sum)
	for i, v := range acc {
		vec[i] = float32(v / n)
	}
	return vec
}

func (h *Hashed) add(acc []float64, feature string, w float64) {
	f := fnv.New64a()
	f.Write([]byte(feature))
	x := f.Sum64()
	// Mix the bits so that bucket and sign use independent parts of the hash.
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	idx := int(x % uint64(h.dim))
	if x>>63 == 1 {
		w = -w
	}
	acc[idx] += w
}

// Tokens splits text into case-folded NFC words of letters, digits and
// underscores; every other rune separates words.
func Tokens(text string) []string {
	text = cases.Fold().String(norm.NFC.String(text))
	return strings.FieldsFunc(text, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')
	})
}
