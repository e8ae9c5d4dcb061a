// Package embed turns text into vectors for knowledge dedup and query: an
// offline, deterministic hashed n-gram embedder (the default) and a client for
// OpenAI-compatible /v1/embeddings endpoints.
package embed

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"math"
	"sync"
	"unicode"

	"pumasi/knowledge"
)

// DefaultDim is the hashed embedder's default dimension.
const DefaultDim = 512

// Feature weights of the hashed embedder. Word stems carry the meaning;
// the English words a Korean word stands for (재시작: restart, 캐시: cache)
// feed those words' stems, so the two languages meet; thesaurus groups let
// other words for the same idea meet ("fails" and "오류" both feed
// "error"), a word's weight shared among its groups; stem bigrams keep
// some order; character n-grams make typos, compounds and Korean
// inflections land near each other.
const (
	stemWeight    = 1.0
	bridgeWeight  = 0.8
	conceptWeight = 1.0
	wordnetWeight = 0.3 // a WordNet synonym group's: general English, so less telling
	bigramWeight  = 0.5
	gramWeight    = 0.25
	latinGram     = 3 // character n-gram length, Latin words
	hangulGram    = 2 // and Hangul words
	hashedFormat  = 3 // bump when Vector's features or hashing change
)

// settings is every setting of Vector, for the model name's digest.
var settings = fmt.Sprintf("format=%d stem=%g bridge=%g concept=%g wordnet=%g bigram=%g gram=%g latin=%d hangul=%d hash=fnv64a-fmix",
	hashedFormat, stemWeight, bridgeWeight, conceptWeight, wordnetWeight, bigramWeight, gramWeight, latinGram, hangulGram)

// Hashed is the offline embedder: the search words of a text (stop words
// out, English stemmed, Korean particles cut; see knowledge.SearchWords),
// the English words a Korean word stands for, their thesaurus groups (see
// knowledge.Analyze), stem bigrams and character n-grams (trigrams, bigrams
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

// Model names the embedder, its dimension and a digest of everything that
// shapes its vectors: its own settings and the lexicon it reads words by
// (stop words, stemmer, thesaurus, glossary, transliteration rules; see
// knowledge.LexiconDigest). Vectors are comparable only within one model
// name, so a change to any of them re-embeds the stored entries once, as
// any change of embedder does.
func (h *Hashed) Model() string {
	return fmt.Sprintf("%sngram-v%d-%d-%s", knowledge.LexicalModelPrefix, hashedFormat, h.dim, modelDigest())
}

var modelDigest = sync.OnceValue(func() string { return digestOf(settings, knowledge.LexiconDigest()) })

// digestOf is the model name's digest of the embedder's settings and the
// lexicon's digest: 12 hex digits.
func digestOf(settings, lexicon string) string {
	sum := sha256.Sum256([]byte(settings + "\n" + lexicon))
	return hex.EncodeToString(sum[:6])
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
		a := knowledge.Analyze(w)
		s := a.Stem
		h.add(acc, "s\x00"+s, stemWeight)
		for _, b := range a.BridgeStems {
			h.add(acc, "s\x00"+b, bridgeWeight/math.Sqrt(float64(len(a.BridgeStems))))
		}
		for _, c := range a.Concepts {
			cw := conceptWeight
			if !knowledge.CuratedConcept(c) {
				cw = wordnetWeight
			}
			h.add(acc, "k\x00"+c, cw/math.Sqrt(float64(len(a.Concepts))))
		}
		if prev != "" {
			h.add(acc, "b\x00"+prev+"\x00"+s, bigramWeight)
		}
		prev = s
		r := []rune(w)
		n := latinGram
		if isHangul(r[0]) {
			n = hangulGram
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

// MergeThreshold is the cosine above which two contributions embedded by
// the hashed embedder are taken for the same finding when no decisive
// detail differs; below it, down to a floor, agreeing details merge a
// rewording (see knowledge.LexicalModelPrefix and mergeable). Measured on
// the labelled pairs in testdata/knowledge/retrieval: one-word edits sit at
// 0.88–0.99, rewordings and translations at 0.42–0.83, different findings
// on one topic at 0.10–0.61 and findings differing in one detail up to 0.97
// (kept apart by the details, not by the cosine).
func (h *Hashed) MergeThreshold() float64 { return 0.80 }
