package pumasi

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/golang-jwt/jwt/v5"
)

// Scope prefixes of a token (DESIGN.md §7).
const (
	ScopeAdmin   = "admin"
	ScopeRoom    = "room:"
	ScopeMachine = "machine:"
)

// tokenClaims are the JWT claims: standard ones plus space-separated scopes.
type tokenClaims struct {
	Scope string `json:"scope"`
	jwt.RegisteredClaims
}

// Principal is who a verified token speaks for.
type Principal struct {
	Subject string
	// Expires is when the token expires; a WebSocket it opened closes then.
	Expires  time.Time
	Admin    bool
	Rooms    map[string]bool
	Machines map[string]bool
}

// Who names p in the room log and as uploaded_by: its subject, or for a
// token minted without one, its first scope.
func (p *Principal) Who() string {
	switch {
	case p == nil:
		return ""
	case p.Subject != "":
		return p.Subject
	case p.Admin:
		return ScopeAdmin
	}
	if len(p.Rooms) > 0 {
		return ScopeRoom + slices.Min(slices.Collect(maps.Keys(p.Rooms)))
	}
	if len(p.Machines) > 0 {
		return ScopeMachine + slices.Min(slices.Collect(maps.Keys(p.Machines)))
	}
	return ""
}

// MaxSubject is the longest token subject, in bytes.
const MaxSubject = 128

// CheckSubject returns invalid_request unless s is a subject the room log
// can show: at most MaxSubject bytes of valid UTF-8, no control characters.
func CheckSubject(s string) error {
	if len(s) > MaxSubject || !utf8.ValidString(s) || strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return Errorf(EInvalidRequest, "subject must be at most %d bytes of text without control characters", MaxSubject)
	}
	return nil
}

// CanRoom reports whether p may act on room's files and placements.
func (p *Principal) CanRoom(room string) bool { return p != nil && (p.Admin || p.Rooms[room]) }

// CanMachine reports whether p may act as machine.
func (p *Principal) CanMachine(machine string) bool {
	return p != nil && (p.Admin || p.Machines[machine])
}

// CheckScope returns invalid_request unless scope is admin, room:<id> or machine:<id>.
func CheckScope(scope string) error {
	switch {
	case scope == ScopeAdmin:
		return nil
	case strings.HasPrefix(scope, ScopeRoom) && ValidID(scope[len(ScopeRoom):]):
		return nil
	case strings.HasPrefix(scope, ScopeMachine) && ValidID(scope[len(ScopeMachine):]):
		return nil
	}
	return Errorf(EInvalidRequest, "scope %q is not admin, room:<id> or machine:<id>", scope)
}

// MinSecret is the shortest signing secret SignToken and ParseToken accept:
// with an empty or short one, anybody could mint tokens the server honours.
const MinSecret = 16

// SignToken mints an HS256 token carrying scopes, valid for ttl from now.
func SignToken(secret []byte, subject string, scopes []string, ttl time.Duration, now time.Time) (string, error) {
	if len(secret) < MinSecret {
		return "", Errorf(EInvalidRequest, "signing secret is shorter than 16 bytes")
	}
	if err := CheckSubject(subject); err != nil {
		return "", err
	}
	for _, s := range scopes {
		if err := CheckScope(s); err != nil {
			return "", err
		}
	}
	c := tokenClaims{
		Scope: strings.Join(scopes, " "),
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    "pumasi",
			Subject:   subject,
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(ttl)),
		},
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(secret)
}

// ParseToken verifies an HS256 token at time now. Returns unauthorized for a
// malformed, forged, expired or scope-less token, and for every token when
// secret is shorter than MinSecret (an unset secret must not verify tokens
// signed with an empty key).
func ParseToken(secret []byte, token string, now time.Time) (*Principal, error) {
	if len(secret) < MinSecret {
		return nil, Errorf(EUnauthorized, "token is not valid")
	}
	var c tokenClaims
	_, err := jwt.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return secret, nil },
		jwt.WithValidMethods([]string{"HS256"}),
		jwt.WithTimeFunc(func() time.Time { return now }),
		jwt.WithIssuer("pumasi"),
		jwt.WithExpirationRequired(),
	)
	if err != nil {
		if errors.Is(err, jwt.ErrTokenExpired) {
			return nil, Errorf(EUnauthorized, "token has expired")
		}
		return nil, Errorf(EUnauthorized, "token is not valid")
	}
	p := &Principal{Subject: c.Subject, Rooms: map[string]bool{}, Machines: map[string]bool{}}
	if c.ExpiresAt != nil {
		p.Expires = c.ExpiresAt.Time
	}
	for _, s := range strings.Fields(c.Scope) {
		switch {
		case s == ScopeAdmin:
			p.Admin = true
		case strings.HasPrefix(s, ScopeRoom) && ValidID(s[len(ScopeRoom):]):
			p.Rooms[s[len(ScopeRoom):]] = true
		case strings.HasPrefix(s, ScopeMachine) && ValidID(s[len(ScopeMachine):]):
			p.Machines[s[len(ScopeMachine):]] = true
		}
	}
	if !p.Admin && len(p.Rooms) == 0 && len(p.Machines) == 0 {
		return nil, Errorf(EUnauthorized, "token carries no scope")
	}
	return p, nil
}
