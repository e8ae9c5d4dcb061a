package localdev

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"pumasi"
)

// AdminTokenTTL is how long localdev's admin token lives; it is re-minted at
// start when it no longer verifies.
const AdminTokenTTL = 365 * 24 * time.Hour

// LoadOrCreateSecret returns the signing secret kept in <home>/secret,
// creating it (mode 0600) on first use. Two processes starting at once agree:
// the file is published with a hard link, which fails if it already exists.
func LoadOrCreateSecret(home string) ([]byte, error) {
	path := filepath.Join(home, "secret")
	if b, err := os.ReadFile(path); err == nil {
		s := strings.TrimSpace(string(b))
		if len(s) < 32 {
			return nil, fmt.Errorf("secret in %s is shorter than 32 characters", path)
		}
		return []byte(s), nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read secret: %w", err)
	}
	// The home may not exist yet: `pumasi token` can run before localdev.
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, fmt.Errorf("create home: %w", err)
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, fmt.Errorf("generate secret: %w", err)
	}
	tmp, err := writeTemp(home, ".secret-", []byte(hex.EncodeToString(raw)+"\n"), 0o600)
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil && !errors.Is(err, os.ErrExist) {
		return nil, fmt.Errorf("publish secret: %w", err)
	}
	return LoadOrCreateSecret(home)
}

// ensureAdminToken returns the admin token from <home>/admin.token, minting
// a new one when it is missing or no longer verifies with secret.
func ensureAdminToken(home string, secret []byte, now time.Time) (string, error) {
	path := filepath.Join(home, "admin.token")
	if b, err := os.ReadFile(path); err == nil {
		tok := strings.TrimSpace(string(b))
		if p, err := pumasi.ParseToken(secret, tok, now.Add(24*time.Hour)); err == nil && p.Admin {
			return tok, nil
		}
	}
	tok, err := pumasi.SignToken(secret, "localdev-admin", []string{pumasi.ScopeAdmin}, AdminTokenTTL, now)
	if err != nil {
		return "", err
	}
	if err := writeFileAtomic(path, []byte(tok+"\n"), 0o600); err != nil {
		return "", err
	}
	return tok, nil
}

func writeTemp(dir, prefix string, data []byte, mode os.FileMode) (string, error) {
	f, err := os.CreateTemp(dir, prefix)
	if err != nil {
		return "", fmt.Errorf("create temp: %w", err)
	}
	name := f.Name()
	if err := f.Chmod(mode); err == nil {
		if _, err = f.Write(data); err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			return name, nil
		}
	} else {
		f.Close()
	}
	os.Remove(name)
	return "", fmt.Errorf("write temp: %w", err)
}

// writeFileAtomic replaces path with data: temp file, fsync, rename, dir fsync.
func writeFileAtomic(path string, data []byte, mode os.FileMode) error {
	dir := filepath.Dir(path)
	tmp, err := writeTemp(dir, "."+filepath.Base(path)+".tmp-", data, mode)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("rename into place: %w", err)
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}
