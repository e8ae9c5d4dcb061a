package gate

import (
	"slices"
	"testing"
)

// TestBankWordsAsWords (found by session 15's review): bankNamed read its
// context words as substrings, so an AWS account number beside "Savings
// Plans", "routing" or "checking" was a bank account; a payout's account
// beside its routing number still is.
func TestBankWordsAsWords(t *testing.T) {
	for _, s := range []string{
		"account_number: 493820175612 # the AWS account that buys the Savings Plans",
		"Peer the VPC of account_number: 493820175612 and add routing for 10.0.0.0/16.",
		"Before checking the bill, set account_number: 493820175612 in the config.",
	} {
		if got := DetectPII(s); got != nil {
			t.Errorf("DetectPII(%q) = %v, want none", s, got)
		}
	}
	for _, s := range []string{
		"payout:\n  routing_number: 021000021\n  account_number: 493820175612",
		"Set bank_name and account_number: 493820175612 for the payee.",
		"Her checking account at the credit union, account_number: 493820175612.",
	} {
		if got := DetectPII(s); !slices.Contains(got, PIIBankAccount) {
			t.Errorf("DetectPII(%q) = %v, want %s", s, got, PIIBankAccount)
		}
	}
}
