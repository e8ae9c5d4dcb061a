package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"pumasi"
	"pumasi/functions"
	"pumasi/internal/wire"
	"pumasi/knowledge"
)

func init() {
	register(command{name: "sweep", summary: "run the sweep now: orphan blobs, temp files, near-duplicate knowledge", run: runSweep})
}

// runSweep runs the daily sweep on demand against the configured storage. It
// opens the store itself, so it works beside a running localdev (processes
// share a home safely) and against an S3 bucket alike.
func runSweep(ctx context.Context, env *cliEnv, args []string) error {
	fs := newFlags("sweep")
	home := fs.String("home", "", "data folder (env PUMASI_HOME, default ~/.pumasi)")
	storage := fs.String("storage", envOr(env, "PUMASI_STORAGE", "local"), "local or s3://bucket/prefix?endpoint=... (env PUMASI_STORAGE)")
	grace := fs.Duration("grace", 10*time.Minute, "only remove unreferenced blobs and temp files older than this")
	reembed := fs.Bool("reembed", false, "embed entries another model made again with this shell's embedder (PUMASI_EMBEDDINGS_*), as the server does at start; without it such entries stop the sweep")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if err := noArgs(pos); err != nil {
		return err
	}
	h, err := homeDir(env, *home)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(env.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	// Opening a local home cleans it at boot too; with a long grace there
	// that cleanup leaves the work (and the count) to the sweep below,
	// unless no other process holds the home, when it removes every orphan.
	history, err := wire.ReadRetention(env.getenv)
	if err != nil {
		return &exitCodeError{2, err}
	}
	// Say which stores this sweep works on before it opens them: beside a
	// server on PostgreSQL, a shell without its PUMASI_KNOWLEDGE would
	// otherwise sweep the home's SQLite database without a word.
	storageWhere, err := wire.DescribeStorage(*storage, h)
	if err != nil {
		return &exitCodeError{2, err}
	}
	knowledgeWhere, err := wire.DescribeKnowledge(env.getenv("PUMASI_KNOWLEDGE"), h)
	if err != nil {
		return &exitCodeError{2, err}
	}
	note := ""
	if knowledgeWhere.Kind == pumasi.KnowledgeSQLite {
		note = " (PUMASI_KNOWLEDGE is unset; set it to sweep a PostgreSQL store)"
	}
	fmt.Fprintf(env.stderr, "sweeping files: %s\nsweeping knowledge: %s%s\n", storageWhere, knowledgeWhere, note)
	store, err := wire.OpenStore(ctx, wire.StoreConfig{Storage: *storage, Home: h, Grace: 365 * 24 * time.Hour, Log: log, History: history})
	if err != nil {
		return err
	}
	defer store.Close()
	// The same knobs and embedder as localdev and the sweep Lambda: the
	// half-life decides which entries count as aged, and the merge threshold
	// (the embedder's own unless PUMASI_MERGE_THRESHOLD says otherwise)
	// which twins are collapsed, so a sweep run by hand merges what the
	// scheduled one would.
	tuning, err := functions.ReadKnowledgeTuning(env.getenv)
	if err != nil {
		return &exitCodeError{2, fmt.Errorf("knowledge tuning (env): %w", err)}
	}
	embedder, err := wire.OpenEmbedder(wire.EmbedderConfig{
		URL: env.getenv("PUMASI_EMBEDDINGS_URL"), Model: env.getenv("PUMASI_EMBEDDINGS_MODEL"), Key: env.getenv("PUMASI_EMBEDDINGS_KEY"),
	})
	if err != nil {
		return &exitCodeError{2, err}
	}
	know, closeKnow, err := wire.OpenKnowledge(ctx, store, wire.KnowledgeConfig{URL: env.getenv("PUMASI_KNOWLEDGE"), Home: h, Log: log,
		HalfLife: tuning.HalfLife, VectorWeight: tuning.VectorWeight, QuarantineFlags: tuning.QuarantineFlags})
	if err != nil {
		return err
	}
	defer closeKnow()
	// A shell without the server's PUMASI_EMBEDDINGS_* would move every
	// entry to another model (the sweep re-embeds first), and the server,
	// searching by its own, would find none: refuse unless asked.
	if k, ok := know.(*knowledge.Engine); ok && !*reembed {
		if r, ok := k.Driver().(knowledge.Reembedder); ok {
			others, err := r.OtherModel(ctx, embedder.Model(), 1)
			if err != nil {
				return err
			}
			if len(others) > 0 {
				return &exitCodeError{2, fmt.Errorf("knowledge entries were embedded by %q, not by this shell's embedder %q: "+
					"if the server embeds with another model, set PUMASI_EMBEDDINGS_URL and PUMASI_EMBEDDINGS_MODEL as it has them; "+
					"if %q is the server's embedder too (entries from before a change), pass --reembed to embed them again",
					others[0].Model, embedder.Model(), embedder.Model())}
			}
		}
	}
	api := &functions.API{Store: store, Knowledge: know, Log: log, Embedder: embedder, MergeThreshold: tuning.MergeThreshold}
	rep, err := api.Sweep(ctx, *grace)
	if err != nil {
		return err
	}
	return printJSON(env.stdout, rep)
}
