package local

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"pumasi/adapters/embed"
	"pumasi/knowledge"
)

// TestExactKeyKeepsFlagCase pins, on the embedded engine under the offline
// embedder, that two findings differing only in a flag's case (git clean
// -fdx removes untracked files, -fdX only ignored ones) stay two entries,
// that a finding differing only in its words' case still merges, and that an
// entry stored under the exact key of before session 12 (every word
// case-folded) still absorbs its exact repeat, through the near-duplicate
// rule.
func TestExactKeyKeepsFlagCase(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	emb := embed.NewHashed(0)
	at := time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC)
	k := knowledge.New(NewKnowledgeDriver(s), knowledge.Options{Now: func() time.Time { return at }})
	in := func(hive, agent, title, content, hash string) knowledge.ContributeInput {
		if hash == "" {
			hash = knowledge.Hash(title, content)
		}
		return knowledge.ContributeInput{Hive: hive, Agent: agent, Title: title, Content: content,
			NormHash: hash, Model: emb.Model(), Vector: emb.Vector(knowledge.EmbeddingText(title, content)),
			Specificity: 0.8, Threshold: emb.MergeThreshold(), At: at}
	}
	title := "Clean the CI workspace between jobs with git clean"
	body := "On self-hosted runners the checkout keeps build output from the last job. Run `git clean -%s` before the build: it removes the files git does not track, including the ones .gitignore lists, so a stale dist/ never ships."
	a, err := k.Contribute(ctx, in("case-a", "agent-a", title, strings.ReplaceAll(body, "%s", "fdx"), ""))
	if err != nil {
		t.Fatal(err)
	}
	b, err := k.Contribute(ctx, in("case-a", "agent-b", title, strings.ReplaceAll(body, "%s", "fdX"), ""))
	if err != nil {
		t.Fatal(err)
	}
	if a.Entry.ID == b.Entry.ID {
		t.Fatalf("-fdx and -fdX merged into %s", a.Entry.ID)
	}
	c, err := k.Contribute(ctx, in("case-a", "agent-c", strings.ToUpper(title[:1])+strings.ToLower(title[1:]), strings.ReplaceAll(body, "%s", "fdx"), ""))
	if err != nil {
		t.Fatal(err)
	}
	if c.Entry.ID != a.Entry.ID {
		t.Fatalf("a text differing in its words' case only is a new entry %s (want %s)", c.Entry.ID, a.Entry.ID)
	}
	// An entry stored under the old key (every word folded).
	content := strings.ReplaceAll(body, "%s", "fdX")
	old := sha256.Sum256([]byte(oldNormalize(title) + "\n" + oldNormalize(content)))
	if hex.EncodeToString(old[:]) == knowledge.Hash(title, content) {
		t.Fatal("the old key and today's agree on a flag in capitals: the test proves nothing")
	}
	d, err := k.Contribute(ctx, in("case-b", "agent-a", title, content, hex.EncodeToString(old[:])))
	if err != nil {
		t.Fatal(err)
	}
	e, err := k.Contribute(ctx, in("case-b", "agent-b", title, content, ""))
	if err != nil {
		t.Fatal(err)
	}
	if e.Entry.ID != d.Entry.ID {
		t.Fatalf("the exact repeat of an entry stored under the old key is a new entry %s (want %s)", e.Entry.ID, d.Entry.ID)
	}
}

// oldNormalize is knowledge.NormalizeText before session 12.
func oldNormalize(s string) string {
	s = cases.Fold().String(norm.NFC.String(s))
	return strings.Join(strings.Fields(s), " ")
}
