package knowledge

import (
	"bufio"
	"encoding/json"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// symmetryPairs are the texts of every tuning part's pairs
// (testdata/knowledge/retrieval*/pairs*.jsonl; never a held-out part).
func symmetryPairs(t *testing.T) [][2]string {
	t.Helper()
	files, err := filepath.Glob("../testdata/knowledge/retrieval*/pairs*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no tuning pairs: %v", err)
	}
	var out [][2]string
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var p struct {
				A, B struct{ Title, Content string }
			}
			if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			out = append(out, [2]string{EmbeddingText(p.A.Title, p.A.Content), EmbeddingText(p.B.Title, p.B.Content)})
		}
		fh.Close()
	}
	return out
}

// checkSymmetric fails when the merge decision on a and b depends on
// which of them is the entry, above the threshold and between the
// evidence floor and it (below the floor nothing merges).
func checkSymmetric(t *testing.T, a, b string) {
	t.Helper()
	da, la, db, lb := ParseDetails(a), ParseDetails(firstLine(a)), ParseDetails(b), ParseDetails(firstLine(b))
	for _, above := range []bool{false, true} {
		if ab, ba := detailsMerge(above, da, la, db, lb), detailsMerge(above, db, lb, da, la); ab != ba {
			t.Fatalf("detailsMerge (above the threshold %v): a into b %v, b into a %v\na: %q\nb: %q", above, ab, ba, a, b)
		}
	}
	for _, sim := range []float64{0.3, 0.6, 0.9} {
		if ab, ba := mergeable(LexicalModelPrefix+"test", sim, 0.80, a, b), mergeable(LexicalModelPrefix+"test", sim, 0.80, b, a); ab != ba {
			t.Fatalf("mergeable at %.2f: a into b %v, b into a %v\na: %q\nb: %q", sim, ab, ba, a, b)
		}
	}
}

// TestMergeableSymmetric: detailsMerge(a, b) == detailsMerge(b, a), above
// the threshold and below it, on every tuning pair swapped and on random
// perturbations of them (a word dropped, two words swapped, a word of one
// text put into the other, a sentence repeated, a number or a protocol
// changed: perturbFigures): the sweep and a
// contribution meet the same two texts in either order. mergeable itself,
// at cosines 0.3, 0.6 and 0.9, is checked on FuzzMergeableSymmetric's
// seeds and inputs (checkSymmetric).
func TestMergeableSymmetric(t *testing.T) {
	if raceEnabled {
		t.Skip("pure CPU over every tuning pair: make test runs it without the race detector")
	}
	pairs := symmetryPairs(t)
	rng := rand.New(rand.NewSource(15))
	for _, p := range pairs {
		da, la := ParseDetails(p[0]), ParseDetails(firstLine(p[0]))
		for i := 0; i < 5; i++ {
			b := p[1]
			switch {
			case i >= 3:
				b = perturbFigures(rng, p[1])
			case i > 0:
				b = perturb(rng, p[1], p[0])
			}
			db, lb := ParseDetails(b), ParseDetails(firstLine(b))
			for _, above := range []bool{false, true} {
				if ab, ba := detailsMerge(above, da, la, db, lb), detailsMerge(above, db, lb, da, la); ab != ba {
					t.Errorf("detailsMerge (above the threshold %v): a into b %v, b into a %v\na: %q\nb: %q", above, ab, ba, p[0], b)
				}
			}
		}
	}
}

// figureIn is a number as figuresRival reads one, for perturbFigures.
var figureIn = regexp.MustCompile(`\d+(?:[.,:]\d+)*`)

// perturbFigures is s with one of its numbers changed in a way that
// figuresRival, numbersRival and protocolsRival weigh: told otherwise
// (n → 3n+7), negated, restated with another unit or multiplier (4 hours,
// 14400 s; 40000, 40k, 4만; 500ms, 500000us) or as a Korean amount
// (1억 2천만), made huge (many digits, 1e309), or a protocol's name
// swapped (TCP → UDP).
func perturbFigures(rng *rand.Rand, s string) string {
	ix := figureIn.FindAllStringIndex(s, -1)
	if len(ix) == 0 || rng.Intn(6) == 0 {
		for _, pr := range [][2]string{{"TCP", "UDP"}, {"HTTPS", "HTTP"}, {"IPv4", "IPv6"}, {"gRPC", "REST"}} {
			if strings.Contains(s, pr[0]) {
				return strings.Replace(s, pr[0], pr[1], 1)
			}
		}
		if len(ix) == 0 {
			return s
		}
	}
	m := ix[rng.Intn(len(ix))]
	run := s[m[0]:m[1]]
	var to string
	switch rng.Intn(9) {
	case 0:
		if v, err := strconv.Atoi(run); err == nil {
			to = strconv.Itoa(3*v + 7)
		} else {
			to = run + "1"
		}
	case 1:
		to = "-" + run
	case 2:
		to = run + " hours"
	case 3:
		to = run + "k"
	case 4:
		to = run + "만"
	case 5:
		to = run + "000us"
	case 6:
		to = "1억 2천" + run + "만"
	case 7:
		to = strings.Repeat(run, 20)
	default:
		to = run + "e309"
	}
	return s[:m[0]] + to + s[m[1]:]
}

// perturb is s changed in one random way, from's words a source of new
// ones.
func perturb(rng *rand.Rand, s, from string) string {
	w, fw := strings.Fields(s), strings.Fields(from)
	if len(w) < 2 || len(fw) == 0 {
		return s
	}
	i := rng.Intn(len(w))
	switch rng.Intn(4) {
	case 0:
		w = append(w[:i:i], w[i+1:]...)
	case 1:
		j := (i + 1) % len(w)
		w[i], w[j] = w[j], w[i]
	case 2:
		w[i] = fw[rng.Intn(len(fw))]
	default:
		if k := strings.IndexAny(s, ".\n"); k > 0 {
			return s + " " + s[:k+1]
		}
	}
	return strings.Join(w, " ")
}

// FuzzMergeableSymmetric: the whole decision (details, prose, agreement)
// is symmetric on any two texts.
func FuzzMergeableSymmetric(f *testing.F) {
	for _, s := range [][2]string{
		{"Run `systemctl reload nginx` after renewal.", "Run `systemctl restart nginx` after renewal."},
		{"Writes failed with Permission denied.", "Writes failed with Operation not permitted."},
		{"Set `max_connections = 100` in postgresql.conf.", "Set `max_connections = 500` in postgresql.conf."},
		{"Enable keep-alive on the client.", "Disable keep-alive on the client."},
		{"The setting requires a restart.", "The setting does not require a restart."},
		{"보면 안 된다.", "보면 된다."},
		{"timeout 30s, 30", "timeout 30, 30s"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		checkSymmetric(t, a, b)
	})
}
