package main

import (
	"archive/zip"
	"bytes"
	"io"
	"testing"
)

func TestZipIsReproducible(t *testing.T) {
	body := bytes.Repeat([]byte("\x7fELF pretend binary "), 5000)
	a, err := Zip(body)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Zip(body)
	if !bytes.Equal(a, b) {
		t.Fatal("two zips of the same binary differ")
	}
	zr, err := zip.NewReader(bytes.NewReader(a), int64(len(a)))
	if err != nil {
		t.Fatal(err)
	}
	if len(zr.File) != 1 || zr.File[0].Name != "bootstrap" {
		t.Fatalf("entries = %v, want [bootstrap]", zr.File)
	}
	f := zr.File[0]
	if f.Mode().Perm() != 0o755 || !f.Modified.Equal(epoch) {
		t.Fatalf("bootstrap mode %v time %v, want 0755 at %v", f.Mode(), f.Modified, epoch)
	}
	rc, _ := f.Open()
	got, _ := io.ReadAll(rc)
	if !bytes.Equal(got, body) {
		t.Fatal("bootstrap bytes differ from the binary")
	}
}
