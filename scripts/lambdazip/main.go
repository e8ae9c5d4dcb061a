// Command lambdazip packs Lambda bootstrap binaries into deployment zips,
// reproducibly: one entry named bootstrap, mode 0755, a fixed time, so the
// same binary always gives the same zip bytes (and the same CodeSha256).
//
// Usage: lambdazip -out DIR BINARY...   writes DIR/<basename of BINARY>.zip
package main

import (
	"archive/zip"
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"pumasi/internal/atomicfile"
)

// epoch is the fixed modification time of every entry: the earliest time a
// zip's DOS date can hold.
var epoch = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

func main() {
	out := flag.String("out", "dist", "folder for the zips")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: lambdazip -out DIR BINARY...")
		os.Exit(2)
	}
	if err := run(*out, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "lambdazip:", err)
		os.Exit(1)
	}
}

func run(out string, bins []string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, bin := range bins {
		body, err := os.ReadFile(bin)
		if err != nil {
			return err
		}
		z, err := Zip(body)
		if err != nil {
			return fmt.Errorf("zip %s: %w", bin, err)
		}
		dst := filepath.Join(out, filepath.Base(bin)+".zip")
		if err := atomicfile.WriteFile(dst, z, 0o644); err != nil {
			return err
		}
		fmt.Printf("%s\t%d bytes\n", dst, len(z))
	}
	return nil
}

// Zip returns a zip holding body as an executable named bootstrap.
func Zip(body []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	h := &zip.FileHeader{Name: "bootstrap", Method: zip.Deflate, Modified: epoch}
	h.SetMode(0o755)
	w, err := zw.CreateHeader(h)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(body); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
