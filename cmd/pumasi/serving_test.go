package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
)

// TestStorageKnowledgeRefused: a PUMASI_STORAGE or PUMASI_KNOWLEDGE that does
// not parse (flag or env) stops localdev and pumasi sweep with exit 2 naming
// the variable, before anything is opened: the home stays empty, nothing
// falls back to the local disk, and a password in the value is never
// printed.
func TestStorageKnowledgeRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"storage typo scheme", nil, map[string]string{"PUMASI_STORAGE": "s3:/bucket/p"}, "PUMASI_STORAGE"},
		{"storage upper case", nil, map[string]string{"PUMASI_STORAGE": "S3://bucket/p"}, "PUMASI_STORAGE"},
		{"storage word", nil, map[string]string{"PUMASI_STORAGE": "minio"}, "PUMASI_STORAGE"},
		{"storage no bucket", nil, map[string]string{"PUMASI_STORAGE": "s3:///p"}, "PUMASI_STORAGE"},
		{"storage unknown parameter", nil, map[string]string{"PUMASI_STORAGE": "s3://b/p?endpont=http://127.0.0.1:9000"}, "PUMASI_STORAGE"},
		{"storage flag", []string{"--storage", "s3://b/p?path_style=maybe"}, nil, "PUMASI_STORAGE"},
		{"knowledge other scheme", nil, map[string]string{"PUMASI_KNOWLEDGE": "mysql://u:hunter2secret@db/k"}, "PUMASI_KNOWLEDGE"},
		{"knowledge bad port", nil, map[string]string{"PUMASI_KNOWLEDGE": "postgres://u:hunter2secret@db:notaport/k"}, "PUMASI_KNOWLEDGE"},
	} {
		for _, cmd := range []string{"localdev", "sweep"} {
			home := t.TempDir()
			var stdout, stderr bytes.Buffer
			env := &cliEnv{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(k string) string { return tc.env[k] }}
			args := append([]string{"--home", home}, tc.args...)
			if cmd == "localdev" {
				args = append(args, "--addr", "127.0.0.1:0", "--no-machine")
			}
			err := run(context.Background(), env, append([]string{cmd}, args...))
			var ec *exitCodeError
			if !errors.As(err, &ec) || ec.code != 2 || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s, %s: %v, want exit 2 naming %s", cmd, tc.name, err, tc.want)
				continue
			}
			if all := err.Error() + stdout.String() + stderr.String(); strings.Contains(all, "hunter2secret") {
				t.Errorf("%s, %s: the password is printed: %s", cmd, tc.name, all)
			}
			if ents, _ := os.ReadDir(home); len(ents) > 0 {
				t.Errorf("%s, %s: the home holds %d entries (first %s), want nothing opened", cmd, tc.name, len(ents), ents[0].Name())
			}
		}
	}
}

// TestSweepSaysWhichStores: pumasi sweep names the file storage and the
// knowledge store it sweeps, and says when PUMASI_KNOWLEDGE is unset.
func TestSweepSaysWhichStores(t *testing.T) {
	home := t.TempDir()
	var stdout, stderr bytes.Buffer
	env := &cliEnv{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
	if err := run(context.Background(), env, []string{"sweep", "--home", home}); err != nil {
		t.Fatalf("sweep: %v (%s)", err, stderr.String())
	}
	for _, want := range []string{
		"sweeping files: local disk under " + home + "\n",
		"sweeping knowledge: SQLite " + home + "/pumasi.db (PUMASI_KNOWLEDGE is unset",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("sweep's stderr lacks %q:\n%s", want, stderr.String())
		}
	}
}
