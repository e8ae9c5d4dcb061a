package gate

import (
	"slices"
	"testing"
)

// TestPIICarriers15b pins each family pii15b added beside a look-alike
// that must pass.
func TestPIICarriers15b(t *testing.T) {
	for _, c := range []struct {
		text, want string // want "" passes
	}{
		{"webhook_url: https://chat.corp-infra.net/hooks/k3x9qz7m2p4w8r1t5y6u0v2b3n", PIISecret},
		{"https://wh.jandi.com/connect-api/webhook/27194388/4c5f0e1e2d3a9b8c7d6e5f4a3b2c1d0e", PIISecret},
		{"https://wh.jandi.com/connect-api/webhook/<ID>/<TOKEN>", ""},
		{"https://hooks.zapier.com/hooks/catch/123456/abcdef/", ""},
		{"https://github.com/acme/api/settings/hooks/412345678", ""},
		{"https://b.s3.amazonaws.com/k.tgz?X-Amz-Expires=60&X-Amz-Signature=8f0c1d2e3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d", PIISecret},
		{"a presigned URL carries X-Amz-Signature and X-Amz-Expires", ""},
		{"extra-index-url = https://Qm4zT8vK2pLx9RwN6yB3@pypi.fury.io/acme/", PIISecret},
		{"Authorization: KakaoAK 3f9a0c1b2e4d5f8a9b0c1d2e3f4a5b6c", PIISecret},
		{"<key>APISigningSecret</key>\n<string>5937ef5ba4cc0548a51d7435ee6f66b32e1ad748</string>", PIISecret},
		{"<key>APISigningSecret</key>\n<string>$(API_SIGNING_SECRET)</string>", ""},
		{"<key>CFBundleIdentifier</key>\n<string>com.acme.PayApp2024x</string>", ""},
		{"employee_id,name,ssn\nE-2207,Maria Lopez,529431806", PIIUSSSN},
		{"order_id,name,total\nE-2207,Maria Lopez,529431806", ""},
		{"| id | ni_number |\n+----+-----------+\n| 3 | JT 48 21 96 C |", PIINationalID},
		{"AHV-Nr. 756.8245.6193.79", PIINationalID},
		{"AHV-Nr. 756.8245.6193.70", ""}, // wrong check digit
		{"PPSN 8371622E", PIINationalID},
		{"PPSN 8371622O", ""}, // wrong check letter
		{"call 010-0000-0001 in the test env", ""},
	} {
		got := DetectPII(c.text)
		if c.want == "" && len(got) != 0 || c.want != "" && !slices.Contains(got, c.want) {
			t.Errorf("DetectPII(%q) = %v, want %q", c.text, got, c.want)
		}
	}
}
