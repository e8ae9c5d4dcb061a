package gate

import (
	"regexp"
	"strings"
)

// A password in an SQL INSERT: the value's name is its column's, written
// apart from it (INSERT INTO admin_users (login, password) VALUES ('ops',
// 'Tr0ub4dor&3x')), so the assignment rules, which read name=value, never
// see the pair. The rule pairs columns with values by position and judges
// the value under a password column as a password setting is judged.

// reSQLInsert is one row of an INSERT with its column list: the columns
// are group 1, the values group 2.
var reSQLInsert = regexp.MustCompile(`(?i)\binsert\s+into\s+[\w."` + "`" + `\[\]]+\s*\(([^)]{1,400})\)\s*values\s*\(((?:'(?:[^']|'')*'|[^)'])+)\)`)

// reSQLValue is one value of a row: a quoted string or a bare literal.
var reSQLValue = regexp.MustCompile(`'(?:[^']|'')*'|[^,\s][^,]*`)

// sqlPasswordColumns are the words of a column that holds a password in
// the clear; a column whose words also say hash or digest holds none.
var sqlPasswordColumns = []string{"password", "passwd", "pwd", "pass"}

// sqlInsertPassword reports an INSERT whose value under a password column
// is a password, not a placeholder, a hash or an empty value.
func sqlInsertPassword(m string) bool {
	sm := reSQLInsert.FindStringSubmatch(m)
	if sm == nil {
		return false
	}
	cols := strings.Split(sm[1], ",")
	vals := reSQLValue.FindAllString(sm[2], -1)
	if len(cols) != len(vals) {
		return false
	}
	for i, c := range cols {
		words := " " + fieldWords(strings.Trim(strings.TrimSpace(c), "`\"[]")) + " "
		named := false
		for _, w := range sqlPasswordColumns {
			named = named || strings.Contains(words, " "+w+" ")
		}
		if !named || strings.Contains(words, "hash") || strings.Contains(words, "digest") || strings.Contains(words, "salt") {
			continue
		}
		v := strings.TrimSpace(vals[i])
		if !strings.HasPrefix(v, "'") {
			continue // NULL, a function's call, a bound parameter
		}
		v = strings.ReplaceAll(strings.Trim(v, "'"), "''", "'")
		if len(v) < 6 || strings.HasPrefix(v, "$2") || strings.HasPrefix(v, "$argon") || strings.HasPrefix(v, "{") || secretPlaceholder(v) {
			continue
		}
		return true
	}
	return false
}

// reAppPassword is an app password as Google and Apple print it: sixteen
// lowercase letters in four groups, beside the words "app password" or
// "app-specific password" (app password `qwrt zxcv bnml asdf`).
var reAppPassword = regexp.MustCompile(`(?i:app[ -]?(?:specific[ -])?passwords?)[^a-z\n]{0,40}\b([a-z]{4}[ -][a-z]{4}[ -][a-z]{4}[ -][a-z]{4})\b`)

// appPasswordPlaceholder passes the groups documentation prints: one
// letter repeated (xxxx xxxx xxxx xxxx) or a counting run (abcd efgh …).
func appPasswordPlaceholder(v string) bool {
	l := strings.ReplaceAll(strings.ReplaceAll(v, " ", ""), "-", "")
	return strings.Trim(l, l[:1]) == "" || strings.Contains("abcdefghijklmnopqrstuvwxyz", l)
}

// reGCPKeyID is a Google service account key file's private_key_id: forty
// hex digits that name the key in IAM, found only in the key file itself.
var reGCPKeyID = regexp.MustCompile(`"private_key_id"\s*:\s*"([0-9a-f]{40})"`)

// keyIDAlone passes a key id beside its key: the private key names the
// key file, and the id adds nothing to it.
func keyIDAlone(text string, _, _ int) bool {
	return !strings.Contains(text, "PRIVATE KEY")
}
