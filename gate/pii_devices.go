package gate

import (
	"net/netip"
	"regexp"
	"strings"
)

// A person's machine: its hardware address or serial number beside its
// user (a crash report under /Users/<name>, a DHCP lease to <name>-ThinkPad,
// an MDM note with 사용자: <name>), and a person's own public address (my
// home broadband address, 집 공인 IP, the source of an SSH login that
// succeeded). A server's MAC in a network's config, a CI runner's
// serial and a server's address name no one and pass.

// reMAC is a hardware address, colon- or hyphen-separated.
var reMAC = regexp.MustCompile(`\b[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5}\b|\b[0-9a-fA-F]{2}(?:-[0-9a-fA-F]{2}){5}\b`)

// validMAC refuses the addresses that are no device's: all zeros, the
// broadcast, RFC 7042's documentation block 00:00:5E:00:53:xx and
// locally administered ones (a container's or a VM's, whose second digit
// is 2, 6, A or E).
func validMAC(m string) bool {
	l := strings.ToLower(strings.ReplaceAll(m, "-", ":"))
	if l == "00:00:00:00:00:00" || l == "ff:ff:ff:ff:ff:ff" || strings.HasPrefix(l, "00:00:5e:00:53") {
		return false
	}
	return !strings.ContainsRune("26ae", rune(l[1]))
}

// reDeviceSerial is a serial number after its label: Apple's twelve
// characters (C02FK4Q7MD6T) and other makers' ten to fourteen.
var reDeviceSerial = regexp.MustCompile(`(?i:(?:\b|_)serial(?:[ _]?(?:number|no))?(?: \(system\))?|시리얼(?: ?번호)?|\bs/n)\s*[:=#]?\s*([A-Z0-9]{10,14})\b`)

// validSerial asks for letters and digits both.
func validSerial(m string) bool {
	v := reDeviceSerial.FindStringSubmatch(m)[1]
	return strings.IndexFunc(v, func(r rune) bool { return r >= 'A' && r <= 'Z' }) >= 0 && strings.IndexFunc(v, func(r rune) bool { return r >= '0' && r <= '9' }) >= 0
}

// reUserHome is a person's home directory in a path (/Users/jiwoo.kang,
// C:\Users\박서준, /home/dana); rePersonalHost a machine named for its
// user (hjchoi-ThinkPad, Danas-MacBook-Pro).
var (
	reUserHome     = regexp.MustCompile(`(?:/Users/|/home/|[A-Za-z]:\\\\?Users\\\\?)([^\s/\\'"]+)`)
	rePersonalHost = regexp.MustCompile(`(?i)\b[\w.]+-(?:thinkpad|macbook(?:-(?:pro|air))?|imac|iphone|ipad|galaxy|pixel|laptop|notebook|surface|xps|desktop|pc)\b|[\w.]+의 (?:macbook|iphone|ipad|노트북)`)
)

// sharedHomes are the home directories of accounts, not people.
var sharedHomes = []string{"shared", "public", "default", "admin", "administrator", "runner", "ubuntu", "ec2-user", "root",
	"user", "username", "me", "you", "<user>", "$user", "%username%", "vagrant", "git", "jenkins", "circleci", "build", "app", "node", "all users",
	// Documentation's sample users.
	"alice", "bob", "jdoe", "johndoe", "janedoe", "foo", "bar", "user1", "test", "demo", "example", "yourname", "your-name", "name"}

// personalMachine reports the user of a device beside it: an owner or a
// record's name within two lines (holderNear, nameFieldIn), a machine
// named for its user nearby, or a person's home directory in the text.
func personalMachine(text string, lo, hi int) bool {
	if holderNear(text, lo, hi) {
		return true
	}
	from, to := runeWindow(text, lo, hi, 160)
	if nameFieldIn(text[from:to]) || rePersonalHost.MatchString(text[from:to]) || userMailOnLine(text, lo, hi) {
		return true
	}
	for _, m := range reUserHome.FindAllStringSubmatch(text, -1) {
		name := strings.ToLower(m[1])
		if !containsString(sharedHomes, name) && !strings.HasPrefix(name, "$") && !strings.HasPrefix(name, "%") && !strings.HasPrefix(name, "<") {
			return true
		}
	}
	return false
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// reHomeIP is a text's phrase for a person's own address: home, broadband
// or residential before IP or address, "my IP", or Korean's 집 / 자택 IP.
// Home Assistant, a home page and a home directory are no one's home.
var reHomeIP = regexp.MustCompile(`(?i)\b(?:home|residential|broadband)\b(?:[^.\n]{0,24}[^.\n\w])?(?:ip|ip address|address)\b|\bmy (?:own |public )?ip\b|(?:집|자택|재택)[^.\n]{0,12}(?:공인 ?)?ip|` +
	// A customer's or a person's own address: "their office's static
	// IP", "a static IP from their office", "the customer's IP", 고객사
	// 사무실 IP.
	`\b(?:their|his|her|customer'?s|client'?s)\s+(?:(?:own|office(?:'s)?|home|static|public|fixed|egress)\s+)*ip\b|\b(?:static|public|fixed) ip (?:from|at|of) (?:their|his|her)\b|(?:고객|고객사|거래처)[^.\n]{0,12}(?:공인 ?)?ip`)

// homeIPHints prefilter the home address rule: homeIPNamed needs
// reHomeIP to match.
var homeIPHints = hintsOf(reHomeIP)

// notHomes are the names that begin with home and name software.
var notHomes = regexp.MustCompile(`(?i)\bhome[ -]?(?:assistant|page|directory|dir|brew|kit|pod|lab|server)\b`)

// reSSHAccepted is an SSH server's log of a login that succeeded: the
// account and the address it came from.
var reSSHAccepted = regexp.MustCompile(`\bAccepted (?:password|publickey|keyboard-interactive\S*) for \S+ from ((?:\d{1,3}\.){3}\d{1,3})\b`)

// publicIP reports an IPv4 address of a host on the internet: no
// documentation, private, loopback or link-local range.
func publicIP(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is4() && !documentationIP(a) && !a.IsPrivate() && !(netip.MustParsePrefix("100.64.0.0/10").Contains(a))
}

// homeIP passes a public address, alone or as a /32, in a text that calls
// an address a person's home or own.
func homeIP(m string) bool { return publicIP(strings.TrimSuffix(m, "/32")) }

// homeIPNamed asks for the phrase within 400 bytes of the address (the
// title or the sentence before a command's code block), and no software
// named home there.
func homeIPNamed(text string, lo, hi int, m *lineMemo) bool {
	if lo > 0 && (text[lo-1] == '.' || text[lo-1] == 'v') || hi < len(text) && text[hi] == '.' && hi+1 < len(text) && text[hi+1] >= '0' && text[hi+1] <= '9' {
		return false
	}
	end := len(text)
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		end = i
	}
	// The title is read once a text (m), not once an address.
	if named, _ := m.get(text, 0, end, homeNamedIn); named {
		return true
	}
	from, to := runeWindow(text, lo, hi, 400)
	named, _ := homeNamedIn(text, from, to)
	return named
}

// homeNamedIn reports whether text[from:to] names a person's own address
// (reHomeIP, once notHomes are left out).
func homeNamedIn(text string, from, to int) (bool, bool) {
	return reHomeIP.MatchString(notHomes.ReplaceAllString(text[from:to], "")), false
}

// reHostIPv4Host is an address alone or as a single host's /32.
var reHostIPv4Host = regexp.MustCompile(`\b(?:\d{1,3}\.){3}\d{1,3}(?:/32)?\b`)

func sshLoginIP(m string) bool { return publicIP(reSSHAccepted.FindStringSubmatch(m)[1]) }

// reMailOnLine is a mail address, for userMailOnLine.
var reMailOnLine = regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}\b`)

// userMailOnLine reports a mail address that is no placeholder on the
// device's own line: a crash log's or an audit line's user=…@… beside
// device_serial=… ties the device to its user.
func userMailOnLine(text string, lo, hi int) bool {
	from := strings.LastIndexByte(text[:lo], '\n') + 1
	to := len(text)
	if i := strings.IndexByte(text[hi:], '\n'); i >= 0 {
		to = hi + i
	}
	for _, m := range reMailOnLine.FindAllString(text[from:to], -1) {
		if mailAddress(m) && !emailPlaceholder(m) {
			return true
		}
	}
	return false
}

// rePushToken is a device's push registration: Firebase Cloud Messaging's
// (an instance id, a colon, APA91b…), or an APNs device token (64 hex
// digits) in a text that names APNs or device tokens (pushTokenNamed).
// Either addresses one phone: a device id, not a service's secret.
var (
	reFCMToken  = regexp.MustCompile(`\b[A-Za-z0-9_-]{11,}:APA91b[A-Za-z0-9_-]{60,}|\bAPA91b[A-Za-z0-9_-]{100,}`)
	reAPNsToken = regexp.MustCompile(`\b[0-9a-fA-F]{64}\b`)
)

// apnsWords name an APNs device token.
var apnsWords = []string{"apns", "devicetoken", "device token", "device_token", "baddevicetoken", "push token", "push_token", "푸시 토큰", "디바이스 토큰"}

func pushTokenNamed(text string, lo, hi int) bool {
	return containsAny(foldLower(text), apnsWords)
}

// reAdvertisingID is an advertising id (Android's GAID or ADID, Apple's
// IDFA) beside its name: a UUID that follows one device across apps.
var reAdvertisingID = regexp.MustCompile(`(?i)\b(?:adid|gaid|aaid|idfa|advertising[ _-]?id|ad[ _-]?id|광고\s?(?:id|식별자))["']?\s*[:=(]?\s*["']?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b`)

// advertisingPlaceholder passes the zero UUID a device reports when the
// user opted out of tracking.
func advertisingPlaceholder(v string) bool {
	return strings.Trim(v, "0-") == ""
}
