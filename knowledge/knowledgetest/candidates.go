package knowledgetest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"pumasi/knowledge"
)

// The lexical candidates are the engine's choice (knowledge/candidates.go)
// over what a driver counts and matches. These cases pin the driver's part
// against the contract's meaning of a term, computed here from the corpus
// alone, so two drivers that would hand the ranking different candidates
// for the same entries and query cannot both pass: a driver that tokenises,
// counts or orders differently fails here.

// candEntry is one entry of the candidates corpus.
type candEntry struct {
	hive, title, content string
	tags                 []string
}

// candCorpus holds words the backends' tokenisers are known to treat
// differently unless a driver takes care (dotted names, paths, versions,
// hyphens, underscores, Korean particles), and more than CommonTerm fillers
// that share two common words.
func candCorpus() []candEntry {
	es := []candEntry{
		{"cands", "pgbouncer pool mode", "Transaction pooling in pgbouncer breaks prepared statements; set max_prepared_statements=100 in pgbouncer.ini.", []string{"postgres"}},
		{"cands", "pgbouncer auth query", "pgbouncer auth_query needs a security definer function in each database.", []string{"postgres", "auth"}},
		{"cands", "connection pool sizing", "Twenty connections per replica keep the primary under max_connections.", nil},
		{"cands", "커넥션풀 설정", "커넥션풀이 가득 차면 새 요청은 타임아웃까지 대기합니다.", nil},
		{"cands", "커넥션 재시도", "커넥션이 끊기면 클라이언트가 지수 백오프로 재시도합니다.", []string{"네트워크"}},
		{"cands", "kafka consumer lag", "Consumer lag grows when max.poll.records is too high on kafka 3.6; lower it to 200.", []string{"kafka"}},
		{"cands", "redis eviction", "Redis evicts keys under maxmemory with the allkeys-lru policy; see /etc/redis/redis.conf.", nil},
		{"cands", "pg15 vacuum freeze", "On pg15 a vacuum freeze of a large table takes hours but blocks no writes.", nil},
		{"cands", "pg14 autovacuum", "On pg14 autovacuum skips pages whose cleanup lock is held (widget-free).", nil},
		{"elsewhere", "pgbouncer elsewhere", "pgbouncer in another hive answers only that hive's queries.", nil},
	}
	for i := 0; i < knowledge.CommonTerm+5; i++ {
		es = append(es, candEntry{"filler", fmt.Sprintf("filler note %d", i), fmt.Sprintf("A widget and its gadget, case %d.", i), nil})
	}
	return es
}

// candQueries are the queries whose terms the cases check: rare words,
// words only the fillers share, and mixes.
var candQueries = []string{
	"pgbouncer prepared statements",
	"max.poll.records too high on kafka 3.6",
	"커넥션풀이 타임아웃",
	"커넥션 재시도",
	"allkeys-lru in /etc/redis/redis.conf",
	"pg15 vacuum freeze hours",
	"widget gadget",
	"widget pgbouncer pooling",
}

// seedCandidates inserts the corpus through the driver, in order (so Seq
// follows the corpus), and returns the entries' ids.
func seedCandidates(t *testing.T, d knowledge.Driver, es []candEntry) []string {
	t.Helper()
	ctx := context.Background()
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	ids := make([]string, len(es))
	for i, e := range es {
		ne := knowledge.NewEntry{ID: fmt.Sprintf("cand-%04d", i), Hive: e.hive, Title: e.title, Content: e.content, Tags: e.tags,
			NormHash: knowledge.Hash(e.title, e.content), Model: "test-model", Vector: spread(i), Specificity: 0.8, At: at}
		id, created, err := d.Insert(ctx, ne, knowledge.Contribution{Agent: "cand-loader", Title: e.title, Content: e.content, At: at, Similarity: 1})
		if err != nil || !created {
			t.Fatalf("Insert(%q) = %v, %v", e.title, created, err)
		}
		ids[i] = id
	}
	return ids
}

// candWords are an entry's words as the contract means them: runs of
// letters and digits, case-folded, over title, content and tags.
func candWords(e candEntry) []string {
	text := strings.ToLower(e.title + "\n" + e.content + "\n" + strings.Join(e.tags, " "))
	return strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// candHolds reports whether e holds term t as the contract says
// (knowledge.Term): a word with t's stem, a word t begins for a Hangul t,
// or t anywhere for a substring.
func candHolds(e candEntry, t knowledge.Term) bool {
	text := strings.ToLower(t.Text)
	if t.Substring {
		return strings.Contains(strings.ToLower(e.title+" "+e.content+" "+strings.Join(e.tags, " ")), text)
	}
	for _, w := range candWords(e) {
		if knowledge.HangulOnly(text) && strings.HasPrefix(w, text) || knowledge.Stem(w) == knowledge.Stem(text) {
			return true
		}
	}
	return false
}

func testKnowCandidates(t *testing.T, newDriver func(t *testing.T) knowledge.Driver) {
	ctx := context.Background()
	d := newDriver(t)
	es := candCorpus()
	ids := seedCandidates(t, d, es)
	title := map[string]string{}
	for i, id := range ids {
		title[id] = es[i].title
	}
	const k = 20
	t.Run("CountsAndMatchesAreTheContracts", func(t *testing.T) {
		for _, q := range candQueries {
			terms := knowledge.QueryTerms(q)
			counts, err := d.TermCounts(ctx, terms, knowledge.CommonTerm)
			if err != nil || len(counts) != len(terms) {
				t.Fatalf("TermCounts(%q) = %v, %v; want %d counts", q, counts, err, len(terms))
			}
			inHive, err := d.Match(ctx, "cands", terms, k)
			if err != nil || len(inHive) != len(terms) {
				t.Fatalf("Match(%q) = %v, %v; want %d lists", q, inHive, err, len(terms))
			}
			everywhere, err := d.Match(ctx, "", terms, k)
			if err != nil || len(everywhere) != len(terms) {
				t.Fatalf("Match(%q, every hive) = %v, %v; want %d lists", q, everywhere, err, len(terms))
			}
			for j, term := range terms {
				var all, hive []string
				for i := len(es) - 1; i >= 0; i-- { // newest first
					if candHolds(es[i], term) {
						all = append(all, ids[i])
						if es[i].hive == "cands" {
							hive = append(hive, ids[i])
						}
					}
				}
				if n := len(all); n <= knowledge.CommonTerm && counts[j] != n || n > knowledge.CommonTerm && counts[j] <= knowledge.CommonTerm {
					t.Errorf("query %q: TermCounts(%+v) = %d, want %d (exact up to %d)", q, term, counts[j], n, knowledge.CommonTerm)
				}
				if want := all[:min(len(all), k)]; !slices.Equal(everywhere[j], want) {
					t.Errorf("query %q: Match(%+v) in every hive = %v, want %v", q, term, titles(title, everywhere[j]), titles(title, want))
				}
				if want := hive[:min(len(hive), k)]; !slices.Equal(inHive[j], want) {
					t.Errorf("query %q: Match(%+v) = %v, want %v", q, term, titles(title, inHive[j]), titles(title, want))
				}
			}
		}
	})
	t.Run("EngineChoosesAlike", func(t *testing.T) {
		// The engine's choice over those counts and matches, pinned for
		// queries whose words no thesaurus group reaches: the rarest words
		// drive the search, the hive filters, and common words are searched
		// only when nothing rarer is there.
		eng := knowledge.New(d, knowledge.Options{Now: knowClock.now})
		for _, c := range []struct {
			hive, q string
			want    []string
		}{
			{"cands", "pgbouncer auth_query definer", []string{"pgbouncer auth query", "pgbouncer pool mode"}},
			{"", "pgbouncer.ini", []string{"pgbouncer pool mode", "pgbouncer elsewhere", "pgbouncer auth query"}},
			{"cands", "max.poll.records", []string{"kafka consumer lag", "connection pool sizing", "pgbouncer pool mode"}},
			{"cands", "allkeys-lru", []string{"redis eviction"}},
			{"filler", "widget case 17", []string{"filler note 17"}},
			{"filler", "widget gadget", []string{"filler note 504", "filler note 503", "filler note 502", "filler note 501"}},
			{"cands", "widget pgbouncer pooling", []string{"pgbouncer pool mode", "connection pool sizing", "pgbouncer auth query"}},
			{"cands", "pg15 vacuum", []string{"pg15 vacuum freeze"}},
		} {
			got, err := eng.LexicalCandidates(ctx, c.hive, c.q, 4)
			if err != nil || !slices.Equal(titles(title, got), c.want) {
				t.Errorf("LexicalCandidates(%q, %q) = %v, %v; want %v", c.hive, c.q, titles(title, got), err, c.want)
			}
		}
	})
}

func titles(title map[string]string, ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = title[id]
	}
	return out
}
