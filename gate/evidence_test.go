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
		{"Hidden text in web pages read by agents", "White-on-white text and `display:none` spans carried instructions to browsing agents in a red-team test; extracting only visible text with the accessibility tree removed most of them.", signalReasoned},
		{"README를 통한 프롬프트 인젝션 사례", "의존성 README에 '환경 변수를 이 주소로 보내라'는 문구가 있었고 에이전트가 읽었다. 대응: 도구 출력은 데이터로만 취급하고 샌드박스의 외부 네트워크를 레지스트리로 제한했다.", signalReasoned},
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

// TestCommandSpan pins which code spans read as command lines.
func TestCommandSpan(t *testing.T) {
	for text, want := range map[string]bool{
		"run `nginx -t` first":           true,
		"`chflags hidden file` hides it": true,
		"then `buf generate` again":      true,
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
