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
	var out []string
	files, err := filepath.Glob("../testdata/knowledge/retrieval*/pairs*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no tuning pairs: %v", err)
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

// TestStoredDetailsMatchParse: details stored with an entry and read back
// are what parsing its text gives, field for field, on every tuning text,
// and the merge decision on stored details answers as on fresh ones for
// every retrieval pair, either way round, at the cosines where details
// decide.
func TestStoredDetailsMatchParse(t *testing.T) {
	texts := detailTexts(t)
	for _, text := range texts {
		all, line := parseBoth(text)
		gotAll, gotLine, ok := decodeDetails(encodeDetails(all, line))
		if !ok {
			t.Fatalf("stored details of %q do not decode", text)
		}
		if !reflect.DeepEqual(gotAll, all) || !reflect.DeepEqual(gotLine, line) {
			t.Fatalf("stored details of %q:\n got %#v\nwant %#v", text, gotAll, all)
		}
	}
	model := LexicalModelPrefix + "test"
	entry := func(text string, stored bool) StoredEntry {
		title, content := firstLine(text), text[len(firstLine(text)):]
		e := StoredEntry{Entry: Entry{Title: title, Content: content}}
		if stored {
			e.Details = Details(title, content)
		}
		return e
	}
	merged := 0
	for _, p := range symmetryPairs(t) {
		a, b := p[0], p[1]
		ea, eb := entry(a, true), entry(b, true)
		for _, sim := range []float64{0.45, 0.7, 0.85} {
			fresh := mergeable(model, sim, 0.80, a, b)
			if fresh {
				merged++
			}
			if got := newMergeProbe(model, 0.80, a).mergeableEntry(sim, eb); got != fresh {
				t.Fatalf("mergeable at %.2f on stored details = %v, parsed %v\na: %q\nb: %q", sim, got, fresh, a, b)
			}
			if got := entryProbe(model, 0.80, ea).mergeableEntry(sim, eb); got != fresh {
				t.Fatalf("sweep's mergeable at %.2f on stored details = %v, parsed %v\na: %q\nb: %q", sim, got, fresh, a, b)
			}
		}
	}
	t.Logf("%d texts, %d pairs' decisions alike (%d merges)", len(texts), len(symmetryPairs(t)), merged)
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
// detailsVersion: the sha256 of their encoded details (header left out).
const detailsDigest = "95336886a60f870c2e82a61a82932abfdb9c7a4b414ac89ad55f459488ab8a7b"

// TestDetailsVersion fails when what ParseDetails finds on the tuning
// texts changes under the same detailsVersion: stored details would then
// differ from a parse. Bump detailsVersion with the change (or, when only
// the lexicon changed, which the header names anyway, leave it) and set
// detailsDigest to the new sum.
func TestDetailsVersion(t *testing.T) {
	h := sha256.New()
	n := len(detailsHeader())
	for _, text := range detailTexts(t) {
		h.Write(encodeDetails(parseBoth(text))[n:])
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != detailsDigest {
		t.Fatalf("the details of the tuning texts changed under detailsVersion %d: digest %s, pinned %s;"+
			" bump detailsVersion and pin the new digest", detailsVersion, got, detailsDigest)
	}
}
