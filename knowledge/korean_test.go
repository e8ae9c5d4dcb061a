package knowledge

import (
	"slices"
	"testing"
)

// TestTransliteration: Hangul loanwords meet the English words they were
// written from, by rule, and native words do not pass for loanwords.
func TestTransliteration(t *testing.T) {
	for ko, en := range map[string]string{
		"캐시": "cache", "레플리카": "replica", "스키마": "schema", "쿼리": "query", "타임아웃": "timeout",
		"클러스터": "cluster", "서버": "server", "프록시": "proxy", "세션": "session", "토큰": "token",
		"커밋": "commit", "브랜치": "branch", "컨테이너": "container", "인덱스": "index", "트랜잭션": "transaction",
		"마이그레이션": "migration", "파티션": "partition", "샤드": "shard", "스레드": "thread", "버퍼": "buffer",
		"롤백": "rollback", "웹훅": "webhook", "파이프라인": "pipeline", "레디스": "redis", "카프카": "kafka",
		"쿠버네티스": "kubernetes", "데이터베이스": "database", "엔드포인트": "endpoint", "페이로드": "payload",
		"게이트웨이": "gateway", "스케줄러": "scheduler", "리전": "region", "배포": "deploy",
		// the ㅣ of 시 before a consonant is inserted, and 이 after an
		// inserted ㅡ is a vowel, not a glide
		"대시보드": "dashboard", "플러그인": "plugin", "로그인": "login", "레지스트리": "registry",
		// a vowel group read as two vowels, a one-class key in three
		// syllables, an r silent before a final e, an ㅡ + ㄹ inside a word,
		// a diphthong and the consonants' spelling choosing between equals
		"오디오": "audio", "비디오": "video", "클라이언트": "client", "레이어": "layer", "소프트웨어": "software",
		"미들웨어": "middleware", "우분투": "ubuntu", "사이트": "site", "타이밍": "timing", "보드": "board", "라우터": "router",
	} {
		a := Analyze(ko)
		if !slices.Contains(a.Bridges, en) {
			t.Errorf("%s → %v, want %s", ko, a.Bridges, en)
		}
	}
}

// TestGlossary: native Korean words, conjugated and with particles, meet
// their English translations.
func TestGlossary(t *testing.T) {
	for text, en := range map[string]string{
		"재시작하면": "restart", "느려서": "slow", "느린": "slow", "사라졌다": "disappear", "연결이": "connection",
		"설정값을": "config", "끊겼다": "disconnect", "늘어나면": "increase", "빨라졌다": "fast", "멈춘다": "hang",
		"비정상으로": "unhealthy", "뒤섞여": "mix",
	} {
		ws := SearchWords(text)
		if len(ws) != 1 {
			t.Fatalf("SearchWords(%q) = %v", text, ws)
		}
		if a := Analyze(ws[0]); !slices.Contains(a.Bridges, en) {
			t.Errorf("%s (%s) → %v, want %s", text, ws[0], a.Bridges, en)
		}
	}
}

// TestNativeWordsStayNative: common native and Sino-Korean words that the
// glossary does not hold are not mistaken for loanwords.
func TestNativeWordsStayNative(t *testing.T) {
	for _, w := range []string{"사용", "필요", "결과", "대상", "다음", "가능", "기대", "단어", "발생", "보인다", "바꾸고", "나오고", "들어", "그대", "자주",
		"구분", "주말", "쓰이지", "띄울",
		// a final loanwords are not written with (ㅆ ㄶ ㅌ ㅈ), a verb's last syllable
		"넣었다", "넣다", "바꿨", "같게", "낮아", "났다", "돌게", "되면", "다르게", "보려", "걸어야"} {
		if a := Analyze(w); len(a.Bridges) != 0 {
			t.Errorf("%s → %v, want no English word", w, a.Bridges)
		}
	}
}

// TestEngineeringWordsKoEn: the Korean words engineers write for common
// operations and symptoms, bare and with their particles and endings, meet
// the English words an English finding uses for them. The bare 권한, 경로,
// 추가, 제한, 초과, 재시도 and 분할 are not listed: trimKorean still cuts them as
// a stem and an ending (권 + 한, 초 + 과, read as second; issue 23 item 3).
func TestEngineeringWordsKoEn(t *testing.T) {
	for _, c := range []struct{ text, en string }{
		{"배포", "deploy"}, {"배포했더니", "deploy"}, {"롤백", "rollback"}, {"롤백하면", "rollback"},
		{"재시작", "restart"}, {"재시작해도", "restart"}, {"권한이", "permission"}, {"인증서", "certificate"},
		{"인증서가", "certificate"}, {"만료", "expire"}, {"만료됐다", "expire"}, {"만료된", "expire"},
		{"누수", "leak"}, {"누수가", "leak"}, {"느려짐", "slow"}, {"느려졌다", "slow"}, {"끊김", "disconnect"},
		{"끊겼다", "disconnect"}, {"충돌", "conflict"}, {"충돌이", "crash"}, {"빌드", "build"}, {"빌드가", "build"},
		{"캐시", "cache"}, {"캐시를", "cache"}, {"경로가", "path"}, {"추가했다", "add"}, {"재시도가", "retry"},
		{"타임아웃", "timeout"}, {"지연", "latency"}, {"복구", "restore"}, {"의존성", "dependency"},
		{"장애", "outage"}, {"중복", "duplicate"}, {"삭제", "delete"}, {"업그레이드", "upgrade"},
	} {
		ws := SearchWords(c.text)
		if len(ws) != 1 {
			t.Fatalf("SearchWords(%q) = %v, want one word", c.text, ws)
		}
		if got := Analyze(ws[0]).Bridges; !slices.Contains(got, c.en) {
			t.Errorf("%s (%s) → %v, want %s", c.text, ws[0], got, c.en)
		}
	}
}
