package knowledge

import (
	"regexp"
	"strings"
)

// Bounds, orders and named levels a look-alike changes in words (session
// 23, probe23/pairs2.jsonl): a Korean bound (이상, 이하, 초과, 미만), a
// minimum for a maximum (minimum, 최소; maximum, 최대), a Korean before or
// after (배포 전에, 배포 후에), an SQL isolation level (READ COMMITTED,
// REPEATABLE READ), a version range's operator (^2.27.0, ~2.27.0;
// >=2.31, ==2.31) and an image's tag (postgres:latest, postgres:alpine).
// Each is a kind atom or a setting: a rewording keeps them.

// koreanBounds are the Korean words of a bound, by what they bound;
// koreanOrders those of before and after, as whole words (particle and
// all: 전에, 이후에).
var (
	koreanBounds = map[string]string{"이상": "ge", "이하": "le", "초과": "gt", "미만": "lt"}
	koreanOrders = map[string]string{"전": "before", "전에": "before", "이전에": "before", "후": "after", "후에": "after", "이후에": "after"}
	// extentWords are the words of a minimum and a maximum.
	extentWords = map[string]string{"minimum": "min", "maximum": "max", "최소": "min", "최대": "max"}
	// isolationLevel is an SQL isolation level, in any case.
	isolationLevel = regexp.MustCompile(`(?i)\b(read\s+uncommitted|read\s+committed|repeatable\s+read|serializable|snapshot\s+isolation)\b`)
	// versionRange is a version after a range's operator: ^2.27.0,
	// ~2.27.0, >=2.31, == 1.4, ~=3.2 (a version of a dot or more, so that
	// ~30 seconds is no range).
	versionRange = regexp.MustCompile(`(\^|~=|~|>=|<=|==|!=|>|<)\s?v?(\d+(?:\.\d+)+)\b`)
)

// addBounds adds the kind atoms of prose's bounds, extents, orders and
// isolation levels, and text's version ranges as settings of their
// version (range:2.31 → >=).
func (d *DetailSet) addBounds(prose string, words [][]int, text string) {
	for _, ix := range words {
		if v := extentWords[strings.ToLower(prose[ix[0]:ix[1]])]; v != "" {
			d.Atoms[kindAtom("extent", v)] = true
		}
	}
	prev := ""
	for _, w := range strings.Fields(prose) {
		w = strings.Trim(w, ".,;:()\"'")
		before := prev
		prev = w
		if !isHangulWord(w) {
			continue
		}
		// A bound after an amount (100을 초과하면, 절반 이상으로, 4GB 이하);
		// 메모리 초과 is an excess, not a bound.
		if strings.ContainsAny(before, "0123456789") || strings.HasPrefix(before, "절반") {
			for k, v := range koreanBounds {
				if strings.HasPrefix(w, k) {
					d.Atoms[kindAtom("bound", v)] = true // 이상으로, 초과하면
				}
			}
		}
		if v := koreanOrders[w]; v != "" {
			d.Atoms[kindAtom("order", v)] = true
		}
		for k, v := range extentWords {
			if strings.HasPrefix(w, k) && isHangulWord(k) {
				d.Atoms[kindAtom("extent", v)] = true // 최소값, 최대
			}
		}
	}
	for _, m := range isolationLevel.FindAllString(prose, -1) {
		d.Atoms[kindAtom("iso", strings.ToLower(strings.Join(strings.Fields(m), " ")))] = true
	}
	if strings.ContainsAny(text, "^~=<>") {
		for _, m := range versionRange.FindAllStringSubmatch(text, -1) {
			d.addSetting("range:"+m[2], m[1])
		}
	}
}

// imageTag is an image (or another name) and the tag after its colon:
// postgres:latest, ghcr.io/org/app:v2, redis:7-alpine.
var imageTag = regexp.MustCompile(`^([a-z0-9][a-z0-9._/-]*):([a-z0-9][\w.-]*)$`)

// tagsRival reports whether two atoms are one name with two tags
// (postgres:latest, postgres:alpine): another image. Two numbers after
// one host are two ports, weighed as numbers.
func tagsRival(x, y string) bool {
	mx, my := imageTag.FindStringSubmatch(x), imageTag.FindStringSubmatch(y)
	return mx != nil && my != nil && mx[1] == my[1] && mx[2] != my[2] && !(isNumber(mx[2]) && isNumber(my[2]))
}
