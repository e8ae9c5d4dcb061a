package pumasi

import (
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

func TestTokens(t *testing.T) {
	secret := []byte("0123456789abcdef0123456789abcdef")
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	tok, err := SignToken(secret, "alice", []string{"room:r1", "machine:m1"}, time.Hour, now)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParseToken(secret, tok, now.Add(30*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if p.Subject != "alice" || p.Admin || !p.CanRoom("r1") || p.CanRoom("r2") || !p.CanMachine("m1") || p.CanMachine("m2") {
		t.Fatalf("principal = %+v", p)
	}
	if _, err := ParseToken(secret, tok, now.Add(2*time.Hour)); ErrorCode(err) != EUnauthorized {
		t.Fatalf("expired token: %v", err)
	}
	if _, err := ParseToken([]byte("another-secret-0123456789abcdef"), tok, now); ErrorCode(err) != EUnauthorized {
		t.Fatalf("forged token: %v", err)
	}
	// Tampering with the payload breaks the signature.
	parts := strings.Split(tok, ".")
	parts[1] = parts[1][:len(parts[1])-2] + "AA"
	if _, err := ParseToken(secret, strings.Join(parts, "."), now); ErrorCode(err) != EUnauthorized {
		t.Fatalf("tampered token: %v", err)
	}
	// "alg": "none" is refused.
	none := "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0." + parts[1] + "."
	if _, err := ParseToken(secret, none, now); ErrorCode(err) != EUnauthorized {
		t.Fatalf("alg none token: %v", err)
	}
	if _, err := SignToken(secret, "x", []string{"root"}, time.Hour, now); ErrorCode(err) != EInvalidRequest {
		t.Fatalf("bad scope: %v", err)
	}
	if _, err := SignToken([]byte("short"), "x", []string{"admin"}, time.Hour, now); err == nil {
		t.Fatal("short secret accepted")
	}
	admin, _ := SignToken(secret, "root", []string{ScopeAdmin}, time.Hour, now)
	if p, err := ParseToken(secret, admin, now); err != nil || !p.CanRoom("any") || !p.CanMachine("any") {
		t.Fatalf("admin = %+v, %v", p, err)
	}
}

// TestParseTokenRefusesEmptySecret forges tokens with an empty and a short
// HMAC key, as anyone could against a server whose secret is unset: none
// may verify, and neither may a genuine token checked with such a secret.
func TestParseTokenRefusesEmptySecret(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	claims := tokenClaims{Scope: ScopeAdmin, RegisteredClaims: jwt.RegisteredClaims{
		Issuer: "pumasi", Subject: "mallory", ExpiresAt: jwt.NewNumericDate(now.Add(time.Hour))}}
	for _, key := range [][]byte{nil, {}, []byte("short")} {
		forged, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(key)
		if err != nil {
			t.Fatalf("sign with %q: %v", key, err)
		}
		if p, err := ParseToken(key, forged, now); ErrorCode(err) != EUnauthorized || p != nil {
			t.Fatalf("ParseToken(secret %q) of a token signed with it = %+v, %v; want unauthorized", key, p, err)
		}
	}
	secret := []byte("0123456789abcdef")
	tok, err := SignToken(secret, "alice", []string{ScopeAdmin}, time.Hour, now)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseToken(secret, tok, now); err != nil {
		t.Fatalf("a %d-byte secret (the minimum) must verify: %v", len(secret), err)
	}
	if _, err := ParseToken(nil, tok, now); ErrorCode(err) != EUnauthorized {
		t.Fatalf("ParseToken with no secret = %v, want unauthorized", err)
	}
}
