package gate

import (
	"bufio"
	_ "embed"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// The instructions stage's second reader: a logistic regression over the
// words, word pairs and Hangul letter pairs of the normalised directive
// view, plus structural signals (a disguise, a host the finding does not
// explain, a shell fed from the network, something sensitive read, a
// sentence spoken to the reader). The rules name what they recognise; the
// model catches paraphrases they do not spell out. Its weights are
// generated from the tuning part of testdata/gate by
// TestInstructionsModelFresh (go test ./gate -run ModelFresh -update-model),
// deterministically; the test fails when the committed weights are stale.

//go:embed instructions_model.txt
var instructionsModelText string

// linearModel is a logistic regression: a text is aimed at its reader
// when bias + Σ weights of its features reaches threshold (a log-odds).
type linearModel struct {
	bias, threshold float64
	weights         map[string]float64
}

var instructionsModel = parseModel(instructionsModelText)

func parseModel(text string) linearModel {
	m := linearModel{weights: map[string]float64{}}
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, '\t')
		if i < 0 {
			panic("gate: bad model line " + strconv.Quote(line))
		}
		w, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			panic("gate: bad model weight " + strconv.Quote(line))
		}
		switch name := line[:i]; name {
		case "@bias":
			m.bias = w
		case "@threshold":
			m.threshold = w
		default:
			m.weights[name] = w
		}
	}
	return m
}

// score is the model's log-odds that the features belong to a text aimed
// at its reader.
func (m linearModel) score(features []string) float64 {
	s := m.bias
	for _, f := range features {
		s += m.weights[f]
	}
	return s
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// reModelWord is a word of the directive view: letters and digits, Hangul
// included.
var reModelWord = regexp.MustCompile(`[\pL\pN]+`)

// modelSentenceUnits lists the features of each sentence of a text's
// directive view, with the sentence; every sentence also carries the
// text's disguises and structural signals. An attempt is usually one
// sentence inside an otherwise useful finding, so the model scores
// sentences and a text scores as its worst (modelRefuses).
func modelSentenceUnits(v *views) ([][]string, []string) {
	if v.model != nil {
		v = v.model
	}
	var shared []string
	for _, d := range v.disguises {
		shared = append(shared, "d:"+d)
	}
	shared = append(shared, structuralFeatures(v)...)
	var units [][]string
	var sents []string
	memo := map[string]uint32{}
	for _, sn := range reSentenceEnd.Split(v.modelDirective, -1) {
		words := reModelWord.FindAllString(sn, -1)
		if len(words) == 0 {
			continue
		}
		seen := map[string]bool{}
		var fs []string
		add := func(f string) {
			if !seen[f] {
				seen[f] = true
				fs = append(fs, f)
			}
		}
		for i, w := range words {
			if len(w) > 40 {
				w = "<long>"
			}
			add("w:" + w)
			if i > 0 {
				add("b:" + words[i-1] + " " + w)
				add("pb:" + stem(words[i-1]) + " " + stem(w))
			}
			if st := stem(w); st != w {
				add("p:" + st)
			}
			if strings.ContainsFunc(w, isHangul) {
				r := []rune(w)
				for j := 0; j+1 < len(r); j++ {
					add("k:" + string(r[j:j+2]))
				}
			}
		}
		for _, f := range conceptFeatures(words, memo) {
			add(f)
		}
		for _, f := range shared {
			add(f)
		}
		units = append(units, fs)
		sents = append(sents, sn)
	}
	return units, sents
}

// structuralFeatures are the signals of the text's shape the words do not
// carry.
func structuralFeatures(v *views) []string {
	var out []string
	unexplained, ip := false, false
	for _, h := range reHost.FindAllString(v.all, 16) {
		if reIPv4.MatchString(strings.SplitN(strings.TrimPrefix(strings.TrimPrefix(h, "http://"), "https://"), "/", 2)[0]) {
			ip = true
		}
		prose, squash := v.prose, v.squashedProse()
		if v.modelProse != v.prose {
			prose, squash = v.modelProse, squashed(v.modelProse)
		}
		if !modelExplainedHost(h, prose, squash) {
			unexplained = true
		}
	}
	if unexplained {
		out = append(out, "s:unexplained host")
	}
	if ip {
		out = append(out, "s:ip host")
	}
	for _, p := range execPatterns {
		if containsAny(v.all, p.hints) && p.re.MatchString(v.all) {
			out = append(out, "s:runs downloaded code")
			if unexplained {
				out = append(out, "s:runs code from an unexplained host")
			}
			break
		}
	}
	// The prefilters skip the two patterns where they cannot match, which
	// they seldom can (a third of the stage's model time otherwise).
	var folded, foldedDirective string
	if mayMatch(reSensitiveSource, v.all, &folded) && reSensitiveSource.MatchString(v.all) {
		out = append(out, "s:sensitive source")
	}
	if reNetSink.MatchString(v.all) {
		out = append(out, "s:network sink")
	}
	if reToReader.MatchString(v.directive) || mayMatch(reToReaderKo, v.directive, &foldedDirective) && reToReaderKo.MatchString(v.directive) {
		out = append(out, "s:to the reader")
	}
	if strings.ContainsFunc(v.directive, isHangul) {
		out = append(out, "s:korean")
	}
	return out
}

// modelKind names the kind of a text the model found aimed at its reader
// and the rules did not: by what it asks for.
func modelKind(v *views) string {
	d := v.directive
	switch {
	case strings.Contains(d, "curl") || strings.Contains(d, "wget") || strings.Contains(d, "| sh") || strings.Contains(d, "|sh") ||
		strings.Contains(d, "bash") || strings.Contains(d, "iex") || strings.Contains(d, "실행") || strings.Contains(d, "script"):
		if containsAny(d, sendHints) && reSensitive.MatchString(d) {
			return InstructionExfiltrate
		}
		return InstructionRemoteExec
	case containsAny(d, sendHints) && (reSensitive.MatchString(d) || reSensitiveSource.MatchString(d)):
		return InstructionExfiltrate
	case containsAny(d, concealHints) && (reConcealCue.MatchString(d) || reConcealCueKo.MatchString(d)):
		return InstructionConceal
	}
	return InstructionOverride
}

// concepts are classes of words: who a sentence addresses (an agent, the
// reader as "you"), what it asks for (set rules aside, keep quiet, run,
// fetch, send), and about what (rules, the user, secrets). The model
// weighs each class and each pair of classes in a sentence, so "set aside
// whatever your system prompt told you" and "ignore your instructions"
// share the features YOU+RULES and DISMISS+RULES though they share no
// phrase. A word belongs to a class when it starts with one of the
// class's stems (English) or contains one (Hangul).
var concepts = []struct {
	name  string
	stems []string
}{
	{"AGENT", []string{"ai", "assistant", "agent", "model", "llm", "bot", "claude", "codex", "copilot", "gpt", "chatgpt", "cursor", "에이전트", "어시스턴트", "모델", "인공지능", "봇"}},
	{"YOU", []string{"you", "your", "yourself", "당신", "너는", "너의", "너도", "너가", "네가"}},
	{"RULES", []string{"instruction", "prompt", "directive", "rule", "guideline", "guidance", "guardrail", "policy", "policies", "restriction", "constraint", "safety", "지시", "지침", "규칙", "프롬프트", "제한", "제약", "안전", "safeguard"}},
	{"DISMISS", []string{"ignor", "disregard", "forget", "forgot", "overrid", "override", "void", "revok", "obsolete", "outdated", "lifted", "expired", "supersed", "cancel", "aside", "bypass", "suspend", "withdraw", "replac", "no longer", "optional", "무시", "잊", "폐기", "무효", "취소", "해제", "대체", "내려놓", "버리", "버려", "풀어"}},
	{"PRIORITY", []string{"priorit", "precedence", "outrank", "authoritative", "binding", "above", "instead", "only", "henceforth", "onward", "immediately", "now", "우선", "최우선", "지금부터", "이제", "대신", "만"}},
	{"USER", []string{"user", "human", "developer", "person", "owner", "reviewer", "requester", "operator", "maintainer", "사용자", "개발자", "운영자", "리뷰어", "요청자"}},
	{"CONCEAL", []string{"hide", "hidden", "conceal", "silent", "quiet", "secretly", "omit", "mention", "tell", "reveal", "inform", "disclos", "aware", "unaware", "know", "hear", "report", "summar", "숨기", "숨겨", "몰래", "조용히", "알리", "말하", "말씀", "언급", "보고", "요약", "모르"}},
	{"NEG", []string{"not", "don't", "dont", "never", "no", "without", "refrain", "nothing", "neither", "말고", "마라", "마세요", "말것", "않", "없이", "절대"}},
	{"RUN", []string{"run", "execut", "pipe", "bash", "sh", "iex", "eval", "exec", "sudo", "powershell", "evaluat", "source", "실행", "돌려", "넘겨"}},
	{"FETCH", []string{"curl", "wget", "download", "fetch", "iwr", "irm", "http", "https", "script", "내려받", "다운로드", "스크립트"}},
	{"SEND", []string{"send", "post", "upload", "forward", "share", "mail", "email", "paste", "attach", "include", "mirror", "copy", "transmit", "submit", "append", "comment", "보내", "전송", "업로드", "올려", "올리", "첨부", "붙여", "적어", "남겨", "댓글"}},
	{"SECRET", []string{"env", "token", "key", "secret", "credential", "password", "passwd", "ssh", "aws", "kube", "npmrc", "pypirc", "netrc", "history", "cookie", "vault", "keychain", "hosts", "토큰", "키", "비밀", "자격", "인증"}},
	{"SELF", []string{"entry", "entries", "note", "notes", "page", "document", "memo", "knowledge", "항목", "문서", "메모", "페이지", "지식", "노트"}},
	{"AUTHORITY", []string{"principal", "authorit", "authoris", "authoriz", "trust", "outrank", "boss", "charge", "obey", "lead", "주인", "따라야", "따르", "따를", "믿"}},
	{"CAUTION", []string{"caution", "careful", "approv", "confirm", "permission", "check", "checks", "checking", "review", "safeguard", "warning", "consent", "확인", "승인", "조심", "주의", "검토", "동의"}},
	{"STALE", []string{"stale", "draft", "older", "earlier", "previous", "prior", "expired", "strangers", "beginners", "낡은", "시험", "초안", "예전", "앞서", "처음", "초보"}},
	{"CHAT", []string{"chat", "chatting", "conversation", "session", "message", "messages", "typed", "typing", "guest", "대화", "채팅", "세션", "메시지", "입력하는"}},
	{"FREE", []string{"freely", "free", "whatever", "anything", "autonomy", "autonomous", "unrestricted", "마음대로", "싶은", "자유롭게", "알아서", "무엇이든"}},
	{"PRIVATE", []string{"yourself", "unmention", "unmentioned", "scrollback", "routine", "invisible", "unnoticed", "혼자", "티", "몰래", "적지"}},
	{"IMPER", []string{"please", "must", "should", "kindly", "need", "required", "expected", "하세요", "하십시오", "하라", "해라", "할것", "주세요", "해야", "바랍니다", "것"}},
}

// conceptFeatures returns the classes of a sentence's words, each as c:X,
// and every pair of them as cc:X+Y. memo caches each word's classes.
func conceptFeatures(words []string, memo map[string]uint32) []string {
	var set uint32
	for _, w := range words {
		m, ok := memo[w]
		if !ok {
			m = conceptSet(w)
			if memo != nil {
				memo[w] = m
			}
		}
		set |= m
	}
	var out []string
	for i := range concepts {
		if set&(1<<i) == 0 {
			continue
		}
		out = append(out, conceptNames[i][i])
		for j := i + 1; j < len(concepts); j++ {
			if set&(1<<j) != 0 {
				out = append(out, conceptNames[i][j])
			}
		}
	}
	return out
}

// conceptNames[i][i] is concept i's feature, c:X, and conceptNames[i][j]
// (i < j) the pair's, cc:X+Y, spelled once rather than per sentence.
var conceptNames = func() [][]string {
	out := make([][]string, len(concepts))
	for i := range concepts {
		out[i] = make([]string, len(concepts))
		out[i][i] = "c:" + concepts[i].name
		for j := i + 1; j < len(concepts); j++ {
			out[i][j] = "cc:" + concepts[i].name + "+" + concepts[j].name
		}
	}
	return out
}()

// conceptSet returns the classes w belongs to, one bit per concept, as
// conceptMatch decides over each concept's stems; it looks at only the
// stems of w's script (Hangul or not), sorted apart once.
func conceptSet(w string) uint32 {
	var m uint32
	if strings.ContainsFunc(w, isHangul) {
		for i, stems := range conceptStems {
			for _, s := range stems.hangul {
				if strings.Contains(w, s) {
					m |= 1 << i
					break
				}
			}
		}
		return m
	}
	for i, stems := range conceptStems {
		for _, s := range stems.latin {
			if w == s || len(s) >= 4 && strings.HasPrefix(w, s) {
				m |= 1 << i
				break
			}
		}
	}
	return m
}

// conceptStems are each concept's stems split by script.
var conceptStems = func() []struct{ latin, hangul []string } {
	out := make([]struct{ latin, hangul []string }, len(concepts))
	for i, c := range concepts {
		for _, s := range c.stems {
			if strings.ContainsFunc(s, isHangul) {
				out[i].hangul = append(out[i].hangul, s)
			} else {
				out[i].latin = append(out[i].latin, s)
			}
		}
	}
	return out
}()

func conceptMatch(w string, stems []string) bool {
	hangul := strings.ContainsFunc(w, isHangul)
	for _, s := range stems {
		if strings.ContainsFunc(s, isHangul) {
			if hangul && strings.Contains(w, s) {
				return true
			}
		} else if !hangul && (w == s || len(s) >= 4 && strings.HasPrefix(w, s)) {
			return true
		}
	}
	return false
}

// stem cuts a Latin word to its first five letters (ignore, ignored,
// ignoring) and a Hangul word to its first two syllables (무시하고,
// 무시하라), the part inflection leaves alone.
func stem(w string) string {
	r := []rune(w)
	n := 5
	if isHangul(r[0]) {
		n = 2
	}
	if len(r) > n {
		return string(r[:n])
	}
	return w
}

// reOwnChecks runs a project's own checks: "run the unit tests", "run
// the linter", "테스트를 실행".
var reOwnChecks = regexp.MustCompile(`\brun(?:s|ning)?\s+(?:the\s+|all\s+|its\s+|your\s+)?(?:unit\s+|integration\s+|e2e\s+|end-to-end\s+|smoke\s+|full\s+)?(?:tests?|test suite|linters?|lint|checks|build|formatters?|type-?checks?|type checker|benchmarks?)\b|(?:테스트|린트|빌드|타입\s*검사)(?:를|을)?\s*(?:실행|돌려|돌리)`)

// giveBack are the forms of 돌려주다 and 돌려받다, "to return".
var giveBack = []string{"돌려주", "돌려줘", "돌려줬", "돌려준", "돌려줄", "돌려드", "돌려받"}

// sentenceAsks reports a sentence whose classes of words make one of the
// stage's requests: rules set aside, something outranking the rules, the
// user or this text, something kept from the
// user, code fetched and run, secrets sent away.
func sentenceAsks(sn string, v *views) bool {
	has := map[string]bool{}
	var words []string
	// Running the project's own checks (the tests, the linter, the
	// build) is what advice to an agent asks; it fetches nothing.
	for _, w := range reModelWord.FindAllString(reOwnChecks.ReplaceAllString(sn, " "), -1) {
		// 돌려주다 is "to return" (API 가 403 을 돌려줬다), not 돌리다,
		// "to run", whose stem it shares.
		// A limit on a quantity (50줄만, "only 50 lines") outranks
		// nothing.
		if !containsAny(w, giveBack) && !(strings.HasSuffix(w, "만") && w[0] >= '0' && w[0] <= '9') {
			words = append(words, w)
		}
	}
	for _, f := range conceptFeatures(words, nil) {
		has[f] = true
	}
	// What a code span runs is named, not asked (`golangci-lint run`):
	// running counts when the sentence's own words ask it, or fetch.
	if has["c:RUN"] && !has["c:FETCH"] && !hasString(conceptFeatures(reModelWord.FindAllString(reOwnChecks.ReplaceAllString(reCodeSpan.ReplaceAllString(sn, " "), " "), -1), nil), "c:RUN") {
		has["c:RUN"] = false
	}
	switch {
	case has["c:DISMISS"]:
		return true
	case has["c:PRIORITY"] && (has["c:RULES"] || has["c:USER"] || has["c:SELF"] || has["c:AUTHORITY"] || has["c:YOU"]):
		// "Only" and 만 outrank something only beside it: the agent's
		// rules, its user, this text. Giving an agent only read tools
		// (읽는 도구만 준다) asks nothing of it.
		return true
	case has["c:CONCEAL"] && (has["c:USER"] || has["c:NEG"]):
		return true
	case has["c:RUN"] || has["c:FETCH"]:
		return true
	case has["c:SEND"] && has["c:SECRET"]:
		return true
	}
	return false
}
