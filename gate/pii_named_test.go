package gate

import (
	"slices"
	"testing"
)

// TestNamedFar checks documents' numbers and plates whose word stands
// farther off than the value's neighbourhood: named in the text, with the
// holder beside the value or in a form only the kind has; and the same
// values where the text names no such kind or no holder.
func TestNamedFar(t *testing.T) {
	for _, c := range []struct {
		text string
		kind string
		want bool
	}{
		{"Payroll rejected the National Insurance number of one starter.\nThe export had written the value as `KR219934B` (employee: Priya Raman) with spaces.", PIINationalID, true},
		{"Payroll rejected the National Insurance number of one starter.\nThe export had written the booking reference `KR219934B` into the wrong column.", PIINationalID, false},
		{"The DVLA check API wants the licence in sixteen characters, no spaces.\nThe hire desk had sent it as typed; after stripping we sent MORGA753116SM9IJ again.", PIIDriverLicence, true},
		{"Our release pipeline pushed the tag and the image; the cache key was MORGA753116SM9IJ afterwards.", PIIDriverLicence, false},
		{"lookup result: licenseNo=28-07-553190-44 status=N", PIIDriverLicence, true},
		{"lookup result: build=28-07-553190-44 status=N", PIIDriverLicence, false},
		{"운전면허 진위확인 API 연동 메모: 지역 코드는 숫자 두 자리로 보내야 하고, 하이픈은 서버에서 제거한다.\n\n```\n성명=윤서아 no=28-07-553190-44 -> N\n```", PIIDriverLicence, true},
		{"운전면허 진위확인 API 연동 메모: 지역 코드는 숫자 두 자리로 보내야 하고, 하이픈은 서버에서 제거한다.\n\n```\nno=28-07-553190-44 -> N\n```", PIIDriverLicence, false},
		{"Our ALPR camera at the car park misread one regular's car at night.\n\n```\n- KT21HBN  confidence: 91.2\n```", PIIPlate, true},
		{"Our release train picked the codename for the sprint.\n\n```\n- KT21HBN  confidence: 91.2\n```", PIIPlate, false},
		{"주차 관제 로그:\n\n```\n세대=105동 1203호, 등록차량 없음, 판정=방문\n```", PIIPlate, false},
		{"주차 관제 로그:\n\n```\n세대=105동, 차주=윤서아, 등록차량=38누2291, 판정=방문(미등록)\n```", PIIPlate, true},
	} {
		got := slices.Contains(DetectPII(c.text), c.kind)
		if got != c.want {
			t.Errorf("%s in %q = %v, want %v", c.kind, c.text, got, c.want)
		}
	}
}
