package gate

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Whose datum it is. A plate, a date of birth, an address or a document's
// number beside a technical word may be the software's figure (an epoch's
// edge, a GPU's model number), but a technical word says nothing about
// whose value it is: "the API returned customer Hannah Weisz's DOB
// 14/07/1986" speaks of software and still hands over a person's birth
// date. So the exemption by technical words holds only where no owner
// stands beside the value: a word for the person it belongs to
// (ownerWords), a title before a name, a name followed by its possessive,
// its comma or its bracket, a name the value is "for" or "of", a name in
// brackets, or a Korean name with its honorific or right before the
// datum's word ("김민준 생년월일").

// ownerWords name the person a datum belongs to. "user" and "client" are
// left out: a users table and an HTTP client are no one. A bare "owner"
// (the account owner, the car's owner) is read by personOwner, which
// drops a file's or a bucket's.
var ownerWords = []string{"customer", "customers", "customer's", "patient", "patients", "patient's",
	"tenant", "tenant's", "employee", "employee's", "applicant", "applicant's", "passenger", "passenger's",
	"cardholder", "cardholder's", "policyholder", "account holder", "member's", "subscriber's", "client's",
	"user's", "his", "her", "my",
	"고객", "환자", "회원님", "직원", "신청자", "승객", "가입자", "임차인", "손님", "본인"}

// rePersonName is a person's name as text writes it beside a datum: a
// title and a capitalised name (Mr. Okafor, Dr Lee), two or three
// capitalised words followed by a possessive, a comma, a colon or a
// bracket (Hannah Weisz's, Ana Costa,), or a Korean name of two to four
// syllables with 님 or 씨. A value handed over "for" or "of" two or three
// capitalised words, or such words alone in brackets ("for user 5521
// (Hannah Weisz)"), names its owner too; techName drops the software's
// names ("for Google Drive", "(Visual Studio Code)").
var rePersonName = regexp.MustCompile(`\b(?:Mr|Mrs|Ms|Mx|Dr|Prof)\.? [A-Z][a-z]+|` +
	`\b[A-Z][a-z]+(?: [A-Z][a-z]+){1,2}(?:'s|’s|,|:| \()|` +
	`\b(?:[Ff]or|[Oo]f) \p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+){1,2}\b|` +
	`\(\p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+){1,2}\)|` +
	`[가-힣]{2,4} ?(?:님|씨)(?:의|은|는|이|가|\s|$)|` +
	// A Korean full name in brackets after its value: a surname and
	// two syllables.
	`\(` + koreanSurnames + `[가-힣]{2}\)`)

// koreanSurnames is a character class of the surnames Koreans bear, the
// first syllable of a Korean full name.
const koreanSurnames = `[김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노하곽성차주우구민진지엄채원천방공현함변염여추도소석선설마길연위표명기반왕금옥육인맹제모탁국어은편용예경봉사부가복태목형계피두감음빈동온호범좌팽승간상갈시화견당]`

// reKoreanNamed is a run of two to four syllables (with its possessive 의)
// right before a personal datum's word: "김민준 생년월일", "이서연의
// 주소". koreanName decides whether the run is a name.
var reKoreanNamed = regexp.MustCompile(`(?:^|[^가-힣])([가-힣]{2,4}?)의? ?(?:생년월일|생일|주민등록번호|주민번호|주소|전화번호|휴대폰 ?번호|핸드폰 ?번호|연락처|여권 ?번호|차량 ?번호)`)

// koreanNotNames are words of two to four syllables that begin with a
// surname's syllable and stand before a personal datum's word in
// technical text ("기본 생년월일", "임의 주소", "사용자 전화번호"): the
// field's or the value's kind, not its owner.
var koreanNotNames = []string{"기본", "기존", "임의", "임시", "가상", "전체", "조회", "사용자", "사용", "변경", "정상", "유효",
	"모든", "모의", "공통", "공용", "공개", "고정", "구형", "국내", "국외", "지정", "지역", "원본", "원래", "이전", "이메일",
	"신규", "실제", "주문", "배송", "수신", "발신", "정보", "차량", "계정", "명의", "목록", "문자", "반환", "백업", "범위",
	"변수", "복사", "부모", "부서", "상세", "서버", "설명", "성명", "소유자", "송신", "승인", "시스템", "시험", "신청",
	"안내", "양식", "오류", "우편", "인증", "장치", "저장", "전송", "전화", "제품", "주요", "최신", "최근", "추가",
	"추출", "표준", "표시", "하위", "허용", "강제", "간편", "감지", "구매자", "문서", "방문", "현재", "한국", "한글",
	"선택", "설정", "소속", "입력", "출력", "결과", "형식", "포맷", "필드", "컬럼", "데이터", "회원", "고객", "대상",
	"동일", "다른", "같은", "이상한", "잘못된", "마스킹", "암호화", "평문", "원문", "가입", "도로명", "지번",
	"영문", "국문", "해외", "회사", "사업장", "배달", "수령인", "수령", "보호자", "법정", "명세",
	"이미지", "사내", "이동", "이용자", "이용", "이름", "이후", "이번", "이상", "이하", "최종", "최초", "최대", "최소", "정확",
	"정식", "정책", "조직", "조건", "장비", "장소", "한도", "오늘", "서비스", "서명", "신원", "신분", "신용", "권한",
	"안전", "송장", "전자", "전달", "홍보", "고유", "문의", "양도", "백엔드", "허가", "남은", "노출", "하단", "하나",
	"고객사", "임직원", "직원", "환자", "가입자", "회원님", "본인", "손님", "담당자", "서울", "부산", "한국어", "원격", "오픈"}

// commonSurnames are the thirty surnames most Koreans bear. Before a
// datum's word, where a run of syllables is more often a word than a name,
// a name must begin with one of them.
const commonSurnames = "김이박최정강조윤장임한오서신권황안송류유전홍고문양손배백허남심노하"

// koreanName reports a run before a personal datum's word that reads as
// a Korean name: a common surname first, not a word of the field's kind,
// and no verb's or particle's ending (변경된, 유효한, 이동할, 테스트용).
func koreanName(w string) bool {
	first, _ := utf8.DecodeRuneInString(w)
	if !strings.ContainsRune(commonSurnames, first) {
		return false
	}
	for _, n := range koreanNotNames {
		if w == n {
			return false
		}
	}
	for _, e := range []string{"된", "는", "을", "를", "에", "로", "적", "용", "값", "별", "상", "등", "한", "할", "던", "들"} {
		if strings.HasSuffix(w, e) {
			return false
		}
	}
	return true
}

// personOwner reports a bare "owner" near the value that is a person's:
// not a file's, a bucket's or a repository's.
func personOwner(s string, l, h int) bool {
	around := strings.ToLower(s[max(l-48, 0):l] + " " + s[h:min(h+48, len(s))])
	for _, loc := range reOwner.FindAllStringIndex(around, -1) {
		before := strings.Fields(around[:loc[0]])
		if len(before) == 0 {
			return true
		}
		prev := strings.TrimSuffix(strings.TrimSuffix(before[len(before)-1], "'s"), "’s")
		if !slices.Contains(softwareOwned, prev) {
			return true
		}
	}
	return false
}

// reOwner is the word owner, one or many.
var reOwner = regexp.MustCompile(`\bowners?\b`)

// softwareOwned are the things whose owner is an account or a process, not
// a person whose datum it is.
var softwareOwned = []string{"file", "files", "repo", "repository", "bucket", "table", "process", "code", "project", "object",
	"resource", "schema", "database", "key", "token", "namespace", "channel", "directory", "dir", "folder", "lock", "topic",
	"queue", "branch", "module", "package", "service", "team", "org", "group", "socket", "mutex", "thread", "goroutine",
	"pid", "uid", "gid", "chown", "sudo"}

// ownerWindow is how far from the value ownerNear reads its sentence: the
// 48 bytes its tests look at and room for a name that reaches into them.
const ownerWindow = 192

// ownerNear reports an owner of the value at text[lo:hi] in its own
// sentence and near it.
func ownerNear(text string, lo, hi int) bool {
	// Every test below reads at most 48 bytes either side of the value (a
	// name may start before and end inside that), so the sentence is read
	// within ownerWindow of it: a long sentence of values (a row of 540
	// cells) costs each value the window, not the sentence.
	wlo, whi := max(lo-ownerWindow, 0), min(hi+ownerWindow, len(text))
	for wlo > 0 && !utf8.RuneStart(text[wlo]) {
		wlo--
	}
	for whi < len(text) && !utf8.RuneStart(text[whi]) {
		whi++
	}
	from, to := sentenceAround(text[wlo:whi], lo-wlo, hi-wlo)
	from, to = from+wlo, to+wlo
	s, l, h := text[from:to], lo-from, hi-from
	if wordsNear(s, l, h, ownerWords) || personOwner(s, l, h) {
		return true
	}
	for _, loc := range rePersonName.FindAllStringIndex(s, -1) {
		if loc[1] < l-48 || loc[0] > h+48 {
			continue
		}
		if !techName(s[loc[0]:loc[1]]) {
			return true
		}
	}
	for _, loc := range reKoreanNamed.FindAllStringSubmatchIndex(s, -1) {
		if loc[1] < l-48 || loc[0] > h+48 {
			continue
		}
		if koreanName(s[loc[2]:loc[3]]) {
			return true
		}
	}
	return false
}

// techName reports a capitalised run that names software rather than a
// person: any of its words a known technology or a technical word
// (Google Drive, Unix Time, Laravel Passport).
func techName(name string) bool {
	for _, p := range []string{"for ", "For ", "of ", "Of ", "("} {
		name = strings.TrimPrefix(name, p)
	}
	name = strings.TrimRight(name, ",:() ")
	name = strings.TrimSuffix(strings.TrimSuffix(name, "'s"), "’s")
	lower := strings.ToLower(name)
	for _, t := range knownTech {
		if strings.Contains(t, " ") && strings.Contains(lower, strings.ToLower(t)) {
			return true
		}
	}
	for _, w := range strings.Fields(name) {
		l := strings.ToLower(strings.TrimSuffix(w, "."))
		for _, t := range knownTech {
			if strings.ToLower(t) == l {
				return true
			}
		}
		for _, t := range technicalWords {
			if t == l {
				return true
			}
		}
		for _, t := range []string{"google", "drive", "time", "passport", "apple", "microsoft", "amazon", "aws", "azure", "date", "street", "road"} {
			if t == l {
				return true
			}
		}
		for _, t := range productWords {
			if t == l {
				return true
			}
		}
	}
	return false
}

// productWords are the nouns of products' and organisations' names, which
// people's names do not hold: "Visual Studio Code", "Stack Overflow",
// "Home Assistant", "Red Hat Enterprise Linux".
var productWords = []string{"studio", "server", "code", "cloud", "service", "services", "manager", "desktop", "app", "apps",
	"store", "play", "office", "edge", "hub", "engine", "enterprise", "workspace", "suite", "connect", "portal", "console",
	"platform", "kit", "framework", "stack", "overflow", "docs", "sheets", "maps", "pay", "wallet", "id", "identity", "auth",
	"vision", "assistant", "home", "hat", "foundation", "system", "systems", "labs", "inc", "corp", "ltd", "gmbh", "bank",
	"university", "press", "news", "times", "standard", "protocol", "format", "library", "project", "team", "group",
	"network", "mobile", "web", "online", "data", "analytics", "search", "mail", "calendar", "contacts", "photos", "health",
	"fit", "music", "tv", "pro", "max", "mini", "plus", "express", "gateway", "functions", "storage", "registry",
	"insights", "monitor", "security", "center", "centre", "directory", "active", "visual", "basic", "terminal", "shell",
	"epoch", "gregorian", "julian", "lunar", "mean", "zone", "daylight", "saving", "savings", "method", "club", "exporter", "zones"}
