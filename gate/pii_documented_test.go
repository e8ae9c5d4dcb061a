package gate

import (
	"slices"
	"testing"
)

// TestDocumentedVariants pins the documented values that pass in forms
// the older rules refused: a mail provider's test sinks and AWS's example
// credentials edited by a writer, each beside a real-looking value that
// is still refused.
func TestDocumentedVariants(t *testing.T) {
	for _, c := range []struct {
		text, want string // want "" passes
	}{
		{"send to bounce@simulator.amazonses.com to test the SNS bounce topic", ""},
		{"Postmark drops mail to anything@blackhole.postmarkapp.com", ""},
		{"SendGrid accepts test@sink.sendgrid.net and delivers nothing", ""},
		{"send to minji.kwon@amazonses-mail.kr to test the bounce topic", PIIEmail},
		{"the allow list misses AKIAIOSFODNN7EXAMPL3 because the docs key was edited", ""},
		{"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLE12", ""},
		{"leaked key AKIA4TQ7ZR2LM9XK3PWV in the build log", PIIAWSKey},
	} {
		got := DetectPII(c.text)
		if c.want == "" && len(got) != 0 || c.want != "" && !slices.Contains(got, c.want) {
			t.Errorf("DetectPII(%q) = %v, want %q", c.text, got, c.want)
		}
	}
}
