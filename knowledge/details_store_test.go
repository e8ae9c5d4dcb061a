package knowledge

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// detailTexts are the tuning corpora's texts as entries hold them: both
// sides of every retrieval pair (symmetryPairs) and every entry of the
// relevance and retrieval corpora (never a held-out part).
func detailTexts(t testing.TB) []string {
	t.Helper()
	return detailTextsOf(t, func(string) bool { return true })
}

// digestDirs are the retrieval batches TestDetailsVersion reads: the
// tuning batches when its digest was pinned, so a held-out batch moved to
// tuning later does not change what the digest covers.
var digestDirs = map[string]bool{"retrieval": true, "retrieval2": true, "retrieval3": true, "retrieval4": true,
	"retrieval5": true, "retrieval6": true, "retrieval7": true, "retrieval8": true, "retrieval9": true,
	"retrieval10": true, "retrieval11": true, "retrieval13": true, "retrieval14": true, "retrieval15": true,
	"retrieval16": true, "retrieval17": true}

// detailTextsOf is detailTexts of the retrieval batches keep accepts.
func detailTextsOf(t testing.TB, keep func(dir string) bool) []string {
	t.Helper()
	var out []string
	all, err := filepath.Glob("../testdata/knowledge/retrieval*/pairs*.jsonl")
	if err != nil || len(all) == 0 {
		t.Fatalf("no tuning pairs: %v", err)
	}
	var files []string
	for _, f := range all {
		if keep(filepath.Base(filepath.Dir(f))) {
			files = append(files, f)
		}
	}
	files = append(files, "../testdata/knowledge/relevance/corpus.jsonl", "../testdata/knowledge/retrieval/findings.jsonl")
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var p struct {
				Title, Content string
				A, B           struct{ Title, Content string }
			}
			if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			for _, e := range []struct{ Title, Content string }{p.A, p.B, {p.Title, p.Content}} {
				if e.Title != "" || e.Content != "" {
					out = append(out, EmbeddingText(e.Title, e.Content))
				}
			}
		}
		fh.Close()
	}
	return out
}

// detailStride is how many tuning texts the stored details' tests step
// over: every one, or every 16th under the race detector (pure CPU, no
// goroutine: the detector has nothing to check and multiplies the time).
func detailStride() int {
	if raceEnabled {
		return 16
	}
	return 1
}

// TestStoredDetailsMatchParse: details stored with an entry and read back
// are what parsing its text gives, field for field, on the tuning texts;
// and the merge decision on stored details answers as on parsed ones for
// the retrieval pairs, either way round, below and above the threshold.
func TestStoredDetailsMatchParse(t *testing.T) {
	texts := detailTexts(t)
	size, text := 0, 0
	for i := 0; i < len(texts); i += detailStride() {
		all, line := parseBoth(texts[i])
		enc := encodeDetails(all, line)
		size, text = size+len(enc), text+len(texts[i])
		gotAll, gotLine, ok := decodeDetails(enc)
		if !ok {
			t.Fatalf("stored details of %q do not decode", texts[i])
		}
		if !reflect.DeepEqual(gotAll, all) || !reflect.DeepEqual(gotLine, line) {
			t.Fatalf("stored details of %q:\n got %#v\nwant %#v", texts[i], gotAll, all)
		}
	}
	model := LexicalModelPrefix + "test"
	// An entry holding text, its details stored (decoding them is the
	// loop above's).
	entry := func(text string, all, line DetailSet) StoredEntry {
		title, content := firstLine(text), text[len(firstLine(text)):]
		return StoredEntry{Entry: Entry{Title: title, Content: content}, Details: encodeDetails(all, line)}
	}
	pairs := symmetryPairs(t)
	merged, n := 0, 0
	for i := 0; i < len(pairs); i += detailStride() {
		a, b := pairs[i][0], pairs[i][1]
		da, la := parseBoth(a)
		db, lb := parseBoth(b)
		ea, eb := entry(a, da, la), entry(b, db, lb)
		for _, sim := range []float64{0.7, 0.85} {
			want := detailsMerge(sim > 0.80, da, la, db, lb)
			if want {
				merged++
			}
			if got := newMergeProbe(model, 0.80, a).mergeableEntry(sim, eb); got != want {
				t.Fatalf("mergeable at %.2f on stored details = %v, parsed %v\na: %q\nb: %q", sim, got, want, a, b)
			}
			if got := entryProbe(model, 0.80, ea).mergeableEntry(sim, eb); got != want {
				t.Fatalf("the sweep's mergeable at %.2f on stored details = %v, parsed %v\na: %q\nb: %q", sim, got, want, a, b)
			}
		}
		n++
	}
	t.Logf("%d texts' stored details equal their parse (%d bytes of details for %d of text); %d pairs' decisions alike (%d merges)",
		len(texts)/detailStride(), size, text, n, merged)
}

// TestStaleDetailsParsed: details of another version, another lexicon, a
// malformed value or none are parsed from the text.
func TestStaleDetailsParsed(t *testing.T) {
	text := "Redis 7 maxmemory-policy allkeys-lru\nSet `maxmemory-policy allkeys-lru` in redis.conf; volatile-lru evicts only keys with a TTL."
	want, wantLine := parseBoth(text)
	good := Details(firstLine(text), text[len(firstLine(text)):])
	other := append([]byte(nil), good...)
	other[1]++ // another extractor
	lexicon := append([]byte(nil), good...)
	lexicon[2] ^= 0xff // another lexicon
	for _, c := range []struct {
		name string
		b    []byte
	}{{"none", nil}, {"other version", other}, {"other lexicon", lexicon}, {"cut short", good[:len(good)-3]},
		{"trailing byte", append(append([]byte(nil), good...), 0)}, {"header only", good[:len(detailsHeader())]}} {
		if _, _, ok := decodeDetails(c.b); ok {
			t.Fatalf("%s: decodes", c.name)
		}
		e := StoredEntry{Entry: Entry{Title: firstLine(text), Content: text[len(firstLine(text)):]}, Details: c.b}
		if all, line := entryDetails(e); !reflect.DeepEqual(all, want) || !reflect.DeepEqual(line, wantLine) {
			t.Fatalf("%s: entryDetails differ from a parse", c.name)
		}
	}
}

// detailsDigest pins what ParseDetails finds on the tuning texts with
// detailsVersion: the sha256 of the encoded details (header left out) of
// every 8th of them (an 8th keeps the test short under -race), over the
// batches of digestDirs.
const detailsDigest = "526792b30c3d759fb4363153619e221d2482614e95ab50d04d381f96cd08fa0d"

// TestDetailsVersion fails when what ParseDetails finds on the tuning
// texts changes under the same detailsVersion: stored details would then
// differ from a parse. Bump detailsVersion with the change (or, when only
// the lexicon changed, which the header names anyway, leave it) and set
// detailsDigest to the new sum.
func TestDetailsVersion(t *testing.T) {
	h := sha256.New()
	n := len(detailsHeader())
	texts := detailTextsOf(t, func(dir string) bool { return digestDirs[dir] })
	for i := 0; i < len(texts); i += 8 {
		h.Write(encodeDetails(parseBoth(texts[i]))[n:])
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != detailsDigest {
		t.Fatalf("the details of the tuning texts changed under detailsVersion %d: digest %s, pinned %s;"+
			" bump detailsVersion (stored details of the old one are then parsed again; needless when only the lexicon"+
			" changed, which their header names already) and pin the new digest", detailsVersion, got, detailsDigest)
	}
}

// BenchmarkMergeProbe is a contribution's dedup decision over 16
// candidates (dedupCandidates) of the tuning texts, each at a cosine where
// details decide: with the candidates' details parsed from their text (as
// before they were stored), and decoded from what the driver stored.
func BenchmarkMergeProbe(b *testing.B) {
	texts := detailTexts(b)
	model := LexicalModelPrefix + "bench"
	const n = 16
	for _, stored := range []bool{false, true} {
		name := "parse"
		if stored {
			name = "stored"
		}
		b.Run(name, func(b *testing.B) {
			// Rounds of 17 texts: a contribution and its candidates.
			var rounds [][]StoredEntry
			for i := 0; i+n+1 <= len(texts) && len(rounds) < 64; i += n + 1 {
				var r []StoredEntry
				for _, text := range texts[i : i+n+1] {
					title, content := firstLine(text), text[len(firstLine(text)):]
					e := StoredEntry{Entry: Entry{Title: title, Content: content}}
					if stored {
						e.Details = Details(title, content)
					}
					r = append(r, e)
				}
				rounds = append(rounds, r)
			}
			i := 0
			for b.Loop() {
				r := rounds[i%len(rounds)]
				i++
				p := newMergeProbe(model, 0.80, EmbeddingText(r[0].Title, r[0].Content))
				for _, e := range r[1:] {
					p.mergeableEntry(0.7, e)
				}
			}
		})
	}
}

// BenchmarkParseCorpus is ParseDetails of a tuning text and its title,
// over the first 256 tuning texts in turn: what the engine does once for a
// contribution.
func BenchmarkParseCorpus(b *testing.B) {
	texts := detailTexts(b)[:256]
	i := 0
	for b.Loop() {
		parseBoth(texts[i%len(texts)])
		i++
	}
}
