package gate

import (
	"slices"
	"testing"
)

// TestMRZLine checks a passport's machine-readable line by its check
// digits: a real one names the document and the birth date, ICAO's
// specimen and lines whose digits disagree pass.
func TestMRZLine(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"Scanner output:\nP<CANLEBLANC<<MARIE<CLAIRE<<<<<<<<<<<<<<<<<<\nPX74122950CAN9003174F3309128<<<<<<<<<<<<<<06\n", []string{PIIBirthDate, PIINationalID}},
		{"TD2 visa line: TK30<<<<<6KOR8811248M2906302<<<<<<<<", []string{PIIBirthDate, PIINationalID}},
		// ICAO's Utopian specimen, printed in every MRZ example.
		{"Doc 9303's specimen:\nP<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10\n", nil},
		// One check digit off: no passport's line.
		{"PX74122951CAN9003174F3309128<<<<<<<<<<<<<<06", nil},
		{"build id PX74122950CAN9003175F3309128 from the CI cache", nil},
		// A TD1 identity card's second line: birth date and expiry checked.
		{"ID card scan:\nI<NLDSPX4821935<<<<<<<<<<<<<<<\n8704197M3102282NLD<<<<<<<<<<<4\nDEVRIES<<SANNE<<<<<<<<<<<<<<<<\n", []string{PIIBirthDate, PIINationalID}},
		{"Doc 9303's TD1 specimen line 7408122F1204159UTO<<<<<<<<<<<6 decodes to 1974-08-12.", nil},
		{"8704198M3102282NLD<<<<<<<<<<<4 has a wrong check digit", nil},
	} {
		if got := DetectPII(c.text); !slices.Equal(got, c.want) {
			t.Errorf("DetectPII(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}
