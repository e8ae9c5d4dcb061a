package knowledge

import "testing"

// TestSpanSwapped: a one-word span of one shape each side, written nowhere
// in the other text, in texts that share two spans, is a setting or a name
// put in place of another; a span restated in prose, or one each side with
// fewer spans shared, is not.
func TestSpanSwapped(t *testing.T) {
	cases := []struct {
		name, a, b string
		want       bool
	}{
		{"a setting for another", "Metro failed with `Unable to resolve module`. Adding `node-linker=hoisted` to `.npmrc` fixed it.",
			"Metro kept throwing `Unable to resolve module`; we put `shamefully-hoist=true` in `.npmrc`.", true},
		{"a feature for another", "`#[tokio::main]` needs `multi_thread`: the `rt-multi-thread` feature is disabled.",
			"On `#[tokio::main]` the flavor is `multi_thread` yet the `macros` feature is disabled.", true},
		{"the span restated in prose", "`#[tokio::main]` needs `multi_thread`: enable the `macros` feature.",
			"On `#[tokio::main]` the flavor is `multi_thread`; the macros feature was off.", false},
		{"one span shared", "`tokio::task::spawn_blocking` inside `block_on` panics.", "Calling `.await` inside `block_on` panics.", false},
		{"spans of other shapes", "Serve `/.well-known/webfinger` from `nginx` with `proxy_pass`.",
			"Set `web_domain=social.example.com` in `nginx` with `proxy_pass`.", false},
	}
	for _, c := range cases {
		if got := spanSwapped(ParseDetails(c.a), ParseDetails(c.b)); got != c.want {
			t.Errorf("%s: spanSwapped = %v, want %v", c.name, got, c.want)
		}
		if got := spanSwapped(ParseDetails(c.b), ParseDetails(c.a)); got != c.want {
			t.Errorf("%s, the other way: spanSwapped = %v, want %v", c.name, got, c.want)
		}
	}
}
