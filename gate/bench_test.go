package gate

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// The gate's cost on the texts it was tuned on (issue #29: the contribute
// handler spends most of its CPU here). The held-out part is never read.

// tuningTexts returns the title and content of every case in
// testdata/gate/*.jsonl and testdata/gate/calibration/*.jsonl, in file order.
func tuningTexts(tb testing.TB) [][2]string {
	tb.Helper()
	var out [][2]string
	for _, pat := range []string{"../testdata/gate/*.jsonl", "../testdata/gate/calibration/*.jsonl"} {
		paths, err := filepath.Glob(pat)
		if err != nil || len(paths) == 0 {
			tb.Fatalf("no %s: %v", pat, err)
		}
		for _, p := range paths {
			f, err := os.Open(p)
			if err != nil {
				tb.Fatal(err)
			}
			sc := bufio.NewScanner(f)
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			for sc.Scan() {
				line := strings.TrimSpace(sc.Text())
				if line == "" {
					continue
				}
				var c struct{ Title, Content string }
				if err := json.Unmarshal([]byte(line), &c); err != nil {
					tb.Fatalf("%s: %v", p, err)
				}
				out = append(out, [2]string{c.Title, c.Content})
			}
			f.Close()
			if err := sc.Err(); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return out
}

// baselinePass is the yardstick BenchmarkCheck divides by: one lower-casing
// and one UTF-8 validation of the same text, the least any text check does.
func baselinePass(title, content string) int {
	n := len(strings.ToLower(title + "\n" + content))
	if utf8.ValidString(title) && utf8.ValidString(content) {
		n++
	}
	return n
}

// BenchmarkCheck runs Check over every tuning text (one op is one pass over
// all of them) and reports the cost per text and the ratio to baselinePass
// over the same texts, measured in the same run, so the ratio means the
// same on a loaded machine.
func BenchmarkCheck(b *testing.B) {
	texts := tuningTexts(b)
	sink := 0
	const baseRounds = 50
	start := time.Now()
	for range baseRounds {
		for _, tc := range texts {
			sink += baselinePass(tc[0], tc[1])
		}
	}
	base := float64(time.Since(start).Nanoseconds()) / baseRounds
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, tc := range texts {
			if Check(tc[0], tc[1]).Pass {
				sink++
			}
		}
	}
	per := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(per/float64(len(texts)), "ns/text")
	b.ReportMetric(per/base, "x-baseline")
	if sink < 0 {
		b.Fatal("unreachable")
	}
}
