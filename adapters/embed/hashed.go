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

	"pumasi/knowledge"
)

// DefaultDim is the hashed embedder's default dimension.
const DefaultDim = 512

// Feature weights of the hashed embedder. Word stems carry the meaning;
// thesaurus groups let other words for the same idea meet ("fails" and
// "오류" both feed "error"); stem bigrams keep some order; character
// n-grams make typos, compounds and Korean inflections land near each other.
const (
	stemWeight    = 1.0
	conceptWeight = 0.8
	bigramWeight  = 0.5
	gramWeight    = 0.25
)

// Hashed is the offline embedder: the search words of a text (stop words
// out, English stemmed, Korean particles cut; see pumasi.SearchWords), their
// thesaurus groups, stem bigrams and character n-grams (trigrams, bigrams
// for Hangul), feature-hashed with random signs into Dim buckets and
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
func (h *Hashed) Model() string {
	return fmt.Sprintf("%sngram-v2-%d", knowledge.LexicalModelPrefix, h.dim)
}

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

// Vector embeds one text. Text without search words maps to the zero
// vector, which is similar to nothing.
func (h *Hashed) Vector(text string) []float32 {
	acc := make([]float64, h.dim)
	prev := ""
	for _, w := range knowledge.SearchWords(text) {
		s := knowledge.Stem(w)
		h.add(acc, "s\x00"+s, stemWeight)
		if c := knowledge.Concept(s); c != "" {
			h.add(acc, "k\x00"+c, conceptWeight)
		}
		if prev != "" {
			h.add(acc, "b\x00"+prev+"\x00"+s, bigramWeight)
		}
		prev = s
		r := []rune(w)
		n := 3
		if isHangul(r[0]) {
			n = 2
		}
		r = []rune("<" + w + ">")
		for j := 0; j+n <= len(r); j++ {
			h.add(acc, "c\x00"+string(r[j:j+n]), gramWeight)
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

func isHangul(r rune) bool { return unicode.Is(unicode.Hangul, r) }

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

// MergeThreshold is the cosine above which two contributions embedded by
// the hashed embedder are taken for the same finding (with nested details:
// see pumasi.LexicalModelPrefix). Measured on the labelled pairs in
// testdata/knowledge/retrieval: one-word edits and a translation sit at
// 0.78–0.99, rewordings at 0.41–0.74, different findings on one topic at
// 0.11–0.53 and findings differing in one detail up to 0.96 (kept apart by
// the details, not by the cosine).
func (h *Hashed) MergeThreshold() float64 { return 0.80 }
