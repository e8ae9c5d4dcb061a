package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pumasi/functions"
)

// TestLocaldevTuningRefused: a bad knowledge knob, as a flag or in the env,
// stops localdev before it serves (exit 2) with an error naming the
// variable, as the same value fails a knowledge Lambda's cold start; an
// unreadable env value is no longer taken as 0.
func TestLocaldevTuningRefused(t *testing.T) {
	for _, tc := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"--merge-threshold", "1.5"}, nil, functions.EnvMergeThreshold},
		{nil, map[string]string{functions.EnvMergeThreshold: "abc"}, functions.EnvMergeThreshold},
		{[]string{"--knowledge-vector-weight", "-0.2"}, nil, functions.EnvKnowledgeVectorWeight},
		{nil, map[string]string{functions.EnvKnowledgeHalfLife: "180d"}, functions.EnvKnowledgeHalfLife},
	} {
		var stderr bytes.Buffer
		env := &cliEnv{stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &stderr, getenv: func(k string) string { return tc.env[k] }}
		args := append([]string{"--home", t.TempDir(), "--addr", "127.0.0.1:0", "--no-machine"}, tc.args...)
		err := runLocaldev(context.Background(), env, args)
		var ec *exitCodeError
		if !errors.As(err, &ec) || ec.code != 2 || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("localdev %v env %v = %v, want exit 2 naming %s", tc.args, tc.env, err, tc.want)
		}
	}
}

// TestLocaldevMergeThresholdEnv: PUMASI_MERGE_THRESHOLD=1.01 reaches the
// running server, where a reworded contribution then stays its own entry.
func TestLocaldevMergeThresholdEnv(t *testing.T) {
	home := t.TempDir()
	env := &cliEnv{stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{},
		getenv: func(k string) string { return map[string]string{functions.EnvMergeThreshold: "1.01"}[k] }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- runLocaldev(ctx, env, []string{"--home", home, "--addr", "127.0.0.1:0", "--no-machine"})
	}()
	defer func() {
		cancel()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			t.Error("localdev did not stop")
		}
	}()
	var base string
	for deadline := time.Now().Add(20 * time.Second); base == ""; time.Sleep(50 * time.Millisecond) {
		if b, err := os.ReadFile(filepath.Join(home, "localdev.addr")); err == nil {
			base = strings.TrimSpace(string(b))
		} else if time.Now().After(deadline) {
			t.Fatal("localdev did not start in 20s")
		}
	}
	content := "On a dimension-free `vector` column CREATE INDEX ... USING hnsw fails with 'column does not have dimensions'; index `(embedding::vector(512))` WHERE dims = 512 instead."
	var ids []string
	for i, c := range []string{content, content + " Verified on PostgreSQL 15."} {
		body, _ := json.Marshal(map[string]any{"hive": "academy", "tags": []string{"postgres"},
			"title": "pgvector HNSW needs a typed column or a cast expression index", "content": c})
		req, _ := http.NewRequest("POST", base+"/knowledge/contribute", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(functions.HeaderAgent, "agent-"+string(rune('a'+i)))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var v struct {
			Data struct {
				Verdict string              `json:"verdict"`
				Entry   struct{ ID string } `json:"entry"`
			} `json:"data"`
		}
		json.NewDecoder(res.Body).Decode(&v)
		res.Body.Close()
		if res.StatusCode != 201 || v.Data.Verdict != "accepted" {
			t.Fatalf("contribution %d = %d %q, want 201 accepted (threshold 1.01 merges nothing)", i+1, res.StatusCode, v.Data.Verdict)
		}
		ids = append(ids, v.Data.Entry.ID)
	}
	if ids[0] == ids[1] {
		t.Fatalf("both contributions landed in entry %s", ids[0])
	}
}
