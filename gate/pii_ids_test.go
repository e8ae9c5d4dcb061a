package gate

import (
	"slices"
	"testing"
)

// TestNINONeedsItsName pins that the UK National Insurance format counts
// as a national id only beside its name: the same letters and digits are
// order ids, part numbers and booking references elsewhere.
func TestNINONeedsItsName(t *testing.T) {
	for text, want := range map[string]bool{
		"The payroll CSV contains NI number AB 48 21 73 C in column 7.":    true,
		"HMRC answered 400 for NINO AB123456C.":                            true,
		"Her National Insurance number, JG 10 37 45 B, is in the ticket.":  true,
		"fixtures/uk.json holds TP 56 78 90 D (the employee's NI number).": true,
		"영국 국민보험 번호 CE 39 45 72 A가 평문으로 저장된다.":                             true,
		// Its field, column and header names, split into words.
		`the export row {"ni_number": "AB123456C"} was logged in plain text`:          true,
		"column national_insurance_number holds AB 12 34 56 C for every employee row": true,
		"payload niNumber=AB123456C leaked into the access log":                       true,
		"the YAML fixture has NINumber: AB 12 34 56 C":                                true,
		"the header X-NI-No: AB 12 34 56 C is logged":                                 true,
		"employee.nino = 'AB123456C' in the seed script":                              true,
		"nationalInsuranceNo AB123456C is sent to the CRM":                            true,
		"the N.I. number AB 12 34 56 C was printed in the debug log":                  true,
		"Order ids look like AB123456C in the export":                                 false,
		// A bare "ni" split out of a name is not the number's name.
		"our NiFi flow routes order code AB123456C by prefix":                 false,
		"mini_order_ref values like KL 12 34 56 A were split into tokens":     false,
		"part_number: GH123456A in the parts catalogue":                       false,
		"the part number GH 12 34 56 A on the sticker":                        false,
		"Booking references such as WX 99 88 77 B were split by the analyzer": false,
		// The name too far away: another sentence about another thing.
		"The NI team owns payroll. Separately, the warehouse scanner reads shelf codes like PR 45 67 89 C badly.": false,
		// HMRC's documented sample stays a placeholder even when named.
		"the sample NI number QQ 12 34 56 C": false,
	} {
		if got := slices.Contains(DetectPII(text), PIINationalID); got != want {
			t.Errorf("DetectPII(%q) has national_id = %v, want %v", text, got, want)
		}
	}
}
