package knowledge

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// TestAnalysisRoundTrip checks that a stored analysis decodes to what
// analysing the text gives, for English, Korean, identifiers and tags, so
// a query ranks a stored entry as it ranked it before analyses were stored.
func TestAnalysisRoundTrip(t *testing.T) {
	cases := []Entry{
		{Title: "postgres 3.14 cluster hangs with ECONNRESET #123456", Content: "postgres 3.14: `postgres --max-conns=42` fails with EPIPE when the cluster replica exceeds 512; set `cluster_timeout=12` in /etc/postgres/cluster.conf (case 123456).", Tags: []string{}},
		{Title: "커넥션풀 설정값이 너무 작으면 트랜잭션에서는 타임아웃", Content: "데이터베이스 인덱스를 다시 만들면 캐시 재시작 없이 빨라진다", Tags: []string{"postgres", "성능"}},
		{Title: "kubectl은 restart loop", Content: "The cache of the store (shop) restarts; 재시작 후 cache miss rate 0.5", Tags: nil},
		{Title: "", Content: "", Tags: nil},
	}
	for i, e := range cases {
		want := newLexDoc(e)
		b := Analysis(e.Title, e.Content, e.Tags)
		got, ok := decodeLexDoc(b)
		if !ok {
			t.Fatalf("case %d: decode failed", i)
		}
		if len(want.concepts) == 0 {
			want.concepts = nil
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("case %d: decoded %+v, want %+v", i, got, want)
		}
	}
}

// TestAnalysisRefused checks that a value of another lexicon or format,
// or a damaged one, is not read (the engine analyses the text instead).
func TestAnalysisRefused(t *testing.T) {
	b := Analysis("redis 7.2 EADDRINUSE", "redis-server --port=6379 fails with EADDRINUSE", []string{"redis"})
	bad := map[string][]byte{
		"empty":        nil,
		"other format": append([]byte{analysisFormat + 1}, b[1:]...),
		"other lexicon": func() []byte {
			c := append([]byte(nil), b...)
			c[3] ^= 0xff
			return c
		}(),
		"truncated": b[:len(b)-1],
		"trailing":  append(append([]byte(nil), b...), 0),
	}
	for name, v := range bad {
		if _, ok := decodeLexDoc(v); ok {
			t.Errorf("%s: decoded, want refused", name)
		}
	}
	for n := range len(b) {
		decodeLexDoc(b[:n]) // must not panic
	}
}

func FuzzDecodeLexDoc(f *testing.F) {
	f.Add(Analysis("redis 7.2 EADDRINUSE", "redis-server --port=6379", nil))
	f.Add([]byte{analysisFormat})
	f.Fuzz(func(t *testing.T, b []byte) {
		d, ok := decodeLexDoc(b)
		if !ok {
			return
		}
		// What decodes encodes back to a value that decodes alike.
		again, ok := decodeLexDoc(encodeLexDoc(d))
		if !ok || !reflect.DeepEqual(again.stems, d.stems) || !slices.Equal(again.concepts, d.concepts) {
			t.Fatalf("%x: decoded %+v, re-encoded decodes to %+v (%v)", b, d, again, ok)
		}
	})
}

func BenchmarkLexDocStoredVsText(b *testing.B) {
	e := Entry{Title: "postgres 3.14 cluster hangs with ECONNRESET #123456", Content: "postgres 3.14: `postgres --max-conns=42` fails with EPIPE when the cluster replica exceeds 512; set `cluster_timeout=12` in /etc/postgres/cluster.conf (case 123456).", Tags: []string{}}
	v := Analysis(e.Title, e.Content, e.Tags)
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			decodeLexDoc(v)
		}
	})
	b.Run("analyse", func(b *testing.B) {
		b.ReportAllocs()
		for i := range b.N {
			e.Title = fmt.Sprintf("postgres 3.14 cluster hangs with ECONNRESET #%d", i)
			newLexDoc(e)
		}
	})
}
