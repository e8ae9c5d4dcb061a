package pumasi

import (
	"testing"
	"time"
)

// FuzzParseToken checks that no input crashes the verifier and that nothing
// but a token signed with the secret yields a principal.
func FuzzParseToken(f *testing.F) {
	secret := []byte("0123456789abcdef0123456789abcdef")
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	good, _ := SignToken(secret, "s", []string{"room:r1"}, time.Hour, now)
	f.Add(good)
	f.Add("")
	f.Add("a.b.c")
	f.Add("eyJhbGciOiJub25lIn0.eyJzY29wZSI6ImFkbWluIn0.")
	f.Add(good + "x")
	f.Fuzz(func(t *testing.T, tok string) {
		p, err := ParseToken(secret, tok, now)
		if err != nil {
			if ErrorCode(err) != EUnauthorized {
				t.Fatalf("code %q", ErrorCode(err))
			}
			return
		}
		// A principal only comes from a validly signed token: re-signing its
		// claims must be what the fuzzer handed us, or at least verify.
		if p == nil || (!p.Admin && len(p.Rooms) == 0 && len(p.Machines) == 0) {
			t.Fatalf("accepted token with no scope: %+v", p)
		}
		if _, err := ParseToken([]byte("another-secret-0123456789abcdef!"), tok, now); err == nil {
			t.Fatalf("token %q verifies under two secrets", tok)
		}
	})
}
