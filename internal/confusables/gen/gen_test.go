package main

import (
	"bytes"
	"os"
	"testing"
)

// TestTablesAreGenerated: tables.go is exactly what the generator writes
// from the pinned confusables.txt, so neither can drift from the other.
func TestTablesAreGenerated(t *testing.T) {
	want, err := Generate("../confusables.txt")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../tables.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("internal/confusables/tables.go is not what gen writes from confusables.txt: run go generate ./internal/confusables")
	}
}
