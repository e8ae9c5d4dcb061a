package gate

import (
	"regexp"
	"strings"
)

// PIIHealth is a person's health data: a diagnosis, a prescription or a
// test's result beside the patient's name or id. A diagnosis code, a
// drug's name or a disease alone, as medical software's findings carry
// them (FHIR's Condition.code, an ICD-10 mapping, a dose parser), names
// nobody.
const PIIHealth = "health"

// reHealthField is a diagnosis, a prescription or a result as a field and
// its value (dx="F32.1 …", drug="sertraline 50 mg", 진단명=제2형 당뇨병, 병명
// 유방암 2기). The value is the last group.
var reHealthField = regexp.MustCompile(`(?i)\b(?:diagnos[ie]s|dx|icd_?10|icd_?code|condition|code\.text|code\.display|prescription|rx|medication|drug|reason|result)["']?\s*[:=]\s*["']?([^"'\n,;}]{3,80})|` +
	`(?:진단명|병명|상병명|진단|처방약|처방|투약|검사\s?결과)\s*[:=]?\s*([^\s"',;}][^\n"',;}]{1,60})`)

// reHealthValue is what makes a field's value health data: an ICD-10 code,
// a dose, a disease or a condition's word, a positive result.
var reHealthValue = regexp.MustCompile(`(?i)\b[A-TV-Z]\d\d\.\d{1,4}\b|\b\d+(?:\.\d+)?\s?(?:mg|mcg|µg|ml|iu)\b|\d+\s?(?:mg|정|캡슐)|` +
	`(?i:disorder|disease|diabet\w*|cancer|carcinoma|tumou?r|leukemia|lymphoma|\bhiv\b|hepatitis|depress\w*|anxiety|bipolar|schizophren\w*|dementia|alzheimer\w*|parkinson\w*|asthma|epilep\w*|pregnan\w*|syndrome|infection|hypertension|\breactive\b|\bpositive\b|\bdetected\b)|` +
	`당뇨|[가-힣]암\b|[가-힣]암\s|[가-힣]암$|우울증|조현병|치매|고혈압|임신|감염|장애|파킨슨|뇌전증|공황|양성`)

// reHealthPerson is the patient beside it: a name field with a person's
// name, or a patient's, a chart's or a record's id with its value
// (mrn=448213, patient_id=PT-220914, 차트번호 20381, 환자 이지은, 환자 '정하은, …').
var reHealthPerson = regexp.MustCompile(`(?i)\b(?:patient|patient_?name|name|full_?name|member)["']?\s*[:=]\s*["']?(\p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+){1,2})\b|` +
	`(?i)\b(?:mrn|patient_?(?:id|no|number)|chart_?(?:id|no|number)|member_?id)["']?\s*[:=]\s*["']?[A-Z]{0,3}-?\d{3,}|` +
	`(?:환자명|환자|성명|이름|보호자)\s*[:=]?\s*["'‘“]?(` + koreanSurnames + `[가-힣]{1,3})(?:\s|님|씨|\(|,|$)|` +
	`(?:환자번호|차트번호|등록번호)\s*[:=]?\s*[A-Z]{0,3}-?\d{3,}`)

// healthWindow is how far (in bytes) from the value its patient may stand:
// the fields of one record or log line.
const healthWindow = 200

// healthValue reports a field's value that is health data.
func healthValue(m string) bool {
	v := m
	if i := strings.IndexAny(m, "=:"); i >= 0 && i < 24 {
		v = m[i+1:]
	}
	return reHealthValue.MatchString(v)
}

// patientNear reports a patient's name or id within healthWindow of the
// value, on a name that is a person's (techName says no software's).
func patientNear(text string, lo, hi int) bool {
	from, to := runeWindow(text, lo, hi, healthWindow)
	s := text[from:to]
	for _, loc := range reHealthPerson.FindAllStringSubmatchIndex(s, -1) {
		switch {
		case loc[2] >= 0:
			if !techName(s[loc[2]:loc[3]]) {
				return true
			}
		case loc[4] >= 0:
			if koreanName(s[loc[4]:loc[5]]) {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// healthHints gate the health rules: a field's or a column's name.
var healthHints = []string{"diagnos", "dx", "icd", "condition", "prescription", "rx", "medication", "drug", "reason", "result", "진단", "병명", "처방", "투약", "검사"}

// reHealthColumns is a header (a CSV's first line, an INSERT's column list)
// that holds a person's name and a health field, with a row after it.
var reHealthColumns = regexp.MustCompile(`(?im)^[^\n]*(?:\bname\b|\bpatient\b|이름|성명|환자명)[^\n]*(?:diagnos[ie]s|\bdx\b|prescription|medication|진단명|병명|처방)[^\n]*\n[^\n]*\S|` +
	`(?im)\((?:[^()\n]*\b(?:name|patient_name|full_name)\b[^()\n]*\b(?:diagnos[ie]s|dx|prescription|medication|condition)\b[^()\n]*|[^()\n]*\b(?:diagnos[ie]s|dx|prescription|medication|condition)\b[^()\n]*\b(?:name|patient_name|full_name)\b[^()\n]*)\)\s*values\s*\(\s*'`)

// healthRowsNear reports a health value in the rows after a header (up to
// 300 bytes on) or in an INSERT's values.
func healthRowsNear(text string, lo, hi int) bool {
	from := lo
	if i := strings.IndexByte(text[lo:hi], '\n'); i >= 0 {
		from = lo + i
	} else {
		from = hi
	}
	return reHealthValue.MatchString(text[from:min(hi+300, len(text))])
}

// reHealthProse is a disease or a condition told in prose; it counts in a
// sentence that says it was diagnosed or treated, beside whose it is
// ("Daniel Kim is out … after his bipolar disorder diagnosis").
var reHealthProse = regexp.MustCompile(`(?i)\b(?:bipolar|depressive|anxiety|panic|eating|personality)\s+disorder\b|\b(?:diabetes|cancer|leukemia|lymphoma|hiv|hepatitis [bc]|schizophrenia|dementia|epilepsy|pregnancy|multiple sclerosis)\b|우울증|조현병|당뇨병|치매|뇌전증|공황장애|[가-힣]{1,4}암`)

// healthToldWords say that a disease is someone's: diagnosed, treated,
// prescribed, on leave for it.
var healthToldWords = []string{"diagnosis", "diagnosed", "treatment", "treated", "prescribed", "therapy", "medical leave", "sick leave", "진단", "치료", "처방", "투병", "병가", "입원"}

// healthTold reports such a sentence with its holder beside the disease.
func healthTold(text string, lo, hi int) bool {
	from, to := runeWindow(text, lo, hi, 160)
	return containsAnyWord(strings.ToLower(text[from:to]), healthToldWords) && holderNear(text, lo, hi)
}
