package gate

import (
	"slices"
	"testing"
)

// TestIDFields checks identity numbers that pass their country's check in
// a field or a column named for an identity number, or whose strong check
// passes in a text naming their kind; and that order numbers, versions and
// counters in such tables, and checked numbers in other columns, pass.
func TestIDFields(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		// A space-aligned table: the header names the column.
		{"Out[3]:\n   member   full_name        nationalId     cc\n0  M-0192   Kasia Nowak      94071204812    PL\n1  M-0201   Lars Holm        790315-4412    SE\n", true},
		// The same numbers under a column that names no identity.
		{"Out[3]:\n   member   full_name        order_total    cc\n0  M-0192   Kasia Nowak      94071204812    PL\n", false},
		// An INSERT's column list names the column.
		{"INSERT INTO staff (staff_no, name, id_number, grade) VALUES\n ('S-11', 'Naledi Dube', '9206115129086', 4),\n ('S-12', 'Iker Sanz', '37460518G', 2);\n", true},
		{"INSERT INTO staff (staff_no, name, badge_serial, grade) VALUES\n ('S-11', 'Naledi Dube', '9206115129086', 4);\n", false},
		// A JSON key.
		{`{"patient": {"personal_id": "Y3812740K", "ward": 3}}`, true},
		// A strong check in a text that names its kind.
		{"Import of the NIR column failed.\n{\"system\": \"urn:oid:1.2.250.1.213.1.4.8\", \"value\": \"275021305503442\"}", true},
		{"Import of the invoice column failed.\n{\"system\": \"urn:oid:1.2.250.1.213.1.4.8\", \"value\": \"275021305503442\"}", false},
		// Look-alikes in an id column: versions, ports and timestamps.
		{"   service   id_number   port\n0  api       v2.14.3     8443\n", false},
		{"| id_number | created_at |\n|---|---|\n| 1042 | 2024-05-02T10:00:00Z |\n", false},
	} {
		got := slices.Contains(DetectPII(c.text), PIINationalID)
		if got != c.want {
			t.Errorf("national_id in %q = %v, want %v", c.text, got, c.want)
		}
	}
}
