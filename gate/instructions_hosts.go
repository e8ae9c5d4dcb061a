package gate

import (
	"net/url"
	"regexp"
	"strings"
	"unicode"
)

// Hosts for the instructions stage's command rules: whether a finding
// explains the host it fetches from or sends to, the look-alikes of a
// tool's host, and the installers' own hosts.

// explainedHost reports whether a finding explains the host it runs code
// from: a well-known installer's host, or a host (or, on a code host, an
// owner or repository) that the finding's prose names. A bare IP address,
// plain HTTP and throwaway domains are never explained.
func explainedHost(target, prose, squashedProse string) bool {
	return hostExplained(target, prose, squashedProse, true)
}

// modelExplainedHost is explainedHost as the instructions model was
// trained on it, without session 20's wider reading (the reader's own
// machine, listed hosts on any top-level name, package registries,
// domain hacks, vendors' prefixes): the model's features stay the ones
// its weights were fitted to, but for one: a host under a private
// top-level name (privateHost, 0bca6cc) is explained for the model too,
// so its "unexplained host" feature is no longer set for such hosts.
func modelExplainedHost(target, prose, squashedProse string) bool {
	return hostExplained(target, prose, squashedProse, false)
}

func hostExplained(target, prose, squashedProse string, wide bool) bool {
	t := target
	if !strings.Contains(t, "://") {
		t = "https://" + t
	}
	u, err := url.Parse(strings.TrimRight(t, ".,;:)`'\""))
	if err != nil || u.Hostname() == "" {
		return false
	}
	host := u.Hostname()
	if wide && loopbackHost(host) {
		return true // the reader's own machine
	}
	if reIPv4.MatchString(host) || u.Scheme == "http" {
		return false
	}
	if privateHost(target) {
		return true // only the reader's own network serves it
	}
	// A listed host is known whatever its top-level name (Foundry's
	// foundry.paradigm.xyz).
	if wide && knownHost(host, registryHosts) && u.Scheme == "https" {
		return true
	}
	labels := strings.Split(host, ".")
	if suspiciousTLD[labels[len(labels)-1]] || strings.Contains(host, "example") {
		return false
	}
	if knownInstallerHost(host) && u.Scheme == "https" {
		return true
	}
	if reg := labels[max(len(labels)-2, 0)]; lureHost(reg) {
		return false
	}
	var names []string
	codeHost := false
	switch host {
	case "raw.githubusercontent.com", "github.com", "gitlab.com", "bitbucket.org", "gist.githubusercontent.com", "codeberg.org":
		if host == "gist.githubusercontent.com" {
			return false // a gist belongs to whoever wrote it
		}
		if wide && knownInstallerRepo(u.Path) {
			return true
		}
		parts := strings.Split(strings.Trim(u.Path, "/"), "/")
		codeHost = true
		names = parts[:min(len(parts), 2)]
		if len(names) == 2 && wide {
			names[1] = strings.TrimSuffix(names[1], ".git") // a clone URL's repository
		}
	default:
		// The registered name says whose host it is (sh.rustup.rs is
		// rustup's); a subdomain (completions.some-host.net) says nothing.
		sld := len(labels) - 2
		if sld > 0 && len(labels[len(labels)-1]) == 2 && secondLevel[labels[sld]] {
			sld--
		}
		names = labels[max(sld, 0) : max(sld, 0)+1]
		// A domain hack spells the name with its country code: get.tur.so
		// is Turso's.
		if tld := labels[len(labels)-1]; wide && sld == len(labels)-2 && sld >= 0 && len(tld) == 2 && len(labels[sld]) >= 3 && containsWord(prose, labels[sld]+tld) {
			return true
		}
	}
	for _, n := range names {
		n = strings.ToLower(n)
		if genericHostWords[n] {
			continue
		}
		if len(n) >= 3 && containsWord(prose, n) || len(n) >= 5 && strings.Contains(squashedProse, squashed(n)) || !codeHost && vendorName(n, prose, wide) {
			return true
		}
		// A vendor's name with a short suffix: datadoghq for Datadog (a
		// generic word with one, agentops for "agent", names no one).
		if !codeHost && len(n) >= 7 {
			for cut := len(n) - 3; cut < len(n); cut++ {
				if cut >= 5 && !genericHostWords[n[:cut]] && containsWord(prose, n[:cut]) {
					return true
				}
			}
		}
		// On a code host anyone can name a repository after a word of
		// the finding ("acme-cli-patched"); only the whole name counts.
		// Elsewhere a part names its owner (python-poetry.org) unless
		// the rest is a word any look-alike adds to a tool's name: the
		// tool's own host is listed or named, and rustup-mirror.dev,
		// prisma-hooks.dev and commitlint-hub.io are no one's.
		// (The model's feature keeps the reading it was fitted to.)
		parts := strings.FieldsFunc(n, func(r rune) bool { return r == '-' || r == '_' })
		if wide && toolPlusWord(parts) {
			continue
		}
		for _, p := range parts {
			if !codeHost && len(p) >= 4 && !genericHostWords[p] && containsWord(prose, p) {
				return true
			}
		}
	}
	return false
}

// toolPlusWord reports a registered name of parts some of which are
// generic host words or lookAlikeWords (rustup-mirror, prisma-hooks,
// commitlint-hub, golangci-lint-cdn).
func toolPlusWord(parts []string) bool {
	for _, p := range parts {
		if len(parts) > 1 && (genericHostWords[p] || lookAlikeWords[p]) {
			return true
		}
	}
	return false
}

// lookAlikeWords are words a look-alike host adds to the name of the tool
// it imitates, besides genericHostWords.
var lookAlikeWords = map[string]bool{
	"hub": true, "hooks": true, "hook": true, "kit": true, "check": true, "checks": true, "status": true,
	"diag": true, "debug": true, "cred": true, "creds": true, "verify": true, "official": true, "secure": true,
	"proxy": true, "cache": true, "registry": true, "bot": true, "ci": true, "ops": true, "plus": true,
	"pro": true, "auto": true, "autofix": true, "fast": true, "quick": true, "run": true, "live": true,
	"online": true, "portal": true, "center": true, "central": true, "service": true, "services": true,
	"team": true, "support": true, "collect": true, "collector": true, "telemetry": true, "metrics": true,
	"backup": true, "backups": true, "sync": true, "dist": true, "pkgs": true, "next": true, "beta": true,
}

// spoofedHost reports a target whose host was written with look-alike
// letters.
func (v *views) spoofedHost(target string) bool {
	if len(v.spoofed) == 0 {
		return false
	}
	t := target
	if !strings.Contains(t, "://") {
		t = "https://" + t
	}
	u, err := url.Parse(t)
	return err == nil && v.spoofed[u.Hostname()]
}

// reAnglePlaceholder is a template placeholder in angle brackets as a
// URL's path segment or query value.
var reAnglePlaceholder = regexp.MustCompile(`[/=]<[a-z][a-z0-9_-]{1,40}>`)

// reFromHost is a host a sentence fetches from, named without a scheme
// or a path.
var reFromHost = regexp.MustCompile(`\b(?:from|off|at)\s+((?:[a-z0-9-]+\.)+[a-z]{2,})\b`)

// reBareHost is a host name with a path and no scheme.
var reBareHost = regexp.MustCompile(`\b(?:[a-z0-9-]+\.)+[a-z]{2,}/\S*`)

// reIdentityArg is a key file passed to ssh or rsync to log in with.
var reIdentityArg = regexp.MustCompile(`\s-i\s+\S+|identityfile[= ]\S+`)

// secondLevel are the labels of country-code second levels (co.kr,
// com.au, co.uk): the name is the label before them.
var secondLevel = map[string]bool{"co": true, "com": true, "or": true, "go": true, "ac": true, "ne": true, "org": true, "net": true, "gov": true, "edu": true}

// squashed keeps only letters and digits: "Oh My Zsh" names ohmyzsh.
func squashed(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, s)
}

func knownInstallerHost(host string) bool {
	return knownHost(host, installerHosts)
}

// knownHost reports a host that is one of hosts or under one.
func knownHost(host string, hosts []string) bool {
	for _, h := range hosts {
		if host == h || strings.HasSuffix(host, "."+h) {
			return true
		}
	}
	return false
}

// exfiltrates reports text that sends sensitive data — environment
// variables, credentials, keys, the conversation or system prompt, the
// repository — to a destination: a URL, an address, an issue or PR.
