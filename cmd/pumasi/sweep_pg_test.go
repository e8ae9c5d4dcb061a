package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"pumasi/internal/testpeer"
	"pumasi/internal/wire"
	"pumasi/knowledge"
)

// TestSweepByHandPostgres: with PUMASI_KNOWLEDGE=postgres://, an
// empty knowledge store sweeps fine, and entries of another model than the
// shell's embedder refuse the sweep (exit 2) and are left on their model;
// --reembed moves them.
func TestSweepByHandPostgres(t *testing.T) {
	url := testpeer.Postgres(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	home := t.TempDir()
	sweep := func(args ...string) (string, error) {
		var stdout, stderr bytes.Buffer
		env := &cliEnv{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(k string) string {
			if k == "PUMASI_KNOWLEDGE" {
				return url
			}
			return ""
		}}
		err := run(ctx, env, append([]string{"sweep", "--home", home}, args...))
		return stdout.String() + stderr.String(), err
	}
	if out, err := sweep(); err != nil {
		t.Fatalf("sweep of an empty Postgres store: %v (%s)", err, out)
	}
	k, closeKnow, err := wire.OpenKnowledge(ctx, nil, wire.KnowledgeConfig{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer closeKnow()
	res, err := k.Contribute(ctx, knowledge.ContributeInput{Hive: "academy", Agent: "agent-a", Title: "server entry", Content: "embedded by the server's model",
		NormHash: knowledge.Hash("server entry", "embedded by the server's model"), Model: "server-model", Vector: []float32{1, 0, 0}, Specificity: 0.8, Threshold: 0.94})
	if err != nil {
		t.Fatal(err)
	}
	out, err := sweep()
	var code *exitCodeError
	if !errors.As(err, &code) || code.code != 2 || !strings.Contains(err.Error(), "server-model") {
		t.Fatalf("sweep with entries of another model = %v (%s), want exit 2 naming server-model", err, out)
	}
	kn := k.(*knowledge.Engine)
	others, err := kn.Driver().(knowledge.Reembedder).OtherModel(ctx, "none", 10)
	if err != nil || len(others) != 1 || others[0].Model != "server-model" {
		t.Fatalf("after the refused sweep: %+v, %v; want the entry still on server-model", others, err)
	}
	if out, err := sweep("--reembed"); err != nil {
		t.Fatalf("sweep --reembed: %v (%s)", err, out)
	}
	others, err = kn.Driver().(knowledge.Reembedder).OtherModel(ctx, "server-model", 10)
	if err != nil || len(others) != 1 || others[0].ID != res.Entry.ID {
		t.Fatalf("after --reembed: %+v, %v; want the entry moved off server-model", others, err)
	}
}
