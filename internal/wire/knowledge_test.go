package wire

import (
	"context"
	"strings"
	"testing"

	"pumasi/adapters/embed"
	"pumasi/knowledge"
)

func TestOpenEmbedderAndKnowledge(t *testing.T) {
	e, err := OpenEmbedder(EmbedderConfig{})
	if err != nil || !strings.HasPrefix(e.Model(), "hashed-ngram-v3-512-") {
		t.Fatalf("default embedder = %v, %v", e, err)
	}
	e, err = OpenEmbedder(EmbedderConfig{URL: "http://127.0.0.1:1/v1", Model: "text-embedding-3-small", Key: "k"})
	if _, ok := e.(*embed.OpenAI); err != nil || !ok || e.Model() != "openai:text-embedding-3-small" {
		t.Fatalf("configured embedder = %T %v", e, err)
	}
	if _, err := OpenEmbedder(EmbedderConfig{URL: "http://127.0.0.1:1"}); err == nil {
		t.Fatal("URL without model accepted")
	}
	st, err := OpenStore(context.Background(), StoreConfig{Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	k, closeKnow, err := OpenKnowledge(context.Background(), st, KnowledgeConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer closeKnow()
	res, err := k.Contribute(context.Background(), knowledge.ContributeInput{Hive: "academy", Agent: "wire-test", Title: "t", Content: "c",
		NormHash: knowledge.Hash("t", "c"), Model: "m", Vector: []float32{1, 0}, Threshold: 0.94})
	if err != nil || res.Verdict != knowledge.VerdictAccepted {
		t.Fatalf("contribute through wired store = %+v, %v", res, err)
	}
}
