package localdev_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pumasi/internal/testpeer"
	"pumasi/internal/wire"
	"pumasi/knowledge"
)

// readmePostgresURL is the URL the README's Postgres section uses
// (scripts/postgres.sh start /tmp/pumasi-pg 5433).
const readmePostgresURL = "postgres://postgres@127.0.0.1:5433/postgres?sslmode=disable"

// TestReadmePostgresMove runs the README's block that moves a home's
// SQLite knowledge into PostgreSQL, as written, with a pumasi built from
// this tree on PATH and $HOME holding a quick-start home with one cited
// entry; only the database URL is the test peer's. The entry then answers
// from Postgres with its id and counts.
func TestReadmePostgresMove(t *testing.T) {
	url := testpeer.Postgres(t)
	block := readmeCLIBlock(t, "pgmove")
	if !strings.Contains(block, readmePostgresURL) || !strings.Contains(block, "pumasi know export") || !strings.Contains(block, "pumasi know import") {
		t.Fatalf("the pgmove block does not export and import into %s:\n%s", readmePostgresURL, block)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	fakeHome := t.TempDir()
	home := filepath.Join(fakeHome, ".pumasi")
	k, closeKnow, err := wire.OpenKnowledge(ctx, nil, wire.KnowledgeConfig{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	title, content := "modernc sqlite busy_timeout", "modernc sqlite needs busy_timeout per connection: set _pragma=busy_timeout(5000) in the DSN"
	res, err := k.Contribute(ctx, knowledge.ContributeInput{Hive: "academy", Agent: "my-agent", Title: title, Content: content,
		NormHash: knowledge.Hash(title, content), Model: "readme-model", Vector: []float32{1, 0, 0}, Specificity: 0.7, Threshold: 0.94})
	if err == nil {
		_, err = k.Cite(ctx, res.Entry.ID, "other-agent")
	}
	closeKnow()
	if err != nil {
		t.Fatal(err)
	}

	// The CLI the package's tests share (installPumasi, in binDir): a go
	// build here relinked the same program.
	if _, err := buildPumasi(); err != nil {
		t.Fatal(err)
	}
	gobin := binDir
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", strings.ReplaceAll(block, readmePostgresURL, url))
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+fakeHome, "PUMASI_HOME=", "PUMASI_KNOWLEDGE=",
		"PATH="+gobin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "imported 1 entry, 0 merge records and 0 tombstones into PostgreSQL") {
		t.Fatalf("README block: %v\n%s", err, out)
	}

	pg, closePG, err := wire.OpenKnowledge(ctx, nil, wire.KnowledgeConfig{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer closePG()
	e, err := pg.(*knowledge.Engine).GetEntry(ctx, res.Entry.ID)
	if err != nil || e.Title != title || e.ContributionCount != 1 || e.CitationCount != 1 {
		t.Fatalf("Postgres after the move: %+v, %v; want %q with 1 contribution and 1 citation", e, err, title)
	}
}
