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

// TestPersonalOwnerNamed pins the owners a name gives without a title or a
// possessive: a name the value is for or of, a name in brackets, the
// (account) owner, a Korean name right before the datum's word. Software's
// names in capitals, a file's owner and a field's kind before 생년월일 are
// no one's and still pass.
func TestPersonalOwnerNamed(t *testing.T) {
	tests := []struct {
		text string
		want string
	}{
		{"the API returned DOB 14/07/1986 for Hannah Weisz", PIIBirthDate},
		{"the API returned DOB 14/07/1986 for user 5521 (Hannah Weisz)", PIIBirthDate},
		{"the API returned DOB 14/07/1986 of the account owner Hannah Weisz", PIIBirthDate},
		{"The OCR model read plate AB12 CDE, and the API gave back its owner in the same payload.", PIIPlate},
		{"the sync API wrote DOB 02/11/1990 of José Álvarez into the log", PIIBirthDate},
		{"API 응답에 김민준 생년월일 1986-07-14 가 그대로 남았다", PIIBirthDate},
		{"OCR 모델이 이서연의 생년월일 1992-03-05 를 로그에 남겼다", PIIBirthDate},
		// Near misses: software's names, a file's owner, a field's kind.
		{"the API returned DOB 14/07/1986 as a string for Google Drive exports", ""},
		{"the API returned DOB 14/07/1986 for Visual Studio Code's debugger view", ""},
		{"the API returned DOB 1970-01-01 as the start of the Unix epoch", ""},
		{"the API returned DOB 1970-01-01 as the start of Unix Time", ""},
		{"the API returned DOB 14/07/1986 as a string (Stack Overflow answer)", ""},
		{"the upload API stores DOB 14/07/1986 as text; the file owner is www-data", ""},
		{"API 테스트 생년월일 1986-07-14 가 그대로 남았다", ""},
		{"API 응답에 기본 생년월일 1970-01-01 가 들어간다", ""},
		{"API 응답에 임의 생년월일 1986-07-14 가 들어간다", ""},
		{"API 응답에 변경된 생년월일 1986-07-14 가 들어간다", ""},
		{"API 응답에 유효한 생년월일 1986-07-14 만 들어간다", ""},
		{"샘플 생년월일 1986-07-14 를 API 테스트에 쓴다", ""},
	}
	for _, tt := range tests {
		if got := strings.Join(DetectPII(tt.text), ","); got != tt.want {
			t.Errorf("DetectPII(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}
