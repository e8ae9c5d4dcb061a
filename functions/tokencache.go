package functions

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"pumasi"
)

// maxCachedTokens bounds the verified tokens kept; past it the cache starts
// over.
const maxCachedTokens = 4096

// tokenCache keeps tokens already verified, until they expire: a daemon's
// poll presents the same token every few seconds, and verifying its
// signature and decoding its claims costs more than the 304 it asks for. A
// hit is exactly the token string verified before under the same secret,
// and is refused once the token's own expiry has passed.
type tokenCache struct {
	mu sync.Mutex
	m  map[string]verifiedToken
}

type verifiedToken struct {
	p   *pumasi.Principal
	exp time.Time
}

// parse returns the principal of tok, verified now or before.
func (c *tokenCache) parse(secret []byte, tok string, now time.Time) (*pumasi.Principal, error) {
	key := string(secret) + "\x00" + tok
	c.mu.Lock()
	v, ok := c.m[key]
	c.mu.Unlock()
	if ok && now.Before(v.exp) {
		return clonePrincipal(v.p), nil
	}
	p, err := pumasi.ParseToken(secret, tok, now)
	if err != nil {
		return nil, err
	}
	if exp, ok := tokenExpiry(tok); ok {
		c.mu.Lock()
		if c.m == nil || len(c.m) >= maxCachedTokens {
			c.m = map[string]verifiedToken{}
		}
		c.m[key] = verifiedToken{p: clonePrincipal(p), exp: exp}
		c.mu.Unlock()
	}
	return p, nil
}

// tokenExpiry reads the exp claim of a token whose signature was verified.
func tokenExpiry(tok string) (time.Time, bool) {
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return time.Time{}, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return time.Time{}, false
	}
	var claims struct {
		Exp *json.Number `json:"exp"`
	}
	if err := json.Unmarshal(raw, &claims); err != nil || claims.Exp == nil {
		return time.Time{}, false
	}
	sec, err := claims.Exp.Float64()
	if err != nil {
		return time.Time{}, false
	}
	return time.Unix(int64(sec), 0), true
}

// clonePrincipal copies p, so no caller can change what the cache holds.
func clonePrincipal(p *pumasi.Principal) *pumasi.Principal {
	cp := &pumasi.Principal{Subject: p.Subject, Expires: p.Expires, Admin: p.Admin, Rooms: map[string]bool{}, Machines: map[string]bool{}}
	for k, v := range p.Rooms {
		cp.Rooms[k] = v
	}
	for k, v := range p.Machines {
		cp.Machines[k] = v
	}
	return cp
}
