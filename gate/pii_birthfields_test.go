package gate

import (
	"slices"
	"testing"
)

// TestBirthDateFields checks a date of birth written as a record's field
// (snake_case, camelCase, a JSON key, key=value with eight digits, a date
// built in code) and the look-alikes beside it: other dates in fields, a
// schema's column, the epoch's and unknown's placeholders, an example.
func TestBirthDateFields(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"row: Tomas Kral, date_of_birth = 1979-08-14, plan gold", true},
		{`{"givenName": "Ines", "birthDate": "2001-12-30", "locale": "pt-PT"}`, true},
		{"lookup uid=88 name=Ines birth=20011230 status=ok", true},
		{"    patient = Patient(name=\"Ines Dias\", date_of_birth=date(2001, 12, 30))", true},
		{"    BirthDate: 30.12.2001", true},
		// Other dates in fields, and birth fields without a date.
		{"release_date = 2024-01-02, build=20240102", false},
		{"ALTER TABLE users ADD COLUMN birth_date DATE NOT NULL;", false},
		{"date_of_birth = 1900-01-01 marks an unknown date in the legacy table", false},
		{"Set `birthDate: \"2001-12-30\"` for example in the fixture's YAML.", false},
		{"first_birthday_promo = 2023-05-01 started the campaign", false},
	} {
		got := slices.Contains(DetectPII(c.text), PIIBirthDate)
		if got != c.want {
			t.Errorf("date_of_birth in %q = %v, want %v", c.text, got, c.want)
		}
	}
}
