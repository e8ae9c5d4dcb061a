package pumasi

import (
	"strings"
	"testing"
	"time"
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
