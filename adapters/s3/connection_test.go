package s3_test

import (
	"testing"

	"pumasi"
	s3store "pumasi/adapters/s3"
	"pumasi/adapters/storagetest"
)

// TestConnections runs the connection registry suite against a real MinIO,
// each store under its own prefix.
func TestConnections(t *testing.T) {
	storagetest.RunConnections(t, func(t *testing.T) pumasi.ConnectionStore { return newEnv(t).open(t, s3store.Options{}) })
}
