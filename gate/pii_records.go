package gate

import (
	"regexp"
	"strings"
)

// Bank details and passwords in the carriers that hold them apart from
// their field's name: a NACHA file's entry record, a table's column under
// an account's header, and a setting wrapped in an object whose "value"
// holds it (Spring Boot's /actuator/env, Terraform's output -json).

// reNACHAEntry is a NACHA (ACH) entry detail record: record type 6, a
// transaction code of a checking, savings, GL or loan account (22-29,
// 32-39, 41-49, 51-55), the receiving bank's routing number (eight digits
// and its check digit), the account number in 17 columns and the amount in
// 10 (the name and the trace number follow, to 94 columns). The groups are
// the routing number and the account. It runs inside digit runs only
// (piiRule.digits); nachaLine asks for the record's line.
var reNACHAEntry = regexp.MustCompile(`\b6(?:2[2-9]|3[2-9]|4[1-9]|5[1-5])(\d{9})([0-9 -]{17})\d{10}`)

// nachaLine asks for the record to start its line (after an indent) and
// to run on to the individual's name (79 columns at least; the trace
// number ends it at 94).
func nachaLine(text string, lo, _ int) bool {
	start := strings.LastIndexByte(text[:lo], '\n') + 1
	if strings.TrimLeft(text[start:lo], " \t") != "" {
		return false
	}
	end := len(text)
	if i := strings.IndexByte(text[lo:], '\n'); i >= 0 {
		end = lo + i
	}
	return end-lo >= 79
}

// nachaEntry checks the routing number's ABA check digit and asks for an
// account number in its field: a run of digits that merely starts with 6
// passes the check one time in ten, and has no account in columns 13-29.
func nachaEntry(m string) bool {
	g := reNACHAEntry.FindStringSubmatch(m)
	if g == nil || !abaCheck(g[1]) {
		return false
	}
	acct := strings.TrimSpace(g[2])
	return len(digitsOf(acct)) >= 4 && !strings.Contains(acct, " ")
}

// abaCheck is the ABA routing number's check (weights 3, 7, 1, mod 10)
// and its Federal Reserve prefix.
func abaCheck(d string) bool {
	if len(d) != 9 || !allDigits(d) {
		return false
	}
	p := two(d, 0)
	if !(p <= 12 || p >= 21 && p <= 32 || p >= 61 && p <= 72 || p == 80) {
		return false
	}
	sum := 0
	for i := 0; i < 9; i++ {
		sum += digitAt(d, i) * []int{3, 7, 1}[i%3]
	}
	return sum%10 == 0
}

// reColumnNumber is a number of 6 to 17 digits as a table's cell, for
// bankColumn to judge by its header.
var reColumnNumber = regexp.MustCompile(`\b\d{6,17}\b`)

// bankColumnWords name a bank account's column (account_number, AcctNo,
// sort code, routing_number, bsb).
var bankColumnWords = []string{"account number", "account no", "account num", "acct number", "acct no", "acct num",
	"bank account", "sort code", "routing number", "routing no", "bsb"}

// bankColumn passes a number under a bank account's header in a table
// (or an SQL INSERT's column of that name) that is a bank's (its header or the text around it names a sort code, a
// routing number, a payroll or a bank: bankContext): a payroll, BACS or
// payout export. An account_number column alone may be a shop's customer
// number.
func bankColumn(text string, lo, hi int) bool {
	if !columnNamed(text, lo, bankColumnWords) && !insertColumnNamed(text, lo, hi, bankColumnWords) {
		return false
	}
	from, to := max(lo-400, 0), min(hi+200, len(text))
	return bankContext.MatchString(text[from:lo] + " " + text[hi:to])
}

// reWrappedPassword is a password setting whose value sits in an object's
// "value" member (Spring Boot actuator's /env and /configprops:
// "spring.datasource.password": {"value": "…"}; Terraform's output -json:
// "db_password": {"sensitive": true, "value": "…"}). The value is the
// group; the actuator's mask (******) passes as a placeholder.
var reWrappedPassword = regexp.MustCompile(`(?i)[\w.-]*(?:password|passwd|pwd)\\?"\s*:\s*\{[^{}]{0,80}?\\?"value\\?"\s*:\s*\\?"([^"\\\s]{4,})`)

// reColumnDate is a date as a table's cell, for birthColumn to judge by
// its header.
var reColumnDate = regexp.MustCompile(`(?i)\b(?:` + dateForm + `)`)

// birthColumnWords name a date of birth's column (birth, birth_date, dob,
// DateOfBirth, 생년월일).
var birthColumnWords = []string{"birth", "birthdate", "birthday", "dob", "생년월일", "생일", "출생", "출생일"}

// birthColumn passes a date under a column named for a birth, in a
// delimited table (a CSV export) or a space-aligned one (a DataFrame's
// or a query's printout): a member list's or a patient table's rows.
func birthColumn(text string, lo, hi int) bool {
	return columnNamed(text, lo, birthColumnWords) || alignedColumnNamed(text, lo, hi, birthColumnWords) || insertColumnNamed(text, lo, hi, birthColumnWords)
}

// insertColumnNamed reports a value of an SQL INSERT's row whose column,
// paired by position, is named by one of words: INSERT INTO customers
// (full_name, ssn, dob) VALUES ('…', '…', '07/19/1979').
func insertColumnNamed(text string, lo, hi int, words []string) bool {
	from := strings.LastIndex(strings.ToLower(text[max(lo-600, 0):lo]), "insert")
	if from < 0 {
		return false
	}
	from += max(lo-600, 0)
	loc := reSQLInsert.FindStringSubmatchIndex(text[from:])
	if loc == nil || from+loc[4] > lo || from+loc[5] < hi {
		return false
	}
	cols := strings.Split(text[from+loc[2]:from+loc[3]], ",")
	vals := reSQLValue.FindAllStringIndex(text[from+loc[4]:from+loc[5]], -1)
	if len(cols) != len(vals) {
		return false
	}
	for i, v := range vals {
		if from+loc[4]+v[0] <= lo && hi <= from+loc[4]+v[1] {
			return containsAnyWord(fieldWords(strings.Trim(strings.TrimSpace(cols[i]), "`\"[]")), words)
		}
	}
	return false
}
