package gate

import (
	"net/netip"
	"regexp"
	"slices"
	"strings"
)

// PIIIPAddress is the address of a host a leaked credential opens, or of a
// person's machine beside their mail. An address alone is a finding's
// detail (a firewall rule, a log line), so it is named only beside
// another kind that refuses the text: it tells the contributor what else
// to redact, and never refuses a text by itself.
const PIIIPAddress = "ip_address"

var reHostIPv4 = regexp.MustCompile(`\b(?:\d{1,3}\.){3}\d{1,3}\b`)

// reHostKey ends a line's text right before a host: a URL's authority or
// userinfo, a key that names a host or a server, a -h flag.
var reHostKey = regexp.MustCompile(`(?i)(?:://(?:[^\s/@]*@)?|@|\b[\w-]*(?:host|server|hostname|address|addr|endpoint|ip)["']?\s*[:=]\s*["']?(?:[a-z][a-z0-9+.-]*://)?|\s-[hH]\s*)$`)

// ipNear names the addresses of hosts and public machines within six
// lines of a match that refused the text (spans).
func ipNear(text string, spans [][2]int) bool {
	var breaks []int // offsets of the line breaks, for line numbers
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			breaks = append(breaks, i)
		}
	}
	line := func(pos int) int { n, _ := slices.BinarySearch(breaks, pos); return n }
	near := map[int]bool{}
	for _, s := range spans {
		for l := line(s[0]) - 6; l <= line(s[1])+6; l++ {
			near[l] = true
		}
	}
	for _, loc := range reHostIPv4.FindAllStringIndex(text, -1) {
		lo, hi := loc[0], loc[1]
		if !near[line(lo)] {
			continue
		}
		if hi < len(text) && (text[hi] == '/' || text[hi] == '.' && hi+1 < len(text) && text[hi+1] >= '0' && text[hi+1] <= '9') {
			continue // a network (10.0.0.0/24) or a longer version string
		}
		if lo > 0 && (text[lo-1] == '.' || text[lo-1] == 'v') {
			continue
		}
		a, err := netip.ParseAddr(text[lo:hi])
		if err != nil || !a.Is4() || documentationIP(a) {
			continue
		}
		start := max(strings.LastIndexByte(text[:lo], '\n')+1, lo-96)
		if reHostKey.MatchString(text[start:lo]) || !a.IsPrivate() {
			return true
		}
	}
	return false
}

// documentationIP reports addresses that are no host's: RFC 5737's
// documentation ranges, loopback, unspecified, link-local (the cloud
// metadata endpoint), multicast and broadcast, and masks.
func documentationIP(a netip.Addr) bool {
	for _, p := range []string{"192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24", "0.0.0.0/8", "255.0.0.0/8"} {
		if netip.MustParsePrefix(p).Contains(a) {
			return true
		}
	}
	return a.IsLoopback() || a.IsUnspecified() || a.IsLinkLocalUnicast() || a.IsMulticast()
}
