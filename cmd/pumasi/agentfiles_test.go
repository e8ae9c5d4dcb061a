package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/text/unicode/norm"

	"pumasi"
)

func TestListSharedFiles(t *testing.T) {
	home := t.TempDir()
	dir := writeSharedFiles(t, home, "a1", map[string]string{
		"b.md":                      "b\n",
		"회의록.md":                    "nfc copy\n",
		norm.NFD.String("회의록.md"):   "nfd copy\n",
		norm.NFD.String("café.txt"): "only nfd\n",
		".pumasi-tmp-1":             "temp",
		"trailing.":                 "bad name",
	})
	got, err := listSharedFiles(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	var names, contents []string
	for _, e := range got {
		names = append(names, e.name)
		contents = append(contents, string(e.content))
	}
	if want := []string{"b.md", "café.txt", "회의록.md"}; !slices.Equal(names, want) {
		t.Fatalf("names = %q, want %q", names, want)
	}
	if want := []string{"b\n", "only nfd\n", "nfc copy\n"}; !slices.Equal(contents, want) {
		t.Fatalf("contents = %q, want %q", contents, want)
	}
	if got[0].sha256 != sharedFileOf("b.md", "b\n").SHA256 || got[0].size != 2 {
		t.Fatalf("b.md = %+v", got[0])
	}

	missing, err := listSharedFiles(context.Background(), filepath.Join(home, "agents", "nobody", "memory", "shared"))
	if err != nil || len(missing) != 0 {
		t.Fatalf("missing dir = %v, %v; want empty", missing, err)
	}
}

func TestFindSharedFile(t *testing.T) {
	home := t.TempDir()
	dir := writeSharedFiles(t, home, "a1", map[string]string{"Spec.md": "spec\n"})
	writeSharedFiles(t, home, "a2", map[string]string{"other.md": "other\n"})
	if err := os.WriteFile(filepath.Join(home, "agents", "a1", "memory", "notes.md"), []byte("private"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, name := range []string{"Spec.md", "spec.md", "SPEC.MD"} {
		e, err := findSharedFile(ctx, dir, name)
		if err != nil || string(e.content) != "spec\n" || e.name != "Spec.md" {
			t.Fatalf("find %q = %+v, %v", name, e, err)
		}
	}
	for name, code := range map[string]string{
		"../notes.md":                     pumasi.EInvalidName,
		"../../a2/memory/shared/other.md": pumasi.EInvalidName,
		"/etc/passwd":                     pumasi.EInvalidName,
		"..":                              pumasi.EInvalidName,
		"":                                pumasi.EInvalidName,
		"a\x00b":                          pumasi.EInvalidName,
		"other.md":                        pumasi.ENotFound,
		"notes.md":                        pumasi.ENotFound,
	} {
		if _, err := findSharedFile(ctx, dir, name); pumasi.ErrorCode(err) != code {
			t.Fatalf("find %q: code %q (%v), want %q", name, pumasi.ErrorCode(err), err, code)
		}
	}
}
