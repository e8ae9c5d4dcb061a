package gate

import (
	"strings"
	"testing"
)

// TestWorldIDs pins each country's identity number: a number that passes
// its check beside its word is refused; the same number with one digit
// changed (its check fails), or without the word, passes. The valid
// numbers are the ones each registry's or standard's documentation
// prints as its worked example, which the check recomputes.
func TestWorldIDs(t *testing.T) {
	tests := []struct {
		valid, broken, word string
	}{
		{"44051401359", "44051401358", "PESEL"},
		{"86095742719", "86095742718", "Steuer-ID"},
		{"1 84 12 76 451 089 46", "1 84 12 76 451 089 47", "numéro de sécurité sociale"},
		{"85.07.30-033.28", "85.07.30-033.29", "rijksregisternummer"},
		{"811228-9874", "811228-9875", "personnummer"},
		{"131052-308T", "131052-308U", "henkilötunnus"},
		{"10000000146", "10000000147", "TC Kimlik No"},
		{"8001015009087", "8001015009088", "South African ID"},
		{"12.345.678-5", "12.345.678-4", "RUT"},
		{"20-12345678-6", "20-12345678-5", "CUIT"},
		{"F220483718", "F220483717", "身分證"},
		{"A123456(3)", "A123456(4)", "HKID"},
		{"1800101221144", "1800101221145", "CNP"},
	}
	for _, tt := range tests {
		for _, c := range []struct{ text, want string }{
			{"The customer's " + tt.word + " is " + tt.valid + ".", PIINationalID},
			{"The customer's " + tt.word + " is " + tt.broken + ".", ""},
			{"Order " + tt.valid + " shipped.", ""},
		} {
			got := strings.Join(DetectPII(c.text), ",")
			if got != c.want && !(c.want == "" && got != PIINationalID) {
				t.Errorf("DetectPII(%q) = %q, want %q", c.text, got, c.want)
			}
		}
	}
	// Mexico's CURP says what it is by its form and check alone.
	for _, c := range []struct{ text, want string }{
		{"CURP del cliente: HEGG560427MVZRRL04", PIINationalID},
		{"pedido HEGG560427MVZRRL05", ""},
		// Documentation's samples pass: a counting run, an example word.
		{"PESEL 12345678901 is the form's example", ""},
		{"e.g. Steuer-ID 86095742719 in the docs", ""},
		{"身分證 A123456789 is the textbook example", ""},
	} {
		if got := strings.Join(DetectPII(c.text), ","); got != c.want {
			t.Errorf("DetectPII(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
