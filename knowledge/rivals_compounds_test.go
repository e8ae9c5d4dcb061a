package knowledge

import "testing"

// TestCompoundsSwapped: a compound name of one family (first word and
// joining mark) in each text that the other writes nowhere is one name put
// in place of another; the same name inflected, a name beside the one
// kept, or a file's name, is not.
func TestCompoundsSwapped(t *testing.T) {
	cases := []struct {
		name, a, b string
		want       bool
	}{
		{"a checkout option for another", "Setting fetch-depth: 0 on the checkout step fetched full history and tags.",
			"Adding fetch-tags: true to the checkout step made the tags available.", true},
		{"a repository id for another", "distributionManagement used <id>nexus-releases</id>; renaming the server to nexus-releases fixed it.",
			"distributionManagement referenced <id>nexus-snapshots</id>, so renaming the server entry to nexus-snapshots solved it.", true},
		{"a sysctl for another", "Raising net.core.somaxconn to 4096 stopped the overflows.", "We set net.ipv4.tcp_max_syn_backlog to 4096 and the overflows stopped.", true},
		{"one word inflected", "players get rubber-banded on a cross-built server", "rubber-banding players on a cross-build server", false},
		{"a name added beside the one kept", "Set fetch-depth: 0.", "Set fetch-depth: 0 and fetch-tags: true.", false},
		{"files of one name", "Credentials were in settings.xml.", "Credentials were in settings.json.", false},
		{"a policy for another of one tail", "maxmemory-policy was noeviction; switched to allkeys-lru for the cache.",
			"maxmemory-policy was noeviction; switched to volatile-lru, so only keys with a TTL go.", true},
		{"an English tail told in other words", "Put the hook in the user-level config.", "The hook belongs in the repo-level config.", false},
	}
	for _, c := range cases {
		for _, ab := range [][2]string{{c.a, c.b}, {c.b, c.a}} {
			if got := compoundsSwapped(ParseDetails(ab[0]), ParseDetails(ab[1])); got != c.want {
				t.Errorf("%s (%q, %q): compoundsSwapped = %v, want %v", c.name, ab[0], ab[1], got, c.want)
			}
		}
	}
}

// TestMimeRival: a media type in each text that the other does not name
// is one finding told of another type; one type added beside a shared one
// is not.
func TestMimeRival(t *testing.T) {
	cases := []struct {
		name, a, b string
		want       bool
	}{
		{"json for css", "nginx only compresses text/html by default; adding application/json to gzip_types fixed it.",
			"By default only text/html is compressed; putting text/css into gzip_types fixed it.", true},
		{"one added", "Add application/json to gzip_types.", "Add application/json and text/css to gzip_types.", false},
		{"no media type", "Files under /usr/local/bin.", "Files under /usr/bin.", false},
	}
	for _, c := range cases {
		for _, ab := range [][2]string{{c.a, c.b}, {c.b, c.a}} {
			if got := mimeRival(ParseDetails(ab[0]), ParseDetails(ab[1])); got != c.want {
				t.Errorf("%s (%q, %q): mimeRival = %v, want %v", c.name, ab[0], ab[1], got, c.want)
			}
		}
	}
}

// TestColonSettings: a setting whose name is joined by colons, given a
// value with = and spaces about it (smb.conf's fruit:metadata = stream), is
// a setting, so that another value for it keeps two texts apart.
func TestColonSettings(t *testing.T) {
	a := ParseDetails("In [global] we set vfs objects = catia fruit streams_xattr, fruit:metadata = stream, fruit:model = MacSamba.")
	if got := a.Settings["fruit:metadata"]; len(got) != 1 || got[0] != "stream" {
		t.Fatalf("Settings[fruit:metadata] = %q, want [stream]", got)
	}
	b := ParseDetails("In [global] we set vfs objects = catia fruit streams_xattr, fruit:metadata = netatalk, fruit:model = MacSamba.")
	if !DetailsConflict(a, b) || !DetailsConflict(b, a) {
		t.Fatalf("fruit:metadata = stream and = netatalk: DetailsConflict = false, want true")
	}
	if c := ParseDetails("see https://example.com:8443/a?b=c at 10:30 = late"); len(c.Settings["https:"]) > 0 || len(c.Settings["example.com:8443"]) > 0 {
		t.Fatalf("an address read as a colon setting: %v", c.Settings)
	}
}
