package gate

import (
	"regexp"
	"strings"
)

// Bank details in the fields payout and payroll records keep them in, and
// mail addresses percent-encoded in URLs.

// PIIBankAccount is a bank account's number or the codes that route to it
// (a US routing number, a UK sort code, an Australian BSB) in a payout,
// payroll or supplier record.
const PIIBankAccount = "bank_account"

// reBankField is a field of a JSON, YAML or form record that holds a bank
// account's number or its routing code, with a value of digits (spaces and
// hyphens between); the field's name is the first group, the value the
// second; a field named for a bank's or a payout's account (payout.account,
// bank_account) counts too. An IBAN is left to its own rule, which checks it
// mod 97.
var reBankField = regexp.MustCompile(`(?i)\\?["']?\b((?:bank_?|payout_?|beneficiary_?)?(?:account_?(?:number|num|no)|acct_?(?:number|num|no)|routing_?(?:number|no)?|aba(?:_?routing)?|sort_?code|bsb(?:_?number)?|(?:bank|payout|beneficiary|settlement|deposit)[._-]?account))\\?["']?\s*[:=]\s*\\?["']?(\d[\d -]{4,30}\d)\\?["']?`)

var bankFieldHints = []string{"account", "acct", "routing", "aba", "sort", "bsb"}

// bankNamed requires the record to be a bank's: beside an account number,
// another of its fields or a word that names a bank (an account_number
// alone may be a customer's number at a shop or a cloud account); a
// routing number, a sort code and a BSB name one by themselves.
func bankNamed(text string, lo, hi int) bool {
	name := strings.ToLower(text[lo:hi])
	if !strings.Contains(name, "account") && !strings.Contains(name, "acct") {
		return true
	}
	from, to := max(lo-200, 0), min(hi+200, len(text))
	around := text[from:lo] + " " + text[hi:to]
	if bankContext.MatchString(around) {
		return true
	}
	for _, w := range []string{"은행", "계좌", "예금주", "정산"} {
		if strings.Contains(around, w) {
			return true
		}
	}
	return strings.HasPrefix(strings.TrimLeft(name, `\"'`), "bank")
}

// bankContext are the words around an account number that make it a
// bank's, as words, not inside others (databank) nor as everyday words
// (routing traffic, checking the bill, AWS Savings Plans): routing only as
// a routing number or a field, checking and savings only with account.
// A word may be part of a field name (bank_name, payout_method).
var bankContext = regexp.MustCompile(`(?i)(?:\b|_)(?:routing(?:[ _-]?(?:number|no|num)\b|["']?\s*[:=])|aba|sort[ _-]?code|sortcode|bsb|iban|swift|bic|bank(?:ing)?|payouts?|payee|payroll|beneficiary|account[ _](?:holder|name|type)|(?:checking|savings)[ _-]account)(?:\b|_)`)

// docBankNumbers are the test bank details of payment providers' docs:
// Stripe's US test routing number and its test account numbers (each
// triggers a documented outcome), which never reach a bank.
var docBankNumbers = map[string]bool{
	"110000000": true, "000123456789": true, "000111111116": true, "000111111113": true,
	"000222222227": true, "000333333335": true, "000444444440": true,
}

// bankPlaceholder passes the providers' test numbers and the counting runs
// and repeated digits that documentation writes where a number goes.
func bankPlaceholder(v string) bool {
	d := digitsOf(v)
	return docBankNumbers[d] || idPlaceholder(d) || strings.Trim(d, d[:1]) == ""
}

// reEncodedEmail is a mail address with its @ percent-encoded, as a URL's
// query (?email=alice%40corp.com, login_hint=, mailto:) carries it into
// access logs.
var reEncodedEmail = regexp.MustCompile(`(?:[A-Za-z0-9._+-]|%2[Bb])+%40[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}\b`)

// encodedEmailPlaceholder judges the decoded address as emailPlaceholder
// does (user%40example.com passes).
func encodedEmailPlaceholder(m string) bool {
	return emailPlaceholder(strings.NewReplacer("%40", "@", "%2B", "+", "%2b", "+").Replace(m))
}

// reKRBankAccount is a Korean bank account written as people write it:
// 계좌 or 계좌번호, maybe the bank's name, then the number in its
// hyphenated groups (국민 482301-04-117625, 신한 110-482-739215), after a
// colon or in brackets (계좌번호(461102-01-298374)). The number is the
// group.
var reKRBankAccount = regexp.MustCompile(`계좌(?:번호)?\s*[:：(（]?\s*(?:[가-힣A-Za-z]+\s*){0,2}(\d{2,6}-\d{2,6}-\d{2,7}(?:-\d{1,3})?)`)

// krAccountDigits requires an account number's length: Korean banks' run
// from 10 digits to 14 (신한 110-482-739215, 국민 482301-04-117625); a
// date after 계좌 (계좌 이체 2026-12-07) has 8.
func krAccountDigits(m string) bool {
	n := len(digitsOf(m))
	return n >= 10 && n <= 14
}
