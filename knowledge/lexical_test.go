package knowledge

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"
)

func TestLexicalTerms(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"How do I set the busy_timeout in SQLite?", "[set busy timeout sqlite]"},
		{"`kubectl`은 롤아웃을 재시작한다", "[kubectl 롤아웃 재시작]"},
		{"인덱스를 트랜잭션에서는 만들 수 없다", "[인덱스 트랜잭션 만들]"},
		{"Go 1.22 go GO", "[go 1 22]"},
		{`"); DROP TABLE x; -- OR NEAR(a b) *`, "[drop table near]"},
		{"", "[]"},
	}
	for _, tt := range tests {
		if got := fmt.Sprint(LexicalTerms(tt.in)); got != tt.want {
			t.Errorf("LexicalTerms(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
	long := ""
	for i := 0; i < 100; i++ {
		long += fmt.Sprintf("word%d ", i)
	}
	if n := len(LexicalTerms(long)); n != MaxLexicalTerms {
		t.Fatalf("%d terms, want the cap %d", n, MaxLexicalTerms)
	}
}

func TestLexicalScores(t *testing.T) {
	docs := []lexDoc{
		newLexDoc(Entry{Title: "pgbouncer breaks prepared statements", Content: "Disable them in transaction pooling."}),
		newLexDoc(Entry{Title: "pgbouncer pool modes", Content: "Session pooling keeps SET commands."}),
		newLexDoc(Entry{Title: "Unrelated", Content: "CSS grid gaps."}),
		newLexDoc(Entry{Title: "커넥션풀 설정", Content: "HikariCP 커넥션풀은 maximumPoolSize 로 정한다."}),
	}
	got := lexicalScores(LexicalTerms("prepared statement with pgbouncer"), docs)
	if !(got[0] == 1 && got[1] > 0 && got[1] < got[0] && got[2] == 0 && got[3] == 0) {
		t.Fatalf("scores = %v, want doc 0 full, doc 1 partial, docs 2-3 none", got)
	}
	// The rare term weighs more than the common one.
	got = lexicalScores(LexicalTerms("pgbouncer session"), docs)
	if !(got[1] > got[0] && got[0] > 0) {
		t.Fatalf("scores = %v, want the session doc above the pgbouncer-only doc", got)
	}
	if got := lexicalScores(LexicalTerms("커넥션"), docs); got[3] != 1 {
		t.Fatalf("Korean compound prefix score = %v, want 1", got[3])
	}
	if got := lexicalScores(nil, docs); got[0] != 0 {
		t.Fatalf("no terms scored %v", got)
	}
}

func TestFreshness(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	hl := 10 * 24 * time.Hour
	tests := []struct {
		age  time.Duration
		want float64
	}{
		{-time.Hour, 1},
		{0, 1},
		{hl, 0.75},
		{2 * hl, 0.625},
		{1000 * hl, FreshnessFloor},
	}
	for _, tt := range tests {
		if got := Freshness(t0, t0.Add(tt.age), hl); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("Freshness(age %v) = %v, want %v", tt.age, got, tt.want)
		}
	}
}

func TestThesaurus(t *testing.T) {
	same := [][2]string{{"fails", "error"}, {"오류", "exception"}, {"커넥션", "connections"}, {"goroutine", "threads"},
		{"느림", "latency"}, {"caching", "cache"}, {"halted", "stopped"}, {"remark", "comment"}, {"froze", "freezes"}}
	for _, p := range same {
		if !shareGroup(p[0], p[1]) {
			t.Errorf("%q and %q share no group: %v, %v", p[0], p[1], Analyze(p[0]).Concepts, Analyze(p[1]).Concepts)
		}
	}
	if c := Analyze("pgbouncer").Concepts; len(c) != 0 {
		t.Errorf("pgbouncer is in groups %v, want none", c)
	}
	if got := expandTerms([]string{"timeout"}, 10, 3); len(got) < 4 || got[0] != "timeout" {
		t.Errorf("expandTerms(timeout) = %v, want it and 3 group words", got)
	}
}

// shareGroup reports whether two search words meet through a thesaurus
// group.
func shareGroup(a, b string) bool {
	ca := Analyze(SearchWords(a)[0]).Concepts
	for _, c := range Analyze(SearchWords(b)[0]).Concepts {
		if slices.Contains(ca, c) {
			return true
		}
	}
	return false
}

// TestThesaurusCollisions lists words that once met through a group they do
// not belong to, by sharing a stem or a group name with its words.
func TestThesaurusCollisions(t *testing.T) {
	for _, p := range [][2]string{
		{"contains", "container"}, {"contains", "containers"}, {"go", "golang"}, {"going", "golang"},
		{"win", "windows"}, {"keyboard", "key"}, {"enter", "key"}, {"keyboard", "keys"}, {"report", "pdf"},
		{"empty", "null"}, {"internal", "private"}, {"seed", "see"}, {"news", "new"},
	} {
		if shareGroup(p[0], p[1]) {
			a, b := Analyze(p[0]).Concepts, Analyze(p[1]).Concepts
			t.Errorf("%q and %q meet through a group: %v, %v", p[0], p[1], a, b)
		}
	}
}

// TestKoreanPromptWords: a prompt's conversational words (interrogatives,
// adverbs, auxiliary verbs) are no search terms, and a Hangul word no
// candidate holds and the lexicon cannot read weighs less than an English
// one no candidate holds (the topic a corpus lacks).
func TestKoreanPromptWords(t *testing.T) {
	got := LexicalTerms("컨테이너가 자꾸 죽는데 왜 그래? 어떻게 해야 해? 방법이 있어?")
	for _, w := range got {
		if w != "컨테이너" && w != "죽는데" {
			t.Errorf("LexicalTerms kept %q (all: %q)", w, got)
		}
	}
	docs := []lexDoc{newLexDoc(Entry{Title: "Container killed", Content: "The container was OOMKilled."})}
	unread := lexicalScores([]string{"container", "줬더니"}, docs)[0]
	absent := lexicalScores([]string{"container", "argon2id"}, docs)[0]
	if !(unread > absent) {
		t.Errorf("lexical with an unread Hangul word %.3f, with an absent English word %.3f: want the first higher", unread, absent)
	}
}

// TestEvidence: an entry's evidence is the summed weight of the query terms
// it holds, whatever the query's length, so a short prompt's one common
// word is a full share but thin evidence; rare words weigh more than common
// ones, and a hive of a few entries does not make every word rare.
func TestEvidence(t *testing.T) {
	var docs []lexDoc
	for i := 0; i < 30; i++ {
		docs = append(docs, newLexDoc(Entry{Title: fmt.Sprintf("nginx note %d", i), Content: "Set the nginx config."}))
	}
	docs = append(docs, newLexDoc(Entry{Title: "nginx websocket upgrade", Content: "proxy_http_version 1.1 and the Upgrade header for websocket."}))
	share, ev, whole := lexicalMatch(LexicalTerms("nginx config for hsts preload includesubdomains"), docs)
	if share[0] >= 0.5 || ev[0] >= EvidenceFull/2 || whole < EvidenceFull {
		t.Fatalf("common words: share %.3f, evidence %.2f of %.2f: want thin evidence in a query weighing more than EvidenceFull", share[0], ev[0], whole)
	}
	if s := Support(ev[0], math.Min(EvidenceFull, whole)); s >= 0.25 {
		t.Fatalf("support %.3f of evidence %.2f, want little", s, ev[0])
	}
	// A query of those two words alone is all found by them.
	if share, ev, whole := lexicalMatch(LexicalTerms("nginx config"), docs); share[0] != 1 || ev[0] != whole || Support(ev[0], math.Min(EvidenceFull, whole)) != 1 {
		t.Fatalf("short query: share %.3f, evidence %.2f of %.2f: want all of it", share[0], ev[0], whole)
	}
	last := len(docs) - 1
	share, ev, _ = lexicalMatch(LexicalTerms("nginx websocket upgrade header proxy for hsts preload"), docs)
	if ev[last] < EvidenceFull || share[last] == 1 {
		t.Fatalf("rare words: share %.3f, evidence %.2f: want a partial share and full evidence", share[last], ev[last])
	}
	// Three entries: each word is in one, yet its evidence weight is that
	// of a word one candidate in evidenceDocs holds, not one in three.
	few := docs[last-2:]
	_, ev, _ = lexicalMatch(LexicalTerms("websocket upgrade"), few)
	if want := 2 * math.Log(1+(evidenceDocs+1)/1.5); math.Abs(ev[2]-want) > 1e-9 {
		t.Fatalf("evidence in a small hive = %.3f, want %.3f", ev[2], want)
	}
	for _, c := range []struct{ ev, need, want float64 }{{0, 12, 0}, {-1, 12, 0}, {6, 12, 0.25}, {12, 12, 1}, {36, 12, 1}, {3, 3, 1}, {1, 0, 1}} {
		if got := Support(c.ev, c.need); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Support(%v, %v) = %v, want %v", c.ev, c.need, got, c.want)
		}
	}
}
