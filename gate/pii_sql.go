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
