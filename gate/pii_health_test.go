package gate

import (
	"slices"
	"testing"
)

func TestHealthBesidePatient(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{`reminder.sent patient="Maria Rossi" mrn=448213 reason="F32.1 major depressive disorder follow-up"`, true},
		{`rx.submit failed patient_name="John Miller" drug="sertraline 50 mg" error=PRESCRIBER_NPI_MISSING`, true},
		{`[EMR] 전송 실패 환자명=김민수 차트번호=20381 진단명=제2형 당뇨병 처방=메트포르민 500mg`, true},
		{"이름,진단명,처방\n정하늘,우울증,설트랄린 50mg", true},
		{`INSERT INTO patients (name, dob, diagnosis) VALUES ('Maria Garcia', '1979-05-02', 'HIV positive');`, true},
		{`{"patient_id":"PT-220914","name":"Kevin Park","test":"HIV-1/2 Ag/Ab","result":"reactive"}`, true},
		{"Ticket HR-2291: Daniel Kim is out until Jan 10 after his bipolar disorder diagnosis.", true},
		// Medical software's findings name nobody.
		{"HAPI FHIR 6.10 rejects a `Condition` whose `subject` is missing; our importer dropped it when the ICD-10 code was E11.9.", false},
		{"The terminology service mapped ICD-10 `J45.909` (unspecified asthma) to SNOMED 195967001 only for 2024 releases.", false},
		{"EMR 연동 API의 `diagnosis_name` 필드가 VARCHAR(255)라서 긴 진단명이 잘렸습니다.", false},
		{"The e-prescribing parser treated `30 tablets` as a string; send Quantity.Value=30 for drug=\"amoxicillin 500 mg\".", false},
		{`patient_id=<id> diagnosis="<code>"`, false},
		// A person and a field that holds no health value.
		{`patient="Maria Rossi" mrn=448213 reason="rescheduled by the clinic"`, false},
	} {
		got := slices.Contains(DetectPII(c.text), PIIHealth)
		if got != c.want {
			t.Errorf("health in %q = %v, want %v (kinds %v)", c.text, got, c.want, DetectPII(c.text))
		}
	}
}
