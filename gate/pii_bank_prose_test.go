package gate

import (
	"slices"
	"testing"
)

// TestRoutingProse checks a US routing number told in prose by its ABA
// check digit and district, and the look-alikes: a failing check, Stripe's
// test number, a number outside the districts, a route's table.
func TestRoutingProse(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"The vendor's ACH entry had RDFI routing `026009593` and the account after it.", true},
		{"Wire it with ABA number 121000358 to the supplier's account 4410092231.", true},
		// A bank's routing number alone is the bank's own.
		{"Wire it with ABA number 121000358 to the supplier.", false},
		{"A routing number such as 123456789 fails the check digit.", false},
		{"Stripe's test routing 110000000 with account 000123456789 succeeds.", false},
		{"BGP routing 650010001 is a private AS path tag here.", false},
		{"The routing table holds 100000000 entries at most.", false},
	} {
		got := slices.Contains(DetectPII(c.text), PIIBankAccount)
		if got != c.want {
			t.Errorf("bank_account in %q = %v, want %v", c.text, got, c.want)
		}
	}
}
