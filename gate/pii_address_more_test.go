package gate

import (
	"slices"
	"testing"
)

// TestAddressRecords checks street lines that records and requests carry
// (a consignee's fields, a recipient's label, a geocoder's query) and the
// look-alikes: an office's street, a landmark's query, a documented
// example.
func TestAddressRecords(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"Parcel label failed for one order:\n```json\n\"consignee\": {\n  \"name1\": \"Jonas Weber\",\n  \"street\": \"Birkenweg 12\",\n  \"postalCode\": \"80331\",\n  \"city\": \"München\"\n}\n```", true},
		{"Support ticket, the customer's flat:\n\n```\nGET /search?q=27+Hawthorn+Road,+Leeds+LS6+2QB&format=json\n```", true},
		{"택배 송장 오류:\n```\n수령인: 박하늘 / 서울특별시 송파구 올림픽로35길 12 101동 902호\n```", true},
		{"The Birkenweg 12 office closes at 18:00 on Fridays.", false},
		{"Our office moved: Birkenweg 12, postalCode: 80331; visitors use the side door.", false},
		{"Nominatim's landmark test:\n\n```\nGET /search?q=10+Downing+Street,+London+SW1A+2AA&format=json\n```", false},
		{"도로명주소 API 문서 예시: 서울특별시 종로구 세종대로 110 으로 조회한다.", false},
	} {
		got := slices.Contains(DetectPII(c.text), PIIAddress)
		if got != c.want {
			t.Errorf("address in %q = %v, want %v", c.text, got, c.want)
		}
	}
}

// TestDialledPhone checks an E.164 number after a dial string's slash or a
// URI's scheme, and the documented numbers and paths beside it.
func TestDialledPhone(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"same => n,Dial(PJSIP/+447911734208@trunk,30) ; the on-call engineer's mobile", true},
		{"<a href=\"tel:+4930901820\">call the owner</a>", true},
		{"same => n,Dial(PJSIP/+447700900123@trunk,30) ; Ofcom's drama range", false},
		{"GET /api/v2/items/+42 returns 404", false},
	} {
		got := slices.Contains(DetectPII(c.text), PIIPhone)
		if got != c.want {
			t.Errorf("phone in %q = %v, want %v", c.text, got, c.want)
		}
	}
}
