package gate

import (
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// TestEvidenceLeavesTheScore pins that a finding accepted on evidence
// keeps the specificity score it had: the score is stored and ranks the
// entry (knowledge.Quality), the evidence only decides the verdict.
func TestEvidenceLeavesTheScore(t *testing.T) {
	for _, c := range []struct{ title, content, evidence string }{
		{"Hide a file from Finder", "`chflags hidden file` hides it in Finder; `chflags nohidden` shows it again. Cmd+Shift+. toggles hidden files in Finder windows.", signalCommandLine},
		{"Base64 blobs in issue comments", "We saw issue comments with long base64 strings that decoded to instructions for coding agents; the triage bot now decodes base64 runs and flags any that contain imperative text before summarising the thread.", signalReasoned},
		{"의존성 README 속 주입 지시", "node_modules 의 README 를 읽는 에이전트는 스크립트를 실행하라는 문장을 만날 수 있다. 읽기 도구에서 node_modules 를 제외하고, README 에서 나온 명령은 사람이 검토한다.", signalReasoned},
	} {
		score, _ := Specificity(c.title, c.content)
		r := Check(c.title, c.content)
		if !r.Pass || r.Specificity != score || score >= SpecificityFloor {
			t.Fatalf("%s: pass %v, stored score %.2f, Specificity %.2f; want a pass on evidence below the floor with the score kept", c.title, r.Pass, r.Specificity, score)
		}
		if !hasString(r.Names(SignalMatched), c.evidence) {
			t.Errorf("%s: signals %v, want %q", c.title, r.Signals, c.evidence)
		}
	}
}

// TestEvidenceRefusesPlatitudes pins that evidence never rescues vague
// advice: a platitude, a short text, and technical words without length.
func TestEvidenceRefusesPlatitudes(t *testing.T) {
	for _, c := range [][2]string{
		{"Secrets", "Never commit secrets to `git`. Use a secrets manager."},
		{"Security reminder", "Remember: `validate` all `input`, `sanitize` all `output`, and keep `secrets` safe."},
		{"Agents", "Keep your prompts clear and your sandbox locked down; it is important."},
	} {
		if r := Check(c[0], c[1]); r.Pass || r.Stage != StageSpecificity {
			t.Errorf("%q: pass %v stage %q, want refused as vague", c[0], r.Pass, r.Stage)
		}
	}
}

// TestEvidenceReasonedIsBounded pins that a long explanation only lifts a
// finding just under the floor, and only with a detail a reader can look
// up: long vague advice with a cause, a "mitigation:" or a bare number
// stays refused however far below the floor it is.
func TestEvidenceReasonedIsBounded(t *testing.T) {
	for _, c := range [][2]string{
		{"Caches and databases drift", "When the cache and the database drift apart, the requests that follow can return the wrong answers for a while, so teams should look at how the two relate and decide what to do about the connection between them."},
		{"Queries and caches", "Mitigation: look at the query and the cache, review things regularly and check that everything about the database connection is understood by the whole team before going further with any of it."},
		{"Dependencies drift", "Dependencies drift as modules and the lockfile age, which causes builds to break when someone finally updates them; updating a few at a time on a regular rhythm, for example every 2 weeks, makes the upgrades less painful overall."},
		{"대응: 쿼리와 캐시 점검", "대응: 쿼리와 캐시를 정기적으로 살펴보고, 데이터베이스 커넥션에 관한 내용을 팀 모두가 이해하고 있는지 확인한 다음에 다음 단계로 넘어가도록 합니다."},
		// A detail, but far below the floor: the explanation adds
		// reasonedMargin, not the whole gap, and the hedges keep it from
		// reading as a concrete practice.
		{"Hidden text in web pages read by agents", "White-on-white text and `display:none` spans can carry instructions to browsing agents, so the team should look at how pages are read and tighten anything that seems loose."},
	} {
		score, found := Specificity(c[0], c[1])
		r := Check(c[0], c[1])
		if r.Pass || r.Stage != StageSpecificity {
			t.Errorf("%q (score %.2f, %v): pass %v stage %q, want refused as vague", c[0], score, found, r.Pass, r.Stage)
		}
	}
}

// TestEvidenceConcretePractice pins that advice naming no tool passes as
// a concrete practice when it states what it does with nothing hedged,
// and that the same advice with a hedge, told as a story, or too short,
// does not.
func TestEvidenceConcretePractice(t *testing.T) {
	for _, c := range []struct {
		title, content string
		want           bool
	}{
		{"Revoke before rewriting history", "Rotate a leaked credential before you clean it out of the history. Removing it from the repository does not revoke it, and anyone who cloned in the meantime still has it.", true},
		{"유출된 자격 증명은 먼저 폐기", "유출된 자격 증명은 이력을 지우기 전에 먼저 폐기하고 새로 발급하라. 저장소에서 지워도 그 사이에 복제한 사람에게는 그대로 남아 있다.", true},
		{"Handling credentials", "Credentials deserve special care. Store them somewhere safe, share them only when needed, and rotate them now and then so that nothing bad happens if one gets out.", false},
		{"자격 증명 관리", "자격 증명은 특별히 신경 써서 다뤄야 합니다. 안전한 곳에 두고 필요할 때만 공유하며 가끔 바꿔 주면 문제가 생길 일이 줄어듭니다.", false},
		{"Rotate leaked keys", "Rotate a leaked key before cleaning the history.", false},
		{"개발자가 된 이야기", "대학교 때는 경영학을 전공했는데 우연히 들은 코딩 수업이 너무 재미있었다. 그 뒤로 부트캠프를 다니고 작은 스타트업에 들어가서 지금까지 일하고 있다. 돌아보면 참 운이 좋았던 것 같다.", false},
	} {
		r := Check(c.title, c.content)
		if got := r.Pass && hasString(r.Names(SignalMatched), signalPractice); got != c.want {
			t.Errorf("%q: pass %v (stage %q, signals %v), want a pass as a concrete practice %v", c.title, r.Pass, r.Stage, r.Signals, c.want)
		}
		if !c.want && r.Pass {
			t.Errorf("%q: passed, want refused", c.title)
		}
	}
}

// TestCommandSpan pins which code spans read as command lines.
func TestCommandSpan(t *testing.T) {
	for text, want := range map[string]bool{
		"run `nginx -t` first":           true,
		"`chflags hidden file` hides it": true,
		"then `buf generate` again":      true,
		"pipe it through `| tail -n 50`": true,
		"see the `README` here":          false,
		"the `Finder` app":               false,
		"set `Cache Control` on it":      false,
	} {
		if got := hasCommandSpan(text); got != want {
			t.Errorf("hasCommandSpan(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestStoredScoreIsSpecificity pins, over the tuning findings of
// testdata/gate/injection, that the
// score a verdict carries (and the store keeps) is Specificity's, whatever
// the accept rule decided.
func TestStoredScoreIsSpecificity(t *testing.T) {
	onEvidence := 0
	for _, c := range loadInjectionTuning(t) {
		if c.Want != "good" {
			continue
		}
		r := Check(c.Title, c.Content)
		if !r.Pass && r.Stage != StageSpecificity {
			continue
		}
		title, content := strings.TrimSpace(norm.NFC.String(c.Title)), strings.TrimSpace(norm.NFC.String(c.Content))
		if s, _ := Specificity(title, content); r.Specificity != s {
			t.Errorf("%s: verdict carries %.2f, Specificity %.2f", c.ID, r.Specificity, s)
		}
		if r.Pass && r.Specificity < SpecificityFloor {
			onEvidence++
		}
	}
	if onEvidence == 0 {
		t.Fatal("no tuning finding passed on evidence")
	}
	t.Logf("%d tuning findings pass on evidence below the floor, their scores kept", onEvidence)
}

// TestEvidenceReasonedFewHedges pins that a long explanation in technical
// words with a detail counts for the accept rule with up to two hedges,
// and not with three (teams, carefully, velocity): advice that hedges that
// much explains nothing, however long.
func TestEvidenceReasonedFewHedges(t *testing.T) {
	const title = "Kubernetes clusters and their upgrades"
	plain := "Kubernetes clusters drift when node pools and the control plane run different minor versions, so upgrades that skip one break the kubelet's API calls; upgrade one minor version at a time and drain nodes first."
	hedged := "Kubernetes clusters drift when node pools and the control plane run different versions, so teams should think carefully about upgrades and treat them as a way to keep velocity across the whole platform."
	for _, c := range []struct {
		content string
		want    bool
	}{{plain, true}, {hedged, false}} {
		score, found := Specificity(title, c.content)
		_, names := evidenceScore(title, c.content, score, found, Narrative(title, c.content), documentedValue(title+"\n"+c.content))
		if got := hasString(names, signalReasoned); got != c.want {
			t.Errorf("reasoned evidence for %q = %v, want %v (names %v)", c.content[:40], got, c.want, names)
		}
	}
}

// TestEvidenceDocumentedValue pins that a documented example value (a
// number from a range reserved for fiction) counts for the accept rule,
// and that the same advice without it does not.
func TestEvidenceDocumentedValue(t *testing.T) {
	const title = "Phone numbers in form fixtures"
	with := "Form fixtures use +1 212 555 0147, from the range reserved for fiction, so no real line rings."
	without := "Form fixtures use a number from the range reserved for fiction, so no real line rings."
	for _, c := range []struct {
		content string
		want    bool
	}{{with, true}, {without, false}} {
		score, found := Specificity(title, c.content)
		_, names := evidenceScore(title, c.content, score, found, Narrative(title, c.content), documentedValue(title+"\n"+c.content))
		if got := hasString(names, signalDocumented); got != c.want {
			t.Errorf("documented evidence for %q = %v, want %v (names %v)", c.content, got, c.want, names)
		}
	}
}

// TestVagueNamedAdvice: advice that names tools around three vague words
// is refused although its score reaches the floor; a finding naming the
// same tools with no hedge passes.
func TestVagueNamedAdvice(t *testing.T) {
	vague := Check("Thoughts on streaming platforms", "Event streaming is a journey, not a destination. Whether you pick Kafka, Pulsar or Kinesis, the principles remain the same: think about your consumers first, evolve schemas thoughtfully and invest in a strong engineering culture.")
	if vague.Pass || vague.Stage != StageSpecificity {
		t.Fatalf("vague advice naming tools: pass=%v stage=%q, want refused by specificity", vague.Pass, vague.Stage)
	}
	good := Check("Kafka consumer group rebalances on slow batches", "A Kafka consumer that takes longer than max.poll.interval.ms between poll() calls leaves its group and triggers a rebalance; lower max.poll.records or move the slow work off the polling thread.")
	if !good.Pass {
		t.Fatalf("finding naming Kafka refused: %s", good.Reason)
	}
}

// TestVagueNamedKeepsIdentifiers: a finding that names the identifier to
// use is no platitude, whatever words of advice it holds.
func TestVagueNamedKeepsIdentifiers(t *testing.T) {
	for _, c := range [][2]string{
		{"PgBouncer transaction pooling leaks session advisory locks", "Under PgBouncer transaction pooling, a session advisory lock taken with pg_advisory_lock stays on the server connection after the transaction, so another client gets it or blocks. It is important to ensure locks end with the transaction: the better choice is pg_advisory_xact_lock, which makes the problem clear and goes away at commit."},
		{"Redis Cluster 에서 MULTI 는 한 슬롯 안에서만", "Redis Cluster 에서는 MULTI/EXEC 트랜잭션의 키가 모두 같은 해시 슬롯에 있어야 한다는 점이 중요하다. 키에 {user42} 같은 해시 태그를 미리 붙여 두는 것을 고려하고, 원자성을 보장하려면 설계 단계에서 정하자."},
	} {
		if r := Check(c[0], c[1]); !r.Pass {
			t.Errorf("%s: refused (%s: %s)", c[0], r.Stage, r.Reason)
		}
	}
}
