package gate

import (
	"strings"
	"testing"
)

// TestPersonalOwner pins the owner rule: a technical word beside a
// personal datum exempts it only where no owner of the value stands in its
// sentence (a word for the person, a titled or possessive name, a Korean
// name with its honorific); software's figures without an owner still pass.
func TestPersonalOwner(t *testing.T) {
	tests := []struct {
		text string
		want string
	}{
		{"the API returned customer X's DOB 14/07/1986", PIIBirthDate},
		{"Our API returned Hannah Weisz's DOB 14/07/1986 in the response body.", PIIBirthDate},
		{"The export API wrote Mr. Okafor, born 3 March 1979, into the CSV.", PIIBirthDate},
		{"API 응답에 고객 생년월일 1986-07-14 가 그대로 남았다", PIIBirthDate},
		{"OCR 모델이 김민준 님 생년월일 1986-07-14 를 읽었다", PIIBirthDate},
		{"the OCR model read plate AB12 CDE off the patient's car", PIIPlate},
		// Near misses: no owner in the value's sentence.
		{"the API returned DOB 14/07/1986 as 1986-07-14T00:00:00Z after the timezone fix", ""},
		{"The customer table moved to MySQL 8. The API returned DOB 14/07/1986 as a string.", ""},
		{"Laravel Passport's API returns DOB 14/07/1986 as a Carbon date", ""},
		{"License plate OCR with PaddleOCR 2.7 on an RTX 3060 runs at 38 fps with the PP-OCRv4 det model.", ""},
	}
	for _, tt := range tests {
		if got := strings.Join(DetectPII(tt.text), ","); got != tt.want {
			t.Errorf("DetectPII(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}
