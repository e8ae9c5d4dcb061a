package gate

import (
	"encoding/base64"
	"strings"
	"unicode"
)

// Documentation placeholders for secrets: the values documentation, vendors
// and sample stacks print where a key, token or password goes, which the
// secret rules of pii_secrets.go pass.

// tokenPlaceholder passes values that are obviously redacted or templated:
// runs of x, *, dots or angle-bracket names.
func tokenPlaceholder(m string) bool {
	l := strings.ToLower(m)
	if strings.Contains(l, "xxxx") || strings.Contains(l, "****") || strings.Contains(l, "...") ||
		strings.Contains(l, "your_") || strings.Contains(l, "your-") || strings.Contains(l, "redacted") {
		return true
	}
	// Real keys mix letters and digits; a run without digits is a word
	// ("sk-learn-compatible-pipelines").
	for _, r := range m {
		if unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// awsPlaceholder passes the example credentials of the AWS documentation
// (AKIAIOSFODNN7EXAMPLE, wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY): AWS
// publishes them for copy-paste and never issues them. A value edited
// from them (AKIAIOSFODNN7EXAMPL2, a scanner's test of its own allow list)
// keeps their body: the documented key's AKIAIOSFODNN7 or the secret's
// wJalrXUtnFEMI/K7MDENG, or the word EXAMPL. No issued key holds either.
func awsPlaceholder(m string) bool {
	return strings.Contains(m, "EXAMPL") || strings.Contains(m, "AKIAIOSFODNN7") || strings.Contains(m, "wJalrXUtnFEMI/K7MDENG")
}

// stripeDocKey is the test-mode key printed in every example of Stripe's
// API reference; it only reaches Stripe's own sample account.
const stripeDocKey = "sk_test_4eC39HqLyjWDarjtT1zdp7dc"

func stripePlaceholder(m string) bool { return m == stripeDocKey || tokenPlaceholder(m) }

// jwtIOSignature ends the sample token of jwt.io ("John Doe", signed with
// "your-256-bit-secret"), which documentation everywhere copies.
const jwtIOSignature = "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"

// supabaseDemoSignatures end the anon and service_role keys that the
// Supabase CLI's local stack prints for everyone (iss supabase-demo,
// signed with its published demo secret).
var supabaseDemoSignatures = []string{"CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0", "EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU"}

// jwtUnsigned passes a token whose signature is written as a placeholder
// (eyJ….eyJ….<signature>, ….…): a header and claims without their
// signature authenticate nothing. scanPII still reads its claims for
// personal data.
func jwtUnsigned(text string, lo, hi int) bool {
	if !strings.HasSuffix(text[lo:hi], ".") {
		return false
	}
	rest := text[hi:]
	return strings.HasPrefix(rest, "<") || strings.HasPrefix(rest, "...") || strings.HasPrefix(rest, "…")
}

func jwtPlaceholder(m string) bool {
	for _, sig := range append([]string{jwtIOSignature}, supabaseDemoSignatures...) {
		if strings.HasSuffix(m, "."+sig) {
			return true
		}
	}
	return false
}

// azuriteKey is the well-known account key of the Azure Storage emulator
// (devstoreaccount1), published by Microsoft.
const azuriteKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

func azurePlaceholder(m string) bool { return strings.Contains(m, azuriteKey) || tokenPlaceholder(m) }

// placeholderSecrets are words documentation writes where a password goes.
var placeholderSecrets = map[string]bool{
	"password": true, "passwd": true, "pass": true, "secret": true, "changeme": true, "example": true,
	"test": true, "postgres": true, "root": true, "admin": true, "string": true, "str": true,
	"none": true, "null": true, "nil": true, "true": true, "false": true, "required": true,
	"yourpassword": true, "your_password": true, "mypassword": true, "pw": true, "pwd": true,
	// Sample passwords of images' and tools' documentation.
	"my-secret-pw": true, "mysecretpassword": true, "foobared": true, "minioadmin": true, "changeit": true,
	"tiger":   true, // Oracle's scott/tiger sample schema.
	"hunter2": true, // The joke every example of a password in a chat quotes.
}

// samplePassword reports a lowercase value that is a placeholder word
// with a counting run after it (password123, admin1234, changeme1!, and
// passw0rd): the samples documentation and compose files print, which head
// every list of leaked passwords and so guard nothing.
func samplePassword(l string) bool {
	w := strings.TrimRight(l, "!")
	d := strings.TrimRight(w, "0123456789")
	if run := w[len(d):]; run == "" || !strings.HasPrefix("1234567890", run) {
		return w == "passw0rd" || w == "p@ssw0rd"
	}
	return placeholderSecrets[d] || d == "passw0rd" || d == "p@ssw0rd" || d == "qwerty" || d == "letmein" || d == "welcome"
}

// secretPlaceholder reports whether a password value is a template, a mask,
// a placeholder word, a path ($PWD:/app) or a reference in code rather than
// a secret. Real
// passwords mix letters with digits or symbols; a word alone is taken for a
// placeholder.
func secretPlaceholder(v string) bool {
	v = strings.Trim(v, `"'`+"`")
	// A Korean particle glued to the value (password123을) is not part of it.
	if t := strings.TrimRightFunc(v, func(r rune) bool { return unicode.Is(unicode.Hangul, r) }); t != "" && t != v && t[len(t)-1] < 0x80 {
		v = t
	}
	// A word ending in a colon opens a message ("password: `Error: …`"),
	// and a value after "?" is the error text of a shell expansion
	// (${DB_PASSWORD:?must be set}).
	if w := strings.TrimRight(v, ":"); w != v && w != "" {
		v = w
	}
	l := strings.ToLower(v)
	switch {
	case len(v) < 4, placeholderSecrets[l], samplePassword(l), docSecrets[v], docPasswords[v], leetPlaceholder(l), placeholderParts(l), cutBeforeTemplate(v):
		return true
	case strings.ContainsAny(v[:1], "$<{%([*/?"), strings.HasPrefix(v, "~/"), strings.HasPrefix(v, "./"), strings.Contains(v, "${"), strings.Contains(v, "{{"), strings.Contains(v, "$("):
		return true
	case strings.Contains(l, "xxx"), strings.Contains(l, "***"), strings.Contains(l, "..."), strings.Contains(l, "redacted"):
		return true
	}
	// Letters alone are a word, unless they are base64 of a password
	// (a Kubernetes Secret's data: UmsyIXBaOXZRdzcj is Rk2!pZ9vQw7#).
	if encodedSecret(v) {
		return false
	}
	letter, other := false, false
	for _, r := range v {
		switch {
		case unicode.IsLetter(r):
			letter = true
		default:
			other = true
		}
	}
	if !letter || !other {
		return true
	}
	// os.Getenv("X"), cfg.DB.Password, request.form[...]: code, not a value.
	return strings.ContainsAny(v, "([") || reDottedName.MatchString(v)
}

// encodedSecret reports a value that is standard base64 of printable
// ASCII text of 8 characters or more holding letters and something else:
// a secret written as a Kubernetes Secret's data holds it.
func encodedSecret(v string) bool {
	if len(v) < 12 || len(v)%4 != 0 {
		return false
	}
	b, err := base64.StdEncoding.DecodeString(v)
	if err != nil || len(b) < 8 {
		return false
	}
	letter, other := false, false
	for _, c := range b {
		switch {
		case c < 0x21 || c > 0x7e:
			return false
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letter = true
		default:
			other = true
		}
	}
	return letter && other
}
