package local

import (
	"testing"

	"pumasi"
	"pumasi/adapters/storagetest"
)

func TestConnections(t *testing.T) {
	storagetest.RunConnections(t, func(t *testing.T) pumasi.ConnectionStore { return openT(t, t.TempDir(), Options{}) })
}
