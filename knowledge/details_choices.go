package knowledge

import (
	"regexp"
	"slices"
	"strings"
)

// Choices a look-alike changes in words (session 23, probe23/pairs3.jsonl):
// a sort order (ASC, DESC; ascending; 오름차순, 내림차순), a switch turned
// one way or the other (enable, disable; turn swap off, turned it on), a
// cloud region (ap-northeast-2, ap-northeast-1: the parse read 2 and 1,
// which a text's other numbers explain), a time zone set by name
// (timeZone: Asia/Seoul, TZ=UTC), a way from one value to another and the
// one value allowed (port 53 over UDP only, for TCP only). Each is a kind atom or a setting: a
// rewording keeps them, and a text that says both ways (disable A, enable
// B) rivals neither.

// onlyItem is one value of onlyValue.
const onlyItem = `(?:[A-Z][A-Z0-9]+|[\w.-]*\d[\w./-]*)`

var (
	// sortWords are the words of a sort order: ASC and DESC as SQL
	// writes them (in capitals: desc is also a description), ascending
	// and descending in any case, the Korean words with their particles.
	sortWords = map[string]string{"ASC": "asc", "DESC": "desc", "ascending": "asc", "descending": "desc"}
	// koreanSorts are the Korean words of a sort order, as prefixes.
	koreanSorts = map[string]string{"오름차순": "asc", "내림차순": "desc"}
	// switchVerbs are the verbs that turn a thing on or off.
	switchVerbs = map[string]string{"enable": "on", "enables": "on", "enabled": "on", "enabling": "on",
		"disable": "off", "disables": "off", "disabled": "off", "disabling": "off"}
	// turnedOnOff is a thing turned or switched on or off, the thing
	// (up to two words) between: turn swap off, switched it on.
	turnedOnOff = regexp.MustCompile(`(?i)\b(?:turn|turns|turned|turning|switch|switches|switched|switching)\s+(?:[a-z][\w-]*\s+){0,2}?(on|off)\b`)
	// cloudRegion is an AWS region (ap-northeast-2, us-gov-west-1) or a
	// Google Cloud one (asia-northeast3, us-central1).
	cloudRegion = regexp.MustCompile(`\b(?:(?:us|eu|ap|sa|ca|me|af|il|mx|cn)-(?:gov-)?(?:north|south|east|west|central|northeast|southeast|northwest|southwest)-\d|(?:asia|europe|us|northamerica|southamerica|australia|me|africa)-(?:north|south|east|west|central|northeast|southeast|northwest|southwest)\d)\b`)
	// timeZoneSet is a time zone set by name: timeZone: Asia/Seoul,
	// TZ=UTC, time_zone = '+09:00'.
	timeZoneSet = regexp.MustCompile(`(?i)\b(?:time_?zone|tz)["']?\s*[:=]\s*["']?([a-z]+(?:/[a-z_]+)*|[+-]\d{1,2}(?::?\d{2})?)`)
	// onlyValue is a value in capitals or with a digit, or a list of
	// them, said to be the only one (UDP only, only over TCP, GET and
	// PROPFIND only).
	onlyValue = regexp.MustCompile(`\b((?:` + onlyItem + `(?:,\s*|\s+(?:and|or)\s+))*` + onlyItem + `)\s+only\b|\bonly\s+(?:over\s+|via\s+|on\s+|for\s+|in\s+)?(` + onlyItem + `(?:(?:,\s*|\s+(?:and|or)\s+)` + onlyItem + `)*)\b`)
	onlySep   = regexp.MustCompile(`,\s*|\s+(?:and|or)\s+`)
	// fromTo is a way from one value to another: from us-east-1 to
	// eu-west-1 (values of a digit, dot, slash or hyphen, not words).
	fromTo = regexp.MustCompile(`(?i)\bfrom\s+` + "`?" + `([\w.:/-]*[\d./:-][\w.:/-]*)` + "`?" + `\s+(?:to|into|onto)\s+` + "`?" + `([\w.:/-]*[\d./:-][\w.:/-]*)`)
)

// addSwitch adds the kind atom of a switch turned to state (on, off) and
// the thing it turns, the first words of rest that are no stop words:
// ~switch:on:cache mount run. Two switches rival when they turn one
// thing two ways (switchesRival), not when each text turns its own
// (disabled RSA signatures, re-enable them for one host).
func (d *DetailSet) addSwitch(state, rest string) {
	var thing []string
	for _, w := range strings.Fields(rest) {
		w = strings.ToLower(strings.Trim(w, ".,;:()[]{}\"'`"))
		if w == "" || englishStop[w] || isHangulWord(w) {
			continue
		}
		thing = append(thing, w)
		if len(thing) == 3 {
			break
		}
	}
	d.Atoms[kindAtom("switch", state+":"+strings.Join(thing, " "))] = true
}

// switchesRival reports whether two switch atoms turn a thing they share
// a word of two ways (enable the cache mount, disable the pip cache mount).
func switchesRival(x, y string) bool {
	sx, tx, _ := strings.Cut(x[len(kindPrefix)+len("switch:"):], ":")
	sy, ty, _ := strings.Cut(y[len(kindPrefix)+len("switch:"):], ":")
	if sx == sy {
		return false
	}
	for _, w := range strings.Fields(tx) {
		if slicesContains(strings.Fields(ty), w) {
			return true
		}
	}
	return false
}

// addChoices adds the kind atoms of prose's sort orders, switches and
// regions, and text's time zones as the setting timezone.
func (d *DetailSet) addChoices(prose string, words [][]int, text string) {
	for _, ix := range words {
		w := prose[ix[0]:ix[1]]
		if v := sortWords[w]; v != "" {
			d.Atoms[kindAtom("sort", v)] = true
		} else if v := sortWords[strings.ToLower(w)]; v != "" && w != strings.ToUpper(w) {
			d.Atoms[kindAtom("sort", v)] = true // Ascending, not Asc
		}
		// err-disabled names a state, re-enable turns a switch.
		if v := switchVerbs[strings.ToLower(w)]; v != "" && (ix[0] == 0 || prose[ix[0]-1] != '-' || strings.HasSuffix(strings.ToLower(prose[:ix[0]]), "re-")) {
			d.addSwitch(v, prose[ix[1]:])
		}
	}
	if strings.Contains(prose, "차순") {
		for _, w := range strings.Fields(prose) {
			for k, v := range koreanSorts {
				if strings.HasPrefix(w, k) {
					d.Atoms[kindAtom("sort", v)] = true
				}
			}
		}
	}
	for _, m := range turnedOnOff.FindAllStringSubmatchIndex(prose, -1) {
		state, between := strings.ToLower(prose[m[2]:m[3]]), prose[m[0]:m[2]]
		if _, thing, ok := strings.Cut(strings.TrimSpace(between), " "); ok {
			d.addSwitch(state, thing) // turn swap off
		} else {
			d.addSwitch(state, prose[m[3]:]) // turn off swap
		}
	}
	for _, m := range cloudRegion.FindAllString(prose, -1) {
		d.Atoms[kindAtom("region", m)] = true
	}
	// Two values both texts name, one way in each (replicates from
	// us-east-1 to eu-west-1, from eu-west-1 to us-east-1), are one
	// setting, the pair, with two directions.
	for _, m := range fromTo.FindAllStringSubmatch(prose, -1) {
		x, y := strings.ToLower(strings.TrimRight(m[1], ".:-")), strings.ToLower(strings.TrimRight(m[2], ".:-"))
		if x == "" || y == "" || x == y {
			continue
		}
		if x < y {
			d.addSetting("way:"+x+"|"+y, ">")
		} else {
			d.addSetting("way:"+y+"|"+x, "<")
		}
	}
	// The one value a text allows (port 53 over UDP only) against
	// another (for TCP only), though both texts name both.
	for _, m := range onlyValue.FindAllStringSubmatch(prose, -1) {
		items := onlySep.Split(strings.ToLower(m[1]+m[2]), -1)
		slices.Sort(items)
		d.Atoms[kindAtom("only", strings.Join(items, " "))] = true
	}
	for _, m := range timeZoneSet.FindAllStringSubmatch(text, -1) {
		d.addSetting("timezone", strings.ToLower(m[1]))
	}
}
