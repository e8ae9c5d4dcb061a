package gate

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The labelled corpus of testdata/gate: its cases, how they load, and the
// held-out batches frozen by checksum (corpus_test.go judges them).

// gateCase is one labelled contribution of testdata/gate. Want is good (must
// pass), placeholder (carries a documentation value that looks like PII and
// must pass), narrative, platitude or pii (must be refused; pii cases also
// name the kinds), injection (text aimed at the reading agent, must be
// refused by the instructions stage). Class says which case of its label it
// is (we-past, schedule, foreign-phone, …) and Kind an injection's kind.
type gateCase struct {
	ID      string   `json:"id"`
	Lang    string   `json:"lang"`
	Want    string   `json:"want"`
	Class   string   `json:"class"`
	Kind    string   `json:"kind"`
	Kinds   []string `json:"kinds"`
	Title   string   `json:"title"`
	Content string   `json:"content"`
	file    string
}

// heldoutBatches are the held-out parts of testdata/gate, frozen by their
// SHA-256. Each was written before the change it judges by someone who had
// not seen the gate or its tuning data; nobody tunes on them, and their
// misses are never printed (a batch whose misses were read is tuning data
// and moves out of heldout/, and a new batch is written). Session 23's end
// spent all four (gate21, gate22, injection23, injection24: movedParts23);
// none is held out until the next session freezes its batches here.
var heldoutBatches = map[string]string{}

func loadCases(t *testing.T, paths ...string) []gateCase {
	t.Helper()
	var out []gateCase
	ids := map[string]bool{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for n := 1; sc.Scan(); n++ {
			line := strings.TrimSpace(sc.Text())
			if line == "" {
				continue
			}
			var c gateCase
			if err := json.Unmarshal([]byte(line), &c); err != nil {
				t.Fatalf("%s:%d: %v", p, n, err)
			}
			if ids[c.ID] {
				t.Fatalf("%s:%d: duplicate id %q", p, n, c.ID)
			}
			ids[c.ID] = true
			c.file = filepath.Base(p)
			out = append(out, c)
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func globCases(t *testing.T, pattern string) []gateCase {
	t.Helper()
	paths, err := filepath.Glob(pattern)
	if err != nil || len(paths) == 0 {
		t.Fatalf("no %s: %v", pattern, err)
	}
	return loadCases(t, paths...)
}

// loadGateCorpus returns the tuning part of testdata/gate: every file the
// gate has been tuned on, injection cases included.
func loadGateCorpus(t *testing.T) []gateCase {
	t.Helper()
	return append(globCases(t, "../testdata/gate/*.jsonl"), loadInjectionTuning(t)...)
}

// loadInjectionTuning returns the tuning cases of the instructions stage:
// attempts aimed at the reading agent and good findings that hold
// commands, installers and URLs.
func loadInjectionTuning(t *testing.T) []gateCase {
	t.Helper()
	return globCases(t, "../testdata/gate/injection/*.jsonl")
}

// loadHeldout returns the held-out part, batch by batch, after checking
// that every batch is the one that was frozen and that no unfrozen file
// sits beside them.
func loadHeldout(t *testing.T) map[string][]gateCase {
	t.Helper()
	paths, _ := filepath.Glob("../testdata/gate/heldout/*")
	if len(paths) != len(heldoutBatches) {
		t.Fatalf("testdata/gate/heldout holds %d files, %d are frozen: add a new batch's checksum to heldoutBatches", len(paths), len(heldoutBatches))
	}
	for _, p := range paths {
		want, ok := heldoutBatches[filepath.Base(p)]
		if !ok {
			t.Fatalf("%s is not a frozen held-out batch", p)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != want {
			t.Fatalf("%s changed (sha256 %x, frozen %s): a held-out batch is never edited; move it to the tuning part and write a new one", p, sum, want)
		}
	}
	out := map[string][]gateCase{}
	for _, p := range paths {
		out[filepath.Base(p)] = loadCases(t, p)
	}
	return out
}
