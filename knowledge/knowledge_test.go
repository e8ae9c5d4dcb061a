package knowledge

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"pumasi"
)

func TestValidHandle(t *testing.T) {
	for h, want := range map[string]bool{
		"claude-code": true, "a.b_c-9": true, "abc": true, strings.Repeat("x", 64): true,
		"ab": false, strings.Repeat("x", 65): false, "has space": false, "한글핸들": false, "a/b": false, "": false,
	} {
		if got := ValidHandle(h); got != want {
			t.Errorf("ValidHandle(%q) = %v, want %v", h, got, want)
		}
	}
	if got := pumasi.ErrorCode(CheckHandle("")); got != pumasi.EAgentRequired {
		t.Fatalf("CheckHandle(\"\") code = %q", got)
	}
	if got := pumasi.ErrorCode(CheckHandle("x")); got != pumasi.EAgentRequired {
		t.Fatalf("CheckHandle(x) code = %q", got)
	}
}

func TestKnowledgeHashNormalises(t *testing.T) {
	a := Hash("Postgres  now()", "Frozen\tin a TRANSACTION ")
	b := Hash(" postgres now()", "frozen in a transaction")
	if a != b || len(a) != 64 {
		t.Fatalf("hashes %s %s", a, b)
	}
	if a == Hash("postgres now()", "frozen in a transaction.") {
		t.Fatal("different text, same hash")
	}
	// A flag's or a path's case is kept: git clean -fdx
	// removes untracked files, -fdX only ignored ones.
	for _, c := range [][2]string{
		{"run git clean -fdx first", "run git clean -fdX first"},
		{"`-fdx` first", "`-fdX` first"},
		{"set --Foo", "set --foo"},
		{"read /etc/Foo", "read /etc/foo"},
	} {
		if Hash("t", c[0]) == Hash("t", c[1]) {
			t.Errorf("%q and %q hash alike", c[0], c[1])
		}
	}
	// Words, a hyphen inside a word and a dash alone still fold.
	for _, c := range [][2]string{
		{"Pre-commit hooks - Run Them", "pre-commit HOOKS - run them"},
		{"(Redis) CLUSTER.", "(redis) cluster."},
		{"-- 10", "-- 10"},
		{"SET MAX_CONN=10", "set max_conn=10"},
	} {
		if Hash("t", c[0]) != Hash("t", c[1]) {
			t.Errorf("%q and %q hash apart", c[0], c[1])
		}
	}
	// NFD and NFC Korean are one text.
	if Hash("설정", "x") != Hash("\u1109\u1165\u11af\u110c\u1165\u11bc", "x") {
		t.Fatal("NFD Korean hashes differently from NFC")
	}
}

func TestContributionRequestNormalize(t *testing.T) {
	r, err := ContributionRequest{Title: " T ", Content: " c ", Tags: []string{"Go", "go", " ", "SQLite"}}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	if r.Hive != DefaultHive || r.Title != "T" || r.Content != "c" || !reflect.DeepEqual(r.Tags, []string{"go", "sqlite"}) {
		t.Fatalf("normalised = %+v", r)
	}
	bad := []ContributionRequest{
		{Content: "c"}, {Title: "t"}, {Title: "t", Content: "c", Hive: "Bad Hive"},
		{Title: strings.Repeat("t", MaxTitleRunes+1), Content: "c"},
		{Title: "t", Content: strings.Repeat("c", MaxContentRunes+1)},
		{Title: "t", Content: "c", Tags: make([]string, MaxTags+1)},
	}
	for _, b := range bad {
		if _, err := b.Normalize(); pumasi.ErrorCode(err) != pumasi.EInvalidRequest {
			t.Errorf("Normalize(%.40v) err = %v, want invalid_request", b, err)
		}
	}
}

func TestQualityAndRank(t *testing.T) {
	if q := Quality(0.6, 1, 0, 0); q != 0.6 {
		t.Fatalf("lone entry quality %v", q)
	}
	if !(Quality(0.6, 10, 3, 2) > Quality(0.6, 1, 0, 0)) || Quality(1, 1000, 1000, 1000) != 1 {
		t.Fatal("quality does not grow with counters or is not capped")
	}
	now := time.Now()
	hits := []Hit{
		{Entry: Entry{ID: "a", CreatedAt: now}, Similarity: 0.9, Score: 0.45},
		{Entry: Entry{ID: "b", CreatedAt: now}, Similarity: 0.6, Score: 0.6},
		{Entry: Entry{ID: "c", CreatedAt: now}, Similarity: 0.8, Score: 0.6},
	}
	got := RankHits(hits, 2)
	if len(got) != 2 || got[0].ID != "c" || got[1].ID != "b" {
		t.Fatalf("ranked %v", got)
	}
}

// TestDotNormAgreeWithCosine checks the backends' unrolled scan kernel
// against the plain float64 cosine, including lengths not a multiple of 4.
func TestDotNormAgreeWithCosine(t *testing.T) {
	for _, n := range []int{1, 3, 4, 7, 512} {
		a, b := make([]float32, n), make([]float32, n)
		for i := range a {
			a[i] = float32(i%7) - 3.5
			b[i] = float32((i*5)%11) - 5
		}
		got := float64(Dot(a, b)) / (Norm(a) * Norm(b))
		if want := Cosine(a, b); math.Abs(got-want) > 1e-5 {
			t.Errorf("n=%d: Dot/Norm cosine %v, Cosine %v", n, got, want)
		}
	}
	if Norm([]float32{3, 4}) != 5 {
		t.Errorf("Norm(3,4) = %v, want 5", Norm([]float32{3, 4}))
	}
}
