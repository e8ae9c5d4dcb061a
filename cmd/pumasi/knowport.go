package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/spf13/pflag"

	"pumasi"
	"pumasi/adapters/postgres"
	"pumasi/internal/wire"
	"pumasi/knowledge"
)

// init registers `know export` and `know import`, which move a corpus
// between backends (SQLite in a home, PostgreSQL) with ids, counts and
// times kept.
func init() {
	register(command{name: "know export", summary: "write every knowledge entry, merge record and tombstone as JSONL: know export [--hive H] > corpus.jsonl", run: runKnowExport})
	register(command{name: "know import", summary: "load a know export into this store, idempotently: know import < corpus.jsonl", run: runKnowImport})
}

// maxRecordBytes bounds one JSONL line of an export.
const maxRecordBytes = 64 << 20

// storeFlags adds --home and --knowledge, and returns a function opening
// the knowledge store they (else PUMASI_HOME and PUMASI_KNOWLEDGE) name,
// the way localdev and pumasi sweep open it, with a line saying which.
func storeFlags(env *cliEnv, fs *pflag.FlagSet) func(ctx context.Context) (*knowledge.Engine, string, func() error, error) {
	home := fs.String("home", "", "data folder whose SQLite store holds the knowledge (env PUMASI_HOME, default ~/.pumasi)")
	// No env default in the flag itself: -h prints defaults, and the URL
	// may hold a password.
	url := fs.String("knowledge", "", "postgres://user:pass@host/db to use PostgreSQL instead (env PUMASI_KNOWLEDGE)")
	return func(ctx context.Context) (*knowledge.Engine, string, func() error, error) {
		u := *url
		if u == "" {
			u = env.getenv("PUMASI_KNOWLEDGE")
		}
		h, err := homeDir(env, *home)
		if err != nil {
			return nil, "", nil, err
		}
		where := "SQLite in " + filepath.Join(h, "pumasi.db")
		if u != "" {
			where = "PostgreSQL " + postgres.Redact(u)
		}
		log := slog.New(slog.NewTextHandler(env.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
		store, closeStore, err := wire.OpenKnowledge(ctx, nil, wire.KnowledgeConfig{URL: u, Home: h, Log: log})
		if err != nil {
			return nil, "", nil, fmt.Errorf("open knowledge (%s): %w", where, err)
		}
		e, ok := store.(*knowledge.Engine)
		if !ok {
			closeStore()
			return nil, "", nil, fmt.Errorf("knowledge store %T cannot export or import", store)
		}
		return e, where, closeStore, nil
	}
}

func runKnowExport(ctx context.Context, env *cliEnv, args []string) error {
	fs := newFlags("know export")
	open := storeFlags(env, fs)
	hive := fs.String("hive", "", "export only this hive (default: every hive)")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if err := noArgs(pos); err != nil {
		return err
	}
	if *hive != "" && !pumasi.ValidID(*hive) {
		return usagef("--hive %q is not a hive id", *hive)
	}
	e, where, closeStore, err := open(ctx)
	if err != nil {
		return err
	}
	defer closeStore()
	w := bufio.NewWriter(env.stdout)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	var entries, merges, tombs int
	err = e.Export(ctx, *hive, func(r knowledge.Record) error {
		switch {
		case r.Entry != nil:
			entries++
		case r.Merge != nil:
			merges++
		default:
			tombs++
		}
		return enc.Encode(r)
	})
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return fmt.Errorf("know export: %w", err)
	}
	fmt.Fprintf(env.stderr, "pumasi know export: %s, %s, %s from %s\n",
		plural(entries, "entry"), plural(merges, "merge record"), plural(tombs, "tombstone"), where)
	return nil
}

func runKnowImport(ctx context.Context, env *cliEnv, args []string) error {
	fs := newFlags("know import")
	open := storeFlags(env, fs)
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if err := noArgs(pos); err != nil {
		return err
	}
	e, where, closeStore, err := open(ctx)
	if err != nil {
		return err
	}
	defer closeStore()
	sc := bufio.NewScanner(env.stdin)
	sc.Buffer(make([]byte, 0, 1<<20), maxRecordBytes)
	// [0] entries, [1] merge records, [2] tombstones.
	var added, kept [3]int
	var line int
	for sc.Scan() {
		line++
		if len(sc.Bytes()) == 0 {
			continue
		}
		var r knowledge.Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return fmt.Errorf("know import: line %d: %w (nothing after it was imported)", line, err)
		}
		created, err := e.Import(ctx, r)
		if err != nil {
			return fmt.Errorf("know import: line %d: %w (nothing after it was imported)", line, err)
		}
		kind := 2
		switch {
		case r.Entry != nil:
			kind = 0
		case r.Merge != nil:
			kind = 1
		}
		if created {
			added[kind]++
		} else {
			kept[kind]++
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("know import: after line %d: %w", line, err)
	}
	counts := func(n [3]int) string {
		return plural(n[0], "entry") + ", " + plural(n[1], "merge record") + " and " + plural(n[2], "tombstone")
	}
	fmt.Fprintf(env.stdout, "imported %s into %s; %s were there already (left as they are)\n", counts(added), where, counts(kept))
	return nil
}
