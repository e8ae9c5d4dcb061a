package gate

import (
	"regexp"
	"strings"
)

// A US routing number told in prose or a file format's description
// ("RDFI routing `073058283`", "ABA 021000021"), which the field rule
// (reBankField) does not read: nine digits after the word, with the ABA
// check digit, beside an account (accountNear) name where someone's money
// is. A bank's routing number alone is the bank's, printed on its site.

// reRoutingProse is "routing" or "ABA", maybe "number" or "transit", and
// nine digits (in backticks or quotes).
var reRoutingProse = regexp.MustCompile("(?i)\\b(?:routing|aba)(?:\\s+(?:transit\\s+)?(?:number|no\\.?|#))?\\s*[:=]?\\s*[`'\"]?(\\d{9})\\b")

// accountNear asks for an account's word within 200 bytes of the routing
// number.
func accountNear(text string, lo, hi int) bool {
	from, to := runeWindow(text, lo, hi, 200)
	return containsAnyWord(strings.ToLower(text[from:to]), []string{"account", "accounts", "acct", "dfi", "계좌"})
}

// validABA checks the routing number's check digit: 3, 7 and 1 weights
// over the nine digits sum to a multiple of ten, and the first two digits
// are a Federal Reserve district's (00-12, 21-32) or an electronic one
// (61-72, 80).
func validABA(m string) bool {
	return abaCheck(reRoutingProse.FindStringSubmatch(m)[1])
}

// reSortCodeProse is a UK sort code and an account number told in prose
// ("sort code 20-45-77, account 53981746"): both together name one
// person's account, as a payout's fields do.
var reSortCodeProse = regexp.MustCompile(`(?i)\bsort[ -]?code\s*[:=]?\s*[` + "`" + `'"]?(\d{2}-\d{2}-\d{2}|\d{6})\b[^\n]{0,40}?\b(?:account|acct|a/c)(?:\s+(?:number|no\.?|#))?\s*[:=]?\s*[` + "`" + `'"]?(\d{8})\b`)
