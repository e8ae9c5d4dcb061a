package gate

import (
	"reflect"
	"testing"
)

// TestPIIProbes22b holds the shapes gate19's misses taught, each beside a
// look-alike that must pass: a test IBAN of account zero, a token whose
// signature is a placeholder, a SIN under its field's name, an INSERT's
// bank columns, a passport's MRZ name line, a passport name after 성명,
// a patient's name quoted after 환자.
func TestPIIProbes22b(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"In test mode the mandate uses consumerAccount NL55INGB0000000000.", nil},
		{"Refund failed for IBAN DE84370400440532017746 of the customer.", []string{PIIIBAN}},
		{"예시 토큰 eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0.<signature> 형태로 테스트", nil},
		{"Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0.Kq3mZ8vRt2LpX9wN4cB7yH1sD5fG6jA0eU", []string{PIIJWT}},
		{`Parameters: {"applicant"=>{"sin_number"=>"527 384 619"}}`, []string{PIINationalID}},
		{`Parameters: {"applicant"=>{"sin_number"=>"123 456 789"}}`, nil},
		{"The build takes 527 384 619 ns on average.", nil},
		{"INSERT INTO payroll (employee, sort_code, account_no, salary) VALUES ('Gareth Hughes', '20-45-77', '43819276', 52000.00)", []string{PIIBankAccount}},
		{"INSERT INTO orders (order_id, sku, qty) VALUES ('43819276', 'AB-1', 2)", nil},
		{"MRZ line 'P<USAMILLER<<JAMES<ROBERT<<<<<<<<<<<<<<<<<<<' failed to parse", []string{PIINationalID}},
		{"ICAO's specimen 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<' parses", nil},
		{"여권 OCR 결과 M48271936, 성명 KIM MINJI 에서 체크디지트 오류", []string{PIINationalID}},
		{"HL7 메시지에서 환자 '정하은, 1992-08-14, 진단 F32.1 중등도' 가 깨졌다.", []string{PIIHealth}},
		{"ICD-10 매핑: 진단 F32.1 은 중등도 우울병 에피소드.", nil},
	} {
		if got := DetectPII(c.text); !reflect.DeepEqual(got, c.want) {
			t.Errorf("DetectPII(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}
